import { criteria } from './screening.testing';
import { CRITERIA_MESSAGES, criteriaSentences, describeCriteria } from './criteria-text';
import { formatMessage } from './messages';
import { applicablePacks } from './packs';

const texts = (blocks: ReturnType<typeof describeCriteria>) =>
  blocks.map((block) => (block.items.length ? [block.text, block.items.map((item) => item.text)] : block.text));

describe('describeCriteria', () => {
  it('says a full set in whole sentences, each chosen by its parameters', () => {
    const full = criteria({
      income: { minimum_ratio: 2.5 },
      guarantor: { minimum_ratio: 5 },
      occupancy: { persons_per_bedroom: 2, children_under_age_not_counted: 1 },
      required_documents: [{ kind: 'photo_id' }, { kind: 'proof_of_income', from: 'primary_applicant' }],
      screening_report: ['credit_history', 'eviction_history'],
    });
    expect(texts(describeCriteria(full))).toEqual([
      'The monthly income of everyone who will live in the home, added together, must be at least 2.5 times the monthly rent.',
      'Income from work and other regular income, such as benefits, child support or a pension, both count.',
      'If you have a housing voucher, your income is compared with your share of the rent: the rent minus what the voucher pays.',
      'If your household’s income is not enough, a guarantor or co-signer can qualify you instead: their monthly income must be at least 5 times the rent your income is compared with.',
      'At most 2 people may live in the home for each bedroom. A studio counts as one bedroom.',
      'Children under 1 year old are not counted.',
      ['Each applicant and guarantor uploads:', ['A photo ID.']],
      ['The primary applicant uploads:', ['Proof of income, such as pay slips or a benefit letter.']],
      [
        'If you do not have a Social Security number, you can apply with an ITIN (Individual Taxpayer Identification Number) instead. If you have neither, you can apply by uploading:',
        ['A photo ID.', 'Proof of income, such as pay slips or a benefit letter.'],
      ],
      ['A screening report is ordered, and these parts of it are considered:', ['Your credit history.', 'Eviction records.']],
      'If a decision against you rests on the report, you will be told which agency made it, and that you can get a free copy of it and dispute what it says.',
    ]);
  });

  it('says a bare set plainly', () => {
    expect(
      texts(
        describeCriteria(
          criteria({ occupancy: { persons_per_bedroom: 1 }, identity: { accepts_itin: false, accepts_other_evidence: false } }),
        ),
      ),
    ).toEqual([
      'There is no minimum income.',
      'At most one person may live in the home for each bedroom. A studio counts as one bedroom.',
      'No documents need to be uploaded.',
      'A Social Security number is required to apply.',
      'No screening report (credit, rental, eviction or criminal history) is ordered.',
    ]);
  });

  it('chooses the sentence for each combination of what counts and who may stand in', () => {
    const said = (given: Parameters<typeof criteria>[0]) => describeCriteria(criteria(given)).map((block) => block.id);
    expect(said({ income: { minimum_ratio: 3, counts: { other_income: false, housing_voucher: false } } })).toEqual(
      expect.arrayContaining([
        'criteria.income.counts_employment',
        'criteria.income.voucher_not_counted',
        'criteria.guarantor.not_accepted',
      ]),
    );
    expect(said({ income: { minimum_ratio: 3, counts: { employment: false } } })).toContain('criteria.income.counts_other');
    expect(said({ identity: { accepts_other_evidence: false } })).toContain('criteria.identity.itin_only');
    expect(said({ identity: { accepts_itin: false } })).toContain('criteria.identity.evidence_only');
  });

  it('says what the law of the place changes, and its notices once each', () => {
    const set = criteria({
      income: { minimum_ratio: 3, counts: { housing_voucher: false } },
      screening_report: ['credit_history', 'criminal_history'],
    });
    const seattle = describeCriteria(set, applicablePacks({ state: 'WA', city: 'Seattle' }));
    const ids = seattle.map((block) => block.id);
    expect(ids).toContain('criteria.income.voucher_counts');
    const report = seattle.find((block) => block.id === 'criteria.report.considered')!;
    expect(report.items.map((item) => item.id)).toEqual(['report.credit_history', 'report.registry_only']);
    const notices = seattle.find((block) => block.id === 'criteria.notices')!;
    expect(notices.items.map((item) => item.id)).toEqual([
      'notice.source_of_income',
      'notice.voucher_tenant_share',
      'notice.seattle_fair_chance',
      'notice.seattle_first_in_time',
    ]);
    expect(notices.items[3].text).toBe(
      'Complete applications are screened one at a time, in the order they were completed. If something is missing, you will be told what, and you will have at least 72 hours to provide it. If you are offered the home, you will have 48 hours to accept.',
    );
  });

  it('says criminal history comes after a conditional offer where a rule says so, and plainly where none does', () => {
    const set = criteria({ screening_report: ['criminal_history'] });
    const item = (address: Parameters<typeof applicablePacks>[0]) =>
      describeCriteria(set, applicablePacks(address)).find((block) => block.id === 'criteria.report.considered')!.items[0].id;
    expect(item({ state: 'NY', city: 'Brooklyn', zip: '11215' })).toBe('report.criminal_history_after_offer');
    expect(item({ state: 'IL', city: 'Chicago' })).toBe('report.criminal_history_after_offer');
    expect(item({ state: 'TX', city: 'Austin' })).toBe('report.criminal_history');
  });

  it('gives the API its sentences as id and text', () => {
    const [first] = criteriaSentences(describeCriteria(criteria()));
    expect(first).toEqual({ id: 'criteria.income.none', text: 'There is no minimum income.', items: [] });
  });
});

describe('the criteria catalogue', () => {
  it.each(Object.entries(CRITERIA_MESSAGES))('%s renders as whole sentences', (_, template) => {
    const text = formatMessage(template, { ratio: 3, persons: 2, age: 2 });
    expect(text).toMatch(/^[A-Z][^]*[.:]$/);
  });
});
