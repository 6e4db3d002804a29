import { ApplicantRecord } from './application';
import { erasedApplicant, holdsPersonalData } from './erased-fields';

const sealed = { key_id: 'k1', nonce: 'n', ciphertext: 'c', tag: 't' };
const applicant = {
  id: 7,
  type: 'co_applicant',
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
  phone: '5550100000',
  custom_data: null,
  reference_id: 'crm-7',
  redirect_url: null,
  dob: sealed,
  id_number: sealed,
  drivers_license_number: sealed,
  form_answers: '{"savings":"$12,000"}',
  form_sections: { residence_history: '{"residences":[]}' },
  form_token: sealed,
  form_token_digest: 'digest',
  form_status: 'completed',
} as ApplicantRecord;
const AT = new Date('2026-11-24T00:00:00Z');

describe('erasedApplicant', () => {
  it('takes the identity numbers, the date of birth, the sections and the answers, and keeps who it is', () => {
    const { form_sections: _sections, ...kept } = applicant;
    expect(erasedApplicant(applicant, AT)).toEqual({
      ...kept,
      dob: null,
      id_number: null,
      drivers_license_number: null,
      form_answers: null,
      personal_data_erased_at: AT,
    });
    expect(kept).toMatchObject({ first_name: 'Ada', phone: '5550100000', reference_id: 'crm-7', form_status: 'completed' });
  });

  it('keeps when it was first erased, and adds no field the record did not have', () => {
    const { drivers_license_number: _dl, form_answers: _answers, ...stored } = applicant;
    const once = erasedApplicant(stored, AT);
    expect(once).not.toHaveProperty('drivers_license_number');
    expect(once).not.toHaveProperty('form_answers');
    expect(erasedApplicant(once, new Date('2027-01-01T00:00:00Z')).personal_data_erased_at).toBe(AT);
  });
});

describe('holdsPersonalData', () => {
  it('is true while a copy holds any of what an erasure takes, and false once erased', () => {
    expect(holdsPersonalData(applicant)).toBe(true);
    expect(
      holdsPersonalData({ ...applicant, dob: null, id_number: null, drivers_license_number: null, form_answers: null }),
    ).toBe(false);
    expect(holdsPersonalData(erasedApplicant(applicant, AT))).toBe(false);
  });
});
