import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';
import { FormFlow, Redirect, refusalOf } from './form-flow';
import { Pages } from './pages';

/**
 * Where every form page's refusals and redirects go, written once: a `Redirect` sends the
 * applicant on, a `Refusal` (or a service's answer that stops the form) becomes the page that
 * says so. Whatever else no page handled (an unknown address, a body that cannot be read, a
 * failure) is answered with a page too, never JSON or a stack trace.
 */
@Catch()
export class FormErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('FormErrorFilter');
  private readonly bare = new Pages("'none'");

  constructor(private readonly flow: FormFlow) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const request = host.switchToHttp().getRequest<FastifyRequest>();
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const iframe = framed(request);
    if (exception instanceof Redirect) {
      this.flow.pages.redirect(reply, exception.location, iframe);
      return;
    }
    const refusal = refusalOf(exception);
    if (refusal) {
      if (refusal.retryAfter) reply.header('retry-after', String(refusal.retryAfter));
      this.flow.pages.send(reply, refusal.status, 'message', { title: refusal.title, message: refusal.message, iframe });
      return;
    }
    const status = exception instanceof HttpException ? exception.getStatus() : 500;
    if (status >= 500) this.logger.error(exception instanceof Error ? (exception.stack ?? exception.message) : String(exception));
    const [title, message] =
      status === 404
        ? ['Page not found', 'There is no application form at this address.']
        : status < 500
          ? ['Not accepted', 'This request could not be read. Go back and try again.']
          : ['Something went wrong', 'The form could not be shown. Try again in a moment.'];
    this.bare.send(reply, status, 'message', { title, message, iframe: false });
  }
}

/** A form page asked for inside a frame (`?iframe=true`); the mail links' pages never are. */
function framed(request: FastifyRequest): boolean {
  const query = request.query as Record<string, unknown> | undefined;
  return query?.iframe === 'true' && !request.url.startsWith('/mail/');
}
