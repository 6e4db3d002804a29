import './tracing';
import fastifyMultipart from '@fastify/multipart';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { Logger, Params, PARAMS_PROVIDER_TOKEN } from 'nestjs-pino';
import { instrumentHttp, REQUEST_ID_OPTIONS, returnRequestId } from '@app/observability';
import { DOCUMENT_LIMITS } from '@app/documents';
import { environmentValidator } from '@app/config';
import { RateLimiter } from '@app/rate-limit';
import { drainConnectionsWhenStopping, exitOnStartupFailure, stopGracefully } from '@app/runtime';
import { AppModule } from './app.module';
import { FormBackends } from './backends/form-backends';
import { FormEnvironment } from './config/form.environment';
import { limitRequests } from './form/rate-limit';
import { FormHealthModule } from './health/form-health.module';

/** A form page's fields are few and short; anything bigger is not one. */
const BODY_LIMIT_BYTES = 64 * 1024;
/**
 * A request is timed by its progress, not its total: a connection that sends nothing for this long
 * (headers or body) is closed, so a 10 MB upload over a slow link takes as long as it needs while a
 * stalled one holds nothing for long.
 */
const IDLE_TIMEOUT_MS = 15_000;
/** Headers come first and are small: all of them within this. */
const HEADERS_TIMEOUT_MS = 15_000;
/** The bound on a whole request still: a 10 MB upload at 20 kB/s, about a dial-up line's pace. */
const REQUEST_TIMEOUT_MS = 10 * 60_000;

async function bootstrap(): Promise<void> {
  // Read here too: Fastify takes the proxies it trusts when it is made, before the app's modules.
  const { TRUSTED_PROXIES } = environmentValidator(FormEnvironment)(process.env);
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule,
    new FastifyAdapter({
      ...REQUEST_ID_OPTIONS,
      bodyLimit: BODY_LIMIT_BYTES,
      requestTimeout: REQUEST_TIMEOUT_MS,
      connectionTimeout: IDLE_TIMEOUT_MS,
      http: { headersTimeout: HEADERS_TIMEOUT_MS },
      // request.ip, which the rate limits count by: the forwarded client address behind a trusted proxy.
      trustProxy: TRUSTED_PROXIES?.split(',') ?? false,
    }),
    // Nest's body parsers off: readFormPosts is the form's one.
    { bufferLogs: true, bodyParser: false },
  );
  const logger = app.get(Logger);
  app.useLogger(logger);
  const env = app.get(FormEnvironment);
  readFormPosts(app);
  await readUploads(app);
  returnRequestId(app);
  instrumentHttp(app);
  keepToHttps(app, env.FORM_HSTS_MAX_AGE_SECONDS);
  // After the request id is set, so that a refusal carries it too.
  limitRequests(app, app.get(RateLimiter), env.FORM_REQUEST_RATE_LIMIT_PER_MINUTE);

  const operations = await NestFactory.create<NestFastifyApplication>(
    FormHealthModule.serving(app.get(FormBackends), app.get<Params>(PARAMS_PROVIDER_TOKEN)),
    new FastifyAdapter(REQUEST_ID_OPTIONS),
    { logger },
  );
  const drainConnections = drainConnectionsWhenStopping(app);
  stopGracefully(app, async () => {
    await drainConnections();
    await operations.close();
  });
  await operations.listen(env.HTTP_PORT, '0.0.0.0');
  const { port } = operations.getHttpServer().address() as { port: number };
  logger.log(`health and metrics listening on port ${port}`, 'FormOperations');
  await app.listen(env.FORM_PORT, '0.0.0.0');
  logger.log(`application form listening on port ${env.FORM_PORT}`, 'Form');
}

/**
 * Browsers post forms as application/x-www-form-urlencoded (multipart/form-data for an upload,
 * readUploads): nothing else is read. Fastify's own JSON and text parsers go, so a JSON body,
 * whose numbers and arrays no page expects, is refused (415) before any page sees it. Nest's own
 * parser would give an array for a field sent twice; here each field's last value counts, so
 * every field is a string.
 */
function readFormPosts(app: NestFastifyApplication): void {
  const fastify = app.getHttpAdapter().getInstance();
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: BODY_LIMIT_BYTES },
    (_request: unknown, body: string | Buffer, done: (error: Error | null, value?: Record<string, string>) => void) => {
      const fields: Record<string, string> = Object.create(null) as Record<string, string>;
      for (const [name, value] of new URLSearchParams(body.toString())) fields[name] = value;
      done(null, fields);
    },
  );
}

/**
 * Strict-Transport-Security on every answer (refusals and the stylesheet included): once a browser
 * saw the form over https it never sends an applicant's SSN or link over plain http. 0: none.
 */
function keepToHttps(app: NestFastifyApplication, maxAgeSeconds: number): void {
  if (maxAgeSeconds === 0) return;
  const value = `max-age=${maxAgeSeconds}`;
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRequest', (_request, reply, done) => {
      void reply.header('strict-transport-security', value);
      done();
    });
}

/**
 * Uploads (the documents step) come as multipart/form-data: one file and a few short fields,
 * read as streams by the page that takes them. A file one byte over the limit reaches the
 * page's own check (which refuses it); the parser stops reading there.
 */
async function readUploads(app: NestFastifyApplication): Promise<void> {
  await app.register(fastifyMultipart, {
    limits: {
      fieldNameSize: 100,
      fieldSize: 1024,
      fields: 10,
      fileSize: DOCUMENT_LIMITS.maxBytes + 1,
      files: 1,
      parts: 12,
      headerPairs: 20,
    },
    throwFileSizeLimit: false,
  });
}

bootstrap().catch(exitOnStartupFailure);
