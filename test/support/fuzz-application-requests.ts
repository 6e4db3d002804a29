import fc, { Arbitrary } from 'fast-check';
import { FuzzRequest, authorization, headersFor, idSegment, post, query } from './fuzz-request-parts';
import { applicant, applicantChanges } from './fuzz-requests';
import { anyDate, asUsDate, field, hostileValue, mostlyPlausible, objectOf, shortText, toJsonText, wrapped } from './fuzz-values';

/** Generated requests for the application routes besides create (see fuzz-requests.ts for create). */

/** A cursor: one the API handed out, or anything that may stand for one. */
function cursor(handedOut: string[]): Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...handedOut) },
    { weight: 1, arbitrary: fc.string().map((text) => Buffer.from(text).toString('base64url')) },
    { weight: 1, arbitrary: fc.bigInt({ min: -10n, max: 10n ** 20n }).map((n) => Buffer.from(`v1:${n}`).toString('base64url')) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme' }) },
    { weight: 1, arbitrary: fc.constantFrom('', 'djE6', 'v1:5', '%00', 'null', `${'A'.repeat(5000)}`) },
  );
}

const queryValue = (plausible: Arbitrary<string>) =>
  fc.oneof(
    { weight: 4, arbitrary: plausible },
    { weight: 1, arbitrary: hostileValue.map((value) => (typeof value === 'string' ? value : toJsonText(value)).slice(0, 2000)) },
  );

/** GET /api/v2/applications with any mix of parameters, known and not, repeated or not. */
export function listApplicationsRequest(propertyIds: number[], cursors: string[]): Arbitrary<FuzzRequest> {
  const parameter = fc.oneof(
    { weight: 3, arbitrary: queryValue(fc.constantFrom(...propertyIds).map(String)).map((v) => ['property_id', v]) },
    { weight: 3, arbitrary: queryValue(fc.integer({ min: -5, max: 150 }).map(String)).map((v) => ['limit', v]) },
    { weight: 3, arbitrary: cursor(cursors).map((v) => ['cursor', v]) },
    { weight: 2, arbitrary: queryValue(fc.constantFrom('true', 'false', 'all')).map((v) => ['archived', v]) },
    {
      weight: 2,
      arbitrary: queryValue(fc.constantFrom('not_started', 'started', 'completed')).map((v) => ['form_status', v]),
    },
    {
      weight: 2,
      arbitrary: queryValue(fc.integer({ min: -5, max: 2_200_000_000 }).map(String)).map((v) => ['assigned_user_id', v]),
    },
    {
      weight: 2,
      arbitrary: queryValue(
        fc.oneof(
          fc.date({ min: new Date('1990-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString()),
          fc
            .date({ min: new Date('1990-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
            .map((d) => d.toISOString().slice(0, 10)),
          fc.constantFrom('2026-11-22T14:03:09+00:00', '2026-11-22T14:03:09 00:00', '2026-02-30', '1700000000'),
        ),
      ).map((v) => ['updated_since', v]),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(
        fc.constantFrom('property_id[$gt]', 'client_id', '__proto__', 'limit[]', 'x', 'archived[]', 'updated_since[$gte]'),
        fc.string(),
      ),
    },
  );
  return fc.tuple(fc.array(parameter, { maxLength: 4 }), authorization).map(([parameters, auth]) => ({
    method: 'GET' as const,
    path: `/api/v2/applications${parameters.length ? '?' : ''}${new URLSearchParams(parameters as [string, string][]).toString()}`,
    body: null,
    headers: headersFor(auth, null),
  }));
}

/** GET /api/v2/applications/:id */
export function getApplicationRequest(applicationIds: number[]): Arbitrary<FuzzRequest> {
  return fc.tuple(idSegment(applicationIds), query, authorization).map(([id, q, auth]) => ({
    method: 'GET' as const,
    path: `/api/v2/applications/${id}${q}`,
    body: null,
    headers: headersFor(auth, null),
  }));
}

/** GET /api/v2/applications/:aid/applicants/:id */
export function getApplicantRequest(applicationIds: number[], applicantIds: number[]): Arbitrary<FuzzRequest> {
  return fc
    .tuple(idSegment(applicationIds), idSegment(applicantIds), query, authorization)
    .map(([applicationId, id, q, auth]) => ({
      method: 'GET' as const,
      path: `/api/v2/applications/${applicationId}/applicants/${id}${q}`,
      body: null,
      headers: headersFor(auth, null),
    }));
}

/** `application` in a PATCH: every changeable field present or not, plausible or hostile. */
function applicationChanges(floorPlanIds: number[]) {
  const id = fc.integer({ min: 1, max: 2_200_000_000 });
  return objectOf({
    assigned_user_id: field(fc.oneof(id, fc.constant(null)), mostlyPlausible),
    floor_plan_id: field(fc.oneof(fc.constantFrom(...floorPlanIds), id, fc.constant(null)), mostlyPlausible),
    desired_unit_number: field(fc.oneof(shortText, fc.constant(null)), mostlyPlausible),
    desired_unit_description: field(fc.oneof(shortText, fc.constant(null)), mostlyPlausible),
    desired_lease_length: field(fc.integer({ min: -1, max: 130 }), mostlyPlausible),
    desired_move_in: field(fc.oneof(anyDate, anyDate.map(asUsDate), fc.constant(null)), mostlyPlausible),
    user_specified_rent: field(fc.nat({ max: 1_100_000 }), mostlyPlausible),
    showing_agent: field(shortText, mostlyPlausible),
    showing_agent_id: field(id, mostlyPlausible),
    referral: field(fc.oneof(shortText, fc.constant(null)), mostlyPlausible),
    archived: field(fc.boolean(), mostlyPlausible),
  });
}

/** PATCH /api/v2/applications/:id, with or without an If-Match (a tag handed out, or anything). */
export function updateApplicationRequest(
  applicationIds: number[],
  floorPlanIds: number[],
  tags: string[],
): Arbitrary<FuzzRequest> {
  const ifMatch = fc.oneof(
    { weight: 4, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.constantFrom(...tags, '*', '"stale"', 'W/"x"', '') },
    { weight: 1, arbitrary: fc.string({ maxLength: 100 }) },
  );
  return fc
    .tuple(idSegment(applicationIds), post('', wrapped('application', applicationChanges(floorPlanIds)), 'PATCH'), ifMatch)
    .map(([id, request, tag]) => ({
      ...request,
      path: `/api/v2/applications/${id}`,
      headers: tag === undefined ? request.headers : { ...request.headers, 'if-match': tag },
    }));
}

/** POST /api/v2/applications/:aid/applicants */
export function addApplicantRequest(applicationIds: number[]): Arbitrary<FuzzRequest> {
  return fc
    .tuple(idSegment(applicationIds), post('/applicants', wrapped('applicant', applicant)))
    .map(([applicationId, request]) => ({ ...request, path: `/api/v2/applications/${applicationId}${request.path}` }));
}

/** PATCH /api/v2/applications/:aid/applicants/:id, now and then with an If-Match. */
export function updateApplicantRequest(applicationIds: number[], applicantIds: number[]): Arbitrary<FuzzRequest> {
  return fc
    .tuple(
      idSegment(applicationIds),
      idSegment(applicantIds),
      post('', wrapped('applicant', applicantChanges), 'PATCH'),
      fc.option(fc.constantFrom('*', '"stale"', 'W/"x"', ''), { freq: 5 }),
    )
    .map(([applicationId, id, request, ifMatch]) => ({
      ...request,
      path: `/api/v2/applications/${applicationId}/applicants/${id}`,
      headers: ifMatch === null ? request.headers : { ...request.headers, 'if-match': ifMatch },
    }));
}

/** DELETE /api/v2/applications/:aid/applicants/:id, now and then with an If-Match or a body. */
export function removeApplicantRequest(applicationIds: number[], applicantIds: number[]): Arbitrary<FuzzRequest> {
  return fc
    .tuple(
      idSegment(applicationIds),
      idSegment(applicantIds),
      query,
      authorization,
      fc.option(fc.constantFrom('*', '"stale"', 'W/"x"'), { freq: 4 }),
    )
    .map(([applicationId, id, q, auth, ifMatch]) => ({
      method: 'DELETE' as const,
      path: `/api/v2/applications/${applicationId}/applicants/${id}${q}`,
      body: null,
      headers: { ...headersFor(auth, null), ...(ifMatch === null ? {} : { 'if-match': ifMatch }) },
    }));
}

/** GET /api/v2/applications/:aid/applicants/:id with `include` (and other parameters) of any value. */
export function getApplicantIncludingRequest(applicationIds: number[], applicantIds: number[]): Arbitrary<FuzzRequest> {
  const parameter = fc.oneof(
    { weight: 6, arbitrary: queryValue(fc.constant('sensitive_data')).map((v) => ['include', v]) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom('include[]', 'fields', '__proto__', 'x'), fc.string()) },
  );
  return fc
    .tuple(idSegment(applicationIds), idSegment(applicantIds), fc.array(parameter, { maxLength: 2 }), authorization)
    .map(([applicationId, id, parameters, auth]) => ({
      method: 'GET' as const,
      path: `/api/v2/applications/${applicationId}/applicants/${id}?${new URLSearchParams(parameters as [string, string][]).toString()}`,
      body: null,
      headers: headersFor(auth, null),
    }));
}

/** GET /api/v2/audit_events with any mix of parameters, known and not, repeated or not. */
export function listAuditEventsRequest(applicantIds: number[], cursors: string[]): Arbitrary<FuzzRequest> {
  const parameter = fc.oneof(
    { weight: 3, arbitrary: queryValue(fc.constantFrom(...applicantIds).map(String)).map((v) => ['applicant_id', v]) },
    { weight: 3, arbitrary: queryValue(fc.integer({ min: -5, max: 150 }).map(String)).map((v) => ['limit', v]) },
    { weight: 3, arbitrary: cursor(cursors).map((v) => ['cursor', v]) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom('applicant_id[$gt]', 'client_id', 'action', 'x'), fc.string()) },
  );
  return fc.tuple(fc.array(parameter, { maxLength: 4 }), authorization).map(([parameters, auth]) => ({
    method: 'GET' as const,
    path: `/api/v2/audit_events${parameters.length ? '?' : ''}${new URLSearchParams(parameters as [string, string][]).toString()}`,
    body: null,
    headers: headersFor(auth, null),
  }));
}
