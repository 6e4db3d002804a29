import { formPreset, FormApplicant } from '@app/contracts';
import { coverageProblems, ResidenceHistorySection } from './residence-history.section';

const context = {
  preset: formPreset(1),
  section: { kind: 'residence_history' as const, years: 3 },
  applicant: {} as FormApplicant,
};
const today = new Date('2026-06-15T12:00:00Z');

describe('the residence history section', () => {
  const section = new ResidenceHistorySection();

  it('asks for addresses until the preset’s years are covered', () => {
    const current = { address: '1 Main St', from: '2024-01-01' };
    expect(coverageProblems([current], 3, today)).toEqual([
      { field: 'residences', message: 'must cover the last 3 years (since June 15, 2023): add the address you lived at before' },
    ]);
    expect(coverageProblems([current, { address: '2 Oak Rd', from: '2019-01-01', to: '2024-01-01' }], 3, today)).toEqual([]);
    expect(coverageProblems([{ address: '2 Oak Rd', from: '2019-01-01', to: '2018-01-01' }], 3, today)).toEqual([
      { field: 'residences.0.to', message: 'must not be before the move-in date' },
    ]);
    expect(coverageProblems([], 1, today)).toEqual([{ field: 'residences', message: 'must list at least your current address' }]);
  });

  it('refuses a gap between two addresses longer than the preset allows, within the years asked', () => {
    const current = { address: '1 Main St', from: '2024-03-02' };
    const before = { address: '2 Oak Rd', from: '2019-01-01', to: '2024-01-01' };
    expect(coverageProblems([current, before], 3, today)).toEqual([
      {
        field: 'residences.0.from',
        message:
          'comes 61 days after you moved out of the address before (on January 1, 2024), more than the 31 days ' +
          'the history may leave out: add where you lived in between, or correct the dates',
      },
    ]);
    // A preset that allows more; a gap exactly at the limit.
    expect(coverageProblems([current, before], 3, today, 90)).toEqual([]);
    expect(coverageProblems([current, before], 3, today, 61)).toEqual([]);
    // Overlapping addresses leave nothing out.
    expect(coverageProblems([{ ...current, from: '2023-12-01' }, before], 3, today, 0)).toEqual([]);
    // A gap before the years asked is not the history's concern.
    const history = [
      { ...current, from: '2024-01-01' },
      { ...before, from: '2022-01-01' },
      { address: '3 Ash Ln', from: '2010-01-01', to: '2020-01-01' },
    ];
    expect(coverageProblems(history, 3, today)).toEqual([]);
    // Only the latest address may have no move-out date.
    expect(coverageProblems([current, { ...before, to: null }], 3, today)).toEqual([
      { field: 'residences.1.to', message: 'must be given: you moved to a later address' },
    ]);
  });

  it('reads the gap a preset allows from its residence_history section', () => {
    const body = {
      'residences.rows': '2',
      'residences.0.address': '1 Main St',
      'residences.0.from': '2024-01-03',
      'residences.1.address': '2 Oak Rd',
      'residences.1.from': '2010-01-01',
      'residences.1.to': '2024-01-01',
    };
    const strict = { ...context, section: { ...context.section, max_gap_days: 0 } };
    expect(section.parse(body, strict).problems.map((problem) => problem.field)).toEqual(['residences.0.from']);
    expect(section.parse(body, context).problems).toEqual([]);
  });

  it('drops rows left empty and names a problem by the row the applicant sees', () => {
    const parsed = section.parse(
      {
        'residences.rows': '3',
        'residences.1.address': '1 Main St',
        'residences.1.from': 'soon',
        'residences.1.monthly_rent': '$1,200',
      },
      context,
    );
    expect(parsed.problems).toEqual([
      { field: 'residences.1.from', message: 'must be a calendar date written MM/DD/YYYY or YYYY-MM-DD' },
    ]);
  });

  it('reads amounts as numbers and shows a saved history again, one row per address', () => {
    const saved = { residences: [{ address: '1 Main St', from: '2020-01-01', to: null, monthly_rent: 1200 }] };
    const values = section.values(saved);
    expect(values).toEqual({
      'residences.0.address': '1 Main St',
      'residences.0.from': '2020-01-01',
      'residences.0.monthly_rent': '1200',
      'residences.rows': '1',
    });
    const page = section.page(values, context);
    expect(page.lists[0].rows.map((row) => row.legend)).toEqual(['Address 1']);
    expect(page.lists[0].canAdd).toBe(true);
  });

  it('adds a row and removes one, renumbering those after it', () => {
    const body = { 'residences.rows': '2', 'residences.0.address': 'first', 'residences.1.address': 'second' };
    expect(section.changeRows(body, { add: 'residences' })['residences.rows']).toBe('3');
    expect(section.changeRows(body, { remove: 'residences', index: 0 })).toEqual({
      'residences.rows': '1',
      'residences.0.address': 'second',
    });
    expect(section.changeRows(body, { add: 'nothing' })).toBe(body);
  });
});
