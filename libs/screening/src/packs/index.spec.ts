import { RULE_PACK_IDS } from '@app/contracts';
import { formatMessage } from '../messages';
import { applicablePacks, matchPacks, NOTICE_MESSAGES, RULE_PACKS, screeningProcess, SEATTLE } from '.';
import { RulePack } from './types';

const SEATTLE_ADDRESS = { state: 'WA', city: 'Seattle', zip: '98103' };

describe('the rule packs', () => {
  it('are one per id of the contracts, each once', () => {
    expect(RULE_PACKS.map((pack) => pack.id).sort()).toEqual([...RULE_PACK_IDS].sort());
  });

  it.each(RULE_PACKS.map((pack): [string, RulePack] => [pack.id, pack]))('%s is versioned and names its sources', (_, pack) => {
    expect(pack.version).toMatch(/^\d+\.\d+\.\d+$/);
    const ids = pack.rules.map((rule) => rule.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const rule of pack.rules) {
      expect(rule.id).toMatch(/^[a-z][a-z0-9_]*$/);
      expect(pack.sources).toContainEqual(rule.source);
      if (rule.notice) expect(Object.keys(NOTICE_MESSAGES)).toContain(rule.notice);
    }
    for (const source of pack.sources) expect(new URL(source.url).protocol).toMatch(/^https?:$/);
  });

  it('word every notice as whole sentences that render', () => {
    for (const template of Object.values(NOTICE_MESSAGES)) {
      const text = formatMessage(template, { missing_hours: 72, accept_hours: 48 });
      expect(text).toMatch(/^[A-Z].*\.$/);
    }
  });
});

describe('matchPacks', () => {
  const waiver = {
    pack_id: 'us-wa-seattle',
    reason: 'An accessory dwelling unit on the owner’s lot.',
    waived_at: '2026-11-22T14:03:09+00:00',
  } as const;

  it('says for every pack whether it applies and why', () => {
    const matches = matchPacks(SEATTLE_ADDRESS);
    expect(matches.map((match) => [match.pack.id, match.applies, match.coverage.basis])).toEqual([
      ['us-federal', true, 'country'],
      ['us-wa', true, 'state'],
      ['us-wa-seattle', true, 'city'],
      ['us-ca', false, 'state'],
      ['us-il-cook-county', false, 'state'],
      ['us-ny-nyc', false, 'state'],
    ]);
  });

  it('turns a covering pack off with a waiver, which it keeps beside it', () => {
    const seattle = matchPacks(SEATTLE_ADDRESS, [waiver]).find((match) => match.pack === SEATTLE)!;
    expect([seattle.coverage.applies, seattle.applies, seattle.waiver]).toEqual([true, false, waiver]);
    expect(applicablePacks(SEATTLE_ADDRESS, [waiver]).map((pack) => pack.id)).toEqual(['us-federal', 'us-wa']);
  });

  it('refuses a waiver without a reason', () => {
    expect(() => matchPacks(SEATTLE_ADDRESS, [{ ...waiver, reason: '  ' }])).toThrow(
      'the waiver of rule pack us-wa-seattle gives no reason',
    );
  });
});

describe('screeningProcess', () => {
  it('takes the strictest order and the longest times of the packs that apply', () => {
    const longer: RulePack = {
      ...SEATTLE,
      id: 'us-ca',
      rules: [
        {
          ...SEATTLE.rules.find((rule) => rule.id === 'missing_items_72_hours')!,
          id: 'longer',
          effect: { kind: 'missing_items_time', hours: 96, setting: 'fixed' },
        },
      ],
    };
    const process = screeningProcess([SEATTLE, longer]);
    expect(process.missing_items).toMatchObject({ hours: 96, rule: { id: 'longer' } });
    expect(process.screening_order?.setting).toBe('required');
    expect(screeningProcess(applicablePacks({ state: 'TX' }))).toEqual({
      screening_order: null,
      missing_items: null,
      offer_acceptance: null,
      criteria_before_applying: [],
    });
  });
});
