import { formPreset, FormApplicant } from '@app/contracts';
import { HouseholdSection } from './household.section';

const context = { preset: formPreset(1), section: { kind: 'household' as const }, applicant: {} as FormApplicant };

describe('the household section', () => {
  const section = new HouseholdSection();

  it('lists adults, minors, pets, vehicles and guarantors', () => {
    const parsed = section.parse(
      {
        'adults.0.first_name': 'Charles',
        'adults.0.last_name': 'Babbage',
        'adults.0.email': 'charles@example.com',
        'minors.0.name': 'Annabella',
        'minors.0.age': '7',
        'pets.0.kind': 'Dog',
        'vehicles.0.make_model': 'Corolla',
        'guarantors.0.first_name': 'Anne',
        'guarantors.0.last_name': 'Milbanke',
        'guarantors.0.email': 'anne@example.com',
      },
      context,
    );
    expect(parsed.value).toEqual({
      adults: [{ first_name: 'Charles', last_name: 'Babbage', email: 'charles@example.com' }],
      minors: [{ name: 'Annabella', age: 7 }],
      pets: [{ kind: 'Dog' }],
      vehicles: [{ make_model: 'Corolla' }],
      guarantors: [{ first_name: 'Anne', last_name: 'Milbanke', email: 'anne@example.com' }],
    });
  });

  it('refuses an adult without an e-mail address and a minor of 18', () => {
    expect(
      section.parse(
        { 'adults.0.first_name': 'C', 'adults.0.last_name': 'B', 'minors.0.name': 'A', 'minors.0.age': '18' },
        context,
      ).problems,
    ).toEqual([
      { field: 'adults.0.email', message: 'is required' },
      { field: 'minors.0.age', message: 'must be at most 17' },
    ]);
  });

  it('starts with every list empty, each with its add button, and stops adding people at three', () => {
    const page = section.page({}, context);
    expect(page.lists.map((list) => [list.name, list.rows.length, list.canAdd])).toEqual([
      ['adults', 0, true],
      ['minors', 0, true],
      ['pets', 0, true],
      ['vehicles', 0, true],
      ['guarantors', 0, true],
    ]);
    expect(section.page({ 'adults.rows': '3' }, context).lists[0].canAdd).toBe(false);
  });
});
