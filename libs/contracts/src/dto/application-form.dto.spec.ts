import { formPreset, FORM_PRESETS } from '../form-presets';
import { parseRequest } from '../validation/parse';
import { FormContactInput } from './application-form.dto';
import { HouseholdSectionInput, IdentitySectionInput, ResidenceHistoryInput } from './form-sections.dto';

describe('the application form contracts', () => {
  it('ship at least two presets, each with questions and disclosures, and fall back to the first', () => {
    expect(FORM_PRESETS.length).toBeGreaterThanOrEqual(2);
    for (const preset of FORM_PRESETS) {
      expect(preset.questions.length).toBeGreaterThan(0);
      expect(preset.disclosures.length).toBeGreaterThan(0);
    }
    expect(formPreset(2).id).toBe(2);
    expect(formPreset(99)).toBe(FORM_PRESETS[0]);
  });

  it('validate contact details as the API validates an applicant', () => {
    expect(
      parseRequest(FormContactInput, { first_name: ' Ada ', last_name: 'L', email: 'a@example.com', phone: '(555) 010-1234' }),
    ).toEqual({
      first_name: 'Ada',
      last_name: 'L',
      email: 'a@example.com',
      phone: '5550101234',
    });
    expect(() => parseRequest(FormContactInput, { first_name: 'Ada', last_name: 'L', email: 'nope' })).toThrow(
      'email must be a valid e-mail address',
    );
  });

  it('require a past date of birth and a well-formed SSN, normalized as through the API', () => {
    expect(
      parseRequest(IdentitySectionInput, { dob: '04/12/1990', id_number: '123-45-6789', drivers_license_state: 'NY' }),
    ).toEqual({
      dob: '1990-04-12',
      id_number: '123456789',
      drivers_license_state: 'NY',
    });
    expect(() => parseRequest(IdentitySectionInput, { dob: '2999-01-01', id_number: '12345' })).toThrow(
      'dob must be a date in the past',
    );
    expect(() =>
      parseRequest(IdentitySectionInput, { dob: '1990-01-01', id_number: '123456789', drivers_license_state: 'XX' }),
    ).toThrow('drivers_license_state must be one of');
  });

  it('validate every entry of a repeated list and name the entry of each problem', () => {
    const entry = { address: ' 1 Main St ', from: '2020-01-01', to: null, monthly_rent: 1200 };
    expect(parseRequest(ResidenceHistoryInput, { residences: [entry] })).toEqual({
      residences: [{ address: '1 Main St', from: '2020-01-01', to: null, monthly_rent: 1200 }],
    });
    expect(() => parseRequest(ResidenceHistoryInput, { residences: [entry, { address: '', from: 'soon', x: 1 }] })).toThrow(
      expect.objectContaining({
        details: [
          { field: 'residences.1.address', message: 'must not be empty' },
          { field: 'residences.1.from', message: 'must be a calendar date written MM/DD/YYYY or YYYY-MM-DD' },
          { field: 'residences.1.x', message: 'is not a known field' },
        ],
      }),
    );
    expect(() => parseRequest(ResidenceHistoryInput, { residences: 'many' })).toThrow('residences must be an array');
  });

  it('take at most three adults and three guarantors on a household', () => {
    const person = { first_name: 'A', last_name: 'B', email: 'a@example.com' };
    const household = { adults: [person], minors: [{ name: 'Kid', age: '7' }], pets: [], vehicles: [], guarantors: [] };
    expect(parseRequest(HouseholdSectionInput, household).minors).toEqual([{ name: 'Kid', age: 7 }]);
    expect(() => parseRequest(HouseholdSectionInput, { ...household, guarantors: [person, person, person, person] })).toThrow(
      'guarantors must have at most 3 entries',
    );
  });
});
