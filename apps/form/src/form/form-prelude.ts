import {
  applyDecorators,
  CanActivate,
  createParamDecorator,
  ExecutionContext,
  Injectable,
  Post,
  UseGuards,
} from '@nestjs/common';
import { FastifyRequest } from 'fastify';
import { FormBody } from '../questions/question-kinds';
import { FormFlow, NOT_FOUND } from './form-flow';

/** A POSTed form that passed the prelude: its fields, and the nonce of the CSRF token it carried. */
export type SubmittedForm = FormBody & { nonce: string };

type CheckedRequest = FastifyRequest & { submittedForm?: SubmittedForm };

/**
 * The prelude of every form POST, written once: the rate limit, the honeypot and the CSRF check
 * run before the handler, so no other service is asked anything for a request they refuse. The
 * token is checked against the address the form was posted to, which is the action its page
 * issued it for. A refusal goes to the form's exception filter as a page.
 */
@Injectable()
export class SubmissionGuard implements CanActivate {
  constructor(private readonly flow: FormFlow) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<CheckedRequest>();
    request.submittedForm = await this.flow.submitted(request, actionOf(request.url));
    return true;
  }
}

/** A form POST route: `@Post(path)` behind the prelude. */
export const FormPost = (path: string) => applyDecorators(Post(path), UseGuards(SubmissionGuard));

/** The fields of a form POST that passed the prelude (`FormPost`). */
export const Submitted = createParamDecorator((_: unknown, context: ExecutionContext): SubmittedForm => {
  const form = context.switchToHttp().getRequest<CheckedRequest>().submittedForm;
  if (!form) throw new Error('@Submitted() is only for routes declared with @FormPost()');
  return form;
});

/** The path a form was posted to, as its page wrote the action (the query, `?iframe=true`, aside). */
export function actionOf(url: string): string {
  const path = url.split('?', 1)[0];
  try {
    return decodeURIComponent(path);
  } catch {
    throw NOT_FOUND;
  }
}
