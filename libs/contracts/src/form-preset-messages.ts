import { ErrorCode, FieldProblem, ServiceError } from './errors';
import { ClientScoped, isPositiveId, parseIdSegment, requireClientId } from './messages';
import { collectPageQuery, MAX_PAGE_SIZE, PageRequest } from './paging';
import { ConditionalMessage } from './property-messages';

/** FORM_PRESET_PATTERNS.LIST: a page of the client's presets and the shipped ones, newest first. */
export interface ListFormPresetsMessage extends ClientScoped, PageRequest {}

/** Names one preset of the client's (or a shipped one); `version` an earlier one (GET only). */
export interface FormPresetRefMessage extends ClientScoped, ConditionalMessage {
  id: number;
  version?: number;
}

export interface UpdateFormPresetMessage extends FormPresetRefMessage {
  request: unknown;
}

/**
 * FORM_PRESET_PATTERNS.FORM_GET: the preset `form_preset_id` names for the client of live property
 * `property_id`, at `version` when given. The form has no client of its own: the property's is used.
 */
export interface FormPresetForFormMessage {
  property_id: number;
  form_preset_id: number;
  version?: number;
}

export function formPresetNotFound(id: string | number, version?: number): ServiceError {
  return version === undefined
    ? ServiceError.notFound('form preset', id)
    : new ServiceError(ErrorCode.NOT_FOUND, `form preset ${id} version ${version} cannot be found`);
}

function invalidQuery(problems: FieldProblem[]): ServiceError {
  return new ServiceError(ErrorCode.VALIDATION_FAILED, `${problems[0].field} ${problems[0].message}`, problems);
}

function unknownParameters(query: Record<string, unknown>, known: string[]): FieldProblem[] {
  return Object.keys(query)
    .filter((name) => !known.includes(name))
    .map((field) => ({ field, message: 'is not a known query parameter' }));
}

/** `limit` and `cursor` of GET /form_presets; any other parameter is refused, as on every list. */
export function listFormPresetsFromQuery(clientId: number, query: Record<string, unknown>): ListFormPresetsMessage {
  const problems = unknownParameters(query, ['limit', 'cursor']);
  const page = collectPageQuery(query, problems);
  if (problems.length > 0 || !page) throw invalidQuery(problems);
  return { client_id: clientId, ...page };
}

/**
 * The preset a request path names; an id that is not a positive integer names none (404). On a
 * GET, `?version=N` asks for version N; nothing else is a known query parameter.
 */
export function formPresetRefFromPath(
  clientId: number,
  segment: string,
  query: Record<string, unknown> = {},
): FormPresetRefMessage {
  const problems = unknownParameters(query, ['version']);
  let version: number | undefined;
  if (query.version !== undefined) {
    version = parseIdSegment(String(query.version)) ?? undefined;
    if (version === undefined) problems.unshift({ field: 'version', message: 'must be a positive integer' });
  }
  if (problems.length > 0) throw invalidQuery(problems);
  const id = parseIdSegment(segment);
  if (id === null) throw formPresetNotFound(segment);
  return version === undefined ? { client_id: clientId, id } : { client_id: clientId, id, version };
}

/** A preset message as the service receives it, checked: it may come from more than the gateway. */
export function readFormPresetRef(message: FormPresetRefMessage): { clientId: number; id: number; version?: number } {
  const clientId = requireClientId(message?.client_id);
  if (!isPositiveId(message.id)) throw formPresetNotFound(String(message.id));
  if (message.version !== undefined && !isPositiveId(message.version))
    throw new ServiceError(ErrorCode.INTERNAL, 'preset message with an invalid version');
  return message.version === undefined ? { clientId, id: message.id } : { clientId, id: message.id, version: message.version };
}

export function readListFormPresets(message: ListFormPresetsMessage): { clientId: number; page: PageRequest } {
  const clientId = requireClientId(message?.client_id);
  const { limit, before } = message;
  const fine =
    Number.isSafeInteger(limit) && limit >= 1 && limit <= MAX_PAGE_SIZE && (before === undefined || isPositiveId(before));
  if (!fine) throw new ServiceError(ErrorCode.INTERNAL, 'list message with an invalid limit or cursor');
  return { clientId, page: before === undefined ? { limit } : { limit, before } };
}
