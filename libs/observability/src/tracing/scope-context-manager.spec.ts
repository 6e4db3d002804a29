import { EventEmitter } from 'node:events';
import { context, createContextKey, ROOT_CONTEXT } from '@opentelemetry/api';
import { currentScope, withinScope } from '@app/contracts';
import { RequestScopeContextManager } from './scope-context-manager';

const KEY = createContextKey('test value');

/** The value under KEY of the active context, with the request id of the scope beside it. */
const seen = () => ({ value: context.active().getValue(KEY), requestId: currentScope().requestId });

describe('RequestScopeContextManager', () => {
  const manager = new RequestScopeContextManager();
  beforeAll(() => context.setGlobalContextManager(manager.enable()));
  afterAll(() => context.disable());

  it('is the root context outside any request or trace', () => {
    expect(context.active()).toBe(ROOT_CONTEXT);
  });

  it("keeps a trace's context and the request's id side by side, through awaits and timers, whichever is entered first", async () => {
    const traced = ROOT_CONTEXT.setValue(KEY, 'trace');
    const inTraceThenScope = await context.with(traced, () =>
      withinScope({ requestId: 'r-1' }, async () => {
        await new Promise((resolve) => setTimeout(resolve, 1));
        return seen();
      }),
    );
    const inScopeThenTrace = await withinScope({ requestId: 'r-2' }, () =>
      context.with(traced, async () => {
        await new Promise((resolve) => setImmediate(resolve));
        return seen();
      }),
    );
    expect(inTraceThenScope).toEqual({ value: 'trace', requestId: 'r-1' });
    expect(inScopeThenTrace).toEqual({ value: 'trace', requestId: 'r-2' });
    expect(seen()).toEqual({ value: undefined, requestId: undefined });
  });

  it('keeps concurrent requests apart', async () => {
    const one = (name: string) =>
      withinScope({ requestId: name }, () =>
        context.with(ROOT_CONTEXT.setValue(KEY, name), async () => {
          await new Promise((resolve) => setTimeout(resolve, name === 'a' ? 5 : 1));
          return seen();
        }),
      );
    expect(await Promise.all([one('a'), one('b')])).toEqual([
      { value: 'a', requestId: 'a' },
      { value: 'b', requestId: 'b' },
    ]);
  });

  it('passes `this` and the arguments to the function it runs', () => {
    const target = { factor: 3 };
    const result = context.with(
      ROOT_CONTEXT,
      function (this: typeof target, n: number) {
        return this.factor * n;
      },
      target,
      7,
    );
    expect(result).toBe(21);
  });

  it("binds a function and an emitter's listeners to the context given", async () => {
    const traced = ROOT_CONTEXT.setValue(KEY, 'bound');
    const bound = context.bind(traced, () => context.active().getValue(KEY));
    const emitter = context.bind(traced, new EventEmitter());
    const heard = new Promise((resolve) => emitter.on('event', () => resolve(context.active().getValue(KEY))));
    emitter.emit('event');
    expect(bound()).toBe('bound');
    expect(await heard).toBe('bound');
  });

  it('attaches a context to the work under way until the token is disposed', () => {
    const inner = () => {
      const token = manager.attach(ROOT_CONTEXT.setValue(KEY, 'attached'));
      const during = seen();
      token.dispose();
      return { during, after: seen() };
    };
    expect(withinScope({ requestId: 'r-3' }, inner)).toEqual({
      during: { value: 'attached', requestId: 'r-3' },
      after: { value: undefined, requestId: 'r-3' },
    });
  });
});
