import { EmploymentSectionInput } from '@app/contracts';
import { ListSpec, SectionModule, validated } from './section';

/** Jobs and other income, each repeated; both may be empty (no job, no other income). */
export class EmploymentSection extends SectionModule<EmploymentSectionInput> {
  readonly kind = 'employment';
  readonly title = 'Employment and income';
  readonly intro = 'List your current jobs and any other regular income. Leave a list empty if it does not apply.';
  protected override readonly lists: ListSpec[] = [
    {
      name: 'employment',
      entry: 'Job',
      heading: 'Jobs',
      start: 1,
      max: 10,
      fields: [
        { name: 'employer', label: 'Employer', required: true, autocomplete: 'organization' },
        { name: 'position', label: 'Position', autocomplete: 'organization-title' },
        { name: 'start_date', label: 'Start date', required: true, type: 'date', hint: 'For example February 1, 2020.' },
        { name: 'monthly_income', label: 'Monthly income before tax, in dollars', required: true, inputmode: 'decimal' },
      ],
    },
    {
      name: 'other_income',
      entry: 'Other income',
      heading: 'Other income',
      intro: 'Benefits, support, a pension, rent you receive.',
      start: 0,
      max: 10,
      fields: [
        { name: 'source', label: 'Source', required: true },
        { name: 'monthly_amount', label: 'Monthly amount in dollars', required: true, inputmode: 'decimal' },
      ],
    },
  ];

  protected validate(plain: Record<string, unknown>): EmploymentSectionInput {
    return validated(EmploymentSectionInput, plain);
  }
}
