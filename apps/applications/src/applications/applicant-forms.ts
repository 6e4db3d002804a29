import { Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import { Connection } from 'mongoose';
import { FormPresetVersionRef, FormStatus, SealedValue } from '@app/contracts';
import { EventWitness } from '@app/events';
import { BackgroundPurge, claimed, documentKey, ignoreExistingCollection } from '@app/persistence';
import { ERASED_FORM_FIELDS } from '../personal-data/erased-fields';
import { ApplicantRecord, StoredConsent } from './application.schema';

const APPLICANT_FORMS = 'applicant_forms';
const FORM_SUBMISSIONS = 'form_submissions';
const FORM_COMPLETIONS = 'form_completions';
const FORM_PRESETS = 'application_form_presets';

/**
 * How long a used form page's submission nonce is kept: longer than the CSRF token that carries
 * it lives (4 hours, apps/form), so a page sent again is refused while its token is still valid;
 * after that the form refuses the expired token itself.
 */
export const SUBMISSION_RETENTION_MS = 24 * 60 * 60 * 1000;
const PURGE_EVERY_MS = 60 * 60 * 1000;

/**
 * What a form page's submission answered, enough to answer it again: the applicant it left (by
 * its form link), and whether the answer carried the link's token (step 1, which makes it).
 */
export interface SubmissionOutcome {
  token_digest: string;
  application_id: number;
  with_token: boolean;
}

/**
 * A form page's submission nonce, claimed when its work starts (`at`), with what it answered once
 * that work is done (`outcome`; absent while it runs, or when the process running it died).
 */
interface FormSubmission {
  _id: string;
  at: Date;
  outcome?: SubmissionOutcome;
}

/**
 * What completing the form stores: everything of step 3, and the answers as they were signed
 * (contact, sections, identity), which the form record then shows.
 */
export type FormCompletionChanges = Pick<
  ApplicantForm,
  | 'form_status'
  | 'form_completed_at'
  | 'signature'
  | 'consent'
  | 'contact'
  | 'form_answers'
  | 'sections'
  | 'dob'
  | 'id_number'
  | 'drivers_license_number'
>;

/**
 * The one completion of an applicant's form, under `_id` = its form token's digest: the insert
 * that only one of two submissions at once can make, and the witness of its event. It keeps the
 * answers signed: FerretDB has no transactions, nor a conditional update that does not read and
 * then write, so a step saved while the form completes may still land in the form record after
 * the claim; read over the claim, it never shows.
 */
interface FormCompletionClaim extends FormCompletionChanges {
  _id: string;
  event_ids: string[];
}

/**
 * The preset version an application is filled with, under `_id` = the application's key: an
 * insert-once claim, so that of two co-applicants opening the form at once exactly one records
 * it (the `_id` index decides, on MongoDB and FerretDB alike) and both then read the same one.
 * Kept beside the application document, which a change through the API rewrites whole.
 */
interface FormPresetClaim extends FormPresetVersionRef {
  _id: string;
  recorded_at: Date;
}

/**
 * How far one applicant got in the online form, keyed by the digest of its form token: the form
 * finds an applicant by its token, and the API by the applicant's stored digest, each with one
 * read by `_id` (the one read FerretDB answers from an index). Kept beside the application
 * document rather than inside it: a co-applicant added through the API rewrites that document's
 * applicants, which would otherwise drop a form step saved at the same moment.
 */
export interface ApplicantForm {
  /** The applicant's form_token_digest. */
  _id: string;
  application_id: number;
  applicant_id: number;
  form_status: FormStatus;
  form_started_at: Date | null;
  form_completed_at: Date | null;
  /** Contact details as the applicant gave them on step 1, over those stored at creation. */
  contact?: Pick<ApplicantRecord, 'first_name' | 'last_name' | 'email' | 'phone'> | null;
  /** The preset's answers, as JSON text: the keys are the preset's question ids. */
  form_answers?: string | null;
  signature?: string | null;
  /** Written by the completion's insert-once claim and copied here; nothing changes it afterwards. */
  consent?: StoredConsent | null;
  dob?: SealedValue | null;
  id_number?: SealedValue | null;
  drivers_license_number?: SealedValue | null;
  /** Each saved section (but the questions, in form_answers) as JSON text, by kind. */
  sections?: Record<string, string>;
  /** The steps saved so far: `details` and section kinds. */
  steps?: string[];
  updated_at: Date;
}

@Injectable()
export class ApplicantForms implements OnModuleInit, OnModuleDestroy {
  private readonly purge = new BackgroundPurge('used form nonces', PURGE_EVERY_MS, () => this.purgeSubmissions());

  constructor(@InjectConnection() private readonly connection: Connection) {}

  private get forms() {
    return this.connection.collection<ApplicantForm>(APPLICANT_FORMS);
  }

  private get submissions() {
    return this.connection.collection<FormSubmission>(FORM_SUBMISSIONS);
  }

  private get completions() {
    return this.connection.collection<FormCompletionClaim>(FORM_COMPLETIONS);
  }

  private get presets() {
    return this.connection.collection<FormPresetClaim>(FORM_PRESETS);
  }

  async onModuleInit(): Promise<void> {
    await this.connection.createCollection(APPLICANT_FORMS).catch(ignoreExistingCollection);
    await this.connection.createCollection(FORM_PRESETS).catch(ignoreExistingCollection);
    await this.connection.createCollection(FORM_COMPLETIONS).catch(ignoreExistingCollection);
    await this.connection.createCollection(FORM_SUBMISSIONS).catch(ignoreExistingCollection);
    this.purge.start();
  }

  onModuleDestroy(): void {
    this.purge.stop();
  }

  /** The preset version application `applicationId` is filled with, or null before the form resolved one. */
  async findPreset(applicationId: number): Promise<FormPresetVersionRef | null> {
    const claim = await this.presets.findOne({ _id: documentKey(applicationId) });
    return claim ? { id: claim.id, version: claim.version } : null;
  }

  /**
   * Records `preset` for application `applicationId` unless one is recorded already; returns the
   * one recorded, this or the earlier one, never changed once stored.
   */
  async recordPreset(applicationId: number, preset: FormPresetVersionRef): Promise<FormPresetVersionRef> {
    const claim = { _id: documentKey(applicationId), id: preset.id, version: preset.version, recorded_at: new Date() };
    if (await claimed(this.presets.insertOne(claim))) return { id: preset.id, version: preset.version };
    return (await this.findPreset(applicationId))!;
  }

  /** Whether this is the first use of a form page's submission nonce (the `_id` index decides races). */
  claimSubmission(nonce: string): Promise<boolean> {
    return claimed(this.submissions.insertOne({ _id: nonce, at: new Date() }));
  }

  /** What the submission `nonce` answered; null while its work runs, or when it was never done. */
  async submissionOutcome(nonce: string): Promise<SubmissionOutcome | null> {
    return (await this.submissions.findOne({ _id: nonce }))?.outcome ?? null;
  }

  /**
   * Claims again a submission whose work was claimed before `staleBefore` and never answered: the
   * process doing it died, and the message came back. True for the one caller that takes it over.
   */
  async takeOverSubmission(nonce: string, staleBefore: Date): Promise<boolean> {
    const { modifiedCount } = await this.submissions.updateOne(
      { _id: nonce, outcome: { $exists: false }, at: { $lt: staleBefore } },
      { $set: { at: new Date() } },
    );
    return modifiedCount === 1;
  }

  /** Records what the submission `nonce` answered, to answer it so again. */
  async recordSubmissionOutcome(nonce: string, outcome: SubmissionOutcome): Promise<void> {
    await this.submissions.updateOne({ _id: nonce }, { $set: { outcome } });
  }

  /** Gives back the claim of a submission whose work failed, so that the page may be sent again. */
  async releaseSubmission(nonce: string): Promise<void> {
    await this.submissions.deleteOne({ _id: nonce, outcome: { $exists: false } });
  }

  /**
   * Removes the nonces used longer ago than SUBMISSION_RETENTION_MS; returns how many. Every
   * instance does this once an hour (BackgroundPurge); the filter reads every nonce on FerretDB,
   * in the background, never on a request's path.
   */
  async purgeSubmissions(now = new Date()): Promise<number> {
    const { deletedCount } = await this.submissions.deleteMany({
      at: { $lt: new Date(now.getTime() - SUBMISSION_RETENTION_MS) },
    });
    return deletedCount;
  }

  /** The applicants as their forms left them (withFormProgress), their form records read at once. */
  async withProgress(applicants: ApplicantRecord[]): Promise<ApplicantRecord[]> {
    return (await this.withProgressOfAll([applicants]))[0];
  }

  /**
   * Each list of applicants (a list page's applications') as their forms left them, every form
   * record of them all read in one round trip by `_id`, and the completion claims of those there
   * are in a second: a page of 25 applications took up to 50 round trips, one after the other.
   */
  async withProgressOfAll(lists: ApplicantRecord[][]): Promise<ApplicantRecord[][]> {
    const digests = lists.flatMap((applicants) => applicants.flatMap((applicant) => applicant.form_token_digest ?? []));
    const forms = await this.findAll(digests);
    return lists.map((applicants) =>
      applicants.map((applicant) =>
        withFormProgress(applicant, applicant.form_token_digest ? (forms.get(applicant.form_token_digest) ?? null) : null),
      ),
    );
  }

  /**
   * The applicant's form record, completed as it was signed if its completion was claimed: the
   * claim is the record of truth, a writer may have died between the claim and its copy into the
   * record, and a step saved as the form completed may have written the record after both.
   */
  async find(digest: string): Promise<ApplicantForm | null> {
    const form = await this.forms.findOne({ _id: digest });
    if (!form) return form;
    return withCompletion(form, await this.completions.findOne({ _id: digest }));
  }

  /** The form records of `digests` that have one, by digest, each as find gives it. */
  private async findAll(digests: string[]): Promise<Map<string, ApplicantForm>> {
    if (digests.length === 0) return new Map();
    const forms = await this.forms.find({ _id: { $in: [...new Set(digests)] } }).toArray();
    if (forms.length === 0) return new Map();
    const completions = await this.completions.find({ _id: { $in: forms.map((form) => form._id) } }).toArray();
    const claims = new Map(completions.map((claim) => [claim._id, claim]));
    return new Map(forms.map((form) => [form._id, withCompletion(form, claims.get(form._id) ?? null)]));
  }

  /**
   * Claims the completion of the form of `digest` with `changes`, whose events are `eventIds`:
   * true for the one submission that completes it, false for any other (the `_id` index decides
   * a race). Copy it into the form record afterwards with `save`.
   */
  claimCompletion(digest: string, changes: FormCompletionChanges, eventIds: string[]): Promise<boolean> {
    return claimed(this.completions.insertOne({ _id: digest, ...changes, event_ids: eventIds }));
  }

  /** Whether the form of `digest` is completed: a write checks it again once it is done. */
  async isCompleted(digest: string): Promise<boolean> {
    return (await this.completions.findOne({ _id: digest })) !== null;
  }

  /** Where the completion of the form of `digest` shows its event (see EventOutbox). */
  completionWitness(digest: string): EventWitness {
    return { collection: FORM_COMPLETIONS, key: digest };
  }

  /** Writes `changes` into the applicant's form record, creating it on the first step. */
  async save(
    digest: string,
    ids: Pick<ApplicantForm, 'application_id' | 'applicant_id'>,
    changes: Partial<Omit<ApplicantForm, '_id'>>,
    eventIds: string[] = [],
  ): Promise<void> {
    const updated_at = new Date();
    // The events of the change go in with it: the outbox publishes them once the record shows them.
    const events = eventIds.length > 0 ? { $addToSet: { event_ids: { $each: eventIds } } } : {};
    await this.forms.updateOne({ _id: digest }, { $set: { ...ids, ...changes, updated_at }, ...events }, { upsert: true });
  }

  /**
   * Saves one step of the form: `changes` set (a section, under `sections.<kind>`, or the
   * fields a step stores), and the step added to those saved.
   */
  async saveStep(
    digest: string,
    ids: Pick<ApplicantForm, 'application_id' | 'applicant_id'>,
    step: string,
    changes: Record<string, unknown>,
  ): Promise<void> {
    await this.forms.updateOne(
      { _id: digest },
      { $set: { ...ids, ...changes, updated_at: new Date() }, $addToSet: { steps: step } },
      { upsert: true },
    );
  }

  /**
   * Takes what an erasure takes from the form record of `digest` and from its completion's claim,
   * which keeps the answers as they were signed. Doing it again changes nothing.
   */
  async erase(digest: string): Promise<void> {
    const unset = Object.fromEntries(ERASED_FORM_FIELDS.map((field) => [field, 1 as const]));
    await this.forms.updateOne({ _id: digest }, { $unset: unset });
    await this.completions.updateOne({ _id: digest }, { $unset: unset });
  }

  /** Where a change of the form record of `digest` shows its events (see EventOutbox). */
  witness(digest: string): EventWitness {
    return { collection: APPLICANT_FORMS, key: digest };
  }
}

/**
 * The applicant as the form left it: its progress and the details it gave over the stored ones,
 * and updated when either was last changed (a form step is a change of the applicant).
 */
export function withFormProgress(applicant: ApplicantRecord, saved: ApplicantForm | null): ApplicantRecord {
  if (!saved) return applicant;
  const form = applicant.personal_data_erased_at ? erasedForm(saved) : saved;
  const stored = applicant.updated_at ?? applicant.created_at;
  return {
    ...applicant,
    ...(form.contact ?? {}),
    form_status: form.form_status,
    form_started_at: form.form_started_at,
    form_completed_at: form.form_completed_at,
    form_answers: form.form_answers ?? null,
    consent: form.consent ?? null,
    form_sections: form.sections ?? null,
    form_steps: form.steps ?? [],
    dob: form.dob ?? applicant.dob,
    id_number: form.id_number ?? applicant.id_number,
    drivers_license_number: form.drivers_license_number ?? null,
    updated_at: stored && stored > form.updated_at ? stored : form.updated_at,
  };
}

/**
 * The form record as an erased applicant shows it: without what the erasure took, should a step
 * saved as the erasure ran have written it again (until the sweep erases that too).
 */
function erasedForm(form: ApplicantForm): ApplicantForm {
  const kept: ApplicantForm = { ...form };
  for (const field of ERASED_FORM_FIELDS) delete kept[field];
  return kept;
}

/** The form record with its completion claim's fields over it, every one of them (see find). */
function withCompletion(form: ApplicantForm, completion: FormCompletionClaim | null): ApplicantForm {
  if (!completion) return form;
  // Every field the claim holds, so that none it gains later is left out of the fallback.
  const { _id: _digest, event_ids: _events, ...completed } = completion;
  return { ...form, ...completed };
}
