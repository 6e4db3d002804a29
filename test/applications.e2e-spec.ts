import { ApplicantSealer, FieldCipher } from '@app/crypto';
import { api, Api, expectErrorBody } from './support/http';
import { KEYS, Stack } from '../tools/stack';

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
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/;
const PROPERTY_ID_INVALID = { error: { message: 'property_id is invalid or cannot be found', details: null } };

function isoDaysFromToday(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

function usDate(iso: string): string {
  const [year, month, day] = iso.split('-');
  return `${month}/${day}/${year}`;
}

describe('applications over HTTP, RabbitMQ and the database', () => {
  let stack: Stack;
  let client: Api;
  let propertyId: number;

  const applicant = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };
  const apply = (application: Record<string, unknown>, key?: string) =>
    client.post('/api/v2/applications', { application }, { key });

  beforeAll(async () => {
    stack = await Stack.start();
    client = api(stack.url);
    propertyId = (await client.post('/api/v2/properties', { property: { name: 'Harbor View' } })).body.property.id;
  });

  afterAll(() => stack?.stop());

  it('creates an application and its primary applicant, in the documented shape', async () => {
    const moveIn = isoDaysFromToday(30);
    const before = Date.now();
    const answer = await apply({
      property_id: propertyId,
      user_specified_rent: 1850,
      desired_move_in: usDate(moveIn),
      assigned_user_id: 42,
      applicant: {
        first_name: ' Ada ',
        last_name: 'Lovelace',
        email: 'ada@example.com',
        dob: '12/10/1985',
        id_number: '123-45-6789',
        phone: '(555) 010-1234',
        custom_data: { source: 'web', answers: [1, 2, { nested: true }] },
        reference_id: 'crm-77',
        redirect_url: 'https://landlord.example/thanks',
      },
    });

    expect(answer.status).toBe(201);
    expect(Object.keys(answer.body)).toEqual(['application']);
    const application = answer.body.application;
    expect(Object.keys(application)).toEqual(APPLICATION_FIELDS);
    expect(application).toEqual({
      id: application.id,
      property_id: propertyId,
      client_id: 1,
      assigned_user_id: 42,
      floor_plan_id: null,
      desired_unit_description: null,
      desired_lease_length: null,
      desired_unit_number: null,
      user_specified_rent: 1850,
      desired_move_in: moveIn,
      showing_agent: null,
      showing_agent_id: null,
      referral: null,
      archived: null,
      // Not completed on the form, nor decided; judged against the rent the integrator gave, with no income stated yet.
      status: 'draft',
      rent: 1850,
      household_monthly_income: null,
      income_to_rent: null,
      personal_data_erased_at: null,
      created_at: application.created_at,
      updated_at: application.updated_at,
      property: { id: propertyId, name: 'Harbor View' },
      applicants: [
        {
          id: application.applicants[0].id,
          type: 'primary',
          name: 'Ada Lovelace',
          api_url: `${stack.publicBaseUrl}/api/v2/applications/${application.id}/applicants/${application.applicants[0].id}`,
          monthly_income: null,
          income_to_rent: null,
        },
      ],
    });
    expect(Number.isSafeInteger(application.id) && application.id > 0).toBe(true);
    expect(Number.isSafeInteger(application.applicants[0].id) && application.applicants[0].id > 0).toBe(true);
    expect(application.created_at).toMatch(TIMESTAMP);
    expect(application.updated_at).toMatch(TIMESTAMP);
    const createdAt = Date.parse(application.created_at);
    expect(createdAt).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(createdAt).toBeLessThanOrEqual(Date.now());
    expect(answer.text).not.toContain('123-45-6789');
    expect(answer.text).not.toContain('123456789');
    expect(answer.text).not.toContain('1985');
  });

  it('stores the applicant, normalized, in the applications database, id_number and dob sealed', async () => {
    const answer = await apply({
      property_id: propertyId,
      applicant: { ...applicant, id_number: '987-65-4321', phone: '+1 (555) 010-9999', dob: '1990-02-28', custom_data: { a: 1 } },
    });
    const db = await stack.database('applications');
    try {
      const stored = await db.collection('applications').findOne({ id: answer.body.application.id });
      expect(stored).toMatchObject({
        client_id: 1,
        property_id: propertyId,
        applicants: [
          expect.objectContaining({
            id: answer.body.application.applicants[0].id,
            type: 'primary',
            first_name: 'Ada',
            email: 'ada@example.com',
            phone: '15550109999',
          }),
        ],
      });
      const [storedApplicant] = stored!.applicants;
      expect(JSON.parse(storedApplicant.custom_data)).toEqual({ a: 1 });
      const sealer = new ApplicantSealer(new FieldCipher(stack.fieldEncryptionKeys));
      const owner = { clientId: stored!.client_id, applicantId: storedApplicant.id };
      expect(sealer.openField('id_number', storedApplicant.id_number, owner)).toBe('987654321');
      expect(sealer.openField('dob', storedApplicant.dob, owner)).toBe('1990-02-28');
      expect(JSON.stringify(stored)).not.toMatch(/987-?65-?4321|1990-02-28/);
    } finally {
      await db.close();
    }
  });

  it('fills unset optional fields with null and accepts integers as digit strings', async () => {
    const answer = await apply({ property_id: String(propertyId), user_specified_rent: '0', applicant });

    expect(answer.status).toBe(201);
    expect(answer.body.application).toMatchObject({
      property_id: propertyId,
      user_specified_rent: 0,
      assigned_user_id: null,
      desired_move_in: null,
    });
  });

  it('accepts YYYY-MM-DD dates and answers with YYYY-MM-DD', async () => {
    const answer = await apply({ property_id: propertyId, desired_move_in: '2028-02-29', applicant });
    expect(answer.status).toBe(201);
    expect(answer.body.application.desired_move_in).toBe('2028-02-29');
  });

  it.each([
    ['missing', undefined],
    ['a word', 'abc'],
    ['zero', 0],
    ['negative', -4],
    ['a fraction', 1.5],
    ['a boolean', true],
    ['null', null],
    ['unknown', 987654],
  ])('answers 422 with the documented message when property_id is %s', async (_case, value) => {
    const application: Record<string, unknown> = { applicant };
    if (value !== undefined) application.property_id = value;
    const answer = await apply(application);

    expect(answer.status).toBe(422);
    expect(answer.body).toEqual(PROPERTY_ID_INVALID);
  });

  it('answers 422 with the documented message for a deleted property', async () => {
    const doomed = (await client.post('/api/v2/properties', { property: { name: 'Doomed' } })).body.property.id;
    expect((await apply({ property_id: doomed, applicant })).status).toBe(201);
    await client.delete(`/api/v2/properties/${doomed}`);

    const answer = await apply({ property_id: doomed, applicant });

    expect(answer.status).toBe(422);
    expect(answer.body).toEqual(PROPERTY_ID_INVALID);
  });

  it('does not let a client apply to another client’s property, nor reveal that it exists', async () => {
    const theirs = await apply({ property_id: propertyId, applicant }, KEYS.clientTwo);
    const unknown = await apply({ property_id: 999999, applicant }, KEYS.clientTwo);

    expect(theirs.status).toBe(422);
    expect(theirs.body).toEqual(unknown.body);
    expect(theirs.body).toEqual(PROPERTY_ID_INVALID);
  });

  it('names every invalid field with its full path', async () => {
    const answer = await apply({
      property_id: propertyId,
      user_specified_rent: -1,
      assigned_user_id: 0,
      desired_move_in: '02/30/2024',
      referral: 'friend',
      applicant: {
        first_name: '',
        last_name: 'x'.repeat(101),
        email: 'not-an-email',
        dob: usDate(isoDaysFromToday(1)),
        id_number: '12-345-678',
        phone: '555-0100',
        custom_data: ['not', 'an', 'object'],
        reference_id: 'r'.repeat(256),
        redirect_url: 'ftp://example.com/x',
        ssn: '123456789',
      },
    });

    expect(answer.status).toBe(422);
    expectErrorBody(answer);
    const fields = answer.body.error.details.map((d: { field: string }) => d.field).sort();
    expect(fields).toEqual(
      [
        'application.user_specified_rent',
        'application.assigned_user_id',
        'application.desired_move_in',
        'application.referral',
        'application.applicant.first_name',
        'application.applicant.last_name',
        'application.applicant.email',
        'application.applicant.dob',
        'application.applicant.id_number',
        'application.applicant.phone',
        'application.applicant.custom_data',
        'application.applicant.reference_id',
        'application.applicant.redirect_url',
        'application.applicant.ssn',
      ].sort(),
    );
    const first = answer.body.error.details[0];
    expect(answer.body.error.message).toBe(`${first.field} ${first.message}`);
    // A refused SSN is not echoed back either.
    expect(answer.text).not.toContain('12-345-678');
  });

  it('refuses a missing applicant and custom_data over 16 KiB', async () => {
    const noApplicant = await apply({ property_id: propertyId });
    const bigData = await apply({
      property_id: propertyId,
      applicant: { ...applicant, custom_data: { blob: 'x'.repeat(16 * 1024) } },
    });

    expect(noApplicant.status).toBe(422);
    expect(noApplicant.body.error.details).toEqual([{ field: 'application.applicant', message: 'is required' }]);
    expect(bigData.status).toBe(422);
    expect(bigData.body.error.details).toEqual([{ field: 'application.applicant.custom_data', message: expect.any(String) }]);
  });

  it('gives distinct increasing ids to applications and applicants', async () => {
    const first = (await apply({ property_id: propertyId, applicant })).body.application;
    const second = (await apply({ property_id: propertyId, applicant })).body.application;

    expect(second.id).toBeGreaterThan(first.id);
    expect(second.applicants[0].id).toBeGreaterThan(first.applicants[0].id);
  });
});
