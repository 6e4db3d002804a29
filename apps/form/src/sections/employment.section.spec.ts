import { formPreset, FormApplicant } from '@app/contracts';
import { EmploymentSection } from './employment.section';

const context = { preset: formPreset(1), section: { kind: 'employment' as const }, applicant: {} as FormApplicant };

describe('the employment section', () => {
  const section = new EmploymentSection();

  it('takes jobs and other income, both lists possibly empty', () => {
    expect(section.parse({}, context)).toEqual({ value: { employment: [], other_income: [] }, problems: [] });
    const parsed = section.parse(
      {
        'employment.0.employer': 'Engines Ltd',
        'employment.0.start_date': '2020-02-01',
        'employment.0.monthly_income': '5,200',
        'other_income.0.source': 'Pension',
        'other_income.0.monthly_amount': '300.50',
      },
      context,
    );
    expect(parsed.value).toEqual({
      employment: [{ employer: 'Engines Ltd', start_date: '2020-02-01', monthly_income: 5200 }],
      other_income: [{ source: 'Pension', monthly_amount: 300.5 }],
    });
  });

  it('insists on an income for each job', () => {
    expect(
      section.parse({ 'employment.0.employer': 'Engines Ltd', 'employment.0.start_date': '2020-02-01' }, context).problems,
    ).toEqual([{ field: 'employment.0.monthly_income', message: 'is required' }]);
    expect(
      section.parse({ 'other_income.0.source': 'Rent', 'other_income.0.monthly_amount': 'a lot' }, context).problems,
    ).toEqual([{ field: 'other_income.0.monthly_amount', message: 'must be a number' }]);
  });
});
