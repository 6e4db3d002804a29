import { ErrorCode, FieldProblem, ServiceError } from '../errors';
import { parseRequest } from '../validation/parse';
import { CreateScreeningCriteriaRequest, UpdateScreeningCriteriaRequest } from './screening-criteria.dto';

function parse(fields: Record<string, unknown>, type: new () => object = CreateScreeningCriteriaRequest) {
  return parseRequest(type, JSON.parse(JSON.stringify({ screening_criteria: fields }))) as CreateScreeningCriteriaRequest;
}

function problems(fields: Record<string, unknown>, type: new () => object = CreateScreeningCriteriaRequest): FieldProblem[] {
  try {
    parseRequest(type, { screening_criteria: fields });
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    expect(error.code).toBe(ErrorCode.VALIDATION_FAILED);
    expect(error.message).toBe(`${error.details![0].field} ${error.details![0].message}`);
    return error.details ?? [];
  }
  throw new Error('the criteria were accepted');
}

describe('CreateScreeningCriteriaRequest', () => {
  it('accepts every part, trimmed and normalized', () => {
    const parsed = parse({
      name: '  Three times the rent ',
      income: { minimum_ratio: 3, counts: { employment: true, other_income: true, housing_voucher: true } },
      guarantor: { minimum_ratio: 5 },
      occupancy: { persons_per_bedroom: '2', children_under_age_not_counted: 2 },
      required_documents: [{ kind: 'photo_id' }, { kind: 'proof_of_income', from: 'primary_applicant' }],
      identity: { accepts_itin: true, accepts_other_evidence: true, other_evidence: ['photo_id'] },
      screening_report: ['credit_history', 'criminal_history'],
    }).screening_criteria;
    expect(parsed.name).toBe('Three times the rent');
    expect(parsed.occupancy).toEqual({ persons_per_bedroom: 2, children_under_age_not_counted: 2 });
    expect(parsed.required_documents).toEqual([{ kind: 'photo_id' }, { kind: 'proof_of_income', from: 'primary_applicant' }]);
  });

  it('needs only a name, and takes null for the parts null turns off', () => {
    expect(parse({ name: 'Bare' }).screening_criteria).toEqual({ name: 'Bare' });
    expect(parse({ name: 'Bare', income: null, guarantor: null, screening_report: null }).screening_criteria).toEqual({
      name: 'Bare',
      income: null,
      guarantor: null,
      screening_report: null,
    });
  });

  it('refuses ratios and occupancy out of their limits, naming each field', () => {
    expect(
      problems({
        name: 'Set',
        income: { minimum_ratio: 0.5 },
        guarantor: { minimum_ratio: 21 },
        occupancy: { persons_per_bedroom: 5, children_under_age_not_counted: 18 },
      }),
    ).toEqual([
      { field: 'screening_criteria.income.minimum_ratio', message: 'must be at least 1' },
      { field: 'screening_criteria.guarantor.minimum_ratio', message: 'must be at most 20' },
      { field: 'screening_criteria.occupancy.persons_per_bedroom', message: 'must be at most 4' },
      { field: 'screening_criteria.occupancy.children_under_age_not_counted', message: 'must be at most 17' },
    ]);
  });

  it('refuses counting no income at all', () => {
    expect(problems({ name: 'Set', income: { minimum_ratio: 3, counts: { employment: false, other_income: false } } })).toEqual([
      { field: 'screening_criteria.income.counts', message: 'must count employment or other_income: no income would count' },
    ]);
  });

  it('refuses a document asked twice, an unknown kind, and other evidence that is not accepted', () => {
    expect(
      problems({ name: 'Set', required_documents: [{ kind: 'photo_id' }, { kind: 'photo_id', from: 'primary_applicant' }] }),
    ).toEqual([{ field: 'screening_criteria.required_documents.1.kind', message: 'must not repeat an earlier document' }]);
    expect(problems({ name: 'Set', required_documents: [{ kind: 'passport' }] })).toEqual([
      { field: 'screening_criteria.required_documents.0.kind', message: 'must be one of photo_id, proof_of_income, other' },
    ]);
    expect(problems({ name: 'Set', identity: { accepts_other_evidence: false, other_evidence: ['photo_id'] } })).toEqual([
      { field: 'screening_criteria.identity.other_evidence', message: 'is only for accepts_other_evidence true' },
    ]);
  });

  it('refuses an unknown part of the report, an unknown field, and a missing name', () => {
    expect(problems({ screening_report: ['astrology'], colour: 'red' })).toEqual([
      { field: 'screening_criteria.name', message: 'is required' },
      {
        field: 'screening_criteria.screening_report',
        message: 'must list only credit_history, rental_history, eviction_history, criminal_history',
      },
      { field: 'screening_criteria.colour', message: 'is not a known field' },
    ]);
  });
});

describe('UpdateScreeningCriteriaRequest', () => {
  it('takes any one part alone, checked as on create', () => {
    expect(parse({ occupancy: { persons_per_bedroom: 3 } }, UpdateScreeningCriteriaRequest).screening_criteria).toEqual({
      occupancy: { persons_per_bedroom: 3 },
    });
    expect(problems({ name: '' }, UpdateScreeningCriteriaRequest)).toEqual([
      { field: 'screening_criteria.name', message: 'must not be empty' },
    ]);
    expect(
      problems({ required_documents: [{ kind: 'other' }, { kind: 'other' }] }, UpdateScreeningCriteriaRequest)[0].field,
    ).toBe('screening_criteria.required_documents.1.kind');
  });
});
