import { ApplicantRecord } from './application';
import { correctedApplicant, withApplicantChange } from './applicant-change';

const applicant = (id: number, extra: Partial<ApplicantRecord> = {}): ApplicantRecord => ({
  id,
  type: id === 1 ? 'primary' : 'co_applicant',
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
  dob: null,
  id_number: null,
  phone: null,
  custom_data: null,
  reference_id: null,
  redirect_url: null,
  ...extra,
});

describe('withApplicantChange', () => {
  const applicants = [applicant(1), applicant(2), applicant(3)];

  it('adds, replaces in place, and removes', () => {
    expect(withApplicantChange(applicants, { applicant: applicant(4) }).map((a) => a.id)).toEqual([1, 2, 3, 4]);
    const corrected = applicant(2, { email: 'new@example.com' });
    const replaced = withApplicantChange(applicants, { updated_applicant: corrected });
    expect(replaced.map((a) => a.id)).toEqual([1, 2, 3]);
    expect(replaced[1]).toBe(corrected);
    expect(withApplicantChange(applicants, { removed_applicant_id: 2 }).map((a) => a.id)).toEqual([1, 3]);
  });

  it('changes nothing for an applicant no longer there', () => {
    expect(withApplicantChange(applicants, { updated_applicant: applicant(9) })).toEqual(applicants);
    expect(withApplicantChange(applicants, { removed_applicant_id: 9 })).toEqual(applicants);
  });
});

describe('correctedApplicant', () => {
  const at = new Date('2026-11-25T10:00:00Z');

  it('applies the fields given, keeps the rest, stores custom_data as text and stamps updated_at', () => {
    const current = applicant(2, { phone: '5550101234', custom_data: '{"a":1}', updated_at: new Date(0) });
    const next = correctedApplicant(current, { last_name: 'King', custom_data: { b: 2 }, phone: null }, at)!;
    expect(next).toEqual({ ...current, last_name: 'King', custom_data: '{"b":2}', phone: null, updated_at: at });
  });

  it('is null when nothing would change, so that no version and no event is made', () => {
    const current = applicant(2, { reference_id: 'crm-1', custom_data: '{"a":1}' });
    expect(correctedApplicant(current, {}, at)).toBeNull();
    expect(correctedApplicant(current, { first_name: 'Ada', reference_id: 'crm-1', custom_data: { a: 1 } }, at)).toBeNull();
    expect(correctedApplicant(current, { phone: null }, at)).toBeNull();
  });
});
