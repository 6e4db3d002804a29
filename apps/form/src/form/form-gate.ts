import { Injectable } from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';
import {
  APPLICATION_FORMS,
  ErrorCode,
  FORM_SUBMISSION_FIELD,
  FormApplicant,
  FormProperty,
  FormTokenMessage,
  PROPERTIES,
  PropertyRepresentation,
  ServiceError,
} from '@app/contracts';
import { APPLICANT_FORM_TOKEN, formTokenApplication, formTokenDigest } from '@app/crypto';
import { FormBackends } from '../backends/form-backends';
import { FormEnvironment } from '../config/form.environment';
import { CsrfTokens } from './csrf-tokens';
import { Pages } from './pages';
import { SubmissionRateLimit } from './rate-limit';

/** A submitted form: the last value of each field. */
export type FormBody = Record<string, string>;

/** The hidden field people never see and bots fill in. */
export const HONEYPOT_FIELD = 'website';

/** A refusal shown as a page of its own, with no form. */
export class Refusal {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly message: string,
    readonly retryAfter?: number,
  ) {}
}

/** The applicant belongs on another page than the one asked for. */
export class Redirect {
  constructor(readonly location: string) {}
}

export const NOT_FOUND = new Refusal(404, 'Page not found', 'There is no application form at this address.');

/** The applicant a form link names, its property, and how the applications service is told which. */
export interface OpenedApplicant {
  applicant: FormApplicant;
  property: PropertyRepresentation;
  link: FormTokenMessage;
}

/**
 * What every page of the form does around its own work, whichever controller serves it: the
 * pages, the CSRF tokens and one rate limit per address for all of the form's POSTs, finding the
 * applicant a link names, and turning refusals into their page.
 */
@Injectable()
export class FormGate {
  readonly pages: Pages;
  private readonly rateLimit: SubmissionRateLimit;

  constructor(
    private readonly backends: FormBackends,
    readonly csrf: CsrfTokens,
    env: FormEnvironment,
  ) {
    this.pages = new Pages(env.APPLY_FRAME_ANCESTORS);
    this.rateLimit = new SubmissionRateLimit(env.FORM_RATE_LIMIT_PER_MINUTE);
  }

  /** Runs a page's work; a refusal or a service's answer that stops the form becomes its page. */
  async answer(reply: FastifyReply, iframe: boolean, work: () => Promise<FastifyReply>): Promise<FastifyReply> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof Redirect) return this.pages.redirect(reply, error.location, iframe);
      const refusal = error instanceof Refusal ? error : refusalFor(error);
      if (refusal.retryAfter) reply.header('retry-after', String(refusal.retryAfter));
      return this.pages.send(reply, refusal.status, 'message', { title: refusal.title, message: refusal.message, iframe });
    }
  }

  /** The applicant a form link names, and its property, which must still exist. */
  async openApplicant(token: string): Promise<OpenedApplicant> {
    if (!APPLICANT_FORM_TOKEN.test(token)) throw NOT_FOUND;
    const link = formLink(token);
    if (!link) throw NOT_FOUND;
    const applicant = await this.backends.applications<FormApplicant | null>(APPLICATION_FORMS.FIND, link);
    if (!applicant) throw NOT_FOUND;
    const found = await this.backends.properties<FormProperty | null>(PROPERTIES.FORM_GET, { id: applicant.property_id });
    if (!found || found.client_id !== applicant.client_id) throw NOT_FOUND;
    return { applicant, property: found.property, link };
  }

  /**
   * The fields of a POST (`body`, the parsed form by default) once it passed the rate limit, the
   * honeypot and the CSRF check, with `nonce` the CSRF token's nonce; otherwise the refusal.
   */
  submitted(request: FastifyRequest, action: string, body: FormBody = formBody(request)): FormBody & { nonce: string } {
    if (!this.rateLimit.allow(request.ip)) {
      const retryAfter = this.rateLimit.retryAfterSeconds(request.ip);
      throw new Refusal(
        429,
        'Too many submissions',
        'Too many forms were sent from your network. Wait a minute and try again.',
        retryAfter,
      );
    }
    if (body[HONEYPOT_FIELD]) {
      throw new Refusal(400, 'Not sent', 'This form could not be sent. Open it again and fill it in yourself.');
    }
    const nonce = this.csrf.verify(action, body.csrf_token);
    if (nonce === null) {
      throw new Refusal(
        403,
        'This page has expired',
        'This page was not sent from the form, or it was open too long. Go back, reload the form and try again.',
      );
    }
    return { ...body, nonce };
  }
}

/** The fields of a POSTed form (none for any other body). */
export function formBody(request: FastifyRequest): FormBody {
  return (typeof request.body === 'object' && request.body !== null ? request.body : {}) as FormBody;
}

/** The page for what a service answered instead of a result. */
function refusalFor(error: unknown): Refusal {
  if (error instanceof ServiceError) {
    if (error.details?.some((problem) => problem.field === FORM_SUBMISSION_FIELD)) {
      return new Refusal(409, 'Already sent', 'This page was already sent. Open your form link again to continue.');
    }
    switch (error.code) {
      case ErrorCode.PROPERTY_NOT_FOUND:
      case ErrorCode.PROPERTY_ID_INVALID:
      case ErrorCode.NOT_FOUND:
        return NOT_FOUND;
      case ErrorCode.VALIDATION_FAILED:
        return new Refusal(422, 'Not accepted', error.message);
      case ErrorCode.SERVICE_UNAVAILABLE:
        return new Refusal(503, 'Please try again', 'The application form is busy right now. Try again in a moment.', 5);
    }
  }
  throw error;
}

/**
 * How the form names an applicant to the applications service: the digest of its link's token,
 * and the application a 44-character token names. A 44-character token that names none is no
 * token of ours (null); a 43-character one was issued before tokens named their application.
 */
function formLink(token: string): FormTokenMessage | null {
  const digest = formTokenDigest(token);
  if (token.length === 43) return { token_digest: digest };
  const applicationId = formTokenApplication(token);
  return applicationId === null ? null : { token_digest: digest, application_id: applicationId };
}
