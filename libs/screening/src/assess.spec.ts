import { assess, assessmentRepresentation, overallResult, resultChanged } from './assess';
import { AssessmentCheck } from './checks/check';
import { applicablePacks, CALIFORNIA, FEDERAL, RulePack, WASHINGTON } from './packs';
import { AT, application, applicant, criteria, earning, THREE_TIMES } from './screening.testing';

const income = (checks: AssessmentCheck[]) => checks.find((check) => check.criterion === 'income')!;
const occupancy = (checks: AssessmentCheck[]) => checks.find((check) => check.criterion === 'occupancy')!;
const brief = (check: AssessmentCheck) => [check.result, check.reason_code, check.explanation.text];

describe('assess: income', () => {
  const withIncome = criteria({ income: THREE_TIMES });

  it('meets at exactly the minimum, summing the household and leaving guarantors out of it', () => {
    const facts = application({
      applicants: [
        earning(1, 1500),
        applicant(2, { employment: [], other_income: [{ monthly_amount: 1500 }] }),
        earning(3, 9000, { type: 'guarantor' }),
      ],
    });
    const check = income(assess(withIncome, facts, [], AT).checks);
    expect(brief(check)).toEqual([
      'meets',
      null,
      'Your household’s monthly income of $3,000 meets the minimum of $3,000, 3 times the rent of $1,000.',
    ]);
    expect(check.figures).toEqual({
      monthly_rent: 1000,
      housing_voucher: null,
      minimum_ratio: 3,
      rent_judged: 1000,
      required_monthly_income: 3000,
      household_monthly_income: 3000,
    });
  });

  it('does not meet a cent below, and says so in dollars and cents', () => {
    const check = income(assess(withIncome, application({ applicants: [earning(1, 2999.99)] }), [], AT).checks);
    expect(brief(check)).toEqual([
      'does_not_meet',
      'income_below_minimum',
      'Your household’s monthly income of $2,999.99 is below the minimum of $3,000, 3 times the rent of $1,000.',
    ]);
  });

  it('counts only what the criteria count', () => {
    const employmentOnly = criteria({ income: { minimum_ratio: 3, counts: { other_income: false } } });
    const facts = application({ applicants: [earning(1, 2000, { other_income: [{ monthly_amount: 1000 }] })] });
    expect(income(assess(withIncome, facts, [], AT).checks).result).toBe('meets');
    expect(income(assess(employmentOnly, facts, [], AT).checks).figures.household_monthly_income).toBe(2000);
  });

  it('is incomplete while someone has not stated an income and what is stated falls short, and meets once it suffices', () => {
    const unstated = applicant(2, { employment: null, other_income: null });
    expect(brief(income(assess(withIncome, application({ applicants: [earning(1, 1000), unstated] }), [], AT).checks))).toEqual([
      'incomplete',
      'income_not_stated',
      'Not every applicant has stated their income yet; what is stated so far, $1,000 a month, is below the minimum of $3,000.',
    ]);
    expect(income(assess(withIncome, application({ applicants: [earning(1, 3000), unstated] }), [], AT).checks).result).toBe(
      'meets',
    );
  });

  it('is incomplete while the rent is unknown, naming no rule since nothing was judged', () => {
    expect(brief(income(assess(withIncome, application({ monthly_rent: null }), [], AT).checks))).toEqual([
      'incomplete',
      'rent_unknown',
      'The rent of this home is not known yet, so income cannot be compared with it.',
    ]);
    const notCounted = criteria({ income: { minimum_ratio: 3, counts: { housing_voucher: false } } });
    const voucherNoRent = application({ monthly_rent: null, housing_voucher: { monthly_amount: 700 } });
    expect(income(assess(notCounted, voucherNoRent, [CALIFORNIA], AT).checks).rule).toBeNull();
  });

  it('judges a voucher holder on their share where the criteria count the voucher', () => {
    const facts = application({ housing_voucher: { monthly_amount: 700 }, applicants: [earning(1, 900)] });
    const check = income(assess(withIncome, facts, [], AT).checks);
    expect(brief(check)).toEqual([
      'meets',
      null,
      'Your household’s monthly income of $900 meets the minimum of $900, 3 times your share of the rent, $300.',
    ]);
    expect(check.figures).toMatchObject({ housing_voucher: 700, rent_judged: 300, required_monthly_income: 900 });
    expect(check.rule).toBeNull();
    const fullVoucher = application({ housing_voucher: { monthly_amount: 1200 }, applicants: [earning(1, 0)] });
    expect(brief(income(assess(withIncome, fullVoucher, [], AT).checks))).toEqual([
      'meets',
      null,
      'Your housing voucher pays the whole rent, so no minimum income applies.',
    ]);
  });

  it('judges on the full rent where the criteria do not count the voucher and no rule says otherwise', () => {
    const notCounted = criteria({ income: { minimum_ratio: 3, counts: { housing_voucher: false } } });
    const facts = application({ housing_voucher: { monthly_amount: 700 }, applicants: [earning(1, 900)] });
    expect(income(assess(notCounted, facts, [FEDERAL], AT).checks).reason_code).toBe('income_below_minimum');
  });

  it.each<[string, RulePack]>([
    ['California', CALIFORNIA],
    ['Washington', WASHINGTON],
  ])('judges on the tenant’s share in %s whatever the criteria say, naming the rule', (_, pack) => {
    const notCounted = criteria({ income: { minimum_ratio: 3, counts: { housing_voucher: false } } });
    const facts = application({ housing_voucher: { monthly_amount: 700 }, applicants: [earning(1, 900)] });
    const check = income(assess(notCounted, facts, [FEDERAL, pack], AT).checks);
    expect(check.result).toBe('meets');
    expect(check.rule).toEqual({ pack_id: pack.id, rule_id: 'voucher_income_on_tenant_share', version: '1.0.0' });
  });

  describe('with a guarantor criterion', () => {
    const withGuarantor = criteria({ income: THREE_TIMES, guarantor: { minimum_ratio: 5 } });

    it('meets through the guarantors when the household falls short', () => {
      const facts = application({ applicants: [earning(1, 1000), earning(2, 5000, { type: 'guarantor' })] });
      const check = income(assess(withGuarantor, facts, [], AT).checks);
      expect(brief(check)).toEqual([
        'meets',
        null,
        'Your household’s income is below its minimum, but your guarantors’ monthly income of $5,000 meets theirs, $5,000.',
      ]);
      expect(check.figures).toMatchObject({
        guarantor_minimum_ratio: 5,
        guarantor_required_monthly_income: 5000,
        guarantor_monthly_income: 5000,
      });
    });

    it('does not meet when the guarantors fall short too, and is incomplete while they have not stated theirs', () => {
      const short = application({ applicants: [earning(1, 1000), earning(2, 4999, { type: 'guarantor' })] });
      expect(income(assess(withGuarantor, short, [], AT).checks).explanation.text).toBe(
        'Your household’s monthly income of $1,000 is below its minimum of $3,000, and your guarantors’ monthly income of $4,999 is below theirs, $5,000.',
      );
      const silent = application({
        applicants: [earning(1, 1000), applicant(2, { type: 'guarantor', employment: null, other_income: null })],
      });
      expect(income(assess(withGuarantor, silent, [], AT).checks).reason_code).toBe('guarantor_income_not_stated');
    });

    it('says what a guarantor would need when there is none', () => {
      const check = income(assess(withGuarantor, application({ applicants: [earning(1, 1000)] }), [], AT).checks);
      expect(brief(check)).toEqual([
        'does_not_meet',
        'income_below_minimum',
        'Your household’s monthly income of $1,000 is below the minimum of $3,000; a guarantor with a monthly income of at least $5,000 could qualify you instead.',
      ]);
    });
  });

  it('makes no income check for criteria without a minimum income', () => {
    expect(assess(criteria(), application(), [], AT).checks.map((check) => check.criterion)).not.toContain('income');
  });
});

describe('assess: occupancy', () => {
  it('meets at two per bedroom and not one more, guarantors not living there', () => {
    const two = application({ applicants: [earning(1, 3000), applicant(2), applicant(3, { type: 'guarantor' })] });
    expect(brief(occupancy(assess(criteria(), two, [], AT).checks))).toEqual([
      'meets',
      null,
      '2 people will live in the home, within its limit of 2.',
    ]);
    const three = application({ minors: [{ age: 9 }], applicants: [earning(1, 3000), applicant(2)] });
    const check = occupancy(assess(criteria(), three, [], AT).checks);
    expect(brief(check)).toEqual([
      'does_not_meet',
      'occupancy_over_limit',
      '3 people would live in the home, more than its limit of 2 (2 per bedroom).',
    ]);
    expect(check.figures).toEqual({
      bedrooms: 1,
      persons_per_bedroom: 2,
      occupants: 3,
      children_not_counted: 0,
      maximum_occupants: 2,
    });
  });

  it('counts a studio as one bedroom, and leaves young children out where the criteria say', () => {
    const studio = application({ bedrooms: 0, minors: [{ age: 1 }], applicants: [earning(1, 3000), applicant(2)] });
    expect(occupancy(assess(criteria(), studio, [], AT).checks).result).toBe('does_not_meet');
    const infantsOut = criteria({ occupancy: { children_under_age_not_counted: 2 } });
    const check = occupancy(assess(infantsOut, studio, [], AT).checks);
    expect(check.result).toBe('meets');
    expect(check.figures.children_not_counted).toBe(1);
  });

  it('is incomplete while the household or the bedrooms are unknown', () => {
    expect(occupancy(assess(criteria(), application({ minors: null }), [], AT).checks).reason_code).toBe('household_not_stated');
    expect(occupancy(assess(criteria(), application({ bedrooms: null }), [], AT).checks).reason_code).toBe('bedrooms_unknown');
  });
});

describe('assess: identity and documents', () => {
  const ids = (given: Parameters<typeof criteria>[0], ...applicants: Parameters<typeof applicant>[1][]) =>
    assess(
      criteria(given),
      application({ applicants: applicants.map((changes, index) => applicant(index + 1, changes)) }),
      [],
      AT,
    )
      .checks.filter((check) => check.criterion === 'identity')
      .map((check) => [check.applicant_id, check.result, check.reason_code]);

  it('accepts an ITIN and, with their documents, neither number, by default', () => {
    expect(
      ids(
        {},
        { id_number_type: 'ssn' },
        { id_number_type: 'itin' },
        { id_number_type: 'none', documents: ['photo_id', 'proof_of_income'] },
      ),
    ).toEqual([
      [1, 'meets', null],
      [2, 'meets', null],
      [3, 'meets', null],
    ]);
  });

  it('is incomplete while the number is not said or the other evidence not uploaded', () => {
    expect(ids({}, { id_number_type: null }, { id_number_type: 'none', documents: ['photo_id'] })).toEqual([
      [1, 'incomplete', 'identity_number_not_stated'],
      [2, 'incomplete', 'document_missing'],
    ]);
  });

  it('does not meet where the criteria accept no ITIN or no other evidence', () => {
    expect(ids({ identity: { accepts_itin: false } }, { id_number_type: 'itin' })).toEqual([
      [1, 'does_not_meet', 'identity_number_required'],
    ]);
    const strict = assess(
      criteria({ identity: { accepts_itin: false, accepts_other_evidence: false } }),
      application({ applicants: [applicant(1, { id_number_type: 'none' })] }),
      [],
      AT,
    ).checks.find((check) => check.criterion === 'identity')!;
    expect(strict.explanation.text).toBe('A Social Security number is required for this home.');
  });

  it('checks each required document of each applicant it is asked of', () => {
    const asked = criteria({
      required_documents: [{ kind: 'photo_id' }, { kind: 'proof_of_income', from: 'primary_applicant' }],
    });
    const facts = application({ applicants: [applicant(1, { documents: ['photo_id'] }), applicant(2, { type: 'guarantor' })] });
    const documents = assess(asked, facts, [], AT).checks.filter((check) => check.criterion === 'document');
    expect(documents.map((check) => [check.applicant_id, check.figures.kind, check.result, check.explanation.text])).toEqual([
      [1, 'photo_id', 'meets', 'Your photo ID has been uploaded.'],
      [1, 'proof_of_income', 'incomplete', 'Your proof of income has not been uploaded yet.'],
      [2, 'photo_id', 'incomplete', 'Your photo ID has not been uploaded yet.'],
    ]);
  });
});

describe('assess: the whole', () => {
  it('does not meet when any check does not, else is incomplete when any is, else meets', () => {
    const check = (result: AssessmentCheck['result']) => ({ result }) as AssessmentCheck;
    expect(overallResult([check('meets'), check('incomplete'), check('does_not_meet')])).toBe('does_not_meet');
    expect(overallResult([check('meets'), check('incomplete')])).toBe('incomplete');
    expect(overallResult([check('meets')])).toBe('meets');
    expect(overallResult([])).toBe('meets');
  });

  it('names the criteria version, the packs and the time given, and gives the same answer for the same arguments', () => {
    const packs = applicablePacks({ state: 'CA', city: 'Oakland' });
    const first = assess(criteria({ income: THREE_TIMES }), application(), packs, AT);
    expect(first).toMatchObject({
      result: 'meets',
      criteria_id: 7,
      criteria_version: 2,
      rule_packs: [
        { id: 'us-federal', version: '1.0.0' },
        { id: 'us-ca', version: '1.0.0' },
      ],
      assessed_at: '2026-11-22T14:03:09+00:00',
    });
    expect(assess(criteria({ income: THREE_TIMES }), application(), packs, AT)).toEqual(first);
  });

  it('tells a changed result from a reassessment that changes nothing', () => {
    const before = assess(criteria({ income: THREE_TIMES }), application(), [], AT);
    const poorer = assess(criteria({ income: THREE_TIMES }), application({ applicants: [earning(1, 10)] }), [], AT);
    expect(resultChanged(null, before)).toBe(true);
    expect(resultChanged(before, { ...before, assessed_at: 'later' })).toBe(false);
    expect(resultChanged(before, poorer)).toBe(true);
  });

  it('represents an assessment as the API returns it, each explanation as its text', () => {
    const facts = application({ housing_voucher: { monthly_amount: 700 }, applicants: [earning(1, 900)] });
    const assessment = assess(
      criteria({ income: { minimum_ratio: 3, counts: { housing_voucher: false } } }),
      facts,
      [CALIFORNIA],
      AT,
    );
    const representation = assessmentRepresentation(assessment);
    expect(Object.keys(representation)).toEqual([
      'result',
      'criteria_id',
      'criteria_version',
      'rule_packs',
      'checks',
      'assessed_at',
    ]);
    expect(representation.checks[0]).toEqual({
      criterion: 'income',
      applicant_id: null,
      result: 'meets',
      reason_code: null,
      figures: assessment.checks[0].figures,
      explanation: 'Your household’s monthly income of $900 meets the minimum of $900, 3 times your share of the rent, $300.',
      rule: { pack_id: 'us-ca', rule_id: 'voucher_income_on_tenant_share', version: '1.0.0' },
    });
  });
});
