import { ApplicantRefMessage, ApplicationRefMessage } from './application-messages';
import { ApplicantRepresentation } from './dto/applicant.dto';
import { ErrorCode, FieldProblem, ServiceError } from './errors';
import { ClientScoped, isPositiveId, parseIdSegment, requireClientId, SealedApplicantFields } from './messages';
import { collectPageQuery, MAX_PAGE_SIZE, PageRequest } from './paging';
import { ConditionalMessage } from './property-messages';

/** The scope API_KEY_SCOPES grants a key, and the `include` value that asks for what it opens. */
export const SENSITIVE_DATA_SCOPE = 'sensitive_data';

/**
 * The scope that lets a key erase applicants' personal data at once (DELETE .../personal_data) and
 * change how long it is kept (PUT /api/v2/retention_settings): either can take away for good what
 * every other key of the client relies on.
 */
export const PERSONAL_DATA_ERASURE_SCOPE = 'personal_data_erasure';

/** The scopes a key can be granted. */
export const API_KEY_SCOPE_NAMES = [SENSITIVE_DATA_SCOPE, PERSONAL_DATA_ERASURE_SCOPE] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPE_NAMES)[number];

/**
 * The actions an audit event records: a read of an applicant's sensitive data, the erasure of its
 * personal data, and a change of how long the client keeps personal data.
 */
export const SENSITIVE_DATA_READ = 'sensitive_data.read';
export const PERSONAL_DATA_ERASED = 'personal_data.erased';
export const RETENTION_SETTINGS_CHANGED = 'retention_settings.changed';
/** A suppression of an address lifted for the client's mail (DELETE /api/v2/suppressions/{email}). */
export const SUPPRESSION_LIFTED = 'suppression.lifted';
export const AUDIT_ACTIONS = [SENSITIVE_DATA_READ, PERSONAL_DATA_ERASED, RETENTION_SETTINGS_CHANGED, SUPPRESSION_LIFTED] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/**
 * What made an erasure: a request through the API (its key and request named beside), the end of
 * the client's retention period after a decision, or a form abandoned on the public form.
 */
export const ERASURE_TRIGGERS = ['api_request', 'retention_period', 'abandoned_form'] as const;
export type ErasureTrigger = (typeof ERASURE_TRIGGERS)[number];

/** APPLICATIONS.UPDATE_APPLICANT: `request` is an UpdateApplicantRequest. */
export interface UpdateApplicantMessage extends ApplicantRefMessage, ConditionalMessage {
  request: unknown;
}

export type RemoveApplicantMessage = ApplicantRefMessage & ConditionalMessage;

/**
 * What an audit event says was read: an applicant's sensitive data through the API, one document's
 * bytes, the list of an applicant's documents, or an applicant's data laid out in a summary PDF.
 */
export const AUDIT_READ_KINDS = ['applicant', 'document', 'document_list', 'summary_pdf'] as const;
export type AuditReadKind = (typeof AUDIT_READ_KINDS)[number];

/** A request id as the gateway takes it from X-Request-Id (else it makes a UUID): nothing that breaks a log line. */
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

/** Who reads an applicant's sensitive data: what its audit event names (never the key itself). */
export interface SensitiveReader {
  /** A fingerprint of the API key: the first 16 hex digits of its SHA-256. */
  key_id: string;
  request_id: string;
  /** Set when the read lays the applicant out in a summary PDF, so that its audit event says so. */
  purpose?: 'summary_pdf';
}

/**
 * APPLICATIONS.READ_SENSITIVE_DATA, sent only for a key that has the scope: the answer carries the
 * applicant's sensitive fields sealed for this client and message (the reply crosses the broker
 * too), and the read is recorded first.
 */
export interface SensitiveApplicantMessage extends ApplicantRefMessage {
  reader: SensitiveReader;
}

/** The answer to it: the applicant, and its sensitive fields sealed for the reply; the gateway opens them. */
export interface SealedSensitiveApplicant {
  applicant: ApplicantRepresentation;
  sensitive_data: { sealed: SealedApplicantFields };
}

const APPLICANT_QUERY_PARAMETERS = new Set(['include']);

/**
 * The applicant GET's query: `include=sensitive_data` or nothing. Any other parameter or value
 * is a 422 naming it, as unknown body fields are: a misspelt include must not pass for a read
 * without it.
 */
export function applicantIncludeFromQuery(query: Record<string, unknown>): { sensitiveData: boolean } {
  const problems: FieldProblem[] = [];
  for (const name of Object.keys(query)) {
    if (!APPLICANT_QUERY_PARAMETERS.has(name)) problems.push({ field: name, message: 'is not a known query parameter' });
  }
  const include = query.include;
  if (include !== undefined && include !== SENSITIVE_DATA_SCOPE) {
    problems.push({ field: 'include', message: `must be ${SENSITIVE_DATA_SCOPE}` });
  }
  if (problems.length > 0) {
    throw new ServiceError(ErrorCode.VALIDATION_FAILED, `${problems[0].field} ${problems[0].message}`, problems);
  }
  return { sensitiveData: include === SENSITIVE_DATA_SCOPE };
}

/**
 * APPLICATIONS.ERASE_PERSONAL_DATA: the application whose applicants' personal data is erased at
 * once, and who asked, as the erasure's audit events name them.
 */
export interface ErasePersonalDataMessage extends ApplicationRefMessage {
  requester: SensitiveReader;
}

/**
 * APPLICATIONS.PUT_RETENTION_SETTINGS: `request` is a PutRetentionSettingsRequest; `requester` the
 * key and request that ask, which its audit event names (absent from a gateway of the release before).
 */
export interface PutRetentionSettingsMessage extends ClientScoped {
  request: unknown;
  requester?: SensitiveReader;
}

/** The requester of a PutRetentionSettingsMessage, checked as a reader is; null from a gateway that sent none. */
export function readRetentionRequester(message: PutRetentionSettingsMessage): SensitiveReader | null {
  return message?.requester === undefined ? null : checkedReader(message.requester);
}

/** A SensitiveReader as the service receives it; anything else is not from the gateway. */
export function readSensitiveReader(message: SensitiveApplicantMessage): SensitiveReader {
  return checkedReader(message?.reader);
}

/** The requester of an ErasePersonalDataMessage, checked as a reader is. */
export function readRequester(message: ErasePersonalDataMessage): SensitiveReader {
  return checkedReader(message?.requester);
}

export function checkedReader(reader: SensitiveReader | undefined): SensitiveReader {
  const valid =
    typeof reader === 'object' &&
    reader !== null &&
    typeof reader.key_id === 'string' &&
    /^[0-9a-f]{16}$/.test(reader.key_id) &&
    typeof reader.request_id === 'string' &&
    REQUEST_ID_PATTERN.test(reader.request_id) &&
    (reader.purpose === undefined || reader.purpose === 'summary_pdf');
  if (!valid) throw new ServiceError(ErrorCode.INTERNAL, 'malformed sensitive_data reader');
  return { key_id: reader.key_id, request_id: reader.request_id, ...(reader.purpose ? { purpose: reader.purpose } : {}) };
}

/** AUDIT_EVENTS.LIST: a page of the client's audit events, newest first, of one applicant if given. */
export interface ListAuditEventsMessage extends ClientScoped, PageRequest {
  applicant_id?: number;
}

/**
 * The list message for a query string: `limit`, `cursor` and one optional id filter, a positive
 * integer. Any other parameter is refused, as unknown body fields are: a misspelt filter must not
 * pass for an unfiltered list. Every problem is named in `details`.
 */
function pageQueryFiltered(query: Record<string, unknown>, filter: string): PageRequest & { filterId?: number } {
  const problems: FieldProblem[] = Object.keys(query)
    .filter((name) => name !== filter && name !== 'limit' && name !== 'cursor')
    .map((name) => ({ field: name, message: 'is not a known query parameter' }));
  const given = query[filter];
  const filterId = given === undefined ? undefined : typeof given === 'string' ? parseIdSegment(given) : null;
  if (filterId === null) problems.unshift({ field: filter, message: 'must be a positive integer' });
  const page = collectPageQuery(query, problems);
  if (problems.length > 0 || !page) {
    throw new ServiceError(ErrorCode.VALIDATION_FAILED, `${problems[0].field} ${problems[0].message}`, problems);
  }
  return filterId === undefined ? page : { ...page, filterId: filterId! };
}

export function listAuditEventsFromQuery(clientId: number, query: Record<string, unknown>): ListAuditEventsMessage {
  const { filterId, ...page } = pageQueryFiltered(query, 'applicant_id');
  return { client_id: clientId, ...page, ...(filterId === undefined ? {} : { applicant_id: filterId }) };
}

/** A list message as the service receives it, checked again: a queue has more writers than the gateway. */
export function readListAuditEvents(message: ListAuditEventsMessage): {
  clientId: number;
  applicantId?: number;
  limit: number;
  before?: number;
} {
  const clientId = requireClientId(message?.client_id);
  const { limit, before, applicant_id: applicantId } = message;
  const optionalIds = [before, applicantId].every((id) => id === undefined || isPositiveId(id));
  if (!(Number.isInteger(limit) && limit >= 1 && limit <= MAX_PAGE_SIZE && optionalIds)) {
    throw new ServiceError(ErrorCode.VALIDATION_FAILED, 'malformed list message');
  }
  return { clientId, limit, ...(before === undefined ? {} : { before }), ...(applicantId === undefined ? {} : { applicantId }) };
}
