import { Controller, Get, Logger, Param, Query, Res } from '@nestjs/common';
import { FastifyReply } from 'fastify';
import {
  APPLICATION_FORMS,
  FieldProblem,
  FormApplicant,
  FormContactInput,
  FormDetailsInput,
  FormPreset,
  FormProperty,
  INVITATIONS,
  InvitationTokenMessage,
  parseIdSegment,
  PROPERTIES,
  PropertyRepresentation,
  StartFormMessage,
  UsableInvitation,
} from '@app/contracts';
import { FORM_TOKEN, formTokenDigest } from '@app/crypto';
import { FormBackends } from '../backends/form-backends';
import { FormBody } from '../questions/question-kinds';
import { formSteps, nextStep, resumeStep } from '../sections/steps';
import { ALREADY_COMPLETE, FormFlow, Iframe, optional, Refusal, withIframe, withoutSecrets } from './form-flow';
import { FormPost, Submitted, SubmittedForm } from './form-prelude';
import { FormPresetSource } from './preset-source';

/**
 * What a property's application_url shows when it opens no form to anyone: an unknown id or a
 * property not available. The same page for both, naming nothing: property ids are sequential,
 * and walking them must not read the names of properties that are not open to the public.
 */
const NOT_OPEN = new Refusal(
  404,
  'Not taking applications',
  'There is no application form open at this address. If you were invited to apply, open the link in your invitation.',
);

const DEFAULT_INVITATION_ONLY_MESSAGE = 'This property accepts applications by invitation only.';

/** An invitation to a property, as its link gave it. */
interface Invitation {
  token: string;
  email: string;
}

/**
 * The online application form: step 1 at a property's application_url creates the application;
 * every later page lives under the applicant's own form_url (`/applicants/<token>`), whose
 * unguessable token is what lets the applicant continue. Every POST carries a CSRF token, is
 * counted against its address's rate limit and is refused when the honeypot is filled in,
 * before anything else is asked (`FormPost`, form-prelude.ts). Here: the contact details, the unit, the confirmation; the sections, the review
 * and the signature are StepsHttpController's.
 */
@Controller()
export class FormHttpController {
  private readonly logger = new Logger('FormHttpController');

  constructor(
    private readonly flow: FormFlow,
    private readonly backends: FormBackends,
    private readonly presets: FormPresetSource,
  ) {}

  @Get('properties/:id/apply')
  async apply(
    @Param('id') id: string,
    @Query('invitation') invitationToken: unknown,
    @Iframe() iframe: boolean,
    @Res() reply: FastifyReply,
  ): Promise<FastifyReply> {
    const { property, invitation } = await this.openProperty(id, invitationToken);
    const action = `/properties/${property.id}/apply`;
    const values: FormBody = invitation ? { email: invitation.email, invitation: invitation.token } : {};
    return this.contactPage(reply, iframe, { property, preset: await this.presets.find(property) }, action, values);
  }

  @FormPost('properties/:id/apply')
  async start(
    @Param('id') id: string,
    @Iframe() iframe: boolean,
    @Submitted() body: SubmittedForm,
    @Res() reply: FastifyReply,
  ): Promise<FastifyReply> {
    const { nonce } = body;
    const { client_id: clientId, property, invitation } = await this.openProperty(id, body.invitation);
    const action = `/properties/${property.id}/apply`;
    // The preset's current version when step 1 creates the application is the one it is filled with.
    const preset = await this.presets.find(property);
    const contact = this.flow.plainText(this.flow.validate(FormContactInput, contactFields(body)), ['first_name', 'last_name']);
    if (!(contact instanceof FormContactInput)) {
      return this.contactPage(reply, iframe, { property, preset }, action, withoutSecrets(body), contact, 422);
    }
    if (invitation) await this.useInvitation(property.id, invitation.token, nonce);
    const started = await this.backends
      .applications<FormApplicant>(APPLICATION_FORMS.START, {
        client_id: clientId,
        property_id: property.id,
        request: contact,
        submission: nonce,
        form_preset: { id: preset.id, version: preset.version },
      } satisfies StartFormMessage)
      .catch(async (error: unknown) => {
        if (invitation) await this.releaseInvitation(property.id, invitation.token, nonce);
        throw error;
      });
    return this.flow.pages.redirect(reply, this.flow.stepUrl(started.token!, 'details', iframe), iframe);
  }

  /** The applicant's form_url: where it left off (the contact details for one that never started). */
  @Get('applicants/:token')
  async resume(@Param('token') token: string, @Iframe() iframe: boolean, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const opened = await this.flow.openApplicant(token);
    const { applicant, link, preset } = opened;
    if (applicant.form_status === 'completed')
      return this.flow.pages.redirect(reply, this.flow.stepUrl(token, 'done', iframe), iframe);
    if (applicant.form_status === 'started') {
      const step = resumeStep(formSteps(preset, applicant.type), await this.flow.savedSteps(applicant, link, preset), true);
      return this.flow.pages.redirect(reply, this.flow.stepUrl(token, step, iframe), iframe);
    }
    return this.contactPage(reply, iframe, opened, `/applicants/${token}`, contactValues(applicant), [], 200, applicant);
  }

  /** The contact details again, to change them (the form_url itself resumes). */
  @Get('applicants/:token/contact')
  async contact(@Param('token') token: string, @Iframe() iframe: boolean, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const opened = await this.flow.openApplicant(token);
    const { applicant } = opened;
    if (applicant.form_status === 'completed')
      return this.flow.pages.redirect(reply, this.flow.stepUrl(token, 'done', iframe), iframe);
    return this.contactPage(reply, iframe, opened, `/applicants/${token}`, contactValues(applicant), [], 200, applicant);
  }

  @FormPost('applicants/:token')
  async saveContact(
    @Param('token') token: string,
    @Iframe() iframe: boolean,
    @Submitted() body: SubmittedForm,
    @Res() reply: FastifyReply,
  ): Promise<FastifyReply> {
    const action = `/applicants/${token}`;
    const opened = await this.flow.openApplicant(token);
    const { applicant, link, preset } = opened;
    if (applicant.form_status === 'completed') throw ALREADY_COMPLETE;
    const contact = this.flow.plainText(this.flow.validate(FormContactInput, contactFields(body)), ['first_name', 'last_name']);
    if (!(contact instanceof FormContactInput)) {
      return this.contactPage(reply, iframe, opened, action, withoutSecrets(body), contact, 422, applicant);
    }
    await this.backends.applications(APPLICATION_FORMS.SAVE_CONTACT, {
      ...link,
      request: contact,
      submission: body.nonce,
    });
    const steps = formSteps(preset, applicant.type);
    return this.flow.pages.redirect(reply, this.flow.stepUrl(token, nextStep(steps, 'contact'), iframe), iframe);
  }

  @Get('applicants/:token/details')
  async details(@Param('token') token: string, @Iframe() iframe: boolean, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const opened = await this.flow.openStep(token, 'details', iframe, 'GET');
    return this.flow.stepPage(reply, iframe, { ...DETAILS_PAGE, opened, token, values: detailsValues(opened.applicant) });
  }

  @FormPost('applicants/:token/details')
  async saveDetails(
    @Param('token') token: string,
    @Iframe() iframe: boolean,
    @Submitted() body: SubmittedForm,
    @Res() reply: FastifyReply,
  ): Promise<FastifyReply> {
    const opened = await this.flow.openStep(token, 'details', iframe, 'POST');
    const { property, link } = opened;
    const details = this.flow.validate(FormDetailsInput, detailsFields(body, property));
    const problems = details instanceof FormDetailsInput ? kindProblems(details, property) : details;
    if (problems.length > 0 || !(details instanceof FormDetailsInput)) {
      return this.flow.stepPage(reply, iframe, { ...DETAILS_PAGE, opened, token, values: body, problems, status: 422 });
    }
    await this.backends.applications(APPLICATION_FORMS.SAVE_DETAILS, {
      ...link,
      request: details,
      submission: body.nonce,
    });
    return this.flow.pages.redirect(reply, this.flow.stepUrl(token, nextStep(opened.steps, 'details'), iframe), iframe);
  }

  @Get('applicants/:token/done')
  async done(@Param('token') token: string, @Iframe() iframe: boolean, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const { applicant, property } = await this.flow.openApplicant(token);
    if (applicant.form_status !== 'completed')
      return this.flow.pages.redirect(reply, this.flow.stepUrl(token, 'contact', iframe), iframe);
    return this.flow.pages.send(reply, 200, 'done', {
      title: 'Application complete',
      iframe,
      property,
      added: applicant.added,
      own: applicant.type !== 'primary',
      withdrawUrl: withIframe(`/applicants/${token}/withdraw`, iframe),
    });
  }

  /**
   * The page that asks the applicant to confirm its withdrawal, at any point of the form (the link
   * is in every e-mail and on the confirmation page), or says it is done. The primary applicant
   * withdraws the application; a co-applicant or guarantor only itself, and the application goes on.
   */
  @Get('applicants/:token/withdraw')
  async withdrawal(@Param('token') token: string, @Iframe() iframe: boolean, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const { applicant, property } = await this.flow.openApplicant(token);
    return this.withdrawalPage(reply, iframe, token, property, applicant);
  }

  @FormPost('applicants/:token/withdraw')
  async withdraw(
    @Param('token') token: string,
    @Iframe() iframe: boolean,
    @Submitted() body: SubmittedForm,
    @Res() reply: FastifyReply,
  ): Promise<FastifyReply> {
    const action = `/applicants/${token}/withdraw`;
    const { link } = await this.flow.openApplicant(token);
    await this.backends.applications<FormApplicant>(APPLICATION_FORMS.WITHDRAW, { ...link, submission: body.nonce });
    return this.flow.pages.redirect(reply, withIframe(action, iframe), iframe);
  }

  private withdrawalPage(
    reply: FastifyReply,
    iframe: boolean,
    token: string,
    property: PropertyRepresentation,
    applicant: FormApplicant,
  ): FastifyReply {
    const action = `/applicants/${token}/withdraw`;
    const own = applicant.type !== 'primary';
    const withdrawn = applicant.withdrawn === true;
    const left = own && applicant.applicant_withdrawn === true;
    const primary = applicant.joining?.primary_name;
    return this.flow.pages.send(reply, 200, 'withdraw', {
      title: withdrawalTitle(own, withdrawn, left),
      iframe,
      property,
      withdrawn,
      own,
      left,
      whose: primary ? `${primary}’s application` : 'the application',
      role: applicant.type === 'guarantor' ? 'a guarantor' : 'a co-applicant',
      action: withIframe(action, iframe),
      csrf: this.flow.csrf.issue(action),
      back: withIframe(`/applicants/${token}`, iframe),
    });
  }

  /**
   * The live property `id` that takes applications, with the invitation its link carried
   * (`token`) when that one is usable: on every property it fills in the address it was sent to
   * and is used up by the application it starts. An invitation_only property without one answers
   * the page that says why not; an open one opens the form as to anyone.
   */
  private async openProperty(id: string, token: unknown): Promise<FormProperty & { invitation: Invitation | null }> {
    const propertyId = parseIdSegment(id);
    if (propertyId === null) throw NOT_OPEN;
    const found = await this.backends.properties<FormProperty | null>(PROPERTIES.FORM_GET, { id: propertyId });
    if (!found || !found.property.available) throw NOT_OPEN;
    const { property } = found;
    const usable =
      typeof token === 'string' && FORM_TOKEN.test(token)
        ? await this.backends.properties<UsableInvitation | null>(INVITATIONS.CHECK, {
            property_id: property.id,
            token_digest: formTokenDigest(token),
          })
        : null;
    if (usable) return { ...found, invitation: { token: token as string, email: usable.email } };
    if (property.invitation_only) throw invitationOnly(property);
    return { ...found, invitation: null };
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

  private contactPage(
    reply: FastifyReply,
    iframe: boolean,
    { property, preset }: { property: PropertyRepresentation; preset: FormPreset },
    action: string,
    values: FormBody,
    problems: FieldProblem[] = [],
    status = 200,
    applicant: FormApplicant | null = null,
  ): FastifyReply {
    const steps = formSteps(preset, applicant?.type ?? 'primary');
    return this.flow.pages.send(reply, status, 'contact', {
      title: 'Your contact details',
      iframe,
      step: 1,
      steps: steps.length,
      problems,
      property,
      joining: applicant?.joining ?? null,
      applicantType: applicant?.type ?? 'primary',
      values,
      action: withIframe(action, iframe),
      csrf: this.flow.csrf.issue(action),
    });
  }
}

const DETAILS_PAGE = { step: 'details', template: 'details', title: 'The home you want' } as const;

/**
 * An invitation_only property without a valid invitation: its invitation_only_message, as the
 * published interface has it, and no form. The message is the owner's, written for exactly this
 * visitor; the page names nothing else of the property (walking ids reads no names).
 */
function invitationOnly(property: PropertyRepresentation): Refusal {
  return new Refusal(403, 'By invitation only', property.invitation_only_message || DEFAULT_INVITATION_ONLY_MESSAGE);
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

/** What the withdraw page is about: the application (the primary applicant's link) or the applicant's own part in it. */
function withdrawalTitle(own: boolean, withdrawn: boolean, left: boolean): string {
  if (withdrawn) return 'Application withdrawn';
  if (left) return 'Withdrawn from the application';
  return own ? 'Withdraw from this application' : 'Withdraw your application';
}
