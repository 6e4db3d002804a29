import { createHash, randomBytes } from 'node:crypto';

/**
 * The digest an applicant is found by from its form link's token (SHA-256, base64url): nobody
 * who reads the database or the broker's messages can use it as a link. The applications service
 * stores it; the form computes it from the link it was opened with.
 */
export function formTokenDigest(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

/** What a token or a digest looks like: 32 bytes in base64url (invitation tokens, every digest). */
export const FORM_TOKEN = /^[A-Za-z0-9_-]{43}$/;

/**
 * What an applicant's form link token looks like: 43 characters for one issued before tokens
 * named their application (32 random bytes), 44 for one that names it (see newApplicantFormToken).
 */
export const APPLICANT_FORM_TOKEN = /^[A-Za-z0-9_-]{43,44}$/;

const NAMING_FORMAT = 1;
const NAMING_TOKEN_BYTES = 33;
const APPLICATION_ID_BYTES = 6;

/**
 * A new form link token for an applicant of application `applicationId`: a format byte, the
 * application id (6 bytes), and 26 random bytes, in base64url. The id is no secret (the API shows
 * it); it lets the applications service read the applicant's application by its key, where a
 * token that names nothing can only be searched for among every application.
 */
export function newApplicantFormToken(applicationId: number): string {
  const bytes = randomBytes(NAMING_TOKEN_BYTES);
  bytes[0] = NAMING_FORMAT;
  bytes.writeUIntBE(applicationId, 1, APPLICATION_ID_BYTES);
  return bytes.toString('base64url');
}

/** The application an applicant's form token names; null for a token that names none. */
export function formTokenApplication(token: string): number | null {
  if (token.length !== 44) return null;
  const bytes = Buffer.from(token, 'base64url');
  if (bytes.length !== NAMING_TOKEN_BYTES || bytes[0] !== NAMING_FORMAT) return null;
  const id = bytes.readUIntBE(1, APPLICATION_ID_BYTES);
  return id >= 1 && id <= Number.MAX_SAFE_INTEGER ? id : null;
}
