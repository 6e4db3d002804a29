import { formPreset, FormApplicant } from '@app/contracts';
import { IdentitySection } from './identity.section';

const context = { preset: formPreset(1), section: { kind: 'identity' as const }, applicant: {} as FormApplicant };

describe('the identity section', () => {
  const section = new IdentitySection();

  it('reads the step into the identity, the SSN and license normalized', () => {
    const parsed = section.parse(
      {
        middle_name: ' Byron ',
        dob: '04/12/1990',
        id_number: '123-45-6789',
        drivers_license_state: 'NY',
        drivers_license_number: 'D1',
      },
      context,
    );
    expect(parsed).toEqual({
      value: {
        middle_name: 'Byron',
        dob: '1990-04-12',
        id_number: '123456789',
        drivers_license_state: 'NY',
        drivers_license_number: 'D1',
      },
      problems: [],
    });
  });

  it('names each problem by its field', () => {
    expect(section.parse({ dob: '2999-01-01', drivers_license_state: 'ZZ' }, context).problems).toEqual([
      { field: 'dob', message: 'must be a date in the past' },
      { field: 'id_number', message: 'is required' },
      { field: 'drivers_license_state', message: expect.stringContaining('must be one of AL, AK') },
    ]);
  });

  it('never writes the SSN or license number back into its page, and puts the privacy notice beside the SSN', () => {
    const values = section.values({ middle_name: 'B', dob: '1990-04-12', id_number: '123456789', drivers_license_number: 'D1' });
    expect(values).toEqual({ middle_name: 'B', dob: '1990-04-12' });
    const page = section.page({ ...values, id_number: '123456789' }, context);
    expect(page.fields.find((field) => field.name === 'id_number')).toMatchObject({
      type: 'password',
      autocomplete: 'off',
      value: '',
    });
    expect(page.privacyNotice).toBe(true);
  });
});
