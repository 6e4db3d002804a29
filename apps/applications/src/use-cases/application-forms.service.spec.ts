import { ApplicationInput, ServiceError } from '@app/contracts';
import { MemoryDatabase } from '@app/persistence/memory-storage.testing';
import { FormCompletion } from './application-forms.service';
import { applicationsInstance, scope } from './applications-instance.testing';
import { AuditEventsRepository } from '../store/audit-events.repository';
import { ErasuresRepository } from '../store/erasures.repository';
import { ApplicantFiles } from './applicant-files';
import { FormLink } from './form-subjects';
import { PersonalDataErasure } from './personal-data-erasure';

const completion = (signature: string, userAgent = 'Browser/1.0'): FormCompletion => ({
  signature,
  consent: {
    form_preset_id: 1,
    form_preset_version: 1,
    disclosures: [{ id: 'screening', title: 'Tenant screening', text: 'You authorize a credit check.' }],
    ip_address: '203.0.113.7',
    user_agent: userAgent,
  },
});

/**
 * The form's side of the service over its collections in memory: an application made through the
 * API, its primary applicant's form started and its identity step saved.
 */
async function started(database: MemoryDatabase) {
  const app = await applicationsInstance(database);
  const created = await app.service.create(
    1,
    { property_id: 3, applicant: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' } } as ApplicationInput,
    scope(),
  );
  const applicant = (await app.repository.find(created.id))!.applicants[0];
  const DIGEST = applicant.form_token_digest!;
  const LINK: FormLink = { digest: DIGEST, applicationId: created.id };
  const owner = { clientId: 1, applicantId: applicant.id };
  await database.collection('applicant_forms').insertOne({
    _id: DIGEST,
    application_id: created.id,
    applicant_id: applicant.id,
    form_status: 'started',
    form_started_at: new Date(),
    form_completed_at: null,
    // The identity step saved: completion needs it.
    dob: app.sealer.sealField('dob', '1990-01-02', owner),
    id_number: app.sealer.sealField('id_number', '078051120', owner),
  });
  // The application's own events are out of the way.
  database.collection('event_outbox').documents.clear();
  return { app, service: app.formSteps, sealer: app.sealer, forms: app.forms, DIGEST, LINK, owner };
}

describe('ApplicationFormsService.complete', () => {
  it('refuses to complete a form whose identity step was never saved', async () => {
    const database = new MemoryDatabase();
    const { service, DIGEST, LINK } = await started(database);
    await database.collection('applicant_forms').updateOne({ _id: DIGEST }, { $set: { dob: null, id_number: null } });
    await expect(service.complete(LINK, completion('Ada Lovelace'))).rejects.toThrow('the identity step must be saved first');
  });

  it('completes a form once when two submissions arrive at once: one event, and the signature of the one that completed it', async () => {
    const database = new MemoryDatabase();
    const { service, DIGEST, LINK } = await started(database);

    const results = await Promise.allSettled([
      service.complete(LINK, completion('Ada Lovelace')),
      service.complete(LINK, completion('A. Lovelace')),
    ]);

    const completed = results.filter((result) => result.status === 'fulfilled');
    const refused = results.filter((result) => result.status === 'rejected');
    expect(completed).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect((refused[0] as PromiseRejectedResult).reason).toBeInstanceOf(ServiceError);
    const events = [...database.collection('event_outbox').documents.values()];
    expect(events.map((pending) => (pending.event as { event: string }).event)).toEqual(['application_form.completed']);

    const winner = results.findIndex((result) => result.status === 'fulfilled');
    const form = database.collection('applicant_forms').documents.get(DIGEST)!;
    expect(form.form_status).toBe('completed');
    expect(form.signature).toBe(['Ada Lovelace', 'A. Lovelace'][winner]);
  });

  it('shows a completion whose writer died before copying it into the form record, and refuses another', async () => {
    const database = new MemoryDatabase();
    const { service, DIGEST, LINK } = await started(database);
    await service.complete(LINK, completion('Ada Lovelace'));
    // What a writer killed between its claim and the copy leaves: the record still says started.
    await database.collection('applicant_forms').updateOne({ _id: DIGEST }, { $set: { form_status: 'started' } });

    expect((await service.find(LINK))?.form_status).toBe('completed');
    await expect(service.saveSection(LINK, { kind: 'emergency_contact', value: {}, sealed: {} })).rejects.toThrow(
      'this application form is already completed',
    );
    await expect(service.complete(LINK, completion('A. Lovelace'))).rejects.toBeInstanceOf(ServiceError);
  });

  it('records the consent signed with the completion, once: a later submission changes none of it', async () => {
    const database = new MemoryDatabase();
    const { service, DIGEST, LINK } = await started(database);
    await service.complete(LINK, completion('Ada Lovelace', 'First/1.0'));
    const recorded = structuredClone(database.collection('applicant_forms').documents.get(DIGEST)!.consent) as {
      signed_at: unknown;
    };
    expect(recorded).toMatchObject({
      signed_name: 'Ada Lovelace',
      ip_address: '203.0.113.7',
      user_agent: 'First/1.0',
      form_preset_id: 1,
      form_preset_version: 1,
      disclosures: [{ id: 'screening', title: 'Tenant screening', text: 'You authorize a credit check.' }],
    });
    expect(Object.prototype.toString.call(recorded.signed_at)).toBe('[object Date]');

    await expect(service.complete(LINK, completion('Ada Lovelace', 'Second/2.0'))).rejects.toBeInstanceOf(ServiceError);
    expect(database.collection('applicant_forms').documents.get(DIGEST)!.consent).toEqual(recorded);
  });
});

describe('ApplicationFormsService.saveSection', () => {
  it('refuses an identity step that lands after the form was completed, and shows the SSN signed', async () => {
    const database = new MemoryDatabase();
    const { service, sealer, forms, DIGEST, LINK, owner } = await started(database);
    const saveStep = forms.saveStep.bind(forms);
    // The step read the form started; the applicant completes it (another tab) before the step writes.
    jest.spyOn(forms, 'saveStep').mockImplementationOnce(async (...args) => {
      await service.complete(LINK, completion('Ada Lovelace'));
      return saveStep(...args);
    });

    const identity = { kind: 'identity' as const, value: {}, sealed: { dob: '1990-01-02', id_number: '219099999' } };
    await expect(service.saveSection(LINK, identity)).rejects.toThrow('this application form is already completed');

    const form = (await forms.find(DIGEST))!;
    expect(form.form_status).toBe('completed');
    expect(sealer.openField('id_number', form.id_number, owner)).toBe('078051120');
  });
});

describe('ApplicationFormsService.saveSection racing an erasure', () => {
  it('takes back a step that lands after the erasure took the form’s copies, and refuses it', async () => {
    const database = new MemoryDatabase();
    const { app, service, forms, DIGEST, LINK } = await started(database);
    const erasure = new PersonalDataErasure(
      app.repository,
      new ErasuresRepository(app.storage),
      app.views,
      app.forms,
      { removeAll: async () => 0 } as unknown as ApplicantFiles,
      {
        allocateIds: async (count: number) => Array.from({ length: count }, (_, i) => i + 1),
        recordErasure: async () => undefined,
      } as unknown as AuditEventsRepository,
    );
    const saveStep = forms.saveStep.bind(forms);
    // The step read the application not erased; the erasure runs whole before the step writes.
    jest.spyOn(forms, 'saveStep').mockImplementationOnce(async (...args) => {
      await erasure.erase(1, LINK.applicationId!, { key_id: '0123456789abcdef', request_id: 'r-1' });
      return saveStep(...args);
    });

    const contact = { kind: 'emergency_contact' as const, value: { name: 'Secret Contact' }, sealed: {} };
    await expect(service.saveSection(LINK, contact)).rejects.toThrow('the personal data of this application was erased');

    expect(JSON.stringify(await forms.find(DIGEST))).not.toContain('Secret Contact');
  });
});

describe('ApplicationFormsService.recordPreset', () => {
  it('records the first preset version and keeps it: a later one never replaces it', async () => {
    const database = new MemoryDatabase();
    const { service, LINK } = await started(database);
    expect((await service.find(LINK))!.form_preset).toBeNull();

    expect((await service.recordPreset(LINK, { id: 4, version: 1 })).form_preset).toEqual({ id: 4, version: 1 });
    expect((await service.recordPreset(LINK, { id: 4, version: 2 })).form_preset).toEqual({ id: 4, version: 1 });
    expect((await service.find(LINK))!.form_preset).toEqual({ id: 4, version: 1 });
  });

  it('lets two co-applicants recording at once agree on one version', async () => {
    const database = new MemoryDatabase();
    const { service, LINK } = await started(database);

    const [first, second] = await Promise.all([
      service.recordPreset(LINK, { id: 4, version: 1 }),
      service.recordPreset(LINK, { id: 4, version: 2 }),
    ]);

    expect(first.form_preset).toEqual(second.form_preset);
    expect(database.collection('application_form_presets').documents.size).toBe(1);
    expect((await service.find(LINK))!.form_preset).toEqual(first.form_preset);
  });
});
