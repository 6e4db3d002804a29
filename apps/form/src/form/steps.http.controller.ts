import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';
import {
  APPLICATION_FORMS,
  CompleteFormMessage,
  ErrorCode,
  FieldProblem,
  FormApplicant,
  FormCompletionInput,
  FormConsent,
  FormTokenMessage,
  MALFORMED_FORM_MESSAGE,
  SaveSectionMessage,
  SEALED_IDENTITY_FIELDS,
  ServiceError,
} from '@app/contracts';
import { FormFieldSealer } from '@app/crypto';
import { BoundToMessage } from '@app/messaging';
import { countFormStep } from '@app/observability';
import { FormBackends } from '../backends/form-backends';
import { requiredDocumentProblems } from '../documents/missing-documents';
import { SectionContext } from '../sections/section';
import { isSectionStep, nextStep, previousStep, SECTIONS, SectionStep } from '../sections/steps';
import { formConsent } from './consent';
import { FormPost, Submitted, SubmittedForm } from './form-prelude';
import { FormFlow, Iframe, NOT_FOUND, optional, sectionOf, StepPage, withoutSecrets } from './form-flow';

const FINISH_PAGE = { step: 'finish', template: 'finish', title: 'Consent and signature' } as const;

/**
 * The steps after the unit: each section of the preset (its own module in ../sections), the
 * review of what was saved, and the signature that completes the form.
 */
@Controller()
export class StepsHttpController {
  constructor(
    private readonly flow: FormFlow,
    private readonly backends: FormBackends,
    private readonly sealer: FormFieldSealer,
  ) {}

  /** "Check your answers": every step saved, each with a link to change it, before the signature. */
  @Get('applicants/:token/review')
  async review(@Param('token') token: string, @Iframe() iframe: boolean, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const opened = await this.flow.openStep(token, 'review', iframe, 'GET');
    const { applicant, property, steps, preset } = opened;
    const sections = steps.filter(isSectionStep).map((kind) => {
      const context: SectionContext = { preset, section: sectionOf(preset, kind), applicant };
      const saved = kind === 'questions' ? applicant.form_answers : applicant.form_sections[kind];
      return {
        kind,
        page: SECTIONS[kind].page(SECTIONS[kind].values(saved), context),
        change: this.flow.stepUrl(token, kind, iframe),
      };
    });
    return this.flow.pages.send(reply, 200, 'review', {
      ...this.flow.frame('Check your answers', iframe, opened, 'review', []),
      property,
      applicant,
      sections,
      change: { contact: this.flow.stepUrl(token, 'contact', iframe), details: this.flow.stepUrl(token, 'details', iframe) },
      next: this.flow.stepUrl(token, 'finish', iframe),
      back: this.flow.stepUrl(token, previousStep(steps, 'review'), iframe),
    });
  }

  @Get('applicants/:token/finish')
  async finish(@Param('token') token: string, @Iframe() iframe: boolean, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const opened = await this.flow.openStep(token, 'finish', iframe, 'GET');
    return this.flow.stepPage(reply, iframe, { ...FINISH_PAGE, opened, token, values: {} });
  }

  @FormPost('applicants/:token/finish')
  async complete(
    @Param('token') token: string,
    @Iframe() iframe: boolean,
    @Submitted() body: SubmittedForm,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<FastifyReply> {
    const opened = await this.flow.openStep(token, 'finish', iframe, 'POST');
    const problems: FieldProblem[] = [];
    if (body.consent !== 'yes') problems.push({ field: 'consent', message: 'must be given to apply' });
    const completion = this.flow.validate(FormCompletionInput, optional({ signature: body.signature }));
    if (!(completion instanceof FormCompletionInput)) problems.push(...completion);
    // Checked again here: a document may have been removed since the review let the applicant on.
    problems.push(...(await requiredDocumentProblems(this.backends, opened.preset, opened.link)));
    if (problems.length > 0 || !(completion instanceof FormCompletionInput)) {
      return this.flow.stepPage(reply, iframe, {
        ...FINISH_PAGE,
        opened,
        token,
        values: withoutSecrets(body),
        problems,
        status: 422,
      });
    }
    const completed = await this.sendCompletion(opened.link, completion, body.nonce, formConsent(opened.preset, request));
    // As the URL parser writes it: one stored before redirect_url was normalized may hold characters a header cannot.
    if (completed.redirect_url) return this.flow.pages.redirect(reply, new URL(completed.redirect_url).href, iframe);
    return this.flow.pages.redirect(reply, this.flow.stepUrl(token, 'done', iframe), iframe);
  }

  /** A section step of the preset (identity, residence history...): its page. */
  @Get('applicants/:token/:step')
  async section(
    @Param('token') token: string,
    @Param('step') step: string,
    @Iframe() iframe: boolean,
    @Res() reply: FastifyReply,
  ): Promise<FastifyReply> {
    if (!isSectionStep(step)) throw NOT_FOUND;
    const opened = await this.flow.openStep(token, step, iframe, 'GET');
    const saved = step === 'questions' ? opened.applicant.form_answers : opened.applicant.form_sections[step];
    return this.sectionPage(reply, iframe, { opened, token, step, values: SECTIONS[step].values(saved) });
  }

  /**
   * A section step sent: "Add another" or "Remove" draws the page again with one entry more or
   * less (nothing saved, no JavaScript needed); "Continue" saves the step and goes on.
   */
  @FormPost('applicants/:token/:step')
  async saveSection(
    @Param('token') token: string,
    @Param('step') step: string,
    @Iframe() iframe: boolean,
    @Submitted() body: SubmittedForm,
    @Res() reply: FastifyReply,
  ): Promise<FastifyReply> {
    if (!isSectionStep(step)) throw NOT_FOUND;
    const opened = await this.flow.openStep(token, step, iframe, 'POST');
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
      countFormStep(step, 'refused');
      return this.sectionPage(reply, iframe, {
        opened,
        token,
        step,
        values: withoutSecrets(body),
        problems: parsed.problems,
        status: 422,
      });
    }
    const save = (sealWhole: boolean) =>
      this.backends.applications(
        APPLICATION_FORMS.SAVE_SECTION,
        this.sectionMessage(opened.link, step, parsed.value, body.nonce, sealWhole),
      );
    // A service of the release before refuses a section sealed whole (it has no `section`); sent
    // again in clear, as that release's form sent it, only while such a service still answers.
    await save(true).catch((error: unknown) => (refusedAsMalformed(error) ? save(false) : Promise.reject(error)));
    countFormStep(step, 'submitted');
    return this.flow.pages.redirect(reply, this.flow.stepUrl(token, nextStep(opened.steps, step), iframe), iframe);
  }

  /**
   * A section's value as it travels: sealed whole for this link and message (a dead-lettered
   * message holds none of it in clear), or with `sealWhole` false in clear as the release before
   * sent it; the identity numbers sealed each on their own either way.
   */
  private sectionMessage(
    link: FormTokenMessage,
    kind: SectionStep,
    value: object,
    nonce: string,
    sealWhole: boolean,
  ): SaveSectionMessage | BoundToMessage {
    const fields = value as Record<string, string | null | undefined>;
    const secret = (field: string) => kind === 'identity' && (SEALED_IDENTITY_FIELDS as readonly string[]).includes(field);
    const section = Object.fromEntries(Object.entries(fields).filter(([field]) => !secret(field)));
    const sealed = Object.fromEntries(
      SEALED_IDENTITY_FIELDS.filter((field) => secret(field) && typeof fields[field] === 'string').map((field) => [
        field,
        fields[field] as string,
      ]),
    );
    if (!sealWhole && kind !== 'identity') return { ...link, kind, section, submission: nonce };
    return new BoundToMessage((messageId): SaveSectionMessage => {
      const owner = { tokenDigest: link.token_digest, messageId };
      return {
        ...link,
        kind,
        ...(sealWhole ? { sealed_section: this.sealer.sealSection(section, owner) } : { section }),
        ...(kind === 'identity' ? { sealed_applicant: this.sealer.sealFields(sealed, owner) } : {}),
        submission: nonce,
      };
    });
  }

  /**
   * The one call that completes the form: the saved sections, with the signature given and the
   * consent signed (what the applicant was shown, and from where) to be recorded with it.
   */
  private sendCompletion(
    link: FormTokenMessage,
    completion: FormCompletionInput,
    nonce: string,
    consent: FormConsent,
  ): Promise<FormApplicant> {
    const message: CompleteFormMessage = { ...link, signature: completion.signature, consent, submission: nonce };
    return this.backends.applications<FormApplicant>(APPLICATION_FORMS.COMPLETE, message);
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
    return this.flow.stepPage(reply, iframe, { ...page, template: 'section', title: section.title, data: { section } });
  }
}

/** Whether the applications service refused a form message as one it cannot read. */
function refusedAsMalformed(error: unknown): boolean {
  return error instanceof ServiceError && error.code === ErrorCode.VALIDATION_FAILED && error.message === MALFORMED_FORM_MESSAGE;
}
