import { DECLINABLE_REASON_CODES, declineReasonsOf, REASON_CODE_INFO, SCREENING_REASON_CODES } from '@app/contracts';
import { adverseActionReasons, REASON_CODE_MESSAGES, reasonCodeSentence, restsOnScreeningReport } from './reason-codes';

describe('reason codes', () => {
  it.each([...SCREENING_REASON_CODES])('%s has one plain sentence', (code) => {
    expect(reasonCodeSentence(code)).toEqual({ id: code, values: {}, text: REASON_CODE_MESSAGES[code] });
    expect(REASON_CODE_MESSAGES[code]).toMatch(/^[A-Z][^{}]*\.$/);
  });

  it('lists a decline’s reasons for its adverse action notice in the order given', () => {
    expect(adverseActionReasons(['eviction_history', 'income_below_minimum']).map((reason) => reason.text)).toEqual([
      'Eviction records, as shown in a consumer report.',
      'Your household’s income is below the minimum the criteria set for this home.',
    ]);
  });

  it('tells a decline resting on a consumer report, which calls for the notice', () => {
    expect(restsOnScreeningReport(['income_below_minimum', 'credit_history'])).toBe(true);
    expect(restsOnScreeningReport(['income_below_minimum', 'rental_history'])).toBe(false);
  });

  it('keeps the unit’s own unknowns out of what a decline may name', () => {
    expect(DECLINABLE_REASON_CODES).not.toContain('rent_unknown');
    expect(DECLINABLE_REASON_CODES).not.toContain('bedrooms_unknown');
    expect(DECLINABLE_REASON_CODES.length).toBe(SCREENING_REASON_CODES.length - 2);
  });

  it('derives the older decline reasons, a report reason as screening_report so that the notice is sent', () => {
    expect(
      declineReasonsOf(['other', 'criminal_conviction', 'income_below_minimum', 'document_missing', 'income_not_verified']),
    ).toEqual(['income', 'screening_report', 'incomplete', 'other']);
    for (const code of SCREENING_REASON_CODES)
      expect(declineReasonsOf([code]).includes('screening_report')).toBe(REASON_CODE_INFO[code].origin === 'screening_report');
  });
});
