import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Controller, Get, Logger, Param, Post, Query, Req, Res } from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';
import {
  APPLICATION_FORMS,
  CompleteFormMessage,
  FormTokenMessage,
  FieldProblem,
  FormApplicant,
  FormCoApplicantInput,
  FormCompletionInput,
  FormContactInput,
  FormDetailsInput,
  FormIdentityInput,
  formAnswerProblems,
  FormPreset,
  FormProperty,
  INVITATIONS,
  InvitationTokenMessage,
  MAX_FORM_CO_APPLICANTS,
  parseIdSegment,
  parseRequest,
  presetAnswers,
  PROPERTIES,
  PropertyRepresentation,
  ServiceError,
  UsableInvitation,
} from '@app/contracts';
import { ApplicantSealer, FORM_TOKEN, formTokenDigest } from '@app/crypto';
import { BoundToMessage } from '@app/messaging';
import { FormBackends } from '../backends/form-backends';
import { requiredDocumentProblems } from '../documents/missing-documents';
import { formConsent } from './consent';
import { CsrfTokens } from './csrf-tokens';
import { FormBody, formBody, FormGate, NOT_FOUND, Redirect, Refusal } from './form-gate';
import { PageFrame, Pages, VIEWS_DIR } from './pages';
import { FormPresetSource } from './preset-source';

const DEFAULT_INVITATION_ONLY_MESSAGE = 'This property accepts applications by invitation only.';

/** The pages an applicant goes through, after step 1 at the property's application_url. */
const STEP_PATHS = { contact: '', details: '/details', finish: '/finish', done: '/done' } as const;

/** An invitation to an invitation_only property, as its link gave it. */
interface Invitation {
  token: string;
  email: string;
}

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
  private readonly stylesheet = readFileSync(join(VIEWS_DIR, 'form.css'), 'utf8');
  private readonly icon = readFileSync(join(VIEWS_DIR, 'favicon.svg'), 'utf8');

  constructor(
    private readonly backends: FormBackends,
    private readonly sealer: ApplicantSealer,
    private readonly gate: FormGate,
    private readonly presets: FormPresetSource,
  ) {
    this.pages = gate.pages;
    this.csrf = gate.csrf;
  }

  @Get('form.css')
  style(@Res() reply: FastifyReply): FastifyReply {
    return reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=3600').send(this.stylesheet);
  }

  @Get('favicon.svg')
  favicon(@Res() reply: FastifyReply): FastifyReply {
    return reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(this.icon);
  }

  @Get('properties/:id/apply')
  async apply(
    @Param('id') id: string,
    @Query() query: Record<string, unknown>,
    @Res() reply: FastifyReply,
  ): Promise<FastifyReply> {
    const iframe = query.iframe === 'true';
    return this.gate.answer(reply, iframe, async () => {
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
    return this.gate.answer(reply, iframe, async () => {
      const body = formBody(request);
      const { client_id: clientId, property, invitation } = await this.openProperty(id, body.invitation);
      const action = `/properties/${property.id}/apply`;
      const { nonce } = this.gate.submitted(request, action);
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

  @Get('applicants/:token')
  async contact(
    @Param('token') token: string,
    @Query() query: Record<string, unknown>,
    @Res() reply: FastifyReply,
  ): Promise<FastifyReply> {
    const iframe = query.iframe === 'true';
    return this.gate.answer(reply, iframe, async () => {
      const { applicant, property } = await this.gate.openApplicant(token);
      if (applicant.form_status === 'completed') return this.pages.redirect(reply, this.stepUrl(token, 'done', iframe), iframe);
      return this.contactPage(reply, iframe, property, `/applicants/${token}`, contactValues(applicant));
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
    return this.gate.answer(reply, iframe, async () => {
      const action = `/applicants/${token}`;
      const { applicant, property, link } = await this.gate.openApplicant(token);
      const body = this.gate.submitted(request, action);
      const contact = this.validate(FormContactInput, contactFields(body));
      if (!(contact instanceof FormContactInput)) {
        return this.contactPage(reply, iframe, property, action, body, contact, 422);
      }
      await this.backends.applications(APPLICATION_FORMS.SAVE_CONTACT, {
        ...link,
        request: contact,
        submission: body.nonce,
      });
      const next = applicant.type === 'primary' ? 'details' : 'finish';
      return this.pages.redirect(reply, this.stepUrl(token, next, iframe), iframe);
    });
  }

  @Get('applicants/:token/details')
  async details(
    @Param('token') token: string,
    @Query() query: Record<string, unknown>,
    @Res() reply: FastifyReply,
  ): Promise<FastifyReply> {
    const iframe = query.iframe === 'true';
    return this.gate.answer(reply, iframe, async () => {
      const { applicant, property } = await this.openStep(token, 'details', iframe);
      return this.detailsPage(reply, iframe, property, token, detailsValues(applicant));
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
    return this.gate.answer(reply, iframe, async () => {
      const { property, link } = await this.openStep(token, 'details', iframe);
      const body = this.gate.submitted(request, `/applicants/${token}/details`);
      const details = this.validate(FormDetailsInput, detailsFields(body, property));
      const problems = details instanceof FormDetailsInput ? kindProblems(details, property) : details;
      if (problems.length > 0 || !(details instanceof FormDetailsInput)) {
        return this.detailsPage(reply, iframe, property, token, body, problems, 422);
      }
      await this.backends.applications(APPLICATION_FORMS.SAVE_DETAILS, {
        ...link,
        request: details,
        submission: body.nonce,
      });
      return this.pages.redirect(reply, this.stepUrl(token, 'finish', iframe), iframe);
    });
  }

  @Get('applicants/:token/finish')
  async finish(
    @Param('token') token: string,
    @Query() query: Record<string, unknown>,
    @Res() reply: FastifyReply,
  ): Promise<FastifyReply> {
    const iframe = query.iframe === 'true';
    return this.gate.answer(reply, iframe, async () => {
      const { applicant, property } = await this.openStep(token, 'finish', iframe);
      return this.finishPage(reply, iframe, property, applicant, token, answerValues(applicant.form_answers ?? {}));
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
    return this.gate.answer(reply, iframe, async () => {
      const { applicant, property, link } = await this.openStep(token, 'finish', iframe);
      const body = this.gate.submitted(request, `/applicants/${token}/finish`);
      const preset = await this.presets.find(property);
      const answers = fieldsWithPrefix(body, 'answers.');
      const problems: FieldProblem[] = [];
      const identity = this.validate(FormIdentityInput, optional({ dob: body.dob, id_number: body.id_number }));
      if (!(identity instanceof FormIdentityInput)) problems.push(...identity);
      problems.push(...formAnswerProblems(preset, answers, body.consent === 'yes'));
      const completion = this.validate(FormCompletionInput, optional({ signature: body.signature }));
      if (!(completion instanceof FormCompletionInput)) problems.push(...completion);
      const coApplicants = applicant.type === 'primary' ? this.coApplicants(body, problems) : [];
      problems.push(...(await requiredDocumentProblems(this.backends, preset, link)));
      if (problems.length > 0 || !(identity instanceof FormIdentityInput) || !(completion instanceof FormCompletionInput)) {
        return this.finishPage(reply, iframe, property, applicant, token, withoutSecrets(body), problems, 422);
      }
      const message = new BoundToMessage((messageId): CompleteFormMessage => ({
        ...link,
        answers: presetAnswers(preset, answers),
        signature: completion.signature,
        co_applicants: coApplicants,
        sealed_applicant: this.sealer.sealFields(identity, {
          tokenDigest: link.token_digest,
          messageId,
        }) as CompleteFormMessage['sealed_applicant'],
        submission: body.nonce,
        consent: formConsent(preset, request),
      }));
      const completed = await this.backends.applications<FormApplicant>(APPLICATION_FORMS.COMPLETE, message);
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
    return this.gate.answer(reply, iframe, async () => {
      const { applicant, property } = await this.gate.openApplicant(token);
      if (applicant.form_status !== 'completed')
        return this.pages.redirect(reply, this.stepUrl(token, 'contact', iframe), iframe);
      return this.pages.send(reply, 200, 'done', { title: 'Application complete', iframe, property, applicant });
    });
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

  /** The validated input, or the problems the contract found. */
  private validate<T extends object>(type: new () => T, fields: Record<string, unknown>): T | FieldProblem[] {
    try {
      return parseRequest(type, fields);
    } catch (error) {
      if (error instanceof ServiceError && error.details) return error.details;
      throw error;
    }
  }

  /** The co-applicants named in `body` (rows left empty are skipped), their problems added to `problems`. */
  private coApplicants(body: FormBody, problems: FieldProblem[]): FormCoApplicantInput[] {
    const named: FormCoApplicantInput[] = [];
    for (let index = 0; index < MAX_FORM_CO_APPLICANTS; index++) {
      const prefix = `co_applicants.${index}.`;
      const row = {
        first_name: body[`${prefix}first_name`],
        last_name: body[`${prefix}last_name`],
        email: body[`${prefix}email`],
      };
      if (!Object.values(row).some((value) => value?.trim())) continue;
      const input = this.validate(FormCoApplicantInput, optional(row));
      if (input instanceof FormCoApplicantInput) named.push(input);
      else problems.push(...input.map(({ field, message }) => ({ field: `${prefix}${field}`, message })));
    }
    return named;
  }

  /** The applicant and property of step 2 or 3; an applicant who belongs on another step is sent there. */
  private async openStep(
    token: string,
    step: 'details' | 'finish',
    iframe: boolean,
  ): Promise<{ applicant: FormApplicant; property: PropertyRepresentation; link: FormTokenMessage }> {
    const opened = await this.gate.openApplicant(token);
    const { form_status: status, type } = opened.applicant;
    if (status === 'completed') throw new Redirect(this.stepUrl(token, 'done', iframe));
    if (status === 'not_started') throw new Redirect(this.stepUrl(token, 'contact', iframe));
    if (step === 'details' && type !== 'primary') throw new Redirect(this.stepUrl(token, 'finish', iframe));
    return opened;
  }

  private stepUrl(token: string, step: keyof typeof STEP_PATHS, iframe: boolean): string {
    return `/applicants/${token}${STEP_PATHS[step]}${iframe ? '?iframe=true' : ''}`;
  }

  private contactPage(
    reply: FastifyReply,
    iframe: boolean,
    property: PropertyRepresentation,
    action: string,
    values: FormBody,
    problems: FieldProblem[] = [],
    status = 200,
  ): FastifyReply {
    return this.pages.send(reply, status, 'contact', {
      ...this.frame('Your contact details', iframe, 1, problems),
      property,
      values,
      action: withIframe(action, iframe),
      csrf: this.csrf.issue(action),
    });
  }

  private detailsPage(
    reply: FastifyReply,
    iframe: boolean,
    property: PropertyRepresentation,
    token: string,
    values: FormBody,
    problems: FieldProblem[] = [],
    status = 200,
  ): FastifyReply {
    const action = `/applicants/${token}/details`;
    return this.pages.send(reply, status, 'details', {
      ...this.frame('The home you want', iframe, 2, problems),
      property,
      values,
      action: withIframe(action, iframe),
      back: this.stepUrl(token, 'contact', iframe),
      csrf: this.csrf.issue(action),
    });
  }

  private async finishPage(
    reply: FastifyReply,
    iframe: boolean,
    property: PropertyRepresentation,
    applicant: FormApplicant,
    token: string,
    values: FormBody,
    problems: FieldProblem[] = [],
    status = 200,
  ): Promise<FastifyReply> {
    const action = `/applicants/${token}/finish`;
    const preset: FormPreset = await this.presets.find(property);
    return this.pages.send(reply, status, 'finish', {
      ...this.frame('Questions and signature', iframe, 3, problems),
      property,
      applicant,
      preset,
      values,
      coApplicantRows: applicant.type === 'primary' ? MAX_FORM_CO_APPLICANTS : 0,
      action: withIframe(action, iframe),
      back: this.stepUrl(token, applicant.type === 'primary' ? 'details' : 'contact', iframe),
      csrf: this.csrf.issue(action),
    });
  }

  private frame(title: string, iframe: boolean, step: number, problems: FieldProblem[]): PageFrame {
    return { title, iframe, step, problems };
  }
}

function invitationOnly(property: PropertyRepresentation): Refusal {
  return new Refusal(403, property.name, property.invitation_only_message || DEFAULT_INVITATION_ONLY_MESSAGE);
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

function fieldsWithPrefix(body: FormBody, prefix: string): Record<string, string> {
  return Object.fromEntries(
    Object.entries(body)
      .filter(([key]) => key.startsWith(prefix))
      .map(([key, value]) => [key.slice(prefix.length), value.trim()]),
  );
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

function answerValues(answers: Record<string, string>): FormBody {
  return Object.fromEntries(Object.entries(answers).map(([id, answer]) => [`answers.${id}`, answer]));
}

/** What the last step may show again after a problem: never the SSN, nor the CSRF token. */
function withoutSecrets(body: FormBody): FormBody {
  const { id_number: _ssn, csrf_token: _csrf, nonce: _nonce, ...rest } = body as FormBody & { nonce?: string };
  return rest;
}
