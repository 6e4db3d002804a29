import { formPreset, FormApplicant } from '@app/contracts';
import { EmergencyContactSection } from './emergency-contact.section';

const context = { preset: formPreset(1), section: { kind: 'emergency_contact' as const }, applicant: {} as FormApplicant };

describe('the emergency contact section', () => {
  const section = new EmergencyContactSection();

  it('takes a name and a phone number, the rest optional', () => {
    expect(section.parse({ name: ' Mary ', phone: '(555) 010-9876' }, context)).toEqual({
      value: { name: 'Mary', phone: '5550109876' },
      problems: [],
    });
    expect(section.parse({ name: 'Mary', phone: '12', email: 'nope' }, context).problems).toEqual([
      { field: 'phone', message: 'must be a phone number of 10 to 15 digits' },
      { field: 'email', message: 'must be a valid e-mail address' },
    ]);
  });

  it('shows what was saved again', () => {
    expect(section.values({ name: 'Mary', relationship: null, phone: '5550109876' })).toEqual({
      name: 'Mary',
      phone: '5550109876',
    });
  });
});
