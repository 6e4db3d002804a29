import { ApplicationSummary, summaryPdf } from './summary-pdf';
import { summaryApplicant as applicant, summaryOf } from './summary-pdf.testing';

// pdf-parse's own entry point reads a test file when it is the main module; its parser is this one.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const parsePdf = require('pdf-parse/lib/pdf-parse.js') as (data: Buffer) => Promise<{ text: string }>;

/** The PDF's text as a reader extracts it, runs of white space as one space. */
async function textOf(summary: ApplicationSummary): Promise<string> {
  const pdf = summaryPdf(summary);
  const chunks: Buffer[] = [];
  for await (const chunk of pdf) chunks.push(chunk as Buffer);
  return (await parsePdf(Buffer.concat(chunks))).text.replace(/\s+/g, ' ');
}

describe('summaryPdf', () => {
  it('prints names in Latin, Greek and Cyrillic letters as they were given, in the headings and the body', async () => {
    const flat = await textOf(
      summaryOf([
        applicant(1, 'primary', 'Łukasz', 'Żółć'),
        applicant(2, 'co_applicant', 'Σοφία', 'Παπαδοπούλου'),
        applicant(3, 'guarantor', 'Дмитрий', 'Шостакович'),
      ]),
    );
    for (const expected of [
      'Primary applicant: Łukasz Żółć',
      'Co-applicant: Σοφία Παπαδοπούλου',
      'Guarantor: Дмитрий Шостакович',
      'Signed by: Łukasz Żółć',
      'Signed by: Σοφία Παπαδοπούλου',
      'Signed by: Дмитрий Шостакович',
      'Дмитрий_Шостакович_passport.png',
    ]) {
      expect(flat).toContain(expected);
    }
  });

  it('writes a character the font cannot draw as its code point, never as an empty box or nothing', async () => {
    const flat = await textOf(summaryOf([applicant(1, 'primary', 'Łukasz', '山田')]));
    expect(flat).toContain('Primary applicant: Łukasz [U+5C71][U+7530]');
    expect(flat).toContain('Signed by: Łukasz [U+5C71][U+7530]');
  });
});
