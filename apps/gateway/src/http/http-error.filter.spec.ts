import {
  BadRequestException,
  HttpException,
  HttpStatus,
  Logger,
  LoggerService,
  NotFoundException,
  PayloadTooLargeException,
  ServiceUnavailableException,
  UnauthorizedException,
  UnsupportedMediaTypeException,
} from '@nestjs/common';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import Fastify, { errorCodes } from 'fastify';
import { ErrorCode, FieldProblem, MAX_ERROR_DETAILS, ServiceError } from '@app/contracts';
import { RateLimitedException } from '../rate-limit/rate-limit.guard';
import { RETRY_AFTER_SECONDS } from './error-status';
import { HttpErrorFilter, toHttpProblem } from './http-error.filter';

/** Collects what the filter logs, so that the test output stays readable and can be checked. */
class CollectingLogger implements LoggerService {
  readonly errors: string[] = [];
  log(): void {}
  warn(): void {}
  error(message: unknown): void {
    this.errors.push(String(message));
  }
}

const logs = new CollectingLogger();

beforeAll(() => Logger.overrideLogger(logs));
beforeEach(() => logs.errors.splice(0));

describe('toHttpProblem', () => {
  describe('a ServiceError', () => {
    it.each([
      [ErrorCode.VALIDATION_FAILED, 422],
      [ErrorCode.PROPERTY_ID_INVALID, 422],
      [ErrorCode.PROPERTY_NOT_FOUND, 404],
      [ErrorCode.IDEMPOTENCY_KEY_REUSED, 422],
      [ErrorCode.IDEMPOTENCY_IN_PROGRESS, 409],
      [ErrorCode.SERVICE_UNAVAILABLE, 503],
      [ErrorCode.INTERNAL, 500],
    ])('with code %s gets status %i', (code, status) => {
      const problem = toHttpProblem(new ServiceError(code, `because of ${code}`));
      expect(problem).toMatchObject({ status, body: { error: { message: `because of ${code}`, details: null } } });
    });

    it('that is SERVICE_UNAVAILABLE tells when to retry', () => {
      expect(toHttpProblem(ServiceError.unavailable('later')).retryAfter).toBe(RETRY_AFTER_SECONDS);
      expect(toHttpProblem(ServiceError.propertyNotFound(1)).retryAfter).toBeUndefined();
    });

    it('covers every error code', () => {
      for (const code of Object.values(ErrorCode)) {
        const { status } = toHttpProblem(new ServiceError(code, 'x'));
        expect([404, 409, 412, 422, 500, 503]).toContain(status);
      }
    });

    it('keeps its details', () => {
      const details: FieldProblem[] = [
        { field: 'application.applicant.email', message: 'must be a valid e-mail address' },
        { field: 'application.applicant.foo', message: 'is not a known field' },
      ];
      const problem = toHttpProblem(
        new ServiceError(ErrorCode.VALIDATION_FAILED, 'application.applicant.email must be a valid e-mail address', details),
      );
      expect(problem).toEqual({
        status: 422,
        body: { error: { message: 'application.applicant.email must be a valid e-mail address', details } },
      });
    });

    it(`lists the first ${MAX_ERROR_DETAILS} details only`, () => {
      const details = Array.from({ length: MAX_ERROR_DETAILS + 5 }, (_, i) => ({
        field: `f${i}`,
        message: 'is not a known field',
      }));
      const problem = toHttpProblem(new ServiceError(ErrorCode.VALIDATION_FAILED, 'f0 is not a known field', details));
      expect(problem.body.error.details).toEqual(details.slice(0, MAX_ERROR_DETAILS));
    });

    it('answers the documented property_id error', () => {
      expect(toHttpProblem(ServiceError.propertyIdInvalid())).toEqual({
        status: 422,
        body: { error: { message: 'property_id is invalid or cannot be found', details: null } },
      });
    });

    it('answers a missing property with 404', () => {
      expect(toHttpProblem(ServiceError.propertyNotFound(31))).toEqual({
        status: 404,
        body: { error: { message: 'property 31 cannot be found', details: null } },
      });
    });
  });

  describe('an HttpException', () => {
    it.each([
      [new UnauthorizedException('a valid API key is required'), 401, 'a valid API key is required'],
      [new NotFoundException('Cannot GET /nowhere'), 404, 'Cannot GET /nowhere'],
      [new UnsupportedMediaTypeException('Content-Type must be application/json'), 415, 'Content-Type must be application/json'],
      [new PayloadTooLargeException(), 413, 'Payload Too Large'],
      [new HttpException('plain text response', HttpStatus.CONFLICT), 409, 'plain text response'],
      [new BadRequestException(['first thing', 'second thing']), 400, 'first thing; second thing'],
      [new HttpException({ reason: 'no message field' }, HttpStatus.FORBIDDEN), 403, 'Http Exception'],
    ])('%s keeps its status and message', (exception, status, message) => {
      expect(toHttpProblem(exception)).toEqual({ status, body: { error: { message, details: null } } });
    });

    it('raised with the documented error body already is sent as it is, details and all, with Retry-After as every 503', () => {
      const body = {
        error: { message: 'not ready: properties', details: { status: 'error', error: { properties: { status: 'down' } } } },
      };
      expect(toHttpProblem(new ServiceUnavailableException(body))).toEqual({
        status: 503,
        body,
        retryAfter: RETRY_AFTER_SECONDS,
      });
    });
  });

  describe('a client error raised by Fastify before a route runs', () => {
    it('keeps the 413 of a body over the limit', () => {
      const problem = toHttpProblem(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
      expect(problem).toEqual({ status: 413, body: { error: { message: 'the request cannot be read', details: null } } });
    });

    it('keeps the 400 of malformed JSON without echoing the parser message', () => {
      const parseError = Object.assign(new SyntaxError('Unexpected token } in JSON at position 12'), { statusCode: 400 });
      const problem = toHttpProblem(parseError);
      expect(problem).toEqual({ status: 400, body: { error: { message: 'the request cannot be read', details: null } } });
    });
  });

  describe('anything else', () => {
    it.each([
      ['an Error', new Error('connect to mongodb://admin:s3cret@db.internal failed')],
      ['a TypeError', new TypeError("Cannot read properties of undefined (reading 's3cret')")],
      ['a server error carrying a statusCode', Object.assign(new Error('s3cret upstream'), { statusCode: 502 })],
      ['a thrown string', 's3cret string'],
      ['null', null],
      ['undefined', undefined],
    ])('%s is a bare 500', (_label, exception) => {
      const problem = toHttpProblem(exception);
      expect(problem).toEqual({ status: 500, body: { error: { message: 'internal error', details: null } } });
      const text = JSON.stringify(problem.body);
      expect(text).not.toContain('s3cret');
      expect(text).not.toMatch(/\bat\s|\.ts:\d|\.js:\d|Error/);
    });

    it('is logged with its stack for the operators', () => {
      const error = new Error('disk on fire');
      toHttpProblem(error);
      expect(logs.errors.join('\n')).toContain('disk on fire');
      expect(logs.errors.join('\n')).toContain(error.stack!.split('\n')[1].trim());
    });

    it('expected errors are not logged as failures', () => {
      toHttpProblem(ServiceError.propertyNotFound(4));
      toHttpProblem(new NotFoundException('Cannot GET /x'));
      expect(logs.errors).toEqual([]);
    });
  });
});

describe('HttpErrorFilter', () => {
  /** A real Fastify reply handed to the filter, as Nest does for a failing route. */
  async function send(exception: unknown) {
    const app = Fastify();
    app.get('/fail', (request, reply) => {
      new HttpErrorFilter().catch(exception, new ExecutionContextHost([request, reply]));
    });
    try {
      return await app.inject({ method: 'GET', url: '/fail' });
    } finally {
      await app.close();
    }
  }

  it('sends the status and the JSON error body', async () => {
    const response = await send(ServiceError.propertyNotFound(8));
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.json()).toEqual({ error: { message: 'property 8 cannot be found', details: null } });
    expect(response.headers['retry-after']).toBeUndefined();
  });

  it('tells the client when to retry after a 503', async () => {
    const response = await send(ServiceError.unavailable('the service is temporarily unavailable, retry later'));
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe(String(RETRY_AFTER_SECONDS));
    expect(response.json()).toEqual({
      error: { message: 'the service is temporarily unavailable, retry later', details: null },
    });
  });

  it('answers a rate-limited request with 429, the error body and Retry-After', async () => {
    const response = await send(new RateLimitedException(3));
    expect(response.statusCode).toBe(429);
    expect(response.headers['retry-after']).toBe('3');
    expect(response.json()).toEqual({ error: { message: 'rate limit exceeded: retry after 3 seconds', details: null } });
  });

  it('sends a bare 500 for an unexpected error', async () => {
    const response = await send(new Error('s3cret'));
    expect(response.statusCode).toBe(500);
    expect(response.body).toBe(JSON.stringify({ error: { message: 'internal error', details: null } }));
  });
});
