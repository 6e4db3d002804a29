import { Injectable } from '@nestjs/common';
import { ApplicantSealer, StoredOwner } from '@app/crypto';
import { EventOutbox } from '@app/events';
import { linkToTrace } from '@app/observability';
import {
  ErrorCode,
  FORM_SUBMISSION_FIELD,
  FormApplicant,
  FormContactInput,
  FormConsent,
  FormDetailsInput,
  FormPresetVersionRef,
  HouseholdSectionInput,
  SaveSectionMessage,
  ServiceError,
} from '@app/contracts';
import { ApplicantForm, ApplicantForms, FormCompletionChanges, SubmissionOutcome, withFormProgress } from './applicant-forms';
import { ApplicationVersions } from './application-versions';
import { ApplicantRecord, ApplicationRecord } from './application.schema';
import { ApplicationsRepository } from './applications.repository';
import { DecisionsService } from '../decisions/decisions.service';
import { applicantEventData, ApplicationsService } from './applications.service';
import { addedThroughForm, formAddedKey, joining } from './form-added';
import { formTokenDigest, FormTokens } from './form-tokens';

const ALREADY_COMPLETED = 'this application form is already completed';

/**
 * How long a submission's claim, with no answer recorded, keeps the same page from being done
 * again: far longer than any step takes, so that only a claim whose process died (and whose
 * message the broker gives back) is taken over.
 */
export const SUBMISSION_LEASE_MS = 60_000;

/**
 * An applicant's form link as the service is given it: the digest of its token, and the
 * application the token names (the form checked the token's MAC before it asked).
 */
export interface FormLink {
  digest: string;
  applicationId: number | null;
}

/** An applicant found by its form token, with its application and its form record (if any). */
interface FormSubject {
  digest: string;
  application: ApplicationRecord;
  applicant: ApplicantRecord;
  form: ApplicantForm | null;
  /** The preset version the application is filled with, null before the form resolved one. */
  preset: FormPresetVersionRef | null;
}

/** The last step as validated. */
export interface FormCompletion {
  signature: string;
  /** What the applicant was shown and signed, and from where. */
  consent: FormConsent;
}

/** A section step as validated; the identity step's sealed fields in clear, to be sealed for storage. */
export interface FormSectionSave {
  kind: SaveSectionMessage['kind'];
  /** The section's value without its sealed fields (questions: the answers by question id). */
  value: object;
  sealed: Partial<Record<'dob' | 'id_number' | 'drivers_license_number', string | null>>;
}

/**
 * The online application form's side of the applications service. An applicant is named by its
 * form token's digest; the form alone knows the token. The two writes that move an applicant's
 * form on (markFormStarted, markFormCompleted) are each one method, the places where what
 * follows from them is attached.
 */
@Injectable()
export class ApplicationFormsService {
  constructor(
    private readonly applications: ApplicationsService,
    private readonly repository: ApplicationsRepository,
    private readonly versions: ApplicationVersions,
    private readonly forms: ApplicantForms,
    private readonly formTokens: FormTokens,
    private readonly sealer: ApplicantSealer,
    private readonly outbox: EventOutbox,
    private readonly decisions: DecisionsService,
  ) {}

  /**
   * The applicant withdraws its application: recorded as a decision `withdrawn` that names no API
   * key, once whatever the number of times the page is sent; an application withdrawn already
   * stays as it is.
   */
  async withdraw(link: FormLink, submission: string): Promise<FormApplicant> {
    const subject = await this.subject(link);
    if (!subject) throw ServiceError.notFound('applicant', 'for this form link');
    await this.decisions.withdrawOnForm(subject.application, subject.applicant, submission);
    return view((await this.subject(link))!);
  }

  /** Takes a form page's submission nonce; a page sent again is refused and changes nothing. */
  async takeSubmission(nonce: string): Promise<void> {
    if (!(await this.forms.claimSubmission(nonce))) throw alreadySubmitted();
  }

  /**
   * Does a form page's `work` once for its submission nonce, and answers the page sent again (a
   * message the broker delivered twice, a page sent again after the form gave up waiting) as the
   * first was answered: the applicant it left, read anew, with the link's token for step 1.
   * Refusing it instead would leave an application started on step 1 whose applicant never got
   * its link. While the first is still at work, the page sent again is refused; a claim left by a
   * process that died is taken over after SUBMISSION_LEASE_MS (the work is safe to do again:
   * step 1 is keyed by the nonce, the other steps write the same values). A failed work gives
   * its claim back, so that the page may be sent again.
   */
  async submitOnce(nonce: string, link: FormLink | null, work: () => Promise<FormApplicant>): Promise<FormApplicant> {
    if (!(await this.forms.claimSubmission(nonce))) {
      const outcome = await this.forms.submissionOutcome(nonce);
      if (outcome) return this.replay(outcome);
      const staleBefore = new Date(Date.now() - SUBMISSION_LEASE_MS);
      if (!(await this.forms.takeOverSubmission(nonce, staleBefore))) throw alreadySubmitted();
    }
    let answer: FormApplicant;
    try {
      answer = await work();
    } catch (error) {
      // Not given back (the database failing too): the claim is taken over once its lease ran out.
      await this.forms.releaseSubmission(nonce).catch(() => undefined);
      throw error;
    }
    await this.forms.recordSubmissionOutcome(nonce, {
      token_digest: link?.digest ?? formTokenDigest(answer.token!),
      application_id: answer.application_id,
      with_token: link === null,
    });
    return answer;
  }

  /**
   * Step 1 at a property: the application and its primary applicant, the form started, filled
   * with `preset` (the version its contact page was shown under) when the form names one.
   */
  async start(
    clientId: number,
    propertyId: number,
    contact: FormContactInput,
    submission: string,
    preset: FormPresetVersionRef | null = null,
  ): Promise<FormApplicant> {
    const application = await this.applications.createFromForm(
      clientId,
      { property_id: propertyId, applicant: { ...contact, phone: contact.phone ?? null } },
      submission,
    );
    const applicant = application.applicants[0];
    const token = this.formTokens.token(clientId, applicant)!;
    const recorded = preset ? await this.forms.recordPreset(application.id, preset) : null;
    const subject: FormSubject = { digest: formTokenDigest(token), application, applicant, form: null, preset: recorded };
    const form = await this.markFormStarted(subject, null);
    return { ...view({ ...subject, form }), token };
  }

  /** The applicant a form link names, as the form shows it; null for none. */
  async find(link: FormLink): Promise<FormApplicant | null> {
    const subject = await this.subject(link);
    return subject ? view(subject) : null;
  }

  /**
   * The preset version the form resolved for the link's application, recorded unless one is
   * already (by a co-applicant, or an earlier visit); the applicant shows the one recorded.
   */
  async recordPreset(link: FormLink, preset: FormPresetVersionRef): Promise<FormApplicant> {
    const subject = await this.subject(link);
    if (!subject) throw ServiceError.notFound('applicant', 'for this form link');
    if (subject.preset) return view(subject);
    return view({ ...subject, preset: await this.forms.recordPreset(subject.application.id, preset) });
  }

  /** Step 1 for an applicant created through the API (or step 1 again): its contact details. */
  async saveContact(link: FormLink, contact: FormContactInput): Promise<FormApplicant> {
    const subject = await this.open(link);
    const given = { ...contact, phone: contact.phone ?? null };
    if (!subject.form || subject.form.form_status === 'not_started') {
      return view({ ...subject, form: await this.markFormStarted(subject, given) });
    }
    await this.forms.save(subject.digest, ids(subject), { contact: given });
    return this.find(link) as Promise<FormApplicant>;
  }

  /** Step 2: what the property's kind asks, stored on the application. */
  async saveDetails(link: FormLink, details: FormDetailsInput): Promise<FormApplicant> {
    const subject = await this.open(link);
    if (subject.applicant.type !== 'primary') throw refused('only the primary applicant describes what is wanted');
    await this.repository.saveFormDetails(subject.application.id, {
      floor_plan_id: details.floor_plan_id ?? null,
      desired_unit_description: details.desired_unit_description ?? null,
      desired_move_in: details.desired_move_in ?? null,
    });
    await this.forms.saveStep(subject.digest, ids(subject), 'details', {});
    return this.find(link) as Promise<FormApplicant>;
  }

  /**
   * One section step, saved on the applicant: the questions' answers as form_answers, any other
   * section under its kind; the identity numbers sealed for this applicant, as at creation.
   */
  async saveSection(link: FormLink, section: FormSectionSave): Promise<FormApplicant> {
    const subject = await this.open(link);
    if (subject.form?.form_status !== 'started') throw refused('the form must be started first');
    if (section.kind === 'household' && subject.applicant.type !== 'primary') {
      throw refused('only the primary applicant describes the household');
    }
    const changes: Record<string, unknown> =
      section.kind === 'questions'
        ? { form_answers: JSON.stringify(section.value) }
        : { [`sections.${section.kind}`]: JSON.stringify(section.value) };
    if (section.kind === 'identity') {
      for (const field of ['dob', 'id_number', 'drivers_license_number'] as const) {
        const value = section.sealed[field];
        changes[field] = value ? this.sealer.sealField(field, value, owner(subject)) : null;
      }
    }
    await this.forms.saveStep(subject.digest, ids(subject), section.kind, changes);
    // Completed since it was read: the step may have landed after the signature, where reads
    // over the completion's claim never show it; the applicant is told it was not kept.
    if (await this.forms.isCompleted(subject.digest)) throw alreadyCompleted();
    return this.find(link) as Promise<FormApplicant>;
  }

  /** Whether the form of the link's applicant is completed, as its claim says. */
  isCompleted(link: FormLink): Promise<boolean> {
    return this.forms.isCompleted(link.digest);
  }

  /**
   * The last step: the adults and guarantors the primary applicant listed in its household are
   * added, each with a form link of its own, then the form is completed.
   */
  async complete(link: FormLink, completion: FormCompletion): Promise<FormApplicant> {
    const subject = await this.open(link);
    if (subject.form?.form_status !== 'started') throw refused('the form must be started first');
    if (!subject.form.dob || !subject.form.id_number) throw refused('the identity step must be saved first');
    const { application, applicant } = subject;
    const household = subject.applicant.type === 'primary' ? savedHousehold(subject.form) : null;
    const named = [
      ...(household?.adults ?? []).map((person) => ({ person, type: 'co_applicant' as const })),
      ...(household?.guarantors ?? []).map((person) => ({ person, type: 'guarantor' as const })),
    ];
    for (const [index, { person, type }] of named.entries()) {
      // Keyed by the naming applicant and position: a repeated submission adds each one once.
      const key = formAddedKey(applicant.id, type, index);
      await this.applications.addApplicantFromForm(application.client_id, application.id, { ...person }, type, key);
    }
    const form = await this.markFormCompleted(subject, completion);
    return view({ ...subject, form });
  }

  /** The write that marks an applicant's form started. */
  private async markFormStarted(subject: FormSubject, contact: ApplicantForm['contact']): Promise<ApplicantForm> {
    const now = new Date();
    const changes = {
      form_status: 'started' as const,
      form_started_at: now,
      form_completed_at: null,
      ...(contact ? { contact } : {}),
    };
    const eventIds = await this.recordEvent(subject, 'application_form.started');
    await this.forms.save(subject.digest, ids(subject), changes, eventIds);
    this.outbox.written(eventIds);
    return { _id: subject.digest, ...ids(subject), ...subject.form, ...changes, updated_at: now };
  }

  /**
   * The write that marks an applicant's form completed: an insert-once claim per applicant, so
   * that of two submissions at once only one completes it and publishes its event (and its SSN
   * is the one stored); the other is refused. The claim is copied into the form record after.
   */
  private async markFormCompleted(subject: FormSubject, completion: FormCompletion): Promise<ApplicantForm> {
    const now = new Date();
    const form = subject.form!;
    const changes: FormCompletionChanges = {
      form_status: 'completed',
      form_completed_at: now,
      signature: completion.signature,
      consent: { ...completion.consent, signed_name: completion.signature, signed_at: now },
      // The answers signed, as read before the claim: a step saved later never shows (see find).
      contact: form.contact ?? null,
      form_answers: form.form_answers ?? null,
      sections: form.sections ?? {},
      dob: form.dob,
      id_number: form.id_number,
      drivers_license_number: form.drivers_license_number ?? null,
    };
    const eventIds = await this.recordEvent(subject, 'application_form.completed', this.forms.completionWitness(subject.digest));
    if (!(await this.forms.claimCompletion(subject.digest, changes, eventIds))) {
      await this.outbox.discard(eventIds);
      throw alreadyCompleted();
    }
    this.outbox.written(eventIds);
    await this.forms.save(subject.digest, ids(subject), changes);
    return { ...form, ...changes, updated_at: now };
  }

  /** Records the form's event in the outbox, to be published once the form record shows it. */
  private recordEvent(
    subject: FormSubject,
    event: 'application_form.started' | 'application_form.completed',
    witness = this.forms.witness(subject.digest),
  ): Promise<string[]> {
    const { application, applicant } = subject;
    return this.outbox.record(application.client_id, witness, [
      { event, data: applicantEventData(application.id, application.property_id, applicant) },
    ]);
  }

  /** The answer of a submission done before, as it is now. */
  private async replay(outcome: SubmissionOutcome): Promise<FormApplicant> {
    const subject = await this.subject({ digest: outcome.token_digest, applicationId: outcome.application_id });
    if (!subject) throw alreadySubmitted();
    if (!outcome.with_token) return view(subject);
    return { ...view(subject), token: this.formTokens.token(subject.application.client_id, subject.applicant)! };
  }

  /** The applicant to change, whose form is not completed yet, nor its personal data erased. */
  private async open(link: FormLink): Promise<FormSubject> {
    const subject = await this.subject(link);
    if (!subject) throw ServiceError.notFound('applicant', 'for this form link');
    if (subject.form?.form_status === 'completed') throw alreadyCompleted();
    if (subject.application.personal_data_erased_at) throw personalDataErased();
    return subject;
  }

  /**
   * Found by keys alone: the form record by the digest, else (an applicant that never opened its
   * form) the application the token names. A token that names none (issued before tokens named
   * their application) finds nothing: searching every application for it is what made a made-up
   * link cost seconds of database time.
   */
  private async subject({ digest, applicationId: named }: FormLink): Promise<FormSubject | null> {
    const form = await this.forms.find(digest);
    const applicationId = form?.application_id ?? named;
    if (applicationId === null || applicationId === undefined) return null;
    const stored = await this.repository.findByKey(applicationId);
    if (!stored) return null;
    const application = await this.versions.current(stored);
    const applicant = application.applicants.find((candidate) => candidate.form_token_digest === digest);
    if (!applicant) return null;
    linkToTrace(applicant.form_trace);
    const preset = await this.forms.findPreset(application.id);
    return { digest, application, applicant: withFormProgress(applicant, form), form, preset };
  }
}

function ids(subject: FormSubject): Pick<ApplicantForm, 'application_id' | 'applicant_id'> {
  return { application_id: subject.application.id, applicant_id: subject.applicant.id };
}

function alreadySubmitted(): ServiceError {
  const message = 'this page was already submitted; open the form again to continue';
  return new ServiceError(ErrorCode.VALIDATION_FAILED, message, [{ field: FORM_SUBMISSION_FIELD, message }]);
}

/** What a change of an applicant whose form is completed (signed) is refused with. */
export function alreadyCompleted(): ServiceError {
  return refused(ALREADY_COMPLETED);
}

/**
 * What a change of an applicant whose application's personal data was erased is refused with: the
 * form would store again what was erased.
 */
export function personalDataErased(): ServiceError {
  return refused('the personal data of this application was erased; the form takes no more answers');
}

function refused(message: string): ServiceError {
  return new ServiceError(ErrorCode.VALIDATION_FAILED, message, [{ field: 'form', message }]);
}

function view({ application, applicant, form, preset }: FormSubject): FormApplicant {
  const current = withFormProgress(applicant, form);
  return {
    client_id: application.client_id,
    application_id: application.id,
    property_id: application.property_id,
    applicant_id: current.id,
    type: current.type,
    first_name: current.first_name,
    last_name: current.last_name,
    email: current.email,
    phone: current.phone ?? null,
    redirect_url: current.redirect_url ?? null,
    form_status: current.form_status ?? 'not_started',
    form_answers: current.form_answers ? (JSON.parse(current.form_answers) as Record<string, string>) : null,
    form_sections: Object.fromEntries(
      Object.entries(form?.sections ?? {}).map(([kind, json]) => [kind, JSON.parse(json) as unknown]),
    ),
    form_steps: form?.steps ?? [],
    floor_plan_id: application.floor_plan_id ?? null,
    desired_unit_description: application.desired_unit_description ?? null,
    desired_move_in: application.desired_move_in ?? null,
    form_preset: preset,
    joining: joining(application, current),
    added: addedThroughForm(application, current),
    withdrawn: application.decisions?.[0]?.status === 'withdrawn',
  };
}

/** The household the primary applicant saved, if any. */
function savedHousehold(form: ApplicantForm): HouseholdSectionInput | null {
  const json = form.sections?.household;
  return json ? (JSON.parse(json) as HouseholdSectionInput) : null;
}

/** Whom the subject's sealed values belong to (see ApplicantSealer). */
function owner(subject: FormSubject): StoredOwner {
  return { clientId: subject.application.client_id, applicantId: subject.applicant.id };
}
