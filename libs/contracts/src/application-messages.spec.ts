import {
  applicantRefFromPath,
  applicationRefFromPath,
  listApplicationsFromQuery,
  readApplicantRef,
  readListApplications,
} from './application-messages';
import { ErrorCode, ServiceError } from './errors';
import { encodeCursor } from './paging';

function refusal(work: () => unknown): ServiceError {
  try {
    work();
  } catch (error) {
    expect(error).toBeInstanceOf(ServiceError);
    return error as ServiceError;
  }
  throw new Error('it was accepted');
}

describe('applicationRefFromPath and applicantRefFromPath', () => {
  it('name the ids of a path', () => {
    expect(applicationRefFromPath(3, '17')).toEqual({ client_id: 3, id: 17 });
    expect(applicantRefFromPath(3, '17', '40')).toEqual({ client_id: 3, application_id: 17, id: 40 });
  });

  it.each(['0', '-1', 'abc', '1.5', '99999999999999999', ''])('take %j for no application: 404 naming it', (segment) => {
    const error = refusal(() => applicationRefFromPath(1, segment));
    expect([error.code, error.message, error.details]).toEqual([
      ErrorCode.NOT_FOUND,
      `application ${segment} cannot be found`,
      null,
    ]);
  });

  it('names the application first, then the applicant', () => {
    expect(refusal(() => applicantRefFromPath(1, 'x', 'y')).message).toBe('application x cannot be found');
    expect(refusal(() => applicantRefFromPath(1, '4', 'y')).message).toBe('applicant y cannot be found');
  });
});

describe('listApplicationsFromQuery', () => {
  it('defaults to the first page of 25 of every property', () => {
    expect(listApplicationsFromQuery(2, {})).toEqual({ client_id: 2, limit: 25 });
  });

  it('reads property_id, limit and cursor', () => {
    expect(listApplicationsFromQuery(2, { property_id: '9', limit: '100', cursor: encodeCursor(31) })).toEqual({
      client_id: 2,
      property_id: 9,
      limit: 100,
      before: 31,
    });
  });

  it('refuses every bad parameter at once, naming each', () => {
    const error = refusal(() => listApplicationsFromQuery(2, { property_id: '0', limit: '0', cursor: '???', colour: 'red' }));
    expect(error.code).toBe(ErrorCode.VALIDATION_FAILED);
    expect(error.details!.map((d) => d.field)).toEqual(['limit', 'cursor', 'colour', 'property_id']);
    expect(error.message).toBe(`limit ${error.details![0].message}`);
  });

  it.each([['abc'], ['-1'], ['1e3'], [['1', '2']]])('refuses property_id %j', (propertyId) => {
    expect(refusal(() => listApplicationsFromQuery(2, { property_id: propertyId })).details).toEqual([
      { field: 'property_id', message: 'must be a positive integer' },
    ]);
  });
});

describe('what the service reads from a message', () => {
  it('takes a list message as the gateway writes it', () => {
    expect(readListApplications({ client_id: 2, limit: 5, before: 9, property_id: 4 })).toEqual({
      clientId: 2,
      limit: 5,
      before: 9,
      propertyId: 4,
      filters: {},
    });
  });

  it('takes the list filters of a message, and nothing else', () => {
    const filters = { archived: 'all', form_status: 'started', assigned_user_id: 7, updated_since: '2026-11-22T14:03:09.000Z' };
    expect(readListApplications({ client_id: 2, limit: 5, ...filters, other: 1 } as never)).toEqual({
      clientId: 2,
      limit: 5,
      filters,
    });
  });

  it.each([
    { client_id: 2, limit: 0 },
    { client_id: 2, limit: 101 },
    { client_id: 2, limit: 5, before: 0 },
    { client_id: 2, limit: 5, property_id: '4' },
    { client_id: 2, limit: 5, archived: true },
    { client_id: 2, limit: 5, form_status: 'done' },
    { client_id: 2, limit: 5, assigned_user_id: '7' },
    { client_id: 2, limit: 5, updated_since: 'yesterday' },
  ])('refuses a malformed list message %j', (message) => {
    expect(() => readListApplications(message as never)).toThrow(ServiceError);
  });

  it('refuses a message without a client', () => {
    expect(refusal(() => readApplicantRef({ application_id: 1, id: 1 } as never)).code).toBe(ErrorCode.INTERNAL);
    expect(refusal(() => readApplicantRef({ client_id: 1, application_id: 1, id: 0 })).message).toBe(
      'applicant 0 cannot be found',
    );
  });
});
