import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import { FastifyReply } from 'fastify';
import { Pages } from './pages';

/**
 * Whatever no page handled (an unknown address, a body that cannot be read, a failure) is
 * answered with a page too, never JSON or a stack trace.
 */
@Catch()
export class FormErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('FormErrorFilter');
  private readonly pages = new Pages("'none'");

  catch(exception: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const status = exception instanceof HttpException ? exception.getStatus() : 500;
    if (status >= 500) this.logger.error(exception instanceof Error ? (exception.stack ?? exception.message) : String(exception));
    const [title, message] =
      status === 404
        ? ['Page not found', 'There is no application form at this address.']
        : status < 500
          ? ['Not accepted', 'This request could not be read. Go back and try again.']
          : ['Something went wrong', 'The form could not be shown. Try again in a moment.'];
    this.pages.send(reply, status, 'message', { title, message, iframe: false });
  }
}
