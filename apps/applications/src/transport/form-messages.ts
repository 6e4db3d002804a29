import {
  ErrorCode,
  FormPresetVersionRef,
  FormSubmission,
  FormTokenMessage,
  isPositiveId,
  MALFORMED_FORM_MESSAGE,
  ServiceError,
} from '@app/contracts';
import { FormLink } from '../use-cases/form-subjects';

/** A token digest: SHA-256 in base64url. */
const DIGEST = /^[A-Za-z0-9_-]{43}$/;
/** A CSRF token's nonce: 16 random bytes in base64url. */
const SUBMISSION = /^[A-Za-z0-9_-]{22}$/;

/** The form link a message from the online form names. */
export function readLink(message: FormTokenMessage): FormLink {
  if (typeof message?.token_digest !== 'string' || !DIGEST.test(message.token_digest)) throw malformed();
  const applicationId = message.application_id;
  if (applicationId !== undefined && !isPositiveId(applicationId)) throw malformed();
  return { digest: message.token_digest, applicationId: applicationId ?? null };
}

/** The nonce of the page a message from the online form was sent by. */
export function readSubmission(message: FormSubmission): string {
  if (typeof message?.submission !== 'string' || !SUBMISSION.test(message.submission)) throw malformed();
  return message.submission;
}

export function readPreset(value: unknown): FormPresetVersionRef {
  if (!isObject(value) || !isPositiveId(value.id) || !isPositiveId(value.version)) throw malformed();
  return { id: value.id, version: value.version };
}

export function readAnswers(value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw malformed();
  const entries = Object.entries(value);
  if (!entries.every(([key, answer]) => /^[a-z0-9_]{1,64}$/.test(key) && typeof answer === 'string')) throw malformed();
  return Object.fromEntries(entries) as Record<string, string>;
}

export function malformed(): ServiceError {
  return new ServiceError(ErrorCode.VALIDATION_FAILED, MALFORMED_FORM_MESSAGE);
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
