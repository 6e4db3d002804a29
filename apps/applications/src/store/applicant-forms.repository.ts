import { Injectable, OnModuleInit } from '@nestjs/common';
import { FormPresetVersionRef } from '@app/contracts';
import { EventWitness, OnceRecords, Records, Storage } from '@app/persistence';
import { ERASED_FORM_FIELDS } from '../domain/erased-fields';
import { ApplicantRecord } from '../domain/application';
import { ApplicantForm, FormCompletionChanges, withCompletion, withFormProgress } from '../domain/form-progress';

/** The one completion of an applicant's form, under its form token's digest, with the ids of its event. */
type FormCompletionClaim = FormCompletionChanges & { event_ids: string[] };

/** The preset version an application is filled with, under the application's key. */
interface FormPresetClaim extends FormPresetVersionRef {
  recorded_at: Date;
}

type FormRecord = Omit<ApplicantForm, '_id'> & { event_ids?: string[] };

/**
 * Applicants' form records (ApplicantForm), read by the digest of their form token, with the two
 * claims beside them: the form's completion, made once per applicant (the insert that only one of
 * two submissions at once can make; it keeps the answers signed, and reads show it over the
 * record, which a step saved as the form completed may still write after it), and the preset an
 * application is filled with, recorded once per application so that co-applicants opening the
 * form at once all read the same one. Kept beside the application document, which a change
 * through the API rewrites whole.
 */
@Injectable()
export class ApplicantFormsRepository implements OnModuleInit {
  private readonly forms: Records<FormRecord>;
  private readonly completions: OnceRecords<FormCompletionClaim>;
  private readonly presets: OnceRecords<FormPresetClaim>;

  constructor(storage: Storage) {
    this.forms = storage.records<FormRecord>('applicant_forms');
    this.completions = storage.onceRecords<FormCompletionClaim>('form_completions');
    this.presets = storage.onceRecords<FormPresetClaim>('application_form_presets');
  }

  async onModuleInit(): Promise<void> {
    await this.forms.prepare();
    await this.presets.prepare();
    await this.completions.prepare();
  }

  /** The preset version application `applicationId` is filled with, or null before the form resolved one. */
  async findPreset(applicationId: number): Promise<FormPresetVersionRef | null> {
    const claim = await this.presets.get(String(applicationId));
    return claim ? { id: claim.id, version: claim.version } : null;
  }

  /** Records `preset` for the application unless one is already; returns the one recorded, never changed once stored. */
  async recordPreset(applicationId: number, preset: FormPresetVersionRef): Promise<FormPresetVersionRef> {
    const { record } = await this.presets.claimOrRead(String(applicationId), { ...preset, recorded_at: new Date() });
    return { id: record.id, version: record.version };
  }

  /** The applicant's form record, completed as it was signed if its completion was claimed. */
  async find(digest: string): Promise<ApplicantForm | null> {
    const form = await this.forms.get(digest);
    return form && withCompletion(form, await this.completions.get(digest));
  }

  /** The applicants as their forms left them (withFormProgress), their form records read at once. */
  async withProgress(applicants: ApplicantRecord[]): Promise<ApplicantRecord[]> {
    return (await this.withProgressOfAll([applicants]))[0];
  }

  /**
   * Each list of applicants (a list page's applications') as their forms left them: every form
   * record of them all read in one round trip by `_id`, and the completion claims in a second.
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
   * Claims the completion of the form of `digest` with `changes`, whose events are `eventIds`:
   * true for the one submission that completes it. Copy it into the form record afterwards (`save`).
   */
  claimCompletion(digest: string, changes: FormCompletionChanges, eventIds: string[]): Promise<boolean> {
    return this.completions.claim(digest, { ...changes, event_ids: eventIds });
  }

  /** Whether the form of `digest` is completed: a write checks it again once it is done. */
  async isCompleted(digest: string): Promise<boolean> {
    return (await this.completions.get(digest)) !== null;
  }

  /** Where the completion of the form of `digest` shows its event (see EventOutbox). */
  completionWitness(digest: string): EventWitness {
    return this.completions.witness(digest);
  }

  /** Where a change of the form record of `digest` shows its events (see EventOutbox). */
  witness(digest: string): EventWitness {
    return this.forms.witness(digest);
  }

  /** Writes `changes` into the applicant's form record, creating it on the first step; its events go in with them. */
  async save(
    digest: string,
    ids: Pick<ApplicantForm, 'application_id' | 'applicant_id'>,
    changes: Partial<Omit<ApplicantForm, '_id'>>,
    eventIds: string[] = [],
  ): Promise<void> {
    const add = eventIds.length > 0 ? { event_ids: eventIds } : undefined;
    await this.forms.update(digest, { set: { ...ids, ...changes, updated_at: new Date() }, add }, { upsert: true });
  }

  /** Saves one step of the form: `changes` set (a section under `sections.<kind>`), and the step added to those saved. */
  async saveStep(
    digest: string,
    ids: Pick<ApplicantForm, 'application_id' | 'applicant_id'>,
    step: string,
    changes: Record<string, unknown>,
  ): Promise<void> {
    await this.forms.update(
      digest,
      { set: { ...ids, ...changes, updated_at: new Date() } as Partial<FormRecord>, add: { steps: [step] } },
      { upsert: true },
    );
  }

  /** Takes what an erasure takes from the form record of `digest` and from its completion's claim. Done again, changes nothing. */
  async erase(digest: string): Promise<void> {
    await this.forms.update(digest, { unset: [...ERASED_FORM_FIELDS] });
    await this.completions.strip(digest, [...ERASED_FORM_FIELDS]);
  }

  /** The form records of `digests` that have one, by digest, each as find gives it. */
  private async findAll(digests: string[]): Promise<Map<string, ApplicantForm>> {
    if (digests.length === 0) return new Map();
    const forms = await this.forms.getMany(digests);
    if (forms.size === 0) return forms;
    const completions = await this.completions.getMany([...forms.keys()]);
    return new Map([...forms].map(([digest, form]) => [digest, withCompletion(form, completions.get(digest) ?? null)]));
  }
}
