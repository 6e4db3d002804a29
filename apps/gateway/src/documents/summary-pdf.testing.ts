/** Summaries for the specs of the summary PDF: a few named applicants, or the largest application there can be. */
import {
  ApplicantRepresentation,
  ApplicationRepresentation,
  DECISION_LIMITS,
  DecisionRepresentation,
  DocumentRepresentation,
  FORM_PRESET_LIMITS,
  MAX_APPLICANTS,
  MAX_DECISIONS,
  MAX_DOCUMENTS_PER_APPLICANT,
  MAX_FORM_ANSWER,
  MAX_FORM_PEOPLE,
  MAX_SECTION_ENTRIES,
} from '@app/contracts';
import { ApplicationSummary, SummaryApplicant } from './summary-pdf';

const AT = '2026-11-22T14:03:09+00:00';

/**
 * Disclosures of the longest text a preset takes, as many as fit with the rest of a preset in the
 * 64 KiB body that creates it.
 */
const MAXIMAL_DISCLOSURES = 11;
/** Text questions answered at the longest, with labels short enough to leave the preset's body to the disclosures. */
const MAXIMAL_ANSWERS = 20;
const MAXIMAL_LABEL = 100;

/** `length` characters of words, as a long field holds them. */
const prose = (length: number, word: string) => `${word} `.repeat(Math.ceil(length / (word.length + 1))).slice(0, length);
const times = <T>(count: number, each: (index: number) => T): T[] => Array.from({ length: count }, (_, index) => each(index));

export function summaryApplicant(
  id: number,
  type: ApplicantRepresentation['type'],
  firstName: string,
  lastName: string,
): SummaryApplicant {
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

export function summaryOf(applicants: SummaryApplicant[], decisions: DecisionRepresentation[] = []): ApplicationSummary {
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
    decisions,
    generatedAt: AT,
  };
}

/** An applicant with every section filled to its limits, every document and long answers and disclosures. */
function maximalApplicant(id: number): SummaryApplicant {
  const named = summaryApplicant(id, id === 1 ? 'primary' : 'co_applicant', `Applicant${id}`, 'Maximal');
  const person = (index: number) => ({
    first_name: prose(100, 'First'),
    last_name: prose(100, 'Last'),
    email: `p${index}@example.com`,
  });
  const applicant: ApplicantRepresentation = {
    ...named.applicant,
    phone: '5550101234',
    reference_id: prose(255, 'reference'),
    identity: { middle_name: prose(100, 'Middle'), drivers_license_state: 'NY' },
    residences: times(MAX_SECTION_ENTRIES, () => ({
      address: prose(500, 'Street'),
      from: '2010-01-15',
      to: '2011-01-15',
      monthly_rent: 1450,
      landlord_name: prose(200, 'Landlord'),
      landlord_phone: '5550102222',
      reason_for_leaving: prose(500, 'reason'),
    })),
    employment: times(MAX_SECTION_ENTRIES, () => ({
      employer: prose(200, 'Employer'),
      position: prose(200, 'Position'),
      start_date: '2020-02-01',
      monthly_income: 5200,
    })),
    other_income: times(MAX_SECTION_ENTRIES, () => ({ source: prose(200, 'Source'), monthly_amount: 400 })),
    household: {
      adults: times(MAX_FORM_PEOPLE, person),
      minors: times(MAX_SECTION_ENTRIES, () => ({ name: prose(200, 'Child'), age: 7 })),
      pets: times(MAX_SECTION_ENTRIES, () => ({ kind: prose(100, 'Dog'), description: prose(200, 'Beagle') })),
      vehicles: times(MAX_SECTION_ENTRIES, () => ({ make_model: prose(200, 'Toyota'), plate: 'ABC 1234' })),
      guarantors: times(MAX_FORM_PEOPLE, person),
    },
    emergency_contact: {
      name: prose(200, 'Contact'),
      relationship: prose(100, 'Aunt'),
      phone: '5550109876',
      email: 'e@example.com',
    },
    consent: {
      ...named.applicant.consent!,
      user_agent: prose(512, 'Agent'),
      disclosures: times(MAXIMAL_DISCLOSURES, (index) => ({
        id: `disclosure_${index}`,
        title: prose(FORM_PRESET_LIMITS.disclosureTitle, 'Title'),
        text: prose(FORM_PRESET_LIMITS.disclosureText, 'clause'),
      })),
    },
  };
  return {
    ...named,
    applicant,
    documents: times(MAX_DOCUMENTS_PER_APPLICANT, (index) => ({
      ...named.documents[0],
      id: index + 1,
      file_name: prose(200, 'scan'),
    })),
    answers: times(MAXIMAL_ANSWERS, () => ({
      label: prose(MAXIMAL_LABEL, 'Question'),
      wording: prose(MAX_FORM_ANSWER, 'answer'),
    })),
  };
}

/** The largest application there can be: 20 applicants, each maximal, and every decision recorded at its longest. */
export function maximalSummary(): ApplicationSummary {
  const decision = (): DecisionRepresentation => ({
    status: 'conditionally_approved',
    conditions: times(DECISION_LIMITS.conditions, () => ({
      kind: 'other',
      amount: null,
      text: prose(DECISION_LIMITS.text, 'condition'),
    })),
    reasons: [],
    note: prose(DECISION_LIMITS.text, 'note'),
    decided_by: 42,
    key_id: 'key_1',
    decided_at: AT,
  });
  return summaryOf(
    times(MAX_APPLICANTS, (index) => maximalApplicant(index + 1)),
    times(MAX_DECISIONS, decision),
  );
}
