import { HouseholdSectionInput, MAX_FORM_PEOPLE, PlainTextPipe } from '@app/contracts';
import { FieldSpec, ListSpec, SectionModule, validated } from './section';

const PERSON: FieldSpec[] = [
  { name: 'first_name', label: 'First name', required: true },
  { name: 'last_name', label: 'Last name', required: true },
  { name: 'email', label: 'E-mail address', required: true, type: 'email' },
];

/**
 * Who else lives there and who guarantees the rent: adults and guarantors each get a form link of
 * their own when the application is completed; minors are occupants and fill in nothing.
 */
export class HouseholdSection extends SectionModule<HouseholdSectionInput> {
  readonly kind = 'household';
  readonly title = 'Your household';
  readonly intro = 'Everyone and everything that will live here with you. Leave a list empty if it does not apply.';
  protected override readonly lists: ListSpec[] = [
    {
      name: 'adults',
      entry: 'Adult',
      heading: 'Other adults',
      intro: 'Anyone 18 or older who will live here. Each gets an e-mail link to fill in their own application.',
      start: 0,
      max: MAX_FORM_PEOPLE,
      fields: PERSON,
    },
    {
      name: 'minors',
      entry: 'Child',
      heading: 'Children',
      intro: 'Children under 18 who will live here. They fill in nothing.',
      start: 0,
      max: 10,
      fields: [
        { name: 'name', label: 'Full name', required: true },
        { name: 'age', label: 'Age', required: true, inputmode: 'numeric' },
      ],
    },
    {
      name: 'pets',
      entry: 'Pet',
      heading: 'Pets',
      start: 0,
      max: 10,
      fields: [
        { name: 'kind', label: 'Kind of animal', required: true },
        { name: 'description', label: 'Breed, size and weight' },
      ],
    },
    {
      name: 'vehicles',
      entry: 'Vehicle',
      heading: 'Vehicles',
      start: 0,
      max: 10,
      fields: [
        { name: 'make_model', label: 'Make and model', required: true },
        { name: 'plate', label: 'License plate' },
      ],
    },
    {
      name: 'guarantors',
      entry: 'Guarantor',
      heading: 'Guarantors',
      intro:
        'Someone who does not live here and agrees to pay the rent if you cannot. Each gets a link to their own, shorter form.',
      start: 0,
      max: MAX_FORM_PEOPLE,
      fields: PERSON,
    },
  ];

  protected validate(plain: Record<string, unknown>): HouseholdSectionInput {
    const input = validated(HouseholdSectionInput, plain);
    // The people named here are e-mailed with the applicant's name and theirs: one line each.
    const named = (list: string, count: number) =>
      Array.from({ length: count }, (_, i) => [`${list}.${i}.first_name`, `${list}.${i}.last_name`]).flat();
    const paths = [...named('adults', input.adults?.length ?? 0), ...named('guarantors', input.guarantors?.length ?? 0)];
    return new PlainTextPipe<HouseholdSectionInput>(paths).transform(input);
  }
}
