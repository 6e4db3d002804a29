import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Controller, Get, Logger, Param, Post, Query, Req, Res } from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';
import {
  APPLICATION_FORMS,
  ApplicantType,
  CompleteFormMessage,
  FormTokenMessage,
  ErrorCode,
  FieldProblem,
  FORM_SUBMISSION_FIELD,
  FormApplicant,
  FormCompletionInput,
  FormContactInput,
  FormDetailsInput,
  FormPreset,
  FormProperty,
  FormSection,
  INVITATIONS,
  InvitationTokenMessage,
  parseIdSegment,
  parseRequest,
  PROPERTIES,
  PropertyRepresentation,
  SaveSectionMessage,
  SEALED_IDENTITY_FIELDS,
  ServiceError,
  UsableInvitation,
} from '@app/contracts';
import { APPLICANT_FORM_TOKEN, ApplicantSealer, FORM_TOKEN, formTokenApplication, formTokenDigest } from '@app/crypto';
import { BoundToMessage } from '@app/messaging';
import { FormBackends } from '../backends/form-backends';
import { FormEnvironment } from '../config/form.environment';
import { CsrfTokens } from './csrf-tokens';
import { PageFrame, Pages, VIEWS_DIR } from './pages';
import { FormBody } from '../questions/question-kinds';
import { SectionContext } from '../sections/section';
import { formSteps, isSectionStep, nextStep, previousStep, resumeStep, SECTIONS, SectionStep, Step } from '../sections/steps';
import { FormPresetSource } from './preset-source';
import { SubmissionRateLimit } from './rate-limit';

/** The hidden field people never see and bots fill in. */
export const HONEYPOT_FIELD = 'website';

const DEFAULT_INVITATION_ONLY_MESSAGE = 'This property accepts applications by invitation only.';

/** An invitation to an invitation_only property, as its link gave it. */
interface Invitation {
  token: string;
  email: string;
}

/** A refusal shown as a page of its own, with no form. */
class Refusal {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly message: string,
    readonly retryAfter?: number,
  ) {}
}

/** The applicant belongs on another page than the one asked for. */
class Redirect {
  constructor(readonly location: string) {}
}

const NOT_FOUND = new Refusal(404, 'Page not found', 'There is no application form at this address.');

/**
 * The online application form: step 1 at a property's application_url creates the application;
 * every later page lives under the applicant's own form_url (`/applicants/<token>`), whose
 * unguessable token is what lets the applicant continue. Every POST carries a CSRF token, is
 * counted against its address's rate limit and is refused when the honeypot is filled in.
 */
@Controller()
export class FormHttpController {
  private readonly logger = new Logger('FormHttpController');
  private readonly pages: Pages;
  private readonly csrf: CsrfTokens;
  private readonly rateLimit: SubmissionRateLimit;
  private readonly stylesheet = readFileSync(join(VIEWS_DIR, 'form.css'), 'utf8');
  private readonly icon = readFileSync(join(VIEWS_DIR, 'favicon.svg'), 'utf8');
  private readonly revealScript = readFileSync(join(VIEWS_DIR, 'reveal.js'), 'utf8');

  constructor(
    private readonly backends: FormBackends,
    private readonly sealer: ApplicantSealer,
    env: FormEnvironment,
    csrf: CsrfTokens,
    private readonly presets: FormPresetSource,
  ) {
    this.pages = new Pages(env.APPLY_FRAME_ANCESTORS);
    this.csrf = csrf;
    this.rateLimit = new SubmissionRateLimit(env.FORM_RATE_LIMIT_PER_MINUTE);
  }

  @Get('form.css')
  style(@Res() reply: FastifyReply): FastifyReply {
    return reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=3600').send(this.stylesheet);
  }

  @Get('favicon.svg')
  favicon(@Res() reply: FastifyReply): FastifyReply {
    return reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(this.icon);
  }

  /** The one script: the SSN's show/hide button, which the form does without. */
  @Get('reveal.js')
  reveal(@Res() reply: FastifyReply): FastifyReply {
    return reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=3600').send(this.revealScript);
  }

  @Get('properties/:id/apply')
  async apply(
    @Param('id') id: string,
    @Query() query: Record<string, unknown>,
    @Res() reply: FastifyReply,
  ): Promise<FastifyReply> {
    const iframe = query.iframe === 'true';
    return this.answer(reply, iframe, async () => {
      const { property, invitation } = await this.openProperty(id, query.invitation);
      const action = `/properties/${property.id}/apply`;
      const values: FormBody = invitation ? { email: invitation.email, invitation: invitation.token } : {};
      return this.contactPage(reply, iframe, property, action, values);
    });
  }

  @Post('properties/:id/apply')
  async start(
    @Param('id') id: string,
    @Query() query: Record<string, unknown>,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<FastifyReply> {
    const iframe = query.iframe === 'true';
    return this.answer(reply, iframe, async () => {
      const body = formBody(request);
      const { client_id: clientId, property, invitation } = await this.openProperty(id, body.invitation);
      const action = `/properties/${property.id}/apply`;
      const { nonce } = this.submitted(request, action);
      const contact = this.validate(FormContactInput, contactFields(body));
      if (!(contact instanceof FormContactInput)) {
        return this.contactPage(reply, iframe, property, action, body, contact, 422);
      }
      if (invitation) await this.useInvitation(property.id, invitation.token, nonce);
      const started = await this.backends
        .applications<FormApplicant>(APPLICATION_FORMS.START, {
          client_id: clientId,
          property_id: property.id,
          request: contact,
          submission: nonce,
        })
        .catch(async (error: unknown) => {
          if (invitation) await this.releaseInvitation(property.id, invitation.token, nonce);
          throw error;
        });
      return this.pages.redirect(reply, this.stepUrl(started.token!, 'details', iframe), iframe);
    });
  }

  /** The applicant's form_url: where it left off (the contact details for one that never started). */
  @Get('applicants/:token')
  async resume(
    @Param('token') token: string,
    @Query() query: Record<string, unknown>,
    @Res() reply: FastifyReply,
  ): Promise<FastifyReply> {
    const iframe = query.iframe === 'true';
    return this.answer(reply, iframe, async () => {
      const { applicant, property } = await this.openApplicant(token);
      if (applicant.form_status === 'completed') return this.pages.redirect(reply, this.stepUrl(token, 'done', iframe), iframe);
      if (applicant.form_status === 'started') {
        const steps = await this.steps(property, applicant);
        const step = resumeStep(steps, applicant.form_steps, true);
        return this.pages.redirect(reply, this.stepUrl(token, step, iframe), iframe);
      }
      return this.contactPage(reply, iframe, property, `/applicants/${token}`, contactValues(applicant), [], 200, applicant.type);
    });
  }

  /** The contact details again, to change them (the form_url itself resumes). */
  @Get('applicants/:token/contact')
  async contact(
    @Param('token') token: string,
    @Query() query: Record<string, unknown>,
    @Res() reply: FastifyReply,
  ): Promise<FastifyReply> {
    const iframe = query.iframe === 'true';
    return this.answer(reply, iframe, async () => {
      const { applicant, property } = await this.openApplicant(token);
      if (applicant.form_status === 'completed') return this.pages.redirect(reply, this.stepUrl(token, 'done', iframe), iframe);
      return this.contactPage(reply, iframe, property, `/applicants/${token}`, contactValues(applicant), [], 200, applicant.type);
    });
  }

  @Post('applicants/:token')
  async saveContact(
    @Param('token') token: string,
    @Query() query: Record<string, unknown>,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<FastifyReply> {
    const iframe = query.iframe === 'true';
    return this.answer(reply, iframe, async () => {
      const action = `/applicants/${token}`;
      const { applicant, property, link } = await this.openApplicant(token);
      if (applicant.form_status === 'completed') throw ALREADY_COMPLETE;
      const body = this.submitted(request, action);
      const contact = this.validate(FormContactInput, contactFields(body));
      if (!(contact instanceof FormContactInput)) {
        return this.contactPage(reply, iframe, property, action, body, contact, 422, applicant.type);
      }
      await this.backends.applications(APPLICATION_FORMS.SAVE_CONTACT, {
        ...link,
        request: contact,
        submission: body.nonce,
      });
      const steps = await this.steps(property, applicant);
      return this.pages.redirect(reply, this.stepUrl(token, nextStep(steps, 'contact'), iframe), iframe);
    });
  }

  @Get('applicants/:token/details')
  async details(
    @Param('token') token: string,
    @Query() query: Record<string, unknown>,
    @Res() reply: FastifyReply,
  ): Promise<FastifyReply> {
    const iframe = query.iframe === 'true';
    return this.answer(reply, iframe, async () => {
      const opened = await this.openStep(token, 'details', iframe, 'GET');
      return this.stepPage(reply, iframe, { ...DETAILS_PAGE, opened, token, values: detailsValues(opened.applicant) });
    });
  }

  @Post('applicants/:token/details')
  async saveDetails(
    @Param('token') token: string,
    @Query() query: Record<string, unknown>,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<FastifyReply> {
    const iframe = query.iframe === 'true';
    return this.answer(reply, iframe, async () => {
      const opened = await this.openStep(token, 'details', iframe, 'POST');
      const { property, link } = opened;
      const body = this.submitted(request, `/applicants/${token}/details`);
      const details = this.validate(FormDetailsInput, detailsFields(body, property));
      const problems = details instanceof FormDetailsInput ? kindProblems(details, property) : details;
      if (problems.length > 0 || !(details instanceof FormDetailsInput)) {
        return this.stepPage(reply, iframe, { ...DETAILS_PAGE, opened, token, values: body, problems, status: 422 });
      }
      await this.backends.applications(APPLICATION_FORMS.SAVE_DETAILS, {
        ...link,
        request: details,
        submission: body.nonce,
      });
      return this.pages.redirect(reply, this.stepUrl(token, nextStep(opened.steps, 'details'), iframe), iframe);
    });
  }

  /** "Check your answers": every step saved, each with a link to change it, before the signature. */
  @Get('applicants/:token/review')
  async review(
    @Param('token') token: string,
    @Query() query: Record<string, unknown>,
    @Res() reply: FastifyReply,
  ): Promise<FastifyReply> {
    const iframe = query.iframe === 'true';
    return this.answer(reply, iframe, async () => {
      const opened = await this.openStep(token, 'review', iframe, 'GET');
      const { applicant, property, steps, preset } = opened;
      const sections = steps.filter(isSectionStep).map((kind) => {
        const context: SectionContext = { preset, section: sectionOf(preset, kind), applicant };
        const saved = kind === 'questions' ? applicant.form_answers : applicant.form_sections[kind];
        return {
          kind,
          page: SECTIONS[kind].page(SECTIONS[kind].values(saved), context),
          change: this.stepUrl(token, kind, iframe),
        };
      });
      return this.pages.send(reply, 200, 'review', {
        ...this.frame('Check your answers', iframe, opened, 'review', []),
        property,
        applicant,
        sections,
        change: { contact: this.stepUrl(token, 'contact', iframe), details: this.stepUrl(token, 'details', iframe) },
        next: this.stepUrl(token, 'finish', iframe),
        back: this.stepUrl(token, previousStep(steps, 'review'), iframe),
      });
    });
  }

  @Get('applicants/:token/finish')
  async finish(
    @Param('token') token: string,
    @Query() query: Record<string, unknown>,
    @Res() reply: FastifyReply,
  ): Promise<FastifyReply> {
    const iframe = query.iframe === 'true';
    return this.answer(reply, iframe, async () => {
      const opened = await this.openStep(token, 'finish', iframe, 'GET');
      return this.stepPage(reply, iframe, { ...FINISH_PAGE, opened, token, values: {} });
    });
  }

  @Post('applicants/:token/finish')
  async complete(
    @Param('token') token: string,
    @Query() query: Record<string, unknown>,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<FastifyReply> {
    const iframe = query.iframe === 'true';
    return this.answer(reply, iframe, async () => {
      const opened = await this.openStep(token, 'finish', iframe, 'POST');
      const body = this.submitted(request, `/applicants/${token}/finish`);
      const problems: FieldProblem[] = [];
      if (body.consent !== 'yes') problems.push({ field: 'consent', message: 'must be given to apply' });
      const completion = this.validate(FormCompletionInput, optional({ signature: body.signature }));
      if (!(completion instanceof FormCompletionInput)) problems.push(...completion);
      if (problems.length > 0 || !(completion instanceof FormCompletionInput)) {
        return this.stepPage(reply, iframe, {
          ...FINISH_PAGE,
          opened,
          token,
          values: withoutSecrets(body),
          problems,
          status: 422,
        });
      }
      const completed = await this.sendCompletion(opened.link, completion, body.nonce);
      if (completed.redirect_url) return this.pages.redirect(reply, completed.redirect_url, iframe);
      return this.pages.redirect(reply, this.stepUrl(token, 'done', iframe), iframe);
    });
  }

  @Get('applicants/:token/done')
  async done(
    @Param('token') token: string,
    @Query() query: Record<string, unknown>,
    @Res() reply: FastifyReply,
  ): Promise<FastifyReply> {
    const iframe = query.iframe === 'true';
    return this.answer(reply, iframe, async () => {
      const { applicant, property } = await this.openApplicant(token);
      if (applicant.form_status !== 'completed')
        return this.pages.redirect(reply, this.stepUrl(token, 'contact', iframe), iframe);
      return this.pages.send(reply, 200, 'done', { title: 'Application complete', iframe, property, applicant });
    });
  }

  /** A section step of the preset (identity, residence history...): its page. */
  @Get('applicants/:token/:step')
  async section(
    @Param('token') token: string,
    @Param('step') step: string,
    @Query() query: Record<string, unknown>,
    @Res() reply: FastifyReply,
  ): Promise<FastifyReply> {
    const iframe = query.iframe === 'true';
    return this.answer(reply, iframe, async () => {
      if (!isSectionStep(step)) throw NOT_FOUND;
      const opened = await this.openStep(token, step, iframe, 'GET');
      const saved = step === 'questions' ? opened.applicant.form_answers : opened.applicant.form_sections[step];
      return this.sectionPage(reply, iframe, { opened, token, step, values: SECTIONS[step].values(saved) });
    });
  }

  /**
   * A section step sent: "Add another" or "Remove" draws the page again with one entry more or
   * less (nothing saved, no JavaScript needed); "Continue" saves the step and goes on.
   */
  @Post('applicants/:token/:step')
  async saveSection(
    @Param('token') token: string,
    @Param('step') step: string,
    @Query() query: Record<string, unknown>,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<FastifyReply> {
    const iframe = query.iframe === 'true';
    return this.answer(reply, iframe, async () => {
      if (!isSectionStep(step)) throw NOT_FOUND;
      const opened = await this.openStep(token, step, iframe, 'POST');
      const body = this.submitted(request, `/applicants/${token}/${step}`);
      const module = SECTIONS[step];
      if (body.add || body.remove) {
        const [list, index] = (body.remove ?? '').split('.');
        const change = body.add ? { add: body.add } : { remove: list, index: Number(index) };
        return this.sectionPage(reply, iframe, { opened, token, step, values: module.changeRows(withoutSecrets(body), change) });
      }
      const context: SectionContext = {
        preset: opened.preset,
        section: sectionOf(opened.preset, step),
        applicant: opened.applicant,
      };
      const parsed = module.parse(body, context);
      if (parsed.value === null) {
        return this.sectionPage(reply, iframe, {
          opened,
          token,
          step,
          values: withoutSecrets(body),
          problems: parsed.problems,
          status: 422,
        });
      }
      await this.backends.applications(
        APPLICATION_FORMS.SAVE_SECTION,
        this.sectionMessage(opened.link, step, parsed.value, body.nonce),
      );
      return this.pages.redirect(reply, this.stepUrl(token, nextStep(opened.steps, step), iframe), iframe);
    });
  }

  /** Runs a page's work; a refusal or a service's answer that stops the form becomes its page. */
  private async answer(reply: FastifyReply, iframe: boolean, work: () => Promise<FastifyReply>): Promise<FastifyReply> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof Redirect) return this.pages.redirect(reply, error.location, iframe);
      const refusal = error instanceof Refusal ? error : refusalFor(error);
      if (refusal.retryAfter) reply.header('retry-after', String(refusal.retryAfter));
      return this.pages.send(reply, refusal.status, 'message', { title: refusal.title, message: refusal.message, iframe });
    }
  }

  /**
   * The live property `id` that takes applications, with the invitation an invitation_only
   * property requires (`token`, from the link); otherwise the page that says why not.
   */
  private async openProperty(id: string, token: unknown): Promise<FormProperty & { invitation: Invitation | null }> {
    const propertyId = parseIdSegment(id);
    if (propertyId === null) throw NOT_FOUND;
    const found = await this.backends.properties<FormProperty | null>(PROPERTIES.FORM_GET, { id: propertyId });
    if (!found) throw NOT_FOUND;
    const { property } = found;
    if (!property.available) {
      throw new Refusal(200, property.name, `${property.name} is not taking applications at the moment.`);
    }
    if (!property.invitation_only) return { ...found, invitation: null };
    const usable =
      typeof token === 'string' && FORM_TOKEN.test(token)
        ? await this.backends.properties<UsableInvitation | null>(INVITATIONS.CHECK, {
            property_id: property.id,
            token_digest: formTokenDigest(token),
          })
        : null;
    if (!usable) throw invitationOnly(property);
    return { ...found, invitation: { token: token as string, email: usable.email } };
  }

  /** Uses the invitation up before an application is started with it; a used one is refused. */
  private async useInvitation(propertyId: number, token: string, useId: string): Promise<void> {
    const message: InvitationTokenMessage = { property_id: propertyId, token_digest: formTokenDigest(token), use_id: useId };
    if (!(await this.backends.properties<boolean>(INVITATIONS.USE, message))) {
      throw new Refusal(403, 'Invitation already used', 'This invitation has already been used to apply, or it has expired.');
    }
  }

  /**
   * Gives the invitation back when the start it was used for failed, so that its link still
   * works. A start that failed only to answer in time may have made its application: the
   * invitation may then start a second one, which beats a link that is dead with none made.
   */
  private async releaseInvitation(propertyId: number, token: string, useId: string): Promise<void> {
    const message: InvitationTokenMessage = { property_id: propertyId, token_digest: formTokenDigest(token), use_id: useId };
    await this.backends.properties<boolean>(INVITATIONS.RELEASE, message).catch((error: unknown) => {
      this.logger.warn(`releasing an invitation failed, it stays used: ${String(error)}`);
    });
  }

  /** The applicant a form link names, and its property, which must still exist. */
  private async openApplicant(
    token: string,
  ): Promise<{ applicant: FormApplicant; property: PropertyRepresentation; link: FormTokenMessage }> {
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
   * The fields of a POST once it passed the rate limit, the honeypot and the CSRF check, with
   * `nonce` the CSRF token's nonce; otherwise the refusal.
   */
  private submitted(request: FastifyRequest, action: string): FormBody & { nonce: string } {
    if (!this.rateLimit.allow(request.ip)) {
      const retryAfter = this.rateLimit.retryAfterSeconds(request.ip);
      throw new Refusal(
        429,
        'Too many submissions',
        'Too many forms were sent from your network. Wait a minute and try again.',
        retryAfter,
      );
    }
    const body = (typeof request.body === 'object' && request.body !== null ? request.body : {}) as FormBody;
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

  /** The validated input, or the problems the contract found. */
  private validate<T extends object>(type: new () => T, fields: Record<string, unknown>): T | FieldProblem[] {
    try {
      return parseRequest(type, fields);
    } catch (error) {
      if (error instanceof ServiceError && error.details) return error.details;
      throw error;
    }
  }

  /** The steps `applicant` is asked, under the preset version its application was started with. */
  private async steps(property: PropertyRepresentation, applicant: FormApplicant): Promise<Step[]> {
    return formSteps(await this.presets.find(property), applicant.type);
  }

  /**
   * The applicant, property, preset and steps of a step after the contact details. An applicant
   * that is not asked this step, or has steps to save before the signature, is sent where it
   * belongs; a completed form is shown as such, and a POST to it is refused: it cannot change.
   */
  private async openStep(token: string, step: Step, iframe: boolean, method: 'GET' | 'POST'): Promise<OpenStep> {
    const opened = await this.openApplicant(token);
    const { form_status: status } = opened.applicant;
    if (status === 'completed') {
      if (method === 'POST') throw ALREADY_COMPLETE;
      throw new Redirect(this.stepUrl(token, 'done', iframe));
    }
    if (status === 'not_started') throw new Redirect(this.stepUrl(token, 'contact', iframe));
    const preset = await this.presets.find(opened.property);
    const steps = formSteps(preset, opened.applicant.type);
    if (!steps.includes(step)) {
      if (isSectionStep(step)) throw NOT_FOUND;
      throw new Redirect(this.stepUrl(token, nextStep(steps, 'contact'), iframe));
    }
    if (step === 'review' || step === 'finish') {
      const resume = resumeStep(steps, opened.applicant.form_steps, true);
      if (resume !== 'review') throw new Redirect(this.stepUrl(token, resume, iframe));
    }
    return { ...opened, preset, steps };
  }

  private stepUrl(token: string, step: Step | 'done', iframe: boolean): string {
    const path = step === 'contact' ? '/contact' : `/${step}`;
    return `/applicants/${token}${path}${iframe ? '?iframe=true' : ''}`;
  }

  /** A section's value as it travels: the identity numbers sealed for this link and message. */
  private sectionMessage(
    link: FormTokenMessage,
    kind: SectionStep,
    value: object,
    nonce: string,
  ): SaveSectionMessage | BoundToMessage {
    if (kind !== 'identity') return { ...link, kind, section: value as Record<string, unknown>, submission: nonce };
    const fields = value as Record<string, string | null | undefined>;
    const secret = (field: string) => (SEALED_IDENTITY_FIELDS as readonly string[]).includes(field);
    const section = Object.fromEntries(Object.entries(fields).filter(([field]) => !secret(field)));
    const sealed = Object.fromEntries(
      SEALED_IDENTITY_FIELDS.filter((field) => typeof fields[field] === 'string').map((field) => [
        field,
        fields[field] as string,
      ]),
    );
    return new BoundToMessage((messageId): SaveSectionMessage => ({
      ...link,
      kind,
      section,
      sealed_applicant: this.sealer.sealFields(sealed, { tokenDigest: link.token_digest, messageId }),
      submission: nonce,
    }));
  }

  /** The one call that completes the form: the saved sections, with the consent and signature given. */
  private sendCompletion(link: FormTokenMessage, completion: FormCompletionInput, nonce: string): Promise<FormApplicant> {
    const message: CompleteFormMessage = { ...link, signature: completion.signature, submission: nonce };
    return this.backends.applications<FormApplicant>(APPLICATION_FORMS.COMPLETE, message);
  }

  private async contactPage(
    reply: FastifyReply,
    iframe: boolean,
    property: PropertyRepresentation,
    action: string,
    values: FormBody,
    problems: FieldProblem[] = [],
    status = 200,
    type: ApplicantType = 'primary',
  ): Promise<FastifyReply> {
    const steps = formSteps(await this.presets.find(property), type);
    return this.pages.send(reply, status, 'contact', {
      title: 'Your contact details',
      iframe,
      step: 1,
      steps: steps.length,
      problems,
      property,
      values,
      action: withIframe(action, iframe),
      csrf: this.csrf.issue(action),
    });
  }

  /** A step's page (`template`) for the applicant `opened`, showing `values` and any problems with them. */
  private stepPage(reply: FastifyReply, iframe: boolean, page: StepPage): FastifyReply {
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

  private sectionPage(
    reply: FastifyReply,
    iframe: boolean,
    page: Omit<StepPage, 'template' | 'title' | 'step'> & { step: SectionStep },
  ) {
    const { opened, step } = page;
    const context: SectionContext = {
      preset: opened.preset,
      section: sectionOf(opened.preset, step),
      applicant: opened.applicant,
    };
    const section = SECTIONS[step].page(page.values, context);
    return this.stepPage(reply, iframe, { ...page, template: 'section', title: section.title, data: { section } });
  }

  private frame(title: string, iframe: boolean, opened: OpenStep, step: Step, problems: FieldProblem[]): PageFrame {
    return { title, iframe, step: opened.steps.indexOf(step) + 1, steps: opened.steps.length, problems };
  }
}

/** What a step's page shows. */
interface StepPage {
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

const DETAILS_PAGE = { step: 'details', template: 'details', title: 'The home you want' } as const;
const FINISH_PAGE = { step: 'finish', template: 'finish', title: 'Consent and signature' } as const;

/** A step after the contact details, opened: whom, where, under which preset, and the applicant's steps. */
interface OpenStep {
  applicant: FormApplicant;
  property: PropertyRepresentation;
  link: FormTokenMessage;
  preset: FormPreset;
  steps: Step[];
}

const ALREADY_COMPLETE = new Refusal(
  409,
  'Application already complete',
  'This application was completed and signed: it can no longer be changed. Contact the property manager to correct it.',
);

/** The preset's entry for a section (an implied one, identity or questions, has no options). */
function sectionOf(preset: FormPreset, kind: SectionStep): FormSection {
  return preset.sections.find((section) => section.kind === kind) ?? { kind };
}

/** The fields of a POSTed form (none for any other body). */
function formBody(request: FastifyRequest): FormBody {
  return (typeof request.body === 'object' && request.body !== null ? request.body : {}) as FormBody;
}

function invitationOnly(property: PropertyRepresentation): Refusal {
  return new Refusal(403, property.name, property.invitation_only_message || DEFAULT_INVITATION_ONLY_MESSAGE);
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

function withIframe(path: string, iframe: boolean): string {
  return iframe ? `${path}?iframe=true` : path;
}

/** A form's fields with empty ones left out, as an API request leaves out what it does not set. */
function optional(fields: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(fields).filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1].trim() !== ''),
  );
}

function contactFields(body: FormBody): Record<string, string> {
  return optional({ first_name: body.first_name, last_name: body.last_name, email: body.email, phone: body.phone });
}

/** Step 2's fields: only those the property's kind asks for. */
function detailsFields(body: FormBody, property: PropertyRepresentation): Record<string, string> {
  const asked: Record<string, string | undefined> = { desired_move_in: body.desired_move_in };
  if (property.kind !== 'single_family') asked.desired_unit_description = body.desired_unit_description;
  if (property.kind === 'multi_family') asked.floor_plan_id = body.floor_plan_id;
  return optional(asked);
}

/** What the property's kind requires of step 2, beyond what the contract checks. */
function kindProblems(details: FormDetailsInput, property: PropertyRepresentation): FieldProblem[] {
  if (property.kind === 'multi_family') {
    if (details.floor_plan_id === null || details.floor_plan_id === undefined)
      return [{ field: 'floor_plan_id', message: 'must be chosen' }];
    if (!property.floor_plans.some((plan) => plan.id === details.floor_plan_id)) {
      return [{ field: 'floor_plan_id', message: 'must be one of the floor plans listed' }];
    }
  }
  if (property.kind === 'generic' && !details.desired_unit_description) {
    return [{ field: 'desired_unit_description', message: 'must describe the property you want' }];
  }
  return [];
}

function contactValues(applicant: FormApplicant): FormBody {
  return optional({
    first_name: applicant.first_name,
    last_name: applicant.last_name,
    email: applicant.email,
    phone: applicant.phone ?? '',
  });
}

function detailsValues(applicant: FormApplicant): FormBody {
  return optional({
    floor_plan_id: applicant.floor_plan_id === null ? '' : String(applicant.floor_plan_id),
    desired_unit_description: applicant.desired_unit_description ?? '',
    desired_move_in: applicant.desired_move_in ?? '',
  });
}

/** What a page may show again after a problem: never the SSN or license number, nor the CSRF token. */
function withoutSecrets(body: FormBody): FormBody {
  const { csrf_token: _csrf, nonce: _nonce, ...rest } = body as FormBody & { nonce?: string };
  for (const field of SEALED_IDENTITY_FIELDS) if (field !== 'dob') delete rest[field];
  return rest;
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
