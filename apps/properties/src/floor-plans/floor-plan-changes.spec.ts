import { ErrorCode, MAX_FLOOR_PLANS, ServiceError } from '@app/contracts';
import { PropertyRecord } from '../properties/property.schema';
import { floorPlanOf, newFloorPlan, withChangedFloorPlan, withFloorPlan, withoutFloorPlan } from './floor-plan-changes';

const AT = new Date('2026-03-04T05:06:07.000Z');
const FIRST = { id: 90, property_id: 42, name: 'Elm Court', beds: null, baths: null, deposit: null, rent: null };
const SECOND = { id: 91, property_id: 42, name: 'Studio', beds: 0, baths: 1.5, deposit: 500, rent: 900 };

function property(overrides: Partial<PropertyRecord> = {}): PropertyRecord {
  return {
    id: 42,
    client_id: 7,
    available: true,
    kind: 'multi_family',
    name: 'Elm Court',
    street: '',
    city: '',
    state: '',
    zip: '',
    invitation_only: false,
    invitation_only_message: '',
    form_preset_id: 1,
    background_config_id: 1,
    floor_plans: [FIRST],
    created_at: AT,
    updated_at: AT,
    request_key: 'message:1',
    deleted_at: null,
    version: 0,
    ...overrides,
  };
}

function refusal(work: () => unknown): ReturnType<ServiceError['toPayload']> {
  try {
    work();
  } catch (error) {
    if (error instanceof ServiceError) return error.toPayload();
    throw error;
  }
  throw new Error('not refused');
}

describe('floor plan changes', () => {
  it('makes a new floor plan with null for the numbers not given', () => {
    expect(newFloorPlan(92, 42, { name: 'Loft', baths: 2.5 }, 'key:t')).toEqual({
      id: 92,
      property_id: 42,
      name: 'Loft',
      beds: null,
      baths: 2.5,
      deposit: null,
      rent: null,
      request_key: 'key:t',
    });
  });

  it('adds a floor plan after the others', () => {
    const state = withFloorPlan(property(), SECOND, AT);
    expect(state.floor_plans).toEqual([FIRST, SECOND]);
    expect(state.updated_at).toBe(AT);
  });

  it('refuses a second floor plan for a single_family property', () => {
    expect(refusal(() => withFloorPlan(property({ kind: 'single_family' }), SECOND, AT))).toEqual({
      code: ErrorCode.VALIDATION_FAILED,
      message: 'floor_plan cannot be added: a single_family property has exactly one floor plan',
      details: [{ field: 'floor_plan', message: 'cannot be added: a single_family property has exactly one floor plan' }],
    });
  });

  it(`refuses a floor plan beyond ${MAX_FLOOR_PLANS}`, () => {
    const plans = Array.from({ length: MAX_FLOOR_PLANS - 1 }, (_, i) => ({ ...FIRST, id: 100 + i }));
    const full = withFloorPlan(property({ floor_plans: plans }), SECOND, AT);
    expect(full.floor_plans).toHaveLength(MAX_FLOOR_PLANS);
    const message = `cannot be added: a property has at most ${MAX_FLOOR_PLANS} floor plans`;
    expect(refusal(() => withFloorPlan(property({ floor_plans: full.floor_plans }), { ...SECOND, id: 99 }, AT))).toEqual({
      code: ErrorCode.VALIDATION_FAILED,
      message: `floor_plan ${message}`,
      details: [{ field: 'floor_plan', message }],
    });
  });

  it('changes only the fields given; null clears a number', () => {
    const { state, plan } = withChangedFloorPlan(
      property({ floor_plans: [FIRST, SECOND] }),
      91,
      { rent: 950, deposit: null },
      AT,
    );
    expect(plan).toEqual({ ...SECOND, rent: 950, deposit: null });
    expect(state!.floor_plans).toEqual([FIRST, plan]);
  });

  it('spends no version on a change that changes nothing', () => {
    const { state, plan } = withChangedFloorPlan(
      property({ floor_plans: [FIRST, SECOND] }),
      91,
      { rent: 900, name: 'Studio' },
      AT,
    );
    expect(state).toBeNull();
    expect(plan).toEqual(SECOND);
  });

  it('removes a floor plan, but never the last one', () => {
    expect(withoutFloorPlan(property({ floor_plans: [FIRST, SECOND] }), 90, AT).floor_plans).toEqual([SECOND]);
    expect(refusal(() => withoutFloorPlan(property(), 90, AT)).code).toBe(ErrorCode.VALIDATION_FAILED);
  });

  it('answers 404 for a floor plan the property does not have', () => {
    for (const work of [
      () => floorPlanOf(property(), 91),
      () => withChangedFloorPlan(property(), 91, { name: 'x' }, AT),
      () => withoutFloorPlan(property({ floor_plans: [FIRST, SECOND] }), 93, AT),
    ]) {
      expect(refusal(work)).toEqual({
        code: ErrorCode.NOT_FOUND,
        message: expect.stringMatching(/^floor plan 9[13] cannot be found$/),
        details: null,
      });
    }
  });
});
