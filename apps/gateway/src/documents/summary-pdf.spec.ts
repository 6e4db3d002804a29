import { ApplicantRepresentation, ApplicationRepresentation, DocumentRepresentation } from '@app/contracts';
import { ApplicationSummary, SummaryApplicant, summaryPdf } from './summary-pdf';

// pdf-parse's own entry point reads a test file when it is the main module; its parser is this one.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const parsePdf = require('pdf-parse/lib/pdf-parse.js') as (data: Buffer) => Promise<{ text: string }>;

const AT = '2026-11-22T14:03:09+00:00';

function applicant(id: number, type: ApplicantRepresentation['type'], firstName: string, lastName: string): SummaryApplicant {
  const document: DocumentRepresentation = {
    id,
    kind: 'photo_id',
    file_name: `${firstName}_${lastName}_passport.png`,
    content_type: 'image/png',
    size: 1234,
    uploaded_at: AT,
    sha256: '0'.repeat(64),
  };
  return {
    applicant: {
      id,
      application_id: 1,
      type,
      first_name: firstName,
      last_name: lastName,
      name: `${firstName} ${lastName}`,
      email: `applicant${id}@example.com`,
      phone: null,
      reference_id: null,
      form_status: 'completed',
      form_completed_at: AT,
      consent: {
        signed_name: `${firstName} ${lastName}`,
        signed_at: AT,
        ip_address: '192.0.2.1',
        user_agent: 'Spec/1.0',
        form_preset_id: 1,
        form_preset_version: 1,
        disclosures: [],
      },
    } as Partial<ApplicantRepresentation> as ApplicantRepresentation,
    dob: '1990-04-12',
    ssnLastFour: '6789',
    documents: [document],
    answers: [],
  };
}

function summaryOf(applicants: SummaryApplicant[]): ApplicationSummary {
  return {
    application: {
      id: 1,
      property: { id: 1, name: 'Birch House' },
      floor_plan_id: null,
      desired_unit_description: null,
      desired_move_in: '2027-03-01',
      desired_lease_length: 12,
      created_at: AT,
    } as Partial<ApplicationRepresentation> as ApplicationRepresentation,
    property: null,
    applicants,
    decisions: [],
    generatedAt: AT,
  };
}

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
