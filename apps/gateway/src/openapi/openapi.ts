import { FastifyReply, FastifyRequest } from 'fastify';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { publicBase } from '@app/config';
import { GatewayEnvironment } from '../config/gateway.environment';
import { BODY_LIMIT_BYTES } from '../http/http-setup';
import { meetLintRules } from './lint-rules';
import { describeWebhookEvents } from './webhook-events';

export const OPENAPI_JSON_PATH = 'api/openapi.json';
export const OPENAPI_UI_PATH = 'api/docs';
export const API_KEY_SCHEME = 'api_key';
export const API_TITLE = 'Rental applications API';

/**
 * The header that makes a POST safe to retry. It has no example value: Swagger UI would fill it
 * in, and every "Try it out" would then repeat the first request (answered with its response) or,
 * once the body was edited, be refused with 422.
 */
export const IDEMPOTENCY_KEY_HEADER = {
  name: 'Idempotency-Key',
  required: false,
  description:
    'Makes the request safe to retry. Choose a fresh value (a new UUID, say) for each request you mean to make, ' +
    'and send the same value again only when retrying that request after a timeout, a 503 or a lost connection. ' +
    '1 to 255 printable ASCII characters. Repeats of the request with the same key and body, for 24 hours, ' +
    'answer with the first response and create nothing; the same key with another body gets 422; ' +
    'a repeat while the first is still being worked on gets 409. Leave it empty to send none.',
  schema: { type: 'string', minLength: 1, maxLength: 255 },
};

const DESCRIPTION = `
Landlords' software creates properties and rental applications; applicants apply to properties.

**Authentication.** Every \`/api/v2\` request carries \`Authorization: Bearer <api key>\`. The key
belongs to one client account, whose integer id is the \`client_id\` of everything it creates. A
client sees only its own properties: another client's property is "not found".

**Requests.** JSON only: a POST whose \`Content-Type\` is not \`application/json\` gets 415, a body
over ${BODY_LIMIT_BYTES / 1024} KiB 413, malformed JSON 400. Unknown fields are refused (422, named
in \`details\`). Strings are trimmed where a field says so. Integer fields take a JSON integer or a
string of decimal digits. Dates are \`MM/DD/YYYY\` or \`YYYY-MM-DD\`; an impossible calendar date is
refused.

**Responses.** Every field of a representation is always present; unset ones are \`null\`, except
the property strings, which are \`""\`. Ids are positive integers, increasing, never reused.
Timestamps are ISO 8601 with seconds and a numeric offset (\`2026-11-22T14:03:09+00:00\`); dates
are \`YYYY-MM-DD\`.

**Errors.** Every error, whatever its status, has the body
\`{"error": {"message": "...", "details": null | [...]}}\`, never a stack trace. Unknown routes
get 404. When a service, the broker or a database does not answer in time the answer is 503 with
a \`Retry-After\` header, never a hang.

**Tracing.** Send \`X-Request-Id\` to name a request (1 to 128 of \`A-Z a-z 0-9 . _ : -\`); every
response returns the id it was logged under.
`.trim();

/**
 * The OpenAPI 3 description of the gateway, built from its controllers and the contract classes,
 * its server the PUBLIC_BASE_URL the API's own URLs start with. meetLintRules completes what the
 * decorators leave out, so that Spectral and Redocly pass it (`npm run lint:openapi`).
 */
export function buildOpenApiDocument(app: NestFastifyApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle(API_TITLE)
    .setDescription(DESCRIPTION)
    .setVersion('2')
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', bearerFormat: 'API key', description: 'The API key of a client account.' },
      API_KEY_SCHEME,
    )
    .addTag('properties', 'Properties and their floor plans')
    .addTag('applications', 'Rental applications and their applicants')
    .addTag('documentation', 'Where this documentation is')
    .build();
  const document = SwaggerModule.createDocument(app, config);
  // Not open source: no licence to link to (package.json says UNLICENSED).
  document.info.license = { name: 'Proprietary' };
  // The API's own URLs start with PUBLIC_BASE_URL; the one server is this deployment, public.
  const server = { url: publicBase(app.get(GatewayEnvironment).PUBLIC_BASE_URL), description: 'This deployment' };
  document.servers = [{ ...server, 'x-internal': false } as typeof server];
  return meetLintRules(describeWebhookEvents(describeRequestDefaults(closeObjectSchemas(document))));
}

/**
 * Every named object schema is closed (additionalProperties false) unless it says otherwise: the
 * API refuses unknown input fields and returns exactly the documented ones, and a client or a
 * test that validates against the document should know it.
 */
export function closeObjectSchemas(document: OpenAPIObject): OpenAPIObject {
  for (const schema of Object.values(document.components?.schemas ?? {})) {
    if ('properties' in schema && schema.additionalProperties === undefined) schema.additionalProperties = false;
  }
  return document;
}

interface Schema {
  $ref?: string;
  description?: string;
  default?: unknown;
  properties?: Record<string, Schema>;
  items?: Schema;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
}
type Operation = { requestBody?: { content?: Record<string, { schema?: Schema }> } } | undefined;

/**
 * A request field's default is said in its description rather than declared: openapi-typescript,
 * with the default options integrators run it with, types a field that declares a default as
 * always present, so a typed caller would have to send what it may leave out. Responses keep
 * theirs: their fields are always present anyway.
 */
export function describeRequestDefaults(document: OpenAPIObject): OpenAPIObject {
  const schemas = (document.components?.schemas ?? {}) as Record<string, Schema>;
  const visited = new Set<Schema>();
  const visit = (schema: Schema | undefined): void => {
    if (!schema || visited.has(schema)) return;
    visited.add(schema);
    if (schema.$ref) return visit(schemas[schema.$ref.split('/').pop()!]);
    for (const field of Object.values(schema.properties ?? {})) {
      if ('default' in field) {
        field.description = [field.description, `Default: ${JSON.stringify(field.default)}.`].filter(Boolean).join(' ');
        delete field.default;
      }
      visit(field);
    }
    for (const nested of [schema.items, ...(schema.allOf ?? []), ...(schema.oneOf ?? []), ...(schema.anyOf ?? [])]) visit(nested);
  };
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item) as Operation[]) {
      for (const media of Object.values(operation?.requestBody?.content ?? {})) visit(media.schema);
    }
  }
  return document;
}

/** GET /api/openapi.json and the Swagger UI at /api/docs. */
export function serveOpenApi(app: NestFastifyApplication): void {
  allowDocsPageAssets(app);
  SwaggerModule.setup(OPENAPI_UI_PATH, app, () => buildOpenApiDocument(app), {
    jsonDocumentUrl: OPENAPI_JSON_PATH,
    raw: ['json'],
    customSiteTitle: API_TITLE,
  });
}

/**
 * The API's Content-Security-Policy lets nothing load, which suits JSON; the docs page is the
 * one HTML page and loads its own scripts, styles and images, and nothing from elsewhere.
 */
const DOCS_CONTENT_SECURITY_POLICY =
  "default-src 'self';img-src 'self' data:;style-src 'self' 'unsafe-inline';frame-ancestors 'none'";

function allowDocsPageAssets(app: NestFastifyApplication): void {
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onSend', (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (e: null, p: unknown) => void) => {
      const path = request.url.split('?')[0];
      if (path === `/${OPENAPI_UI_PATH}` || path.startsWith(`/${OPENAPI_UI_PATH}/`)) {
        reply.header('content-security-policy', DOCS_CONTENT_SECURITY_POLICY);
      }
      done(null, payload);
    });
}
