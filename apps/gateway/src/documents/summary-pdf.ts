import PDFDocument from 'pdfkit';
// Types only: the layout loads pdfkit and the fonts and nothing of the contracts, so that it can run
// on its own, where they are not loaded.
import type {
  ApplicantRepresentation,
  ApplicationRepresentation,
  DecisionRepresentation,
  DocumentRepresentation,
  HouseholdPerson,
  PropertyRepresentation,
} from '@app/contracts';
import { BOLD, drawable, REGULAR, registerSummaryFonts } from './summary-fonts';

/**
 * The nice value of the threads that lay summaries out: the lowest priority. A layout takes a
 * core for a second or more; on a gateway with few cores the API's event loop would otherwise
 * wait for the core the scheduler gave the layout, and every request would be slower while
 * summaries are made.
 */
export const SUMMARY_PDF_WORKER_NICE = 19;

/** An answer to one of the preset's questions, in the words the form's review shows it. */
export interface SummaryAnswer {
  label: string;
  wording: string;
}

/** One applicant as the summary shows it. */
export interface SummaryApplicant {
  applicant: ApplicantRepresentation;
  dob: string | null;
  /** The SSN's last four digits, the only part of it ever printed; null when none was given. */
  ssnLastFour: string | null;
  documents: DocumentRepresentation[];
  /** In the preset's order; the questions not answered are left out. */
  answers: SummaryAnswer[];
}

export interface ApplicationSummary {
  application: ApplicationRepresentation;
  /** Null when the property was deleted since: the application's own copy of its name is shown. */
  property: PropertyRepresentation | null;
  applicants: SummaryApplicant[];
  /** Every decision recorded, newest first (GET .../decisions). */
  decisions: DecisionRepresentation[];
  generatedAt: string;
}

const STATUS_NAMES: Record<string, string> = {
  draft: 'draft',
  submitted: 'submitted',
  approved: 'approved',
  conditionally_approved: 'approved on conditions',
  declined: 'declined',
  withdrawn: 'withdrawn',
};

/** A decision in one line: what, when, by whom, with its conditions or reasons. */
export function decisionLine(decision: DecisionRepresentation): string {
  const conditions = decision.conditions.map((condition) =>
    condition.kind === 'deposit'
      ? `deposit of ${dollars(condition.amount)}`
      : condition.text
        ? `${condition.kind}: ${condition.text}`
        : condition.kind,
  );
  const parts = [
    STATUS_NAMES[decision.status] ?? decision.status,
    ...(conditions.length > 0 ? [`conditions: ${conditions.join('; ')}`] : []),
    ...(decision.reasons.length > 0 ? [`reasons: ${decision.reasons.join(', ')}`] : []),
    decision.decided_by === null ? null : `by user ${decision.decided_by}`,
    decision.key_id === null ? 'by the applicant, on the form' : `through API key ${decision.key_id}`,
  ];
  return `${decision.decided_at}: ${parts.filter(Boolean).join(', ')}`;
}

const TYPE_NAMES: Record<string, string> = { primary: 'Primary applicant', co_applicant: 'Co-applicant', guarantor: 'Guarantor' };

/** The last four digits of an SSN, as the summary prints it. */
export function maskedSsn(lastFour: string | null): string {
  return lastFour ? `XXX-XX-${lastFour}` : 'not given';
}

/** An amount in dollars as the summary prints it; null when none was given. */
function dollars(amount: number | null | undefined): string | null {
  return amount === null || amount === undefined ? null : `$${amount.toLocaleString('en-US')}`;
}

/**
 * The application as a landlord prints and files it: the property, every applicant and guarantor
 * with what they gave, their documents and each signed consent. Made with pdfkit (no browser);
 * the PDF streams out as it is written.
 */
export function summaryPdf(summary: ApplicationSummary): PDFKit.PDFDocument {
  const { application, property, applicants, decisions } = summary;
  // Uncompressed: pdfkit 0.20's compressed output has cross-reference offsets that point past
  // their objects (readers must repair it); a summary of a few pages is small either way.
  const pdf = new PDFDocument({ size: 'LETTER', margin: 54, compress: false, info: { Title: `Application ${application.id}` } });
  registerSummaryFonts(pdf);
  const heading = (text: string, size = 14) =>
    pdf.moveDown(0.6).font(BOLD).fontSize(size).text(drawable(text)).font(REGULAR).fontSize(10);
  const line = (label: string, value: string | number | null | undefined) =>
    pdf
      .font(BOLD)
      .text(`${drawable(label)}: `, { continued: true })
      .font(REGULAR)
      .text(value === null || value === undefined || value === '' ? '-' : drawable(String(value)));

  pdf.font(BOLD).fontSize(18).text(`Rental application ${application.id}`);
  pdf.font(REGULAR).fontSize(9).text(`Generated ${summary.generatedAt}. Confidential: contains applicants' personal data.`);

  heading('Property');
  line('Name', property?.name ?? application.property.name);
  if (property) {
    line('Address', [property.street, property.city, property.state, property.zip].filter(Boolean).join(', '));
    line('Kind', property.kind);
    line('Manager', [property.manager_name, property.manager_email, property.manager_phone].filter(Boolean).join(', '));
  }
  const plan = property?.floor_plans.find((candidate) => candidate.id === application.floor_plan_id);
  line('Floor plan', plan?.name ?? null);
  line('Desired unit', application.desired_unit_description);
  line('Desired move-in', application.desired_move_in);
  line('Desired lease length', application.desired_lease_length);
  line('Created', application.created_at);
  if (application.personal_data_erased_at) line('Personal data erased', application.personal_data_erased_at);

  heading('Decision');
  line('Status', STATUS_NAMES[application.status ?? 'draft'] ?? application.status);
  line('Rent judged against', dollars(application.rent));
  line('Household monthly income', dollars(application.household_monthly_income));
  line('Income to rent', application.income_to_rent ?? null);
  const current = decisions[0];
  if (current?.note) line('Note', current.note);
  if (decisions.length === 0) pdf.text('Nothing decided yet.');
  else {
    heading('Decision history, newest first', 11);
    for (const decision of decisions) pdf.text(drawable(decisionLine(decision)));
  }

  for (const { applicant, dob, ssnLastFour, documents, answers } of applicants) {
    heading(`${TYPE_NAMES[applicant.type] ?? applicant.type}: ${applicant.name}`);
    line('E-mail', applicant.email);
    line('Phone', applicant.phone);
    line('Date of birth', dob);
    line('SSN', maskedSsn(ssnLastFour));
    line('Form', `${applicant.form_status}${applicant.form_completed_at ? `, completed ${applicant.form_completed_at}` : ''}`);
    line('Reference', applicant.reference_id);

    // The sections as saved; the identity's sealed fields are never among them (the DOB and SSN above come apart).
    heading('Sections', 11);
    const identity = applicant.identity;
    if (identity) {
      line('Middle name', identity.middle_name);
      line('Driver’s license state', identity.drivers_license_state);
    }
    for (const residence of applicant.residences ?? []) {
      line('Residence', `${residence.address}, ${residence.from} to ${residence.to ?? 'now'}`);
      line('Monthly rent', dollars(residence.monthly_rent));
      line('Landlord', [residence.landlord_name, residence.landlord_phone].filter(Boolean).join(', '));
      line('Reason for leaving', residence.reason_for_leaving);
    }
    for (const job of applicant.employment ?? []) {
      line('Employment', `${job.employer}, ${job.position ?? '-'}, since ${job.start_date}`);
      line('Monthly income', dollars(job.monthly_income));
    }
    for (const income of applicant.other_income ?? [])
      line('Other income', `${income.source}, ${dollars(income.monthly_amount)} a month`);
    const household = applicant.household;
    if (household) {
      const person = ({ first_name, last_name, email }: HouseholdPerson) => `${first_name} ${last_name}, ${email}`;
      for (const adult of household.adults) line('Other adult', person(adult));
      for (const minor of household.minors) line('Child', `${minor.name}, age ${minor.age}`);
      for (const pet of household.pets) line('Pet', [pet.kind, pet.description].filter(Boolean).join(', '));
      for (const vehicle of household.vehicles) line('Vehicle', [vehicle.make_model, vehicle.plate].filter(Boolean).join(', '));
      for (const guarantor of household.guarantors) line('Guarantor', person(guarantor));
      if (Object.values(household).every((list: unknown[]) => list.length === 0))
        line('Household', 'no one else, no pets, no vehicles');
    }
    const contact = applicant.emergency_contact;
    if (contact) {
      const relationship = contact.relationship ? ` (${contact.relationship})` : '';
      line('Emergency contact', [`${contact.name}${relationship}`, contact.phone, contact.email].filter(Boolean).join(', '));
    }
    if (!identity && !applicant.residences && !applicant.employment && !household && !contact) pdf.text('None saved.');

    heading('Answers', 11);
    if (answers.length === 0) pdf.text('None given.');
    for (const { label, wording } of answers) line(label, wording);

    heading('Documents', 11);
    if (documents.length === 0) pdf.text('None uploaded.');
    for (const document of documents) {
      pdf.text(
        `${document.kind}: ${drawable(document.file_name)} (${document.content_type}, ${document.size} bytes, uploaded ${document.uploaded_at})`,
      );
      pdf.fontSize(7).text(`SHA-256 ${document.sha256}`).fontSize(10);
    }

    heading('Consent', 11);
    const consent = applicant.consent;
    if (!consent) {
      pdf.text('Not signed yet.');
      continue;
    }
    line('Signed by', consent.signed_name);
    line('Signed at', consent.signed_at);
    line('From', `${consent.ip_address}, ${consent.user_agent || 'no user agent'}`);
    line('Form preset', `${consent.form_preset_id}, version ${consent.form_preset_version}`);
    for (const disclosure of consent.disclosures) {
      pdf.moveDown(0.3).font(BOLD).text(drawable(disclosure.title)).font(REGULAR).text(drawable(disclosure.text));
    }
  }
  pdf.end();
  return pdf;
}
