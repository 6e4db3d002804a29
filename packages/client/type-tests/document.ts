/**
 * Compiled with `tsc --noEmit --strict` by `npm run client:check` (in `npm test`), against the
 * types openapi-typescript generates from the OpenAPI document with its default options: what an
 * integrator's typed program relies on. Each `@ts-expect-error` line proves a negative: were the
 * line accepted, the compilation would fail.
 */
import type { components, operations, paths } from '../src/generated/api';

type Schemas = components['schemas'];

// Path ids are numbers: the id of a created application is passed on as it is.
const created = {} as Schemas['ApplicationRepresentation'];
const _byId: operations['getApplication']['parameters']['path'] = { id: created.id };
const _applicant: paths['/api/v2/applications/{application_id}/applicants/{id}']['get']['parameters']['path'] = {
  application_id: created.id,
  id: created.applicants[0].id,
};
// @ts-expect-error an id is a number, not a string
const _stringId: operations['getProperty']['parameters']['path'] = { id: '7' };

// A request field with a default may be left out; a required one may not.
const _property: Schemas['PropertyInput'] = { name: 'Maple Court' };
const _invitation: Schemas['InvitationInput'] = { email: 'ada@example.com' };
const _coApplicant: Schemas['AddedApplicantInput'] = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };
// @ts-expect-error name has no default
const _nameless: Schemas['PropertyInput'] = {};

// A representation has every field.
const representation = {} as Schemas['PropertyRepresentation'];
const _available: boolean = representation.available;
const _message: string = representation.invitation_only_message;

// A webhook's body is typed by its event.
export function applicantOf(event: Schemas['WebhookEvent']): number | null {
  if (event.test_mode) return null;
  if (event.event === 'application_form.completed') return event.data.applicant_id;
  // @ts-expect-error a property event is about no applicant
  if (event.event === 'property.created') return event.data.applicant_id;
  return null;
}
