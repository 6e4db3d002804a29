import { DEFAULT_RESIDENCE_GAP_DAYS, FieldProblem, ResidenceEntry, ResidenceHistoryInput } from '@app/contracts';
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
    const { years = 1, max_gap_days: maxGapDays = DEFAULT_RESIDENCE_GAP_DAYS } = context.section;
    return coverageProblems(value.residences, years, today, maxGapDays);
  }
}

const DAY_MS = 24 * 3600 * 1000;

/**
 * What is wrong with an address history that should reach `years` back from `today`, leaving out
 * at most `maxGapDays` between moving out of one address and into the next within those years.
 */
export function coverageProblems(
  residences: ResidenceEntry[],
  years: number,
  today: Date,
  maxGapDays = DEFAULT_RESIDENCE_GAP_DAYS,
): FieldProblem[] {
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
  return gapProblems(residences, since, maxGapDays);
}

/**
 * Each move into an address, within the years asked, that comes more than `maxGapDays` after
 * moving out of the one before it (by move-in date), or after an address with no move-out date
 * (only the latest may be the current one); named by the row the applicant sees.
 */
function gapProblems(residences: ResidenceEntry[], since: string, maxGapDays: number): FieldProblem[] {
  const byMoveIn = residences.map((entry, index) => ({ entry, index })).sort((a, b) => a.entry.from.localeCompare(b.entry.from));
  const problems: FieldProblem[] = [];
  for (let at = 1; at < byMoveIn.length; at++) {
    const before = byMoveIn[at - 1];
    const next = byMoveIn[at].entry;
    if (!before.entry.to) {
      problems.push({ field: `residences.${before.index}.to`, message: 'must be given: you moved to a later address' });
      continue;
    }
    if (next.from <= since) continue;
    const days = Math.round((Date.parse(next.from) - Date.parse(before.entry.to)) / DAY_MS);
    if (days > maxGapDays) {
      problems.push({
        field: `residences.${byMoveIn[at].index}.from`,
        message:
          `comes ${days} days after you moved out of the address before (on ${WRITTEN_DATE.format(new Date(before.entry.to))}), ` +
          `more than the ${maxGapDays} days the history may leave out: add where you lived in between, or correct the dates`,
      });
    }
  }
  return problems;
}
