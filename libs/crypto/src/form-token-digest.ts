import { createHash } from 'node:crypto';

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
