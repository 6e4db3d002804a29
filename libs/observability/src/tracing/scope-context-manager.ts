import { Context, ROOT_CONTEXT } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { currentScope, enterScope, withinScope } from '@app/contracts';

/**
 * OpenTelemetry's context kept in the request's scope (request-scope.ts) rather than in an
 * AsyncLocalStorage of its own: on Node 20 each store in use adds a step to every promise the
 * process makes, traced or not. Entering a trace keeps the request's id and deadline, and
 * entering a request's scope keeps its trace, as two stores did. Binding functions and event
 * emitters is the SDK's own (AbstractAsyncHooksContextManager's, through `with`); the store its
 * parent class makes is never entered, so it costs nothing.
 */
export class RequestScopeContextManager extends AsyncLocalStorageContextManager {
  override active(): Context {
    return (currentScope().traceContext as Context | undefined) ?? ROOT_CONTEXT;
  }

  override with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
    context: Context,
    fn: F,
    thisArg?: ThisParameterType<F>,
    ...args: A
  ): ReturnType<F> {
    return withinScope({ traceContext: context }, () => fn.apply(thisArg, args));
  }

  override attach(context: Context): { dispose(): void } {
    const leave = enterScope({ traceContext: context });
    let left = false;
    return {
      dispose: () => {
        if (!left) leave();
        left = true;
      },
    };
  }

  override disable(): this {
    return this;
  }
}
