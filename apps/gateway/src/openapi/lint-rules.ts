import { OpenAPIObject } from '@nestjs/swagger';
import { MAX_PAGE_SIZE } from '@app/contracts';

type Json = Record<string, unknown>;

/** What every tag an operation uses says, when its controller's module did not declare it. */
const TAG_DESCRIPTIONS: Record<string, string> = {
  properties: 'Properties and their floor plans',
  applications: 'Rental applications and their applicants',
  webhooks: 'Subscriptions to events, and their deliveries',
  'form presets': 'The questions and disclosures the online form asks',
  'audit events': 'Who read or changed applicants’ data',
  documentation: 'Where this documentation is',
};

const API_ROUTES = '/api/v2/';

/** The IETF draft's rate-limit fields, sent on every /api/v2 answer the key's or address's limit counted. */
export const RATE_LIMIT_HEADERS = {
  RateLimit: {
    description:
      'What is left of the rate limit this request was counted against (IETF draft-ietf-httpapi-ratelimit-headers): ' +
      'r requests left, t seconds until one more is allowed.',
    schema: { type: 'string', pattern: '^"default";r=\\d+;t=\\d+$', maxLength: 64, example: '"default";r=19;t=0' },
  },
  'RateLimit-Policy': {
    description: 'The rate limit this request was counted against: q requests, refilled over w seconds.',
    schema: { type: 'string', pattern: '^"default";q=\\d+;w=\\d+$', maxLength: 64, example: '"default";q=20;w=2' },
  },
};

/**
 * What the API document must say for Spectral (`spectral:oas` and the OWASP rules .spectral.yaml
 * keeps) and Redocly (`recommended`) to pass it, applied to every operation, so that endpoints
 * added later meet it without a decorator of their own:
 * - every tag used is declared; a path parameter's example has its schema's type;
 * - an operation without an API key says so (`security: []`);
 * - every /api/v2 operation's 2xx and 4xx answers carry the RateLimit fields (ApiErrorResponses
 *   declares its 401 and 429);
 * - every integer has a format and bounds: the API has no negative integers, and none above
 *   2^53 - 1, beyond which a JSON number loses digits;
 * - a paged list (with next_cursor) holds at most MAX_PAGE_SIZE items, and an array of values
 *   from an enum, unique, at most as many as the enum has.
 * An array it cannot bound is left for the linter to refuse: its field must say its own maxItems.
 */
export function meetLintRules(document: OpenAPIObject): OpenAPIObject {
  const declared = new Set((document.tags ?? []).map((tag) => tag.name));
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const operation of Object.values(operations as Record<string, Json>)) {
      if (typeof operation !== 'object' || !operation || !('responses' in operation)) continue;
      for (const tag of (operation.tags as string[] | undefined) ?? []) {
        if (declared.has(tag)) continue;
        declared.add(tag);
        (document.tags ??= []).push({ name: tag, description: TAG_DESCRIPTIONS[tag] ?? tag });
      }
      for (const parameter of (operation.parameters as Json[] | undefined) ?? []) typeExample(parameter);
      operation.security ??= [];
      if (path.startsWith(API_ROUTES)) declareRateLimits(operation.responses as Record<string, Json>);
    }
  }
  for (const schema of Object.values(document.components?.schemas ?? {})) boundPagedList(schema as Json);
  visitSchemas(document as unknown as Json, boundSchema);
  return document;
}

/** A path or query parameter's example as its schema types it (`'7'` for a string id). */
function typeExample(parameter: Json): void {
  const schema = parameter.schema as Json | undefined;
  if (schema?.type !== 'string') return;
  if (typeof parameter.example === 'number') parameter.example = String(parameter.example);
  if (typeof schema.example === 'number') schema.example = String(schema.example);
}

/**
 * The RateLimit fields on every 2xx and 4xx: the gate counts every /api/v2 request before its
 * route runs. Except a 415, refused before the gate (and so counted against no limit).
 */
function declareRateLimits(responses: Record<string, Json>): void {
  for (const [status, response] of Object.entries(responses)) {
    if (/^[24]/.test(status) && status !== '415') {
      response.headers = { ...(response.headers as Json | undefined), ...RATE_LIMIT_HEADERS };
    }
  }
}

/** A list response that pages (it has next_cursor) holds at most a page. */
function boundPagedList(schema: Json): void {
  const properties = schema.properties as Record<string, Json> | undefined;
  if (!properties?.next_cursor) return;
  for (const property of Object.values(properties)) {
    if (property.type === 'array' && property.maxItems === undefined) property.maxItems = MAX_PAGE_SIZE;
  }
}

function boundSchema(schema: Json): void {
  if (schema.type === 'integer') {
    schema.format ??= 'int64';
    schema.minimum ??= 0;
    schema.maximum ??= Number.MAX_SAFE_INTEGER;
  }
  const items = schema.items as Json | undefined;
  if (schema.type === 'array' && schema.maxItems === undefined && schema.uniqueItems && Array.isArray(items?.enum)) {
    schema.maxItems = items.enum.length;
  }
}

/** Calls `visit` on every schema object in `node` (anything with a `type`), depth first. */
function visitSchemas(node: unknown, visit: (schema: Json) => void): void {
  if (Array.isArray(node)) {
    for (const item of node) visitSchemas(item, visit);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const object = node as Json;
  if (typeof object.type === 'string') visit(object);
  for (const value of Object.values(object)) visitSchemas(value, visit);
}
