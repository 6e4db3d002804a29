import { Injectable } from '@nestjs/common';
import { publicBase } from '@app/config';
import { FieldCipher, FormLinkTokens, formTokenDigest } from '@app/crypto';
import { currentTraceparent } from '@app/observability';
import { ApplicationsEnvironment } from '../config/applications.environment';
import { ApplicantRecord } from '../domain/application';

const CONTEXT = 'applicant.form_token';

/** What an applicant stores of its form token, and the trace that issued it (when traced). */
export type IssuedFormToken = Required<Pick<ApplicantRecord, 'form_token' | 'form_token_digest'>> &
  Pick<ApplicantRecord, 'form_trace'>;

export { formTokenDigest };

/**
 * Each applicant's link into the online form: `<APPLY_BASE_URL>/applicants/<token>`, the token
 * naming the application and its issue time under a MAC (FormLinkTokens). The database holds the
 * token only sealed (to show the link again on a read) and as its digest (to find the applicant
 * from a link), never in clear.
 */
@Injectable()
export class FormTokens {
  private readonly applyBaseUrl: string;
  private readonly links: FormLinkTokens;

  constructor(
    private readonly cipher: FieldCipher,
    env: ApplicationsEnvironment,
  ) {
    this.applyBaseUrl = publicBase(env.APPLY_BASE_URL);
    this.links = FormLinkTokens.fromKeyRing(env.FORM_LINK_KEYS);
  }

  /** A new token for the client's applicant, sealed for them: copied to another applicant, it does not open. */
  issue(clientId: number, applicationId: number, applicantId: number): IssuedFormToken {
    const token = this.links.issue(applicationId);
    const trace = currentTraceparent();
    return {
      form_token: this.cipher.seal(token, CONTEXT, tokenOwner(clientId, applicantId)),
      form_token_digest: formTokenDigest(token),
      ...(trace ? { form_trace: trace } : {}),
    };
  }

  /**
   * The form_url of the client's applicant, or null for one stored before form links existed.
   * A token stored before owners were bound in opens for its field alone.
   */
  formUrl(clientId: number, applicant: ApplicantRecord): string | null {
    const token = this.token(clientId, applicant);
    return token === null ? null : `${this.applyBaseUrl}/applicants/${token}`;
  }

  /** The token of the client's applicant's form_url, in clear. */
  token(clientId: number, applicant: ApplicantRecord): string | null {
    return applicant.form_token ? this.cipher.open(applicant.form_token, CONTEXT, tokenOwner(clientId, applicant.id)) : null;
  }
}

/** The owner a form token is sealed for, as applicant values are (ApplicantSealer). */
export function tokenOwner(clientId: number, applicantId: number): string {
  return `client:${clientId} applicant:${applicantId}`;
}
