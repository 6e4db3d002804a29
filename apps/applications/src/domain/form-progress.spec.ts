import { ApplicantRecord } from './application';
import { ApplicantForm, withFormProgress } from './form-progress';

const created = new Date('2026-11-20T10:00:00Z');
const applicant = {
  id: 7,
  type: 'primary',
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
  created_at: created,
  updated_at: created,
} as ApplicantRecord;

const form = (updatedAt: Date): ApplicantForm => ({
  _id: 'digest',
  application_id: 3,
  applicant_id: 7,
  form_status: 'started',
  form_started_at: updatedAt,
  form_completed_at: null,
  contact: { first_name: 'Ada', last_name: 'King', email: 'ada@example.com', phone: null },
  updated_at: updatedAt,
});

describe('withFormProgress', () => {
  it('is the applicant as stored when the form was never opened', () => {
    expect(withFormProgress(applicant, null)).toBe(applicant);
  });

  it('moves updated_at to the form step that changed the applicant', () => {
    const step = new Date('2026-11-22T14:03:09Z');
    const current = withFormProgress(applicant, form(step));
    expect(current).toMatchObject({ last_name: 'King', form_status: 'started', created_at: created, updated_at: step });
  });

  it('keeps a later change of the stored applicant', () => {
    const later = new Date('2026-11-23T09:00:00Z');
    const current = withFormProgress({ ...applicant, updated_at: later }, form(new Date('2026-11-22T14:03:09Z')));
    expect(current.updated_at).toBe(later);
  });

  it('shows none of what an erasure takes once the applicant is erased, should the form record hold it again', () => {
    const sealed = { key_id: 'k1', nonce: 'n', ciphertext: 'c', tag: 't' };
    const saved = { ...form(created), dob: sealed, id_number: sealed, sections: { employment: '{}' }, form_answers: '{}' };
    const erased = { ...applicant, dob: null, id_number: null, personal_data_erased_at: new Date('2026-11-24T00:00:00Z') };
    expect(withFormProgress(erased, saved)).toMatchObject({
      last_name: 'King',
      form_status: 'started',
      dob: null,
      id_number: null,
      drivers_license_number: null,
      form_answers: null,
      form_sections: null,
    });
    expect(withFormProgress(applicant, saved)).toMatchObject({ dob: sealed, form_sections: { employment: '{}' } });
  });

  it('takes the form step over an applicant stored before applicants had their own times', () => {
    const step = new Date('2026-11-22T14:03:09Z');
    const { created_at: _created, updated_at: _updated, ...old } = applicant;
    expect(withFormProgress(old, form(step)).updated_at).toBe(step);
  });
});
