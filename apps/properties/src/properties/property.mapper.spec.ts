import { toPropertyRepresentation } from './property.mapper';
import { PropertyRecord } from './property.schema';

const BASE_URL = 'https://rentals.example.com';

const PROPERTY_FIELDS = [
  'id',
  'available',
  'kind',
  'name',
  'street',
  'city',
  'state',
  'zip',
  'manager_name',
  'manager_email',
  'manager_phone',
  'invitation_only',
  'invitation_only_message',
  'application_url',
  'form_preset_id',
  'background_config_id',
  'floor_plans',
];

const TEXT_FIELDS = [
  'street',
  'city',
  'state',
  'zip',
  'manager_name',
  'manager_email',
  'manager_phone',
  'invitation_only_message',
] as const;

const FLOOR_PLAN_FIELDS = ['id', 'property_id', 'name', 'beds', 'baths', 'deposit', 'rent'];

/** A stored property as a lean query returns it, `_id` included. */
function storedProperty(overrides: Partial<PropertyRecord> = {}): PropertyRecord {
  return {
    _id: '665f1c2e9d1b2a0012345678',
    id: 42,
    client_id: 7,
    available: true,
    kind: 'multi_family',
    name: 'Elm Court',
    street: '1 Elm St',
    city: 'Springfield',
    state: 'IL',
    zip: '62701',
    manager_name: 'Elm Lettings',
    manager_email: 'rent@elm.example',
    manager_phone: '2175550134',
    invitation_only: false,
    invitation_only_message: '',
    form_preset_id: 3,
    background_config_id: 5,
    floor_plans: [{ id: 90, property_id: 42, name: 'Elm Court', beds: null, baths: null, deposit: null, rent: null }],
    created_at: new Date('2026-01-02T03:04:05.678Z'),
    updated_at: new Date('2026-01-02T03:04:05.678Z'),
    deleted_at: null,
    ...overrides,
  } as PropertyRecord;
}

describe('toPropertyRepresentation', () => {
  it('has every documented field, in the documented order', () => {
    const property = toPropertyRepresentation(storedProperty(), BASE_URL);
    expect(Object.keys(property)).toEqual(PROPERTY_FIELDS);
    expect(Object.keys(property.floor_plans[0])).toEqual(FLOOR_PLAN_FIELDS);
  });

  it('copies the stored values', () => {
    expect(toPropertyRepresentation(storedProperty(), BASE_URL)).toEqual({
      id: 42,
      available: true,
      kind: 'multi_family',
      name: 'Elm Court',
      street: '1 Elm St',
      city: 'Springfield',
      state: 'IL',
      zip: '62701',
      manager_name: 'Elm Lettings',
      manager_email: 'rent@elm.example',
      manager_phone: '2175550134',
      invitation_only: false,
      invitation_only_message: '',
      application_url: 'https://rentals.example.com/properties/42/apply',
      form_preset_id: 3,
      background_config_id: 5,
      floor_plans: [{ id: 90, property_id: 42, name: 'Elm Court', beds: null, baths: null, deposit: null, rent: null }],
    });
  });

  it('keeps flags and kinds other than the defaults', () => {
    const property = toPropertyRepresentation(
      storedProperty({ available: false, invitation_only: true, kind: 'generic', invitation_only_message: 'Ask us.' }),
      BASE_URL,
    );
    expect(property.available).toBe(false);
    expect(property.invitation_only).toBe(true);
    expect(property.kind).toBe('generic');
    expect(property.invitation_only_message).toBe('Ask us.');
  });

  it('gives "" for property strings that were never stored (a property stored before the manager fields, say)', () => {
    const record = storedProperty();
    for (const field of TEXT_FIELDS) delete (record as Partial<PropertyRecord>)[field];
    const property = toPropertyRepresentation(record, BASE_URL);
    expect(TEXT_FIELDS.map((field) => property[field])).toEqual(TEXT_FIELDS.map(() => ''));
    expect(Object.keys(property)).toEqual(PROPERTY_FIELDS);
  });

  it('gives "" for property strings stored as null', () => {
    const record = storedProperty();
    Object.assign(record, Object.fromEntries(TEXT_FIELDS.map((field) => [field, null])));
    const property = toPropertyRepresentation(record, BASE_URL);
    expect(TEXT_FIELDS.map((field) => property[field])).toEqual(TEXT_FIELDS.map(() => ''));
  });

  it('builds application_url from the form’s base URL (APPLY_BASE_URL) and the id', () => {
    expect(toPropertyRepresentation(storedProperty({ id: 7 }), 'http://localhost:3000').application_url).toBe(
      'http://localhost:3000/properties/7/apply',
    );
    expect(toPropertyRepresentation(storedProperty({ id: 1234 }), 'https://api.example.org/rent').application_url).toBe(
      'https://api.example.org/rent/properties/1234/apply',
    );
  });

  it('gives null for floor plan numbers never stored, and keeps the stored ones, fractions and zero included', () => {
    const record = storedProperty({
      floor_plans: [
        { id: 90, property_id: 42, name: 'Elm Court' } as PropertyRecord['floor_plans'][number],
        { id: 91, property_id: 42, name: 'Studio', beds: 0, baths: 1.5, deposit: 0, rent: 1850 },
      ],
    });
    const [bare, full] = toPropertyRepresentation(record, BASE_URL).floor_plans;
    expect(bare).toEqual({ id: 90, property_id: 42, name: 'Elm Court', beds: null, baths: null, deposit: null, rent: null });
    expect(Object.keys(bare)).toEqual(FLOOR_PLAN_FIELDS);
    expect(full).toEqual({ id: 91, property_id: 42, name: 'Studio', beds: 0, baths: 1.5, deposit: 0, rent: 1850 });
  });

  it('gives an empty list when no floor plans were stored', () => {
    const record = storedProperty();
    delete (record as Partial<PropertyRecord>).floor_plans;
    expect(toPropertyRepresentation(record, BASE_URL).floor_plans).toEqual([]);
  });

  it('leaves out storage fields: _id, client_id, timestamps, deleted_at', () => {
    const record = storedProperty({ deleted_at: new Date('2026-02-01T00:00:00Z') });
    const property = toPropertyRepresentation(record, BASE_URL) as unknown as Record<string, unknown>;
    for (const field of ['_id', 'client_id', 'created_at', 'updated_at', 'deleted_at']) {
      expect(property).not.toHaveProperty(field);
    }
    expect(JSON.stringify(property)).not.toContain('665f1c2e9d1b2a0012345678');
  });
});
