import { ErrorCode, ServiceError } from '@app/contracts';
import { changedProperty } from './property-changes';
import { PropertyRecord } from './property.schema';

const AT = new Date('2026-03-04T05:06:07.000Z');

function stored(overrides: Partial<PropertyRecord> = {}): PropertyRecord {
  return {
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
    request_key: 'message:1',
    deleted_at: null,
    version: 3,
    ...overrides,
  };
}

describe('changedProperty', () => {
  it('changes the form preset, which the properties service has checked the client may name', () => {
    expect(changedProperty(stored(), { form_preset_id: 104 }, AT)).toMatchObject({ form_preset_id: 104, updated_at: AT });
  });

  it('changes the fields given, keeps the others, and stamps the change', () => {
    const state = changedProperty(stored(), { name: 'Elm Court East', available: false, kind: 'generic' }, AT);
    expect(state).toEqual({
      form_preset_id: stored().form_preset_id,
      available: false,
      kind: 'generic',
      name: 'Elm Court East',
      street: '1 Elm St',
      city: 'Springfield',
      state: 'IL',
      zip: '62701',
      manager_name: 'Elm Lettings',
      manager_email: 'rent@elm.example',
      manager_phone: '2175550134',
      invitation_only: false,
      invitation_only_message: '',
      floor_plans: stored().floor_plans,
      updated_at: AT,
      deleted_at: null,
    });
  });

  it('does not rename the floor plans with the property', () => {
    expect(changedProperty(stored(), { name: 'Renamed' }, AT)!.floor_plans[0].name).toBe('Elm Court');
  });

  it('stores null address lines and message as ""', () => {
    const state = changedProperty(
      stored({ invitation_only_message: 'Ask.' }),
      { street: null, zip: null, invitation_only_message: null },
      AT,
    );
    expect([state!.street, state!.zip, state!.invitation_only_message, state!.city]).toEqual(['', '', '', 'Springfield']);
  });

  it('changes the manager and its contact, null clearing each to ""', () => {
    const state = changedProperty(
      stored(),
      { manager_name: 'Oak Lettings', manager_email: null, manager_phone: '3125550100' },
      AT,
    );
    expect([state!.manager_name, state!.manager_email, state!.manager_phone]).toEqual(['Oak Lettings', '', '3125550100']);
  });

  it('is null when nothing would change, so no version is spent', () => {
    expect(changedProperty(stored(), {}, AT)).toBeNull();
    expect(changedProperty(stored(), { name: 'Elm Court', available: true, street: '1 Elm St' }, AT)).toBeNull();
    expect(changedProperty(stored({ street: '' }), { street: null }, AT)).toBeNull();
  });

  it('refuses single_family while there are several floor plans, naming the field', () => {
    const plans = [
      ...stored().floor_plans,
      { id: 91, property_id: 42, name: 'Studio', beds: 0, baths: 1, deposit: null, rent: 900 },
    ];
    let refusal: unknown;
    try {
      changedProperty(stored({ floor_plans: plans }), { kind: 'single_family' }, AT);
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(ServiceError);
    expect((refusal as ServiceError).toPayload()).toEqual({
      code: ErrorCode.VALIDATION_FAILED,
      message: 'property.kind cannot be single_family while the property has 2 floor plans',
      details: [{ field: 'property.kind', message: 'cannot be single_family while the property has 2 floor plans' }],
    });
    expect(changedProperty(stored(), { kind: 'single_family' }, AT)!.kind).toBe('single_family');
  });
});
