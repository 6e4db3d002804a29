import { CreateFloorPlanRequest, UpdateFloorPlanRequest } from './dto/floor-plan.dto';
import { UpdatePropertyRequest } from './dto/property.dto';
import { ErrorCode, ServiceError } from './errors';
import {
  floorPlanRefFromPath,
  listPropertiesFromQuery,
  parseAvailableQuery,
  readFloorPlanRef,
  readIfMatch,
  readListProperties,
} from './property-messages';
import { parseRequest } from './validation/parse';

function refusal(work: () => unknown): ReturnType<ServiceError['toPayload']> {
  try {
    work();
  } catch (error) {
    if (error instanceof ServiceError) return error.toPayload();
    throw error;
  }
  throw new Error('not refused');
}

describe('parseAvailableQuery', () => {
  it('reads true and false, and nothing as no filter', () => {
    expect(parseAvailableQuery('true')).toBe(true);
    expect(parseAvailableQuery('false')).toBe(false);
    expect(parseAvailableQuery(undefined)).toBeUndefined();
  });

  it('refuses anything else with a 422 naming the parameter', () => {
    for (const value of ['TRUE', '1', '', 'yes', ['true', 'false']]) {
      expect(refusal(() => parseAvailableQuery(value))).toEqual({
        code: ErrorCode.VALIDATION_FAILED,
        message: 'available must be true or false',
        details: [{ field: 'available', message: 'must be true or false' }],
      });
    }
  });
});

describe('listPropertiesFromQuery', () => {
  it('reads the page and the filter', () => {
    expect(listPropertiesFromQuery(3, {})).toEqual({ client_id: 3, limit: 25 });
    expect(listPropertiesFromQuery(3, { limit: '5', available: 'false' })).toEqual({ client_id: 3, limit: 5, available: false });
  });

  it('names every problem, unknown parameters included', () => {
    expect(refusal(() => listPropertiesFromQuery(3, { limit: '0', available: 'no', colour: 'red' }))).toEqual({
      code: ErrorCode.VALIDATION_FAILED,
      message: 'limit must be an integer from 1 to 100',
      details: [
        { field: 'limit', message: 'must be an integer from 1 to 100' },
        { field: 'available', message: 'must be true or false' },
        { field: 'colour', message: 'is not a known query parameter' },
      ],
    });
  });
});

describe('readListProperties', () => {
  it('passes a well-formed message on', () => {
    expect(readListProperties({ client_id: 3, limit: 25 })).toEqual({ clientId: 3, page: { limit: 25 } });
    expect(readListProperties({ client_id: 3, limit: 1, before: 9, available: false })).toEqual({
      clientId: 3,
      available: false,
      page: { limit: 1, before: 9 },
    });
  });

  it('refuses a message the gateway would not send', () => {
    for (const message of [
      { client_id: 0, limit: 25 },
      { client_id: 3, limit: 0 },
      { client_id: 3, limit: 101 },
      { client_id: 3, limit: 2.5 },
      { client_id: 3, limit: 25, before: -1 },
      { client_id: 3, limit: 25, available: 'true' },
    ]) {
      expect(refusal(() => readListProperties(message as never)).code).toBe(ErrorCode.INTERNAL);
    }
  });
});

describe('floor plan references', () => {
  it('reads ids from the path; a malformed one names no resource', () => {
    expect(floorPlanRefFromPath(1, '12', '34')).toEqual({ client_id: 1, property_id: 12, id: 34 });
    expect(refusal(() => floorPlanRefFromPath(1, 'x', '34'))).toEqual({
      code: ErrorCode.PROPERTY_NOT_FOUND,
      message: 'property x cannot be found',
      details: null,
    });
    expect(refusal(() => floorPlanRefFromPath(1, '12', '0'))).toEqual({
      code: ErrorCode.NOT_FOUND,
      message: 'floor plan 0 cannot be found',
      details: null,
    });
  });

  it('checks a message as the service receives it', () => {
    expect(readFloorPlanRef({ client_id: 1, property_id: 2, id: 3 })).toEqual({ clientId: 1, propertyId: 2, id: 3 });
    expect(refusal(() => readFloorPlanRef({ client_id: 1, property_id: 2, id: -3 })).code).toBe(ErrorCode.NOT_FOUND);
    expect(refusal(() => readFloorPlanRef({ client_id: 1, property_id: 0, id: 3 })).code).toBe(ErrorCode.PROPERTY_NOT_FOUND);
  });

  it('passes If-Match on only as text', () => {
    expect(readIfMatch({ if_match: '"abc"' })).toBe('"abc"');
    expect(readIfMatch({ if_match: 7 as never })).toBeUndefined();
    expect(readIfMatch({})).toBeUndefined();
  });
});

describe('change and floor plan bodies', () => {
  it('takes any subset of the create fields, each checked as on create', () => {
    expect(parseRequest(UpdatePropertyRequest, { property: { name: ' New ', zip: null } })).toEqual({
      property: { name: 'New', zip: null },
    });
    expect(refusal(() => parseRequest(UpdatePropertyRequest, { property: { name: null, id: 3 } })).details).toEqual([
      { field: 'property.name', message: 'must not be null' },
      { field: 'property.id', message: 'is not a known field' },
    ]);
  });

  it('takes fractional, zero and null numbers for a floor plan, and refuses negative, text and huge ones', () => {
    expect(parseRequest(CreateFloorPlanRequest, { floor_plan: { name: 'A', beds: 0, baths: 1.5, deposit: null } })).toEqual({
      floor_plan: { name: 'A', beds: 0, baths: 1.5, deposit: null },
    });
    expect(
      refusal(() => parseRequest(CreateFloorPlanRequest, { floor_plan: { beds: -0.5, baths: '1', rent: 1e12 } })).details,
    ).toEqual([
      { field: 'floor_plan.name', message: 'is required' },
      { field: 'floor_plan.beds', message: 'must be at least 0' },
      { field: 'floor_plan.baths', message: 'must be a number' },
      { field: 'floor_plan.rent', message: 'must be at most 10000000' },
    ]);
    expect(parseRequest(UpdateFloorPlanRequest, { floor_plan: {} })).toEqual({ floor_plan: {} });
  });
});
