import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import { FastifyReply } from 'fastify';
import { FieldProblem, MAX_ERROR_DETAILS, ServiceError } from '@app/contracts';
import { RateLimitedException } from '../rate-limit/rate-limit.guard';
import { RETRY_AFTER_SECONDS, STATUS_BY_CODE } from './error-status';

export interface ErrorBody {
  /** `details`: the problems with the input, or what a failed readiness check found. */
  error: { message: string; details: FieldProblem[] | Record<string, unknown> | null };
}

export interface HttpProblem {
  status: number;
  body: ErrorBody;
  /** Seconds for the Retry-After header, when the client should come back later. */
  retryAfter?: number;
}

const logger = new Logger('HttpErrors');

/**
 * Turns anything thrown while serving a request into the documented error body. Unexpected
 * errors are logged and answered with a bare 500: no stack trace, no internals.
 */
export function toHttpProblem(exception: unknown): HttpProblem {
  const answer = problemOf(exception);
  // Every 503, whatever raised it, says when to come back.
  return answer.status === 503 && answer.retryAfter === undefined ? { ...answer, retryAfter: RETRY_AFTER_SECONDS } : answer;
}

function problemOf(exception: unknown): HttpProblem {
  if (exception instanceof ServiceError) {
    return problem(STATUS_BY_CODE[exception.code], exception.message, exception.details);
  }
  if (exception instanceof RateLimitedException) {
    return { ...problem(429, messageOf(exception)), retryAfter: exception.retryAfterSeconds };
  }
  if (exception instanceof HttpException) {
    const response = exception.getResponse();
    // Raised with the documented body already (a failed readiness check): sent as it is.
    if (isErrorBody(response)) return { status: exception.getStatus(), body: response };
    return problem(exception.getStatus(), messageOf(exception));
  }
  // Other client errors raised by the HTTP layer before a route runs carry a statusCode.
  const status = (exception as { statusCode?: unknown })?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return problem(status, 'the request cannot be read');
  }
  logger.error(exception instanceof Error ? (exception.stack ?? exception.message) : String(exception));
  return problem(500, 'internal error');
}

export function sendProblem(reply: FastifyReply, { status, body, retryAfter }: HttpProblem): void {
  if (retryAfter !== undefined) reply.header('Retry-After', String(retryAfter));
  reply.status(status).type('application/json; charset=utf-8').send(body);
}

@Catch()
export class HttpErrorFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    sendProblem(host.switchToHttp().getResponse<FastifyReply>(), toHttpProblem(exception));
  }
}

function problem(status: number, message: string, details: FieldProblem[] | null = null): HttpProblem {
  return { status, body: { error: { message, details: details?.slice(0, MAX_ERROR_DETAILS) ?? null } } };
}

function isErrorBody(response: unknown): response is ErrorBody {
  const error = (response as Partial<ErrorBody> | null)?.error;
  return typeof error === 'object' && error !== null && typeof error.message === 'string' && 'details' in error;
}

function messageOf(exception: HttpException): string {
  const response = exception.getResponse();
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  if (typeof message === 'string') return message;
  if (Array.isArray(message)) return message.join('; ');
  return exception.message;
}
