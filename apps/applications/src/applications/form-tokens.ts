import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { publicBase } from '@app/config';
import { FieldCipher, formTokenDigest } from '@app/crypto';
import { ApplicationsEnvironment } from '../config/applications.environment';
import { ApplicantRecord } from './application.schema';

const TOKEN_BYTES = 32;
const CONTEXT = 'applicant.form_token';

/** What an applicant stores of its form token. */
export type IssuedFormToken = Required<Pick<ApplicantRecord, 'form_token' | 'form_token_digest'>>;

export { formTokenDigest };

/**
 * Each applicant's link into the online form: `<APPLY_BASE_URL>/applicants/<token>`, the token
 * 32 random bytes. The database holds the token only sealed (to show the link again on a read)
 * and as its digest (to find the applicant from a link), never in clear.
 */
@Injectable()
export class FormTokens {
  private readonly applyBaseUrl: string;

  constructor(
    private readonly cipher: FieldCipher,
    env: ApplicationsEnvironment,
  ) {
    this.applyBaseUrl = publicBase(env.APPLY_BASE_URL);
  }

  issue(): IssuedFormToken {
    const token = randomBytes(TOKEN_BYTES).toString('base64url');
    return { form_token: this.cipher.seal(token, CONTEXT), form_token_digest: formTokenDigest(token) };
  }

  /** The applicant's form_url, or null for one stored before form links existed. */
  formUrl(applicant: ApplicantRecord): string | null {
    const token = this.token(applicant);
    return token === null ? null : `${this.applyBaseUrl}/applicants/${token}`;
  }

  /** The token of the applicant's form_url, in clear. */
  token(applicant: ApplicantRecord): string | null {
    return applicant.form_token ? this.cipher.open(applicant.form_token, CONTEXT) : null;
  }
}
