import { MemoryDatabase, MemoryStorage } from '@app/persistence/memory-storage.testing';
import { ApplicantFormsRepository } from './applicant-forms.repository';

describe('ApplicantFormsRepository.find', () => {
  it('shows the whole completion, consent included, when its writer died before copying it into the form record', async () => {
    const database = new MemoryDatabase();
    const forms = new ApplicantFormsRepository(new MemoryStorage(database));
    const signedAt = new Date('2026-11-22T15:00:00Z');
    const consent = {
      form_preset_id: 1,
      form_preset_version: 1,
      disclosures: [{ id: 'screening', title: 'Tenant screening', text: 'You authorize a credit check.' }],
      ip_address: '203.0.113.7',
      user_agent: 'Browser/1.0',
      signed_name: 'Ada King',
      signed_at: signedAt,
    };
    await database.collection('applicant_forms').insertOne({
      _id: 'digest',
      application_id: 3,
      applicant_id: 7,
      form_status: 'started',
      form_started_at: new Date('2026-11-22T14:03:09Z'),
      form_completed_at: null,
      updated_at: new Date('2026-11-22T14:03:09Z'),
    });
    const changes = { form_status: 'completed' as const, form_completed_at: signedAt, signature: 'Ada King', consent };
    await forms.claimCompletion('digest', changes, []);

    expect(await forms.find('digest')).toMatchObject(changes);
    expect((await forms.find('digest'))!).not.toHaveProperty('event_ids');
  });
});
