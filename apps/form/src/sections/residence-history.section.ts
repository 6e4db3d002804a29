import { FieldProblem, ResidenceEntry, ResidenceHistoryInput } from '@app/contracts';
import { ListSpec, SectionContext, SectionModule, validated } from './section';

const WRITTEN_DATE = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });

/** Where the applicant lived: entries added until the years the preset asks for are covered. */
export class ResidenceHistorySection extends SectionModule<ResidenceHistoryInput> {
  readonly kind = 'residence_history';
  readonly title = 'Where you have lived';
  readonly intro = 'Start with your current address, then add the ones before it.';
  protected override readonly lists: ListSpec[] = [
    {
      name: 'residences',
      entry: 'Address',
      heading: 'Addresses',
      start: 1,
      max: 10,
      fields: [
        { name: 'address', label: 'Address', required: true, type: 'textarea', autocomplete: 'street-address' },
        { name: 'from', label: 'Moved in', required: true, type: 'date', hint: 'For example June 1, 2021.' },
        { name: 'to', label: 'Moved out', type: 'date', hint: 'Leave empty for your current address.' },
        { name: 'monthly_rent', label: 'Monthly rent in dollars', inputmode: 'decimal' },
        { name: 'landlord_name', label: 'Landlord’s name' },
        { name: 'landlord_phone', label: 'Landlord’s phone number', type: 'tel' },
        { name: 'reason_for_leaving', label: 'Reason for leaving', type: 'textarea' },
      ],
    },
  ];

  protected validate(plain: Record<string, unknown>): ResidenceHistoryInput {
    return validated(ResidenceHistoryInput, plain);
  }

  protected override problems(value: ResidenceHistoryInput, context: SectionContext, today = new Date()): FieldProblem[] {
    return coverageProblems(value.residences, context.section.years ?? 1, today);
  }
}

/** What is wrong with an address history that should reach `years` back from `today`. */
export function coverageProblems(residences: ResidenceEntry[], years: number, today: Date): FieldProblem[] {
  const problems: FieldProblem[] = [];
  residences.forEach((entry, index) => {
    if (entry.to && entry.to < entry.from)
      problems.push({ field: `residences.${index}.to`, message: 'must not be before the move-in date' });
  });
  if (problems.length > 0) return problems;
  if (residences.length === 0) return [{ field: 'residences', message: 'must list at least your current address' }];
  const sinceDate = new Date(Date.UTC(today.getUTCFullYear() - years, today.getUTCMonth(), today.getUTCDate()));
  const since = sinceDate.toISOString().slice(0, 10);
  const earliest = residences.map((entry) => entry.from).sort()[0];
  if (earliest > since) {
    const span = years === 1 ? 'the last year' : `the last ${years} years`;
    // In words, as the date hints are: a browser shows a date field in the applicant's own format.
    const written = WRITTEN_DATE.format(sinceDate);
    return [{ field: 'residences', message: `must cover ${span} (since ${written}): add the address you lived at before` }];
  }
  return [];
}
