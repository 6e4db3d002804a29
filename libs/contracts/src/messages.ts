import { ErrorCode, ServiceError } from './errors';

/**
 * Bodies of the messages the gateway and the services exchange. `request` is the HTTP body the
 * client sent, already validated and normalized by the gateway; the receiving service validates it
 * again with the same contract class, since a queue may be written to by more than the gateway.
 */
export interface ClientScoped {
  client_id: number;
}

/**
 * What a create needs besides the body: the caller's Idempotency-Key, when it sent one, and the
 * API key that sent it (the 16 hex digits that name it in audit events), so that a claim is the
 * key's own: another key of the client replaying it learns nothing of the body it was made for.
 */
export interface CreateMessage extends ClientScoped {
  request: unknown;
  idempotency_key?: string;
  key_id?: string;
}

export type CreatePropertyMessage = CreateMessage;

export interface PropertyRefMessage extends ClientScoped {
  id: number;
}

/** The answer to PROPERTIES.LOOKUP: the live property the client owns, or null. */
export interface PropertySummary {
  id: number;
  name: string;
}

/**
 * `request` is the application as validated by the gateway, except that the applicant's
 * `id_number` and `dob` are taken out of it and travel in `sealed_applicant`, encrypted, so that
 * neither the broker nor a dead-letter queue nor a log of the message ever holds them in clear.
 */
export interface CreateApplicationMessage extends CreateMessage {
  sealed_applicant: SealedApplicantFields;
}

/** The applicant fields that never travel in clear; a field the applicant left unset is absent. */
export interface SealedApplicantFields {
  id_number?: SealedValue;
  dob?: SealedValue;
  drivers_license_number?: SealedValue;
}

/** The same fields as the form sends them: sealed to the applications service's public key. */
export interface FormSealedApplicantFields {
  id_number?: FormSealedValue;
  dob?: FormSealedValue;
  drivers_license_number?: FormSealedValue;
}

/** An Idempotency-Key header: 1 to 255 printable ASCII characters. */
export const IDEMPOTENCY_KEY = /^[\x20-\x7e]{1,255}$/;

/** Positive safe integers only: ids and client ids alike. */
export function isPositiveId(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
}

/** A path segment naming an id: decimal digits, no sign, positive and safe. */
export function parseIdSegment(segment: string): number | null {
  if (!/^\d{1,16}$/.test(segment)) return null;
  const id = Number(segment);
  return isPositiveId(id) ? id : null;
}

/**
 * Every client-scoped message carries the caller's client id; the gateway always sets it, so a
 * message without one did not come from the gateway and is refused.
 */
export function requireClientId(value: unknown): number {
  if (!isPositiveId(value)) {
    throw new ServiceError(ErrorCode.INTERNAL, 'message without a valid client_id');
  }
  return value;
}

/**
 * The message naming a property from a request path: an id that is not a positive integer names
 * no property, a 404 without asking the service.
 */
export function propertyRefFromPath(clientId: number, segment: string): PropertyRefMessage {
  const id = parseIdSegment(segment);
  if (id === null) throw ServiceError.propertyNotFound(segment);
  return { client_id: clientId, id };
}

/** The client and property a PropertyRefMessage names, checked as the service receives it. */
export function readPropertyRef(message: PropertyRefMessage): { clientId: number; id: number } {
  const clientId = requireClientId(message?.client_id);
  if (!isPositiveId(message.id)) throw ServiceError.propertyNotFound(String(message.id));
  return { clientId, id: message.id };
}

/**
 * A value encrypted with AES-256-GCM under one of the FIELD_ENCRYPTION_KEYS, named by `key_id`
 * so that keys can be rotated: `nonce` (12 bytes), `ciphertext` and `tag` (16 bytes) in base64.
 * Applicants' `id_number` and `dob` exist only in this form outside a process's memory: in
 * messages, in dead-letter queues and in the database.
 */
export interface SealedValue {
  /**
   * 2: the associated data names the owner besides the field (the client and applicant at rest,
   * the client and message id in transit), so the value opens for that owner only. Absent on
   * values stored before that, which name the field alone.
   */
  v?: number;
  key_id: string;
  nonce: string;
  ciphertext: string;
  tag: string;
}

/**
 * A value the form sealed to the public key of FORM_SEALING_KEYS' entry `key_id` (X25519,
 * HKDF-SHA256, AES-256-GCM): `ephemeral_key` is the sender's one-time public key (32 bytes),
 * `nonce` (12 bytes), `ciphertext` and `tag` (16 bytes), all base64. Only a holder of the private
 * key opens it; the form, which made it, cannot. `v` tells it from a SealedValue.
 */
export interface FormSealedValue {
  v: 3;
  key_id: string;
  ephemeral_key: string;
  nonce: string;
  ciphertext: string;
  tag: string;
}
