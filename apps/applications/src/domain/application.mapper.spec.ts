import { randomBytes } from 'node:crypto';
import { FieldCipher } from '@app/crypto';
import {
  applicationStatus,
  toApplicantRepresentation,
  toApplicationRepresentation,
  toDecisionRepresentation,
} from './application.mapper';
import { ApplicantRecord, ApplicationRecord, StoredDecision } from './application';

const BASE_URL = 'https://rentals.example.com';

const APPLICATION_FIELDS = [
  'id',
  'property_id',
  'client_id',
  'assigned_user_id',
  'floor_plan_id',
  'desired_unit_description',
  'desired_lease_length',
  'desired_unit_number',
  'user_specified_rent',
  'desired_move_in',
  'showing_agent',
  'showing_agent_id',
  'referral',
  'archived',
  'status',
  'rent',
  'household_monthly_income',
  'income_to_rent',
  'personal_data_erased_at',
  'created_at',
  'updated_at',
  'property',
  'applicants',
];

const FIELDS_NULL_AFTER_CREATION = [
  'floor_plan_id',
  'desired_unit_description',
  'desired_lease_length',
  'desired_unit_number',
  'showing_agent',
  'showing_agent_id',
  'referral',
  'archived',
];

const SSN = '078051120';
const DOB = '1981-07-23';
const EMAIL = 'grace.hopper@example.com';
const PHONE = '15550104242';
const CUSTOM_DATA_MARKER = 'custom-marker-3f9a';
const REFERENCE_ID = 'crm-ref-5521';
const REDIRECT_URL = 'https://integrator.example.net/after-apply';
const cipher = new FieldCipher(`spec:${randomBytes(32).toString('base64')}`);
const SEALED_SSN = cipher.seal(SSN, 'applicant.id_number');
const SEALED_DOB = cipher.seal(DOB, 'applicant.dob');

function storedApplicant(overrides: Partial<ApplicantRecord> = {}): ApplicantRecord {
  return {
    id: 501,
    type: 'primary',
    first_name: 'Grace',
    last_name: 'Hopper',
    email: EMAIL,
    dob: SEALED_DOB,
    id_number: SEALED_SSN,
    phone: PHONE,
    custom_data: JSON.stringify({ [CUSTOM_DATA_MARKER]: { note: 'private' } }),
    reference_id: REFERENCE_ID,
    redirect_url: REDIRECT_URL,
    ...overrides,
  };
}

/** A stored application as a lean query returns it, `_id` included. */
function storedApplication(overrides: Partial<ApplicationRecord> = {}): ApplicationRecord {
  return {
    _id: '665f1c2e9d1b2a0087654321',
    id: 3001,
    client_id: 7,
    property_id: 42,
    property_name: 'Elm Court',
    assigned_user_id: 12,
    user_specified_rent: 1850,
    desired_move_in: '2031-05-01',
    applicants: [storedApplicant()],
    created_at: new Date('2026-11-22T14:03:09.457Z'),
    updated_at: new Date('2026-11-23T08:15:00.999Z'),
    ...overrides,
  } as ApplicationRecord;
}

const DECISION: StoredDecision = {
  status: 'conditionally_approved',
  conditions: [{ kind: 'deposit', amount: 3700, text: null }],
  reasons: [],
  note: null,
  decided_by: 42,
  key_id: '0123456789abcdef',
  decided_at: new Date('2026-11-28T10:00:00.750Z'),
  request_key: 'message:m-1',
};

describe('the application’s status', () => {
  it('is draft, then submitted once the primary applicant completed the form, then the current decision’s', () => {
    expect(applicationStatus(storedApplication(), false)).toBe('draft');
    expect(applicationStatus(storedApplication(), true)).toBe('submitted');
    const declined: StoredDecision = { ...DECISION, status: 'declined', conditions: [], reasons: ['income'] };
    expect(applicationStatus(storedApplication({ decisions: [declined, DECISION] }), true)).toBe('declined');
    expect(applicationStatus(storedApplication({ decisions: [DECISION] }), false)).toBe('conditionally_approved');
    expect(toApplicationRepresentation(storedApplication(), BASE_URL, true).status).toBe('submitted');
  });

  it('shows a decision with every field in order, and never the request that recorded it', () => {
    const shown = toDecisionRepresentation(DECISION);
    expect(shown).toEqual({
      status: 'conditionally_approved',
      conditions: [{ kind: 'deposit', amount: 3700, text: null }],
      reasons: [],
      note: null,
      decided_by: 42,
      key_id: '0123456789abcdef',
      decided_at: '2026-11-28T10:00:00+00:00',
    });
    expect(Object.keys(shown)).toEqual(['status', 'conditions', 'reasons', 'note', 'decided_by', 'key_id', 'decided_at']);
  });
});

describe('toApplicationRepresentation', () => {
  it('has every documented field, in the documented order', () => {
    const application = toApplicationRepresentation(storedApplication(), BASE_URL, false);
    expect(Object.keys(application)).toEqual(APPLICATION_FIELDS);
    expect(Object.keys(application.property)).toEqual(['id', 'name']);
    expect(Object.keys(application.applicants[0])).toEqual(['id', 'type', 'name', 'api_url', 'monthly_income', 'income_to_rent']);
  });

  it('maps a stored application to its representation', () => {
    expect(toApplicationRepresentation(storedApplication(), BASE_URL, false)).toEqual({
      id: 3001,
      property_id: 42,
      client_id: 7,
      assigned_user_id: 12,
      floor_plan_id: null,
      desired_unit_description: null,
      desired_lease_length: null,
      desired_unit_number: null,
      user_specified_rent: 1850,
      desired_move_in: '2031-05-01',
      showing_agent: null,
      showing_agent_id: null,
      referral: null,
      archived: null,
      status: 'draft',
      rent: 1850,
      household_monthly_income: null,
      income_to_rent: null,
      personal_data_erased_at: null,
      created_at: '2026-11-22T14:03:09+00:00',
      updated_at: '2026-11-23T08:15:00+00:00',
      property: { id: 42, name: 'Elm Court' },
      applicants: [
        {
          id: 501,
          type: 'primary',
          name: 'Grace Hopper',
          api_url: 'https://rentals.example.com/api/v2/applications/3001/applicants/501',
          monthly_income: null,
          income_to_rent: null,
        },
      ],
    });
  });

  it('gives null for the fields creation leaves unset', () => {
    const application = toApplicationRepresentation(storedApplication(), BASE_URL, false) as unknown as Record<string, unknown>;
    for (const field of FIELDS_NULL_AFTER_CREATION) {
      expect(application[field]).toBeNull();
    }
  });

  it('gives null for optional inputs stored as null or never stored', () => {
    const stored = storedApplication({ assigned_user_id: null, user_specified_rent: null, desired_move_in: null });
    const fromNull = toApplicationRepresentation(stored, BASE_URL, false);
    expect([fromNull.assigned_user_id, fromNull.user_specified_rent, fromNull.desired_move_in]).toEqual([null, null, null]);

    const bare = storedApplication();
    for (const field of ['assigned_user_id', 'user_specified_rent', 'desired_move_in'] as const) {
      delete (bare as Partial<ApplicationRecord>)[field];
    }
    const fromMissing = toApplicationRepresentation(bare, BASE_URL, false);
    expect([fromMissing.assigned_user_id, fromMissing.user_specified_rent, fromMissing.desired_move_in]).toEqual([
      null,
      null,
      null,
    ]);
    expect(Object.keys(fromMissing)).toEqual(APPLICATION_FIELDS);
  });

  it('keeps a rent of zero as zero', () => {
    expect(toApplicationRepresentation(storedApplication({ user_specified_rent: 0 }), BASE_URL, false).user_specified_rent).toBe(
      0,
    );
  });

  it('writes timestamps at seconds precision with a numeric offset', () => {
    const application = toApplicationRepresentation(
      storedApplication({
        created_at: new Date('2027-01-01T00:00:00.000Z'),
        updated_at: new Date('2027-03-04T05:06:07.890+02:00'),
      }),
      BASE_URL,
      false,
    );
    expect(application.created_at).toBe('2027-01-01T00:00:00+00:00');
    expect(application.updated_at).toBe('2027-03-04T03:06:07+00:00');
  });

  it('names the property it was made to', () => {
    const application = toApplicationRepresentation(
      storedApplication({ property_id: 9, property_name: 'Oak Row' }),
      BASE_URL,
      false,
    );
    expect(application.property).toEqual({ id: 9, name: 'Oak Row' });
    expect(application.property_id).toBe(9);
  });

  it('builds each applicant api_url from the public base URL, the application id and the applicant id', () => {
    const application = toApplicationRepresentation(
      storedApplication({
        id: 77,
        applicants: [storedApplicant({ id: 8 }), storedApplicant({ id: 9, first_name: 'Alan', last_name: 'Turing' })],
      }),
      'http://localhost:3000',
      false,
    );
    expect(application.applicants).toEqual([
      {
        id: 8,
        type: 'primary',
        name: 'Grace Hopper',
        api_url: 'http://localhost:3000/api/v2/applications/77/applicants/8',
        monthly_income: null,
        income_to_rent: null,
      },
      {
        id: 9,
        type: 'primary',
        name: 'Alan Turing',
        api_url: 'http://localhost:3000/api/v2/applications/77/applicants/9',
        monthly_income: null,
        income_to_rent: null,
      },
    ]);
  });

  it('reveals no personal detail of an applicant anywhere', () => {
    const text = JSON.stringify(toApplicationRepresentation(storedApplication(), BASE_URL, false));
    for (const field of ['id_number', 'dob', 'email', 'phone', 'custom_data', 'reference_id', 'redirect_url']) {
      expect(text).not.toContain(`"${field}"`);
    }
    const sealed = [SEALED_SSN.ciphertext, SEALED_SSN.nonce, SEALED_DOB.ciphertext, SEALED_DOB.nonce];
    for (const value of [
      SSN,
      '078-05-1120',
      DOB,
      EMAIL,
      PHONE,
      CUSTOM_DATA_MARKER,
      'private',
      REFERENCE_ID,
      REDIRECT_URL,
      ...sealed,
    ]) {
      expect(text).not.toContain(value);
    }
  });

  it('leaves out storage fields: _id and property_name', () => {
    const application = toApplicationRepresentation(storedApplication(), BASE_URL, false) as unknown as Record<string, unknown>;
    expect(application).not.toHaveProperty('_id');
    expect(application).not.toHaveProperty('property_name');
    expect(JSON.stringify(application)).not.toContain('665f1c2e9d1b2a0087654321');
  });
});

const APPLICANT_FIELDS = [
  'id',
  'application_id',
  'type',
  'first_name',
  'last_name',
  'name',
  'email',
  'phone',
  'reference_id',
  'redirect_url',
  'custom_data',
  'form_url',
  'form_status',
  'form_started_at',
  'form_completed_at',
  'withdrawn_at',
  'form_answers',
  'identity',
  'residences',
  'employment',
  'other_income',
  'household',
  'emergency_contact',
  'consent',
  'created_at',
  'updated_at',
  'api_url',
];
const FORM_URL = 'https://apply.example.com/applicants/abc';

describe('toApplicantRepresentation', () => {
  const withForm = (overrides: Partial<ApplicantRecord> = {}) =>
    storedApplicant({
      form_token: cipher.seal('abc', 'applicant.form_token'),
      form_token_digest: 'digest-77f1',
      form_status: 'not_started',
      form_started_at: null,
      form_completed_at: null,
      created_at: new Date('2026-11-22T15:00:00.700Z'),
      updated_at: new Date('2026-11-22T16:00:00.200Z'),
      request_key: 'message:secret-request',
      ...overrides,
    });

  it('maps a stored applicant to its record: every documented field, in order', () => {
    const applicant = toApplicantRepresentation(storedApplication(), withForm(), BASE_URL, FORM_URL);
    expect(Object.keys(applicant)).toEqual(APPLICANT_FIELDS);
    expect(applicant).toEqual({
      id: 501,
      application_id: 3001,
      type: 'primary',
      first_name: 'Grace',
      last_name: 'Hopper',
      name: 'Grace Hopper',
      email: EMAIL,
      phone: PHONE,
      reference_id: REFERENCE_ID,
      redirect_url: REDIRECT_URL,
      custom_data: { [CUSTOM_DATA_MARKER]: { note: 'private' } },
      form_url: FORM_URL,
      form_status: 'not_started',
      form_started_at: null,
      form_completed_at: null,
      withdrawn_at: null,
      form_answers: null,
      identity: null,
      residences: null,
      employment: null,
      other_income: null,
      household: null,
      emergency_contact: null,
      consent: null,
      created_at: '2026-11-22T15:00:00+00:00',
      updated_at: '2026-11-22T16:00:00+00:00',
      api_url: 'https://rentals.example.com/api/v2/applications/3001/applicants/501',
    });
  });

  it('shows the signed consent: its fields in order, the time formatted', () => {
    const consent = {
      user_agent: 'Browser/1.0',
      signed_name: 'Grace Hopper',
      signed_at: new Date('2026-11-22T17:00:00.900Z'),
      ip_address: '203.0.113.7',
      disclosures: [{ text: 'You authorize a credit check.', id: 'screening', title: 'Tenant screening' }],
      form_preset_version: 2,
      form_preset_id: 3,
    };
    const { consent: shown } = toApplicantRepresentation(storedApplication(), withForm({ consent }), BASE_URL, FORM_URL);
    expect(Object.keys(shown!)).toEqual([
      'signed_name',
      'signed_at',
      'ip_address',
      'user_agent',
      'form_preset_id',
      'form_preset_version',
      'disclosures',
    ]);
    expect(shown).toEqual({
      signed_name: 'Grace Hopper',
      signed_at: '2026-11-22T17:00:00+00:00',
      ip_address: '203.0.113.7',
      user_agent: 'Browser/1.0',
      form_preset_id: 3,
      form_preset_version: 2,
      disclosures: [{ id: 'screening', title: 'Tenant screening', text: 'You authorize a credit check.' }],
    });
  });

  it('gives nulls for what was never given, and the application’s time to an applicant stored before applicants had one', () => {
    const legacy = storedApplicant({ phone: null, custom_data: null, reference_id: null, redirect_url: null });
    const applicant = toApplicantRepresentation(storedApplication(), legacy, BASE_URL, null);
    expect(Object.keys(applicant)).toEqual(APPLICANT_FIELDS);
    expect(applicant).toMatchObject({
      phone: null,
      custom_data: null,
      reference_id: null,
      redirect_url: null,
      form_url: null,
      form_status: 'not_started',
      form_started_at: null,
      form_completed_at: null,
      form_answers: null,
      created_at: '2026-11-22T14:03:09+00:00',
      updated_at: '2026-11-22T14:03:09+00:00',
    });
  });

  it('shows when a co-applicant withdrew from the application, in the API’s timestamp format', () => {
    const withdrawn = withForm({ type: 'co_applicant', withdrawn_at: new Date('2026-11-23T09:30:00.900Z') });
    expect(toApplicantRepresentation(storedApplication(), withdrawn, BASE_URL, FORM_URL).withdrawn_at).toBe(
      '2026-11-23T09:30:00+00:00',
    );
  });

  it('shows each saved section as its named field, and never a sealed identity number', () => {
    const household = { adults: [], minors: [{ name: 'Kid', age: 7 }], pets: [], vehicles: [], guarantors: [] };
    const applicant = toApplicantRepresentation(
      storedApplication(),
      withForm({
        drivers_license_number: cipher.seal('D1234567', 'applicant.drivers_license_number'),
        form_sections: {
          identity: JSON.stringify({ middle_name: 'Brewster', drivers_license_state: 'NY' }),
          residence_history: JSON.stringify({ residences: [{ address: '1 Main St', from: '2020-01-01' }] }),
          employment: JSON.stringify({
            employment: [{ employer: 'Navy', start_date: '1943-12-01', monthly_income: 100 }],
            other_income: [],
          }),
          household: JSON.stringify(household),
          emergency_contact: JSON.stringify({ name: 'Mary', phone: '5550109876' }),
        },
      }),
      BASE_URL,
      FORM_URL,
    );
    expect(applicant).toMatchObject({
      identity: { middle_name: 'Brewster', drivers_license_state: 'NY' },
      residences: [{ address: '1 Main St', from: '2020-01-01' }],
      employment: [{ employer: 'Navy', start_date: '1943-12-01', monthly_income: 100 }],
      other_income: [],
      household,
      emergency_contact: { name: 'Mary', phone: '5550109876' },
    });
    // What was not given is null, and every field comes in its documented order.
    expect(applicant.residences).toEqual([
      {
        address: '1 Main St',
        from: '2020-01-01',
        to: null,
        monthly_rent: null,
        landlord_name: null,
        landlord_phone: null,
        reason_for_leaving: null,
      },
    ]);
    expect(Object.keys(applicant.residences![0])).toEqual([
      'address',
      'from',
      'to',
      'monthly_rent',
      'landlord_name',
      'landlord_phone',
      'reason_for_leaving',
    ]);
    expect(applicant.emergency_contact).toEqual({ name: 'Mary', relationship: null, phone: '5550109876', email: null });
    expect(JSON.stringify(applicant)).not.toContain('drivers_license_number');
  });

  it('writes form progress timestamps and a co-applicant’s type', () => {
    const applicant = toApplicantRepresentation(
      storedApplication(),
      withForm({
        type: 'co_applicant',
        form_status: 'completed',
        form_started_at: new Date('2026-11-23T01:02:03.456Z'),
        form_completed_at: new Date('2026-11-23T02:03:04.567Z'),
      }),
      BASE_URL,
      FORM_URL,
    );
    expect([applicant.type, applicant.form_status, applicant.form_started_at, applicant.form_completed_at]).toEqual([
      'co_applicant',
      'completed',
      '2026-11-23T01:02:03+00:00',
      '2026-11-23T02:03:04+00:00',
    ]);
  });

  it('gives the form answers as the object they were stored as JSON text', () => {
    const answers = { current_address: '1 Main St', evicted: 'no' };
    const applicant = toApplicantRepresentation(
      storedApplication(),
      withForm({ form_answers: JSON.stringify(answers) }),
      BASE_URL,
      FORM_URL,
    );
    expect(applicant.form_answers).toEqual(answers);
  });

  it('reveals neither the SSN nor the date of birth, nor the token, its digest or the request key', () => {
    const text = JSON.stringify(toApplicantRepresentation(storedApplication(), withForm(), BASE_URL, FORM_URL));
    for (const field of ['id_number', 'dob', 'form_token', 'form_token_digest', 'request_key']) {
      expect(text).not.toContain(`"${field}"`);
    }
    for (const value of [
      SSN,
      '078-05-1120',
      DOB,
      SEALED_SSN.ciphertext,
      SEALED_DOB.ciphertext,
      'digest-77f1',
      'secret-request',
    ]) {
      expect(text).not.toContain(value);
    }
  });
});
