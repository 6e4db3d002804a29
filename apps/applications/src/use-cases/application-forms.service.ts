import { Injectable } from '@nestjs/common';
import { ApplicantSealer, formTokenDigest } from '@app/crypto';
import { EventOutbox } from '@app/events';
import {
  FormApplicant,
  FormConsent,
  FormContactInput,
  FormDetailsInput,
  FormPresetVersionRef,
  SaveSectionMessage,
} from '@app/contracts';
import { applicantEventData } from '../domain/applicant-event';
import { formAddedKey } from '../domain/form-added';
import { ApplicantForm, FormCompletionChanges } from '../domain/form-progress';
import { alreadyCompleted, personalDataErased, refused } from '../domain/form-refusals';
import { ApplicantFormsRepository } from '../store/applicant-forms.repository';
import { ApplicationsRepository } from '../store/applications.repository';
import { ApplicationsService } from './applications.service';
import { formIds, FormLink, FormSubject, FormSubjects, formView, savedHousehold } from './form-subjects';
import { FormTokens } from './form-tokens';
import { UnsubmittedUploads } from './unsubmitted-uploads';

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
 * The online application form's steps. An applicant is named by its form token's digest; the
 * form alone knows the token. The two writes that move an applicant's form on (markStarted,
 * markCompleted) are each one method, the places where what follows from them is attached. A step
 * answers with the applicant as it left it, read once.
 */
@Injectable()
export class ApplicationFormsService {
  constructor(
    private readonly applicationsService: ApplicationsService,
    private readonly applications: ApplicationsRepository,
    private readonly forms: ApplicantFormsRepository,
    private readonly subjects: FormSubjects,
    private readonly formTokens: FormTokens,
    private readonly sealer: ApplicantSealer,
    private readonly outbox: EventOutbox,
    private readonly uploads: UnsubmittedUploads,
  ) {}

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
    const application = await this.applicationsService.createFromForm(
      clientId,
      { property_id: propertyId, applicant: { ...contact, phone: contact.phone ?? null } },
      submission,
    );
    const applicant = application.applicants[0];
    const token = this.formTokens.token(clientId, applicant)!;
    const recorded = preset ? await this.forms.recordPreset(application.id, preset) : null;
    const subject: FormSubject = { digest: formTokenDigest(token), application, applicant, form: null, preset: recorded };
    const form = await this.markStarted(subject, null);
    return { ...formView({ ...subject, form }), token };
  }

  /** The applicant a form link names, as the form shows it; null for none. */
  async find(link: FormLink): Promise<FormApplicant | null> {
    const subject = await this.subjects.find(link);
    return subject ? formView(subject) : null;
  }

  /**
   * The preset version the form resolved for the link's application, recorded unless one is
   * already (by a co-applicant, or an earlier visit); the applicant shows the one recorded.
   */
  async recordPreset(link: FormLink, preset: FormPresetVersionRef): Promise<FormApplicant> {
    const subject = await this.subjects.get(link);
    if (subject.preset) return formView(subject);
    return formView({ ...subject, preset: await this.forms.recordPreset(subject.application.id, preset) });
  }

  /** Step 1 for an applicant created through the API (or step 1 again): its contact details. */
  async saveContact(link: FormLink, contact: FormContactInput): Promise<FormApplicant> {
    const subject = await this.subjects.open(link);
    const given = { ...contact, phone: contact.phone ?? null };
    if (!subject.form || subject.form.form_status === 'not_started') {
      return formView({ ...subject, form: await this.markStarted(subject, given) });
    }
    return formView({ ...subject, form: await this.saved(subject, { contact: given }) });
  }

  /**
   * Step 2: what the property's kind asks, stored on the application as its next version, so that
   * no change made through the API at the same moment is lost.
   */
  async saveDetails(link: FormLink, details: FormDetailsInput): Promise<FormApplicant> {
    const subject = await this.subjects.open(link);
    if (subject.applicant.type !== 'primary') throw refused('only the primary applicant describes what is wanted');
    const fields = {
      floor_plan_id: details.floor_plan_id ?? null,
      desired_unit_description: details.desired_unit_description ?? null,
      desired_move_in: details.desired_move_in ?? null,
    };
    const application = await this.applications.change(subject.application.client_id, subject.application.id, (current) => ({
      change: Object.entries(fields).every(([field, value]) => (current[field as keyof typeof fields] ?? null) === value)
        ? null
        : { fields },
      answer: (changed) => changed,
    }));
    const form = await this.savedStep(subject, 'details', {});
    return formView({ ...subject, application, form });
  }

  /**
   * One section step, saved on the applicant: the questions' answers as form_answers, any other
   * section under its kind; the identity numbers sealed for this applicant, as at creation.
   */
  async saveSection(link: FormLink, section: FormSectionSave): Promise<FormApplicant> {
    const subject = await this.subjects.open(link);
    if (subject.form?.form_status !== 'started') throw refused('the form must be started first');
    if (section.kind === 'household' && subject.applicant.type !== 'primary') {
      throw refused('only the primary applicant describes the household');
    }
    const changes: Record<string, unknown> =
      section.kind === 'questions'
        ? { form_answers: JSON.stringify(section.value) }
        : { [`sections.${section.kind}`]: JSON.stringify(section.value) };
    if (section.kind === 'identity') {
      const owner = { clientId: subject.application.client_id, applicantId: subject.applicant.id };
      for (const field of ['dob', 'id_number', 'drivers_license_number'] as const) {
        const value = section.sealed[field];
        changes[field] = value ? this.sealer.sealField(field, value, owner) : null;
      }
    }
    const form = await this.savedStep(subject, section.kind, changes);
    // Erased since it was read: the erasure may have taken the form's copies before this step
    // landed, so the step takes back what it wrote, at once rather than at the settle pass.
    if ((await this.applications.find(subject.application.id))?.personal_data_erased_at) {
      await this.forms.erase(subject.digest);
      throw personalDataErased();
    }
    // Completed since it was read: the step may have landed after the signature, where reads
    // over the completion's claim never show it; the applicant is told it was not kept.
    if (await this.forms.isCompleted(subject.digest)) throw alreadyCompleted();
    return formView({ ...subject, form });
  }

  /**
   * The last step: the adults and guarantors the primary applicant listed in its household are
   * added, each with a form link of its own, then the form is completed.
   */
  async complete(link: FormLink, completion: FormCompletion): Promise<FormApplicant> {
    const subject = await this.subjects.open(link);
    if (subject.form?.form_status !== 'started') throw refused('the form must be started first');
    if (!subject.form.dob || !subject.form.id_number) throw refused('the identity step must be saved first');
    const { application, applicant } = subject;
    const household = applicant.type === 'primary' ? savedHousehold(subject.form) : null;
    const named = [
      ...(household?.adults ?? []).map((person) => ({ person, type: 'co_applicant' as const })),
      ...(household?.guarantors ?? []).map((person) => ({ person, type: 'guarantor' as const })),
    ];
    for (const [index, { person, type }] of named.entries()) {
      // Keyed by the naming applicant and position: a repeated submission adds each one once.
      const key = formAddedKey(applicant.id, type, index);
      await this.applicationsService.addApplicantFromForm(application.client_id, application.id, { ...person }, type, key);
    }
    const form = await this.markCompleted(subject, completion);
    await this.uploads.sent(subject);
    return formView({ ...subject, form });
  }

  /** The write that marks an applicant's form started. */
  private async markStarted(subject: FormSubject, contact: ApplicantForm['contact']): Promise<ApplicantForm> {
    const changes = {
      form_status: 'started' as const,
      form_started_at: new Date(),
      form_completed_at: null,
      ...(contact ? { contact } : {}),
    };
    const eventIds = await this.recordEvent(subject, 'application_form.started');
    const form = await this.saved(subject, changes, eventIds);
    this.outbox.written(eventIds);
    return form;
  }

  /**
   * The write that marks an applicant's form completed: an insert-once claim per applicant, so
   * that of two submissions at once only one completes it and publishes its event (and its SSN
   * is the one stored); the other is refused. The claim is copied into the form record after.
   */
  private async markCompleted(subject: FormSubject, completion: FormCompletion): Promise<ApplicantForm> {
    const now = new Date();
    const form = subject.form!;
    const changes: FormCompletionChanges = {
      form_status: 'completed',
      form_completed_at: now,
      signature: completion.signature,
      consent: { ...completion.consent, signed_name: completion.signature, signed_at: now },
      // The answers signed, as read before the claim: a step saved later never shows.
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
    return this.saved(subject, changes);
  }

  /** Writes `changes` into the subject's form record; the record as it now is. */
  private async saved(subject: FormSubject, changes: Partial<ApplicantForm>, eventIds: string[] = []): Promise<ApplicantForm> {
    await this.forms.save(subject.digest, formIds(subject), changes, eventIds);
    return { _id: subject.digest, ...formIds(subject), ...subject.form, ...changes, updated_at: new Date() } as ApplicantForm;
  }

  /** Saves one step into the subject's form record; the record as it now is. */
  private async savedStep(subject: FormSubject, step: string, changes: Record<string, unknown>): Promise<ApplicantForm> {
    await this.forms.saveStep(subject.digest, formIds(subject), step, changes);
    const form = { ...(subject.form as ApplicantForm), ...formIds(subject), updated_at: new Date() };
    for (const [field, value] of Object.entries(changes)) {
      if (field.startsWith('sections.')) form.sections = { ...form.sections, [field.slice('sections.'.length)]: value as string };
      else Object.assign(form, { [field]: value });
    }
    form.steps = [...new Set([...(form.steps ?? []), step])];
    return form;
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
}
