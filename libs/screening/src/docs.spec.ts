import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REASON_CODE_INFO, SCREENING_REASON_CODES } from '@app/contracts';
import { RULE_PACKS } from './packs';
import { REASON_CODE_MESSAGES } from './reason-codes';

/** docs/screening.md says what the code does: every reason code with its text, every pack's version, rule and source. */
describe('docs/screening.md', () => {
  const doc = readFileSync(join(__dirname, '..', '..', '..', 'docs', 'screening.md'), 'utf8');

  it.each([...SCREENING_REASON_CODES])('documents %s as the code has it', (code) => {
    const info = REASON_CODE_INFO[code];
    const row = `| \`${code}\` | ${info.origin} | ${info.declinable ? 'yes' : 'no'} | ${info.decline_reason} | ${REASON_CODE_MESSAGES[code]} |`;
    expect(doc).toContain(row);
  });

  it.each(RULE_PACKS.map((pack) => [pack.id, pack] as const))('documents %s, its version, rules and sources', (id, pack) => {
    expect(doc).toContain(`(\`${id}\`, version ${pack.version})`);
    for (const rule of pack.rules) {
      expect(doc).toContain(`- \`${rule.id}\`: ${rule.summary}`);
      expect(doc).toContain(`[${rule.source.citation}](${rule.source.url})`);
    }
  });

  it('says the packs are not legal advice, and how to propose a correction', () => {
    expect(doc).toMatch(/\*\*They are not\s+legal advice\*\*/);
    expect(doc).toContain('## Proposing a correction');
  });
});
