import {
  parseRequest,
  CreateScreeningCriteriaRequest,
  ScreeningCriteriaInput,
  ScreeningCriteriaRepresentation,
  SCREENING_CRITERIA_DEFAULTS,
  UpdateScreeningCriteriaRequest,
} from '@app/contracts';
import { FEDERAL_OCCUPANCY_BASELINE, ScreeningCriteria, ScreeningCriteriaGiven, withChanges, withDefaults } from './criteria';
import { FEDERAL } from './packs';

const parsedCreate = (fields: Record<string, unknown>): ScreeningCriteriaInput =>
  parseRequest(CreateScreeningCriteriaRequest, { screening_criteria: { name: 'Set', ...fields } }).screening_criteria;

describe('withDefaults', () => {
  it('fills a set that gives nothing with the documented defaults', () => {
    expect(withDefaults(parsedCreate({}))).toEqual({
      income: null,
      guarantor: null,
      occupancy: { persons_per_bedroom: 2, children_under_age_not_counted: null },
      required_documents: [],
      identity: { accepts_itin: true, accepts_other_evidence: true, other_evidence: ['photo_id', 'proof_of_income'] },
      screening_report: [],
    });
  });

  it('counts everything that a given income leaves out, and asks documents of every applicant unless told', () => {
    const criteria = withDefaults(
      parsedCreate({
        income: { minimum_ratio: 2.5, counts: { other_income: false } },
        required_documents: [{ kind: 'photo_id' }, { kind: 'proof_of_income', from: 'primary_applicant' }],
      }),
    );
    expect(criteria.income).toEqual({
      minimum_ratio: 2.5,
      counts: { employment: true, other_income: false, housing_voucher: true },
    });
    expect(criteria.required_documents).toEqual([
      { kind: 'photo_id', from: 'every_applicant' },
      { kind: 'proof_of_income', from: 'primary_applicant' },
    ]);
  });

  it('keeps no other evidence when none is accepted, and the evidence given when it is', () => {
    expect(withDefaults(parsedCreate({ identity: { accepts_other_evidence: false } })).identity).toEqual({
      accepts_itin: true,
      accepts_other_evidence: false,
      other_evidence: [],
    });
    expect(withDefaults(parsedCreate({ identity: { accepts_itin: false, other_evidence: ['other'] } })).identity).toEqual({
      accepts_itin: false,
      accepts_other_evidence: true,
      other_evidence: ['other'],
    });
  });

  it('defaults occupancy to the federal baseline the federal pack names', () => {
    expect(FEDERAL_OCCUPANCY_BASELINE.persons_per_bedroom).toBe(2);
    const baseline = FEDERAL.rules.find((rule) => rule.effect.kind === 'occupancy_baseline')!;
    expect(baseline.effect).toEqual({ kind: 'occupancy_baseline', persons_per_bedroom: 2 });
    expect(baseline.source.citation).toContain('63 FR 70256');
    expect(SCREENING_CRITERIA_DEFAULTS.occupancy).toBe(FEDERAL_OCCUPANCY_BASELINE);
  });
});

describe('withChanges', () => {
  const current = withDefaults({
    income: { minimum_ratio: 3 },
    guarantor: { minimum_ratio: 5 },
    occupancy: { persons_per_bedroom: 3, children_under_age_not_counted: 2 },
    screening_report: ['credit_history'],
  });
  const changes = (fields: Record<string, unknown>) =>
    parseRequest(UpdateScreeningCriteriaRequest, { screening_criteria: fields }).screening_criteria;

  it('replaces each part given whole, with that part’s defaults, and keeps the others', () => {
    const next = withChanges(current, changes({ occupancy: { persons_per_bedroom: 2 }, guarantor: null }));
    expect(next.occupancy).toEqual({ persons_per_bedroom: 2, children_under_age_not_counted: null });
    expect(next.guarantor).toBeNull();
    expect(next.income).toEqual(current.income);
    expect(next.screening_report).toEqual(['credit_history']);
  });

  it('changes nothing for a change that gives only a name', () => {
    expect(withChanges(current, changes({ name: 'Renamed' }))).toEqual(current);
  });

  it('takes null for the report as none', () => {
    expect(withChanges(current, changes({ screening_report: null })).screening_report).toEqual([]);
  });
});

describe('the model and the wire', () => {
  it('takes a stored representation as a criteria set, and a request’s input as what it gives', () => {
    // ts-jest type-checks these assignments: the DTOs and the model cannot drift apart unnoticed.
    const representation: ScreeningCriteriaRepresentation = {
      id: 1,
      version: 1,
      name: 'Set',
      ...withDefaults({ income: { minimum_ratio: 3 } }),
      required_documents: [{ kind: 'photo_id', from: 'every_applicant' }],
      identity: { accepts_itin: true, accepts_other_evidence: false, other_evidence: [] },
      screening_report: ['credit_history'],
      text: [],
      created_at: '2026-11-22T14:03:09+00:00',
      updated_at: '2026-11-22T14:03:09+00:00',
    };
    const stored: ScreeningCriteria = representation;
    expect(withChanges(stored, {})).toEqual({
      income: representation.income,
      guarantor: null,
      occupancy: representation.occupancy,
      required_documents: representation.required_documents,
      identity: representation.identity,
      screening_report: ['credit_history'],
    });
    const given: ScreeningCriteriaGiven = parsedCreate({ guarantor: { minimum_ratio: 4 } });
    expect(withDefaults(given).guarantor).toEqual({ minimum_ratio: 4 });
  });
});
