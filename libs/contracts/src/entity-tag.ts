import { createHash } from 'node:crypto';

/**
 * The strong entity tag of a resource's representation: a digest of its JSON. The gateway sends
 * it as `ETag` on every single-resource GET, and a service compares an `If-Match` with the tag of
 * the representation it is about to change, so both sides compute it here.
 */
export function entityTag(representation: unknown): string {
  return `"${createHash('sha256').update(JSON.stringify(representation)).digest('base64url').slice(0, 27)}"`;
}

/**
 * Whether a conditional header (a list of tags, or `*`) names `tag`. `If-None-Match` compares
 * weakly (`W/"x"` matches `"x"`); `If-Match` strongly (RFC 9110 13.1.1): a weak tag never matches.
 */
export function tagListMatches(header: string, tag: string, comparison: 'weak' | 'strong' = 'weak'): boolean {
  if (header.trim() === '*') return true;
  return header
    .split(',')
    .map((candidate) => candidate.trim())
    .map((candidate) => (comparison === 'weak' ? candidate.replace(/^W\//, '') : candidate))
    .includes(tag);
}

/** Whether a change guarded by `ifMatch` (an If-Match header, or none) may go ahead on `representation`. */
export function ifMatchHolds(ifMatch: string | undefined, representation: unknown): boolean {
  return ifMatch === undefined || tagListMatches(ifMatch, entityTag(representation), 'strong');
}
