import { ErrorCode, FieldProblem, ServiceError } from '../errors';
import { parseRequest } from '../validation/parse';
import { EvaluateScreeningCriteriaRequest } from './assessment.dto';

function problems(evaluation: unknown): FieldProblem[] {
  try {
    parseRequest(EvaluateScreeningCriteriaRequest, { evaluation });
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    expect(error.code).toBe(ErrorCode.VALIDATION_FAILED);
    return error.details ?? [];
  }
  throw new Error('the evaluation was accepted');
}

const HYPOTHETICAL = {
  property_id: 3,
  monthly_rent: 1850,
  bedrooms: 2,
  housing_voucher: { monthly_amount: 1200 },
  minors: [{ age: 4 }],
  applicants: [
    {
      type: 'primary',
      employment: [{ monthly_income: 2500 }],
      other_income: [],
      id_number_type: 'itin',
      documents: ['photo_id'],
    },
    { type: 'guarantor', employment: null, other_income: null, id_number_type: null },
  ],
};

describe('EvaluateScreeningCriteriaRequest', () => {
  it('takes a stored application’s id', () => {
    expect(parseRequest(EvaluateScreeningCriteriaRequest, { evaluation: { application_id: '7' } }).evaluation).toEqual({
      application_id: 7,
    });
  });

  it('takes a hypothetical application with what an assessment reads', () => {
    const parsed = parseRequest(EvaluateScreeningCriteriaRequest, { evaluation: { application: HYPOTHETICAL } });
    expect(parsed.evaluation.application).toEqual(HYPOTHETICAL);
  });

  it('needs the one or the other, not both', () => {
    const message = { field: 'evaluation.application_id', message: 'or application must be given, and not both' };
    expect(problems({})).toEqual([message]);
    expect(problems({ application_id: 7, application: HYPOTHETICAL })).toEqual([message]);
    expect(problems({ application_id: null, application: null })).toEqual([message]);
  });

  it('needs exactly one primary applicant, and known kinds and amounts', () => {
    expect(problems({ application: { ...HYPOTHETICAL, applicants: [{ type: 'co_applicant' }] } })).toEqual([
      { field: 'evaluation.application.applicants', message: 'must hold exactly one primary applicant' },
    ]);
    expect(
      problems({
        application: {
          ...HYPOTHETICAL,
          bedrooms: -1,
          applicants: [{ type: 'primary', id_number_type: 'passport', employment: [{ monthly_income: 'lots' }], documents: [] }],
        },
      }),
    ).toEqual([
      { field: 'evaluation.application.bedrooms', message: 'must be at least 0' },
      { field: 'evaluation.application.applicants.0.employment.0.monthly_income', message: 'must be a number' },
      { field: 'evaluation.application.applicants.0.id_number_type', message: 'must be one of ssn, itin, none' },
      { field: 'evaluation.application.applicants.0.documents', message: 'must be a non-empty array' },
    ]);
  });
});
