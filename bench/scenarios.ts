import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import { Target } from './target';

/** What a landlord's software sends: a property with an address. */
export const PROPERTY_BODY = {
  property: { name: 'Maple Court', street: '12 Maple St', city: 'Springfield', state: 'IL', zip: '62701' },
};

/** An application with every applicant field a form usually fills, so that all of it is validated. */
export function applicationBody(propertyId: number) {
  return {
    application: {
      property_id: propertyId,
      user_specified_rent: 1850,
      desired_move_in: '12/01/2026',
      applicant: {
        first_name: 'Ada',
        last_name: 'Lovelace',
        email: 'ada@example.com',
        dob: '12/10/1985',
        id_number: '123-45-6789',
        phone: '(555) 010-1234',
        reference_id: 'bench',
      },
    },
  };
}

export interface Scenario {
  name: string;
  description: string;
  /** Fresh request objects for each run (autocannon writes into them). */
  requests: () => autocannon.Request[];
}

export interface Fixtures {
  propertyIds: number[];
  /** Path of an applicant's api_url, read by the get-applicant scenario. */
  applicantPath: string;
  /** Path of the fixture application, read by the get-application scenario. */
  applicationPath: string;
}

/** Properties read by the get scenario, in turn. */
const FIXTURE_PROPERTIES = 32;

export const jsonPost = (body: unknown): autocannon.Request => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

/** Creates one property through the API, with the bench's key; its id. */
export async function createProperty(target: Target): Promise<number> {
  const answer = await fetch(`${target.url}/api/v2/properties`, {
    method: 'POST',
    headers: { authorization: `Bearer ${target.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(PROPERTY_BODY),
  });
  const body = (await answer.json()) as { property?: { id?: number } };
  if (answer.status !== 201 || typeof body.property?.id !== 'number') {
    throw new Error(`creating a fixture property answered ${answer.status}: ${JSON.stringify(body)}`);
  }
  return body.property.id;
}

export async function createFixtures(target: Target): Promise<Fixtures> {
  const propertyIds: number[] = [];
  for (let i = 0; i < FIXTURE_PROPERTIES; i++) propertyIds.push(await createProperty(target));
  const answer = await fetch(`${target.url}/api/v2/applications`, {
    method: 'POST',
    headers: { authorization: `Bearer ${target.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(applicationBody(propertyIds[0])),
  });
  const body = (await answer.json()) as { application?: { id?: number; applicants?: Array<{ api_url?: string }> } };
  const apiUrl = body.application?.applicants?.[0]?.api_url;
  if (answer.status !== 201 || typeof apiUrl !== 'string' || typeof body.application?.id !== 'number') {
    throw new Error(`creating a fixture application answered ${answer.status}: ${JSON.stringify(body)}`);
  }
  return {
    propertyIds,
    applicantPath: new URL(apiUrl).pathname,
    applicationPath: `/api/v2/applications/${body.application.id}`,
  };
}

export function scenarios({ propertyIds, applicantPath, applicationPath }: Fixtures): Scenario[] {
  let next = 0;
  const getProperty = (): autocannon.Request => ({
    method: 'GET',
    setupRequest: (request) => ({ ...request, path: `/api/v2/properties/${propertyIds[next++ % propertyIds.length]}` }),
  });
  const createProperty = () => ({ ...jsonPost(PROPERTY_BODY), path: '/api/v2/properties' });
  const createApplication = () => ({ ...jsonPost(applicationBody(propertyIds[0])), path: '/api/v2/applications' });
  // 1 create property : 10 get property : 5 create application, interleaved.
  const mix = () => [
    createProperty(),
    ...Array.from({ length: 15 }, (_, i) => (i % 3 === 2 ? createApplication() : getProperty())),
  ];
  return [
    { name: 'create-property', description: 'POST /api/v2/properties', requests: () => [createProperty()] },
    {
      name: 'get-property',
      description: `GET /api/v2/properties/:id, ${propertyIds.length} properties in turn`,
      requests: () => [getProperty()],
    },
    {
      name: 'create-application',
      description: 'POST /api/v2/applications with a full applicant',
      requests: () => [createApplication()],
    },
    {
      name: 'create-application-keyed',
      description: 'POST /api/v2/applications with a full applicant and a fresh Idempotency-Key each',
      requests: () => [
        {
          ...createApplication(),
          setupRequest: (request) => ({ ...request, headers: { ...request.headers, 'idempotency-key': randomUUID() } }),
        },
      ],
    },
    { name: 'mix', description: '1 create property : 10 get property : 5 create application', requests: mix },
    {
      name: 'list-properties',
      description: 'GET /api/v2/properties?limit=25, the first page of the key’s properties',
      requests: () => [{ method: 'GET', path: '/api/v2/properties?limit=25' }],
    },
    {
      name: 'list-applications',
      description: 'GET /api/v2/applications?limit=25, the newest page of the applications stored so far',
      requests: () => [{ method: 'GET', path: '/api/v2/applications?limit=25' }],
    },
    {
      name: 'get-application',
      description: 'GET an application with its applicant',
      requests: () => [{ method: 'GET', path: applicationPath }],
    },
    {
      name: 'get-applicant',
      description: 'GET an applicant’s api_url',
      requests: () => [{ method: 'GET', path: applicantPath }],
    },
  ];
}
