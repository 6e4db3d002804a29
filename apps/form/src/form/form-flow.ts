import { createParamDecorator, ExecutionContext, Injectable } from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';
import {
  APPLICATION_FORMS,
  ErrorCode,
  FieldProblem,
  FORM_SUBMISSION_FIELD,
  FormApplicant,
  FormPreset,
  formPreset,
  FormPresetVersionRef,
  FormProperty,
  FormPropertyMessage,
  FormSection,
  FormTokenMessage,
  parseRequest,
  PROPERTIES,
  PropertyRepresentation,
  RecordFormPresetMessage,
  SEALED_IDENTITY_FIELDS,
  ServiceError,
  controlCharacterProblems,
} from '@app/contracts';
import { RateLimiter } from '@app/rate-limit';
import { FormBackends } from '../backends/form-backends';
import { FormEnvironment } from '../config/form.environment';
import { requiredDocumentProblems } from '../documents/missing-documents';
import { FormBody } from '../questions/question-kinds';
import { formSteps, isSectionStep, nextStep, previousStep, resumeStep, SectionStep, Step } from '../sections/steps';
import { CsrfTokens } from './csrf-tokens';
import { FormLinks } from './form-links';
import { PageFrame, Pages } from './pages';
import { FormPresetSource } from './preset-source';
import { overLimit } from './rate-limit';

/** Whether the page was asked for inside a frame (`?iframe=true`): every page keeps it in its links. */
export const Iframe = createParamDecorator(
  (_: unknown, context: ExecutionContext): boolean =>
    (context.switchToHttp().getRequest<FastifyRequest>().query as Record<string, unknown>)?.iframe === 'true',
);

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

/** A deleted property's links (its application_url, its applicants' form_url): nothing more of it. */
const NO_LONGER_APPLYING = new Refusal(
  410,
  'No longer taking applications',
  'This property no longer takes applications. Contact the property manager if you have questions.',
);

export const ALREADY_COMPLETE = new Refusal(
  409,
  'Application already complete',
  'This application was completed and signed: it can no longer be changed. Contact the property manager to correct it.',
);

/**
 * What every page of the form goes through: opening the applicant a link names (and the step it
 * asks for), checking a POST (rate limit, honeypot, CSRF), drawing a step's page, and turning a
 * refusal or a service's answer into the page that says so. Shared by the form's controllers.
 */
@Injectable()
export class FormFlow {
  readonly pages: Pages;
  private readonly submissionsPerMinute: number;
  private readonly uploadsPerHour: number;

  constructor(
    private readonly backends: FormBackends,
    env: FormEnvironment,
    readonly csrf: CsrfTokens,
    private readonly presets: FormPresetSource,
    private readonly links: FormLinks,
    private readonly limiter: RateLimiter,
  ) {
    this.pages = new Pages(env.APPLY_FRAME_ANCESTORS);
    this.submissionsPerMinute = env.FORM_RATE_LIMIT_PER_MINUTE;
    this.uploadsPerHour = env.FORM_UPLOADS_PER_HOUR;
  }

  /**
   * The applicant a form link names, its property, which must still exist, and the preset its
   * application is filled with: one message to each service (two on the first visit, which
   * records the preset).
   */
  async openApplicant(token: string): Promise<OpenApplicant> {
    const opened = this.links.open(token);
    if (opened.kind === 'expired') throw expiredLink(opened.expiredAt);
    if (opened.kind !== 'valid') throw NOT_FOUND;
    const { link } = opened;
    const applicant = await this.backends.applications<FormApplicant | null>(APPLICATION_FORMS.FIND, link);
    if (!applicant) throw NOT_FOUND;
    const asked: FormPropertyMessage = { id: applicant.property_id, form_preset: applicant.form_preset ?? null };
    const found = await this.backends.properties<FormProperty | null>(PROPERTIES.FORM_GET, asked);
    if (!found || found.client_id !== applicant.client_id) throw NOT_FOUND;
    const { property } = found;
    const preset = await this.presetOf(found, applicant.form_preset);
    if (applicant.form_preset) return { applicant, property, link, preset };
    // The first visit (an application created through the API): its preset is the current one, from now on.
    const message: RecordFormPresetMessage = { ...link, form_preset: { id: preset.id, version: preset.version } };
    const recorded = await this.backends.applications<FormApplicant>(APPLICATION_FORMS.RECORD_PRESET, message);
    return { applicant: recorded, property, link, preset };
  }

  /** The preset the properties service answered with; asked for apart when it did not (a previous release). */
  private presetOf(found: FormProperty, filled: FormPresetVersionRef | null): Promise<FormPreset> {
    if (found.preset === undefined) return this.presets.find(found.property, filled);
    return Promise.resolve(found.preset ?? formPreset(filled?.id ?? found.property.form_preset_id));
  }

  /**
   * The fields of a POST (`body`: the parsed form, or the fields a multipart upload sent before
   * its file) once it passed the rate limit, the honeypot and the CSRF check, with `nonce` the
   * CSRF token's nonce; otherwise the refusal.
   */
  async submitted(
    request: FastifyRequest,
    action: string,
    body: FormBody = formBody(request),
  ): Promise<FormBody & { nonce: string }> {
    await this.countSubmission(request);
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

  /** Counts a POST against its client address's limit; over it, the refusal. */
  async countSubmission(request: FastifyRequest): Promise<void> {
    const retryAfter = await overLimit(this.limiter, 'submission', request, this.submissionsPerMinute);
    if (retryAfter !== null) {
      throw new Refusal(
        429,
        'Too many submissions',
        'Too many forms were sent from your network. Wait a minute and try again.',
        retryAfter,
      );
    }
  }

  /** Counts an upload against its client address's hourly limit, before any of it is read; over it, the refusal. */
  async countUpload(request: FastifyRequest): Promise<void> {
    const retryAfter = await overLimit(this.limiter, 'upload', request, this.uploadsPerHour, 'hour');
    if (retryAfter !== null) {
      throw new Refusal(
        429,
        'Too many files',
        'Too many files were sent from your network in the last hour. Try again later.',
        retryAfter,
      );
    }
  }

  /** The validated input, or the problems the contract found. */
  validate<T extends object>(type: new () => T, fields: Record<string, unknown>): T | FieldProblem[] {
    try {
      return parseRequest(type, fields);
    } catch (error) {
      if (error instanceof ServiceError && error.details) return error.details;
      throw error;
    }
  }

  /**
   * `input` refused, as the form shows refusals, when its fields at `paths` hold line breaks or
   * other control characters: names are e-mailed, and a name is one line.
   */
  plainText<T extends object>(input: T | FieldProblem[], paths: readonly string[]): T | FieldProblem[] {
    if (Array.isArray(input)) return input;
    const problems = controlCharacterProblems(input, paths);
    return problems.length > 0 ? problems : input;
  }

  /**
   * The applicant, property, preset and steps of a step after the contact details. An applicant
   * that is not asked this step, or has steps to save before the signature, is sent where it
   * belongs; a completed form is shown as such, and a POST to it is refused: it cannot change.
   * A co-applicant or guarantor that withdrew is sent to its withdraw page, which says so.
   */
  async openStep(token: string, step: Step, iframe: boolean, method: 'GET' | 'POST'): Promise<OpenStep> {
    const opened = await this.openApplicant(token);
    const { form_status: status } = opened.applicant;
    // A co-applicant or guarantor that withdrew has no form left to fill: its page says so.
    if (opened.applicant.applicant_withdrawn) throw new Redirect(withIframe(`/applicants/${token}/withdraw`, iframe));
    if (status === 'completed') {
      if (method === 'POST') throw ALREADY_COMPLETE;
      throw new Redirect(this.stepUrl(token, 'done', iframe));
    }
    if (status === 'not_started') throw new Redirect(this.stepUrl(token, 'contact', iframe));
    const { preset } = opened;
    const steps = formSteps(preset, opened.applicant.type);
    if (!steps.includes(step)) {
      if (isSectionStep(step)) throw NOT_FOUND;
      throw new Redirect(this.stepUrl(token, nextStep(steps, 'contact'), iframe));
    }
    if (step === 'review' || step === 'finish') {
      const resume = resumeStep(steps, await this.savedSteps(opened.applicant, opened.link, preset), true);
      if (resume !== 'review') throw new Redirect(this.stepUrl(token, resume, iframe));
    }
    return { ...opened, steps };
  }

  /**
   * The steps `applicant` has saved: those the applications service recorded, and `documents`
   * once every document the preset requires is uploaded (documents are kept apart from the form).
   */
  async savedSteps(applicant: FormApplicant, link: FormTokenMessage, preset: FormPreset): Promise<string[]> {
    const missing = await requiredDocumentProblems(this.backends, preset, link);
    return missing.length === 0 ? [...applicant.form_steps, 'documents'] : applicant.form_steps;
  }

  stepUrl(token: string, step: Step | 'done', iframe: boolean): string {
    const path = step === 'contact' ? '/contact' : `/${step}`;
    return `/applicants/${token}${path}${iframe ? '?iframe=true' : ''}`;
  }

  /** A step's page (`template`) for the applicant `opened`, showing `values` and any problems with them. */
  stepPage(reply: FastifyReply, iframe: boolean, page: StepPage): FastifyReply {
    const { opened, token, step, template, title, values, problems = [], status = 200 } = page;
    const action = `/applicants/${token}/${step}`;
    return this.pages.send(reply, status, template, {
      ...this.frame(title, iframe, opened, step, problems),
      property: opened.property,
      applicant: opened.applicant,
      preset: opened.preset,
      ...page.data,
      values,
      action: withIframe(action, iframe),
      back: this.stepUrl(token, previousStep(opened.steps, step), iframe),
      csrf: this.csrf.issue(action),
    });
  }

  frame(title: string, iframe: boolean, opened: OpenStep, step: Step, problems: FieldProblem[]): PageFrame {
    return { title, iframe, step: opened.steps.indexOf(step) + 1, steps: opened.steps.length, problems };
  }
}

/** What a step's page shows. */
export interface StepPage {
  opened: OpenStep;
  token: string;
  step: Step;
  template: string;
  title: string;
  values: FormBody;
  data?: Record<string, unknown>;
  problems?: FieldProblem[];
  status?: number;
}

/** A form link opened: whom, where, and under which preset. */
export interface OpenApplicant {
  applicant: FormApplicant;
  property: PropertyRepresentation;
  link: FormTokenMessage;
  preset: FormPreset;
}

/** A step after the contact details, opened: its applicant, and the steps that applicant is asked. */
export interface OpenStep extends OpenApplicant {
  steps: Step[];
}

/** The preset's entry for a section (an implied one, identity or questions, has no options). */
export function sectionOf(preset: FormPreset, kind: SectionStep): FormSection {
  return preset.sections.find((section) => section.kind === kind) ?? { kind };
}

/** The refusal a page shows for `error` (a service's answer that stops the form), or null for a failure. */
export function refusalOf(error: unknown): Refusal | null {
  if (error instanceof Refusal) return error;
  if (error instanceof ServiceError) {
    if (error.details?.some((problem) => problem.field === FORM_SUBMISSION_FIELD)) {
      return new Refusal(409, 'Already sent', 'This page was already sent. Open your form link again to continue.');
    }
    switch (error.code) {
      case ErrorCode.PROPERTY_NOT_FOUND:
      case ErrorCode.PROPERTY_ID_INVALID:
      case ErrorCode.NOT_FOUND:
        return NOT_FOUND;
      case ErrorCode.PROPERTY_DELETED:
        return NO_LONGER_APPLYING;
      case ErrorCode.VALIDATION_FAILED:
        return new Refusal(422, 'Not accepted', error.message);
      case ErrorCode.SERVICE_UNAVAILABLE:
        return new Refusal(503, 'Please try again', 'The application form is busy right now. Try again in a moment.', 5);
    }
  }
  return null;
}

/** The fields of a POSTed form (none for any other body). */
export function formBody(request: FastifyRequest): FormBody {
  return (typeof request.body === 'object' && request.body !== null ? request.body : {}) as FormBody;
}

export function withIframe(path: string, iframe: boolean): string {
  return iframe ? `${path}?iframe=true` : path;
}

/** A form's fields with empty ones left out, as an API request leaves out what it does not set. */
export function optional(fields: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(fields).filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1].trim() !== ''),
  );
}

/** What a page may show again after a problem: never the SSN or license number, nor the CSRF token. */
export function withoutSecrets(body: FormBody): FormBody {
  const { csrf_token: _csrf, nonce: _nonce, ...rest } = body as FormBody & { nonce?: string };
  for (const field of SEALED_IDENTITY_FIELDS) if (field !== 'dob') delete rest[field];
  return rest;
}

function expiredLink(expiredAt: Date): Refusal {
  return new Refusal(
    410,
    'This link has expired',
    `This application link stopped working on ${expiredAt.toISOString().slice(0, 10)}. Contact the property manager to continue your application.`,
  );
}
