/**
 * The largest application a client can make, made as integrators and applicants make one (the API
 * and the form over HTTP): 20 applicants and guarantors, each with every section the form asks
 * them filled to its limits, 20 documents each, long answers, and a preset whose disclosures fill
 * its 64 KiB body. Its summary PDF is the longest there can be; the bench and the tests print it.
 */
import {
  FORM_PRESET_LIMITS,
  MAX_APPLICANTS,
  MAX_DOCUMENTS_PER_APPLICANT,
  MAX_FORM_ANSWER,
  MAX_FORM_PEOPLE,
  MAX_SECTION_ENTRIES,
} from '../libs/contracts/src';
import { saveStep, startForm, uploadDocument } from './form-client';

/** Where the stack answers: the API with a key of the client, and the form. */
export interface FormAndApi {
  url: string;
  formUrl: string;
  apiKey: string;
}

/** 5,000-character disclosures (and their titles) that fit beside the questions in the preset's 64 KiB body. */
const DISCLOSURES = 11;
/** Text questions answered at their longest; their labels short, to leave the body to the disclosures. */
const QUESTIONS = 20;
const LABEL_LENGTH = 100;
/** Years of addresses asked: one address a year. */
const RESIDENCE_YEARS = MAX_SECTION_ENTRIES;

const prose = (length: number, word: string) => `${word} `.repeat(Math.ceil(length / (word.length + 1))).slice(0, length);
const times = <T>(count: number, each: (index: number) => T): T[] => Array.from({ length: count }, (_, index) => each(index));
/** Each entry's fields named as the form names them: `residences.0.address`. */
const listed = (list: string, entries: Array<Record<string, string>>) =>
  Object.fromEntries(
    entries.flatMap((entry, index) => Object.entries(entry).map(([field, value]) => [`${list}.${index}.${field}`, value])),
  );

/** The date `years` years before today, YYYY-MM-DD. */
function yearsBefore(years: number): string {
  const date = new Date();
  date.setUTCFullYear(date.getUTCFullYear() - years);
  return date.toISOString().slice(0, 10);
}

/** A PDF as small as the form takes, named at the longest a file name is kept. */
const DOCUMENT = Buffer.from('%PDF-1.4\n% a scanned page\n%%EOF\n');

const IDENTITY = {
  middle_name: prose(100, 'Middle'),
  dob: '1990-04-12',
  id_number: '123-45-6789',
  drivers_license_state: 'NY',
  drivers_license_number: 'D1234567',
};
const RESIDENCES = listed(
  'residences',
  times(RESIDENCE_YEARS, (index) => ({
    address: prose(500, 'Street'),
    from: yearsBefore(index + 1),
    ...(index === 0 ? {} : { to: yearsBefore(index) }),
    monthly_rent: '1450',
    landlord_name: prose(200, 'Landlord'),
    landlord_phone: '(555) 010-2222',
    reason_for_leaving: prose(500, 'reason'),
  })),
);
const EMPLOYMENT = {
  ...listed(
    'employment',
    times(MAX_SECTION_ENTRIES, () => ({
      employer: prose(200, 'Employer'),
      position: prose(200, 'Position'),
      start_date: '2020-02-01',
      monthly_income: '5200',
    })),
  ),
  ...listed(
    'other_income',
    times(MAX_SECTION_ENTRIES, () => ({ source: prose(200, 'Source'), monthly_amount: '400' })),
  ),
};
const person = (role: string) => (index: number) => ({
  first_name: `${role}${index}`,
  last_name: prose(100, 'Surname'),
  email: `${role}${index}@example.com`,
});
const HOUSEHOLD = {
  ...listed('adults', times(MAX_FORM_PEOPLE, person('adult'))),
  ...listed(
    'minors',
    times(MAX_SECTION_ENTRIES, () => ({ name: prose(200, 'Child'), age: '7' })),
  ),
  ...listed(
    'pets',
    times(MAX_SECTION_ENTRIES, () => ({ kind: prose(100, 'Dog'), description: prose(200, 'Beagle') })),
  ),
  ...listed(
    'vehicles',
    times(MAX_SECTION_ENTRIES, () => ({ make_model: prose(200, 'Toyota'), plate: 'ABC 1234' })),
  ),
  ...listed('guarantors', times(MAX_FORM_PEOPLE, person('guarantor'))),
};
const EMERGENCY_CONTACT = {
  name: prose(200, 'Contact'),
  relationship: prose(100, 'Aunt'),
  phone: '555 010 9876',
  email: 'e@example.com',
};
const ANSWERS = Object.fromEntries(times(QUESTIONS, (index) => [`answers.q_${index}`, prose(MAX_FORM_ANSWER, 'answer')]));

/** The sections each type of applicant is asked, in the preset's order, with what it fills them with. */
const SECTIONS: Record<string, Array<[string, Record<string, string>]>> = {
  primary: [
    ['details', { desired_move_in: '2027-03-01' }],
    ['identity', IDENTITY],
    ['residence_history', RESIDENCES],
    ['employment', EMPLOYMENT],
    ['household', HOUSEHOLD],
    ['emergency_contact', EMERGENCY_CONTACT],
    ['questions', ANSWERS],
  ],
  co_applicant: [
    ['identity', IDENTITY],
    ['residence_history', RESIDENCES],
    ['employment', EMPLOYMENT],
    ['emergency_contact', EMERGENCY_CONTACT],
    ['questions', ANSWERS],
  ],
  guarantor: [
    ['identity', IDENTITY],
    ['residence_history', RESIDENCES],
    ['employment', EMPLOYMENT],
  ],
};

const PRESET = {
  name: 'Every section',
  sections: [
    { kind: 'identity' },
    { kind: 'residence_history', years: RESIDENCE_YEARS },
    { kind: 'employment' },
    { kind: 'household' },
    { kind: 'emergency_contact' },
    { kind: 'documents' },
    { kind: 'questions' },
  ],
  documents: [{ kind: 'other', required: false }],
  questions: times(QUESTIONS, (index) => ({
    id: `q_${index}`,
    label: prose(LABEL_LENGTH, 'Question'),
    kind: 'text',
    required: true,
  })),
  disclosures: times(DISCLOSURES, (index) => ({
    id: `disclosure_${index}`,
    title: prose(FORM_PRESET_LIMITS.disclosureTitle, 'Title'),
    text: prose(FORM_PRESET_LIMITS.disclosureText, 'clause'),
  })),
};

// The parts of the API's answers read here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** The application's id, and the property's it was made to. */
export async function makeMaximalApplication(stack: FormAndApi): Promise<{ applicationId: number; propertyId: number }> {
  const api = async (path: string, body?: unknown): Promise<Json> => {
    const answer = await fetch(`${stack.url}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${stack.apiKey}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (answer.status >= 300) throw new Error(`${path} answered ${answer.status}: ${await answer.text()}`);
    return answer.json();
  };
  const preset = await api('/api/v2/form_presets', { form_preset: PRESET });
  const property = await api('/api/v2/properties', {
    property: { name: prose(255, 'House'), kind: 'single_family', form_preset_id: preset.form_preset.id },
  });
  const propertyId: number = property.property.id;
  const contact = person('applicant')(1);
  const created = await api('/api/v2/applications', { application: { property_id: propertyId, applicant: contact } });
  const applicationId: number = created.application.id;

  const fill = async ({ api_url, type }: { api_url: string; type: string }) => {
    const { applicant } = await api(new URL(api_url).pathname);
    const token = await startForm(stack.formUrl, applicant.form_url, {
      first_name: applicant.first_name,
      last_name: applicant.last_name,
      email: applicant.email,
    });
    for (const [step, fields] of SECTIONS[type]) await saveStep(stack.formUrl, token, step, fields);
    for (let index = 0; index < MAX_DOCUMENTS_PER_APPLICANT; index++) {
      const name = `${prose(190, 'scan')}-${index}.pdf`;
      const uploaded = await uploadDocument(stack.formUrl, token, {
        kind: 'other',
        name,
        type: 'application/pdf',
        bytes: DOCUMENT,
      });
      if (uploaded.status !== 303) throw new Error(`upload ${index} answered ${uploaded.status}: ${uploaded.html.slice(0, 500)}`);
    }
    await saveStep(stack.formUrl, token, 'finish', {
      consent: 'yes',
      signature: `${applicant.first_name} ${applicant.last_name}`,
    });
  };

  // The primary first: its household adds the adults and guarantors it names, each an applicant.
  await fill(created.application.applicants[0]);
  const { application } = await api(`/api/v2/applications/${applicationId}`);
  for (let index = application.applicants.length; index < MAX_APPLICANTS; index++) {
    await api(`/api/v2/applications/${applicationId}/applicants`, { applicant: person('co')(index) });
  }
  const { application: whole } = await api(`/api/v2/applications/${applicationId}`);
  const others = whole.applicants.slice(1);
  // A few at a time: each form step is a few requests in a row, the form has CPU to spare.
  for (let at = 0; at < others.length; at += 4) await Promise.all(others.slice(at, at + 4).map(fill));
  return { applicationId, propertyId };
}
