import { Injectable } from '@nestjs/common';
import { FormTokenMessage } from '@app/contracts';
import { FormLinkTokens, formTokenDigest } from '@app/crypto';
import { FormEnvironment } from '../config/form.environment';

const DAY_MS = 24 * 60 * 60 * 1000;

/** What an applicant's link is, read without asking any service. */
export type OpenedLink =
  | { kind: 'valid'; link: FormTokenMessage }
  | { kind: 'expired'; expiredAt: Date }
  /** Not a link of ours: made up, mistyped, or issued before links carried a MAC. */
  | { kind: 'unknown' };

/**
 * Reads an applicant's form link (`/applicants/<token>`) before any service is asked: a token
 * whose MAC does not check out costs no message and no database read, and one issued more than
 * FORM_LINK_LIFETIME_DAYS ago is refused as expired. Links issued before tokens carried a MAC
 * (43 or 44 characters) are unknown: they could only be checked by reading the database.
 */
@Injectable()
export class FormLinks {
  private readonly tokens: FormLinkTokens;
  private readonly lifetimeMs: number;

  constructor(env: FormEnvironment) {
    this.tokens = FormLinkTokens.fromKeyRing(env.FORM_LINK_KEYS);
    this.lifetimeMs = env.FORM_LINK_LIFETIME_DAYS * DAY_MS;
  }

  open(token: string, now = new Date()): OpenedLink {
    const claims = this.tokens.read(token);
    if (!claims) return { kind: 'unknown' };
    const expiredAt = new Date(claims.issuedAt.getTime() + this.lifetimeMs);
    if (expiredAt <= now) return { kind: 'expired', expiredAt };
    return { kind: 'valid', link: { token_digest: formTokenDigest(token), application_id: claims.applicationId } };
  }
}
