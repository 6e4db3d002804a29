import { Test } from '@nestjs/testing';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { CreateApplicationRequest } from '../dto/application.dto';
import { CreatePropertyRequest } from '../dto/property.dto';
import { ErrorCode, ServiceError } from '../errors';
import { parseRequest } from './parse';

type Schema = Record<string, any>;

/** The schemas @nestjs/swagger makes of the request classes, as the gateway publishes them. */
async function documentedSchemas(): Promise<Record<string, Schema>> {
  const module = await Test.createTestingModule({}).compile();
  const app = module.createNestApplication(new FastifyAdapter());
  const document = SwaggerModule.createDocument(app, new DocumentBuilder().build(), {
    extraModels: [CreatePropertyRequest, CreateApplicationRequest],
  });
  await app.close();
  return document.components!.schemas as Record<string, Schema>;
}

/** The fields `parseRequest` finds a problem with; [] when it accepts the body. */
function problems(type: new () => object, body: unknown): string[] {
  try {
    parseRequest(type, JSON.parse(JSON.stringify(body)));
    return [];
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    if (error.code === ErrorCode.PROPERTY_ID_INVALID) return ['application.property_id'];
    return (error.details ?? []).map((problem) => problem.field);
  }
}

/** Where each documented class sits in a request that is otherwise valid. */
const REQUESTS = [
  { type: CreatePropertyRequest, schema: 'PropertyInput', path: ['property'], valid: { property: { name: 'Elm Court' } } },
  {
    type: CreateApplicationRequest,
    schema: 'ApplicationInput',
    path: ['application'],
    valid: { application: { property_id: 3, applicant: { first_name: 'A', last_name: 'B', email: 'a@example.com' } } },
  },
  {
    type: CreateApplicationRequest,
    schema: 'ApplicantInput',
    path: ['application', 'applicant'],
    valid: { application: { property_id: 3, applicant: { first_name: 'A', last_name: 'B', email: 'a@example.com' } } },
  },
];

/** A string of exactly `length` characters that is otherwise valid for a field of `format`. */
function stringOf(length: number, format: string | undefined): string {
  if (format === 'email') {
    // A local part of at most 64 characters, and domain labels of at most 63.
    let domain = 'com';
    while (domain.length < length - 'ada@'.length) {
      const room = length - 'ada@'.length - domain.length - 1;
      domain = `${'d'.repeat(Math.min(63, room))}.${domain}`;
    }
    return `ada@${domain}`;
  }
  if (format === 'uri') return `https://example.com/${'a'.repeat(length - 'https://example.com/'.length)}`;
  return 'x'.repeat(length);
}

/**
 * What the document says of each request field, held against what validation does: an
 * integrator who follows the document is accepted, and the limits it states are the ones enforced.
 */
describe('the documented request fields', () => {
  let schemas: Record<string, Schema>;

  beforeAll(async () => {
    schemas = await documentedSchemas();
  });

  const cases = () =>
    REQUESTS.flatMap(({ type, schema, path, valid }) =>
      Object.entries(schemas[schema].properties as Record<string, Schema>).map(([field, property]) => {
        const fieldPath = [...path, field].join('.');
        const required = (schemas[schema].required ?? []).includes(field);
        /** The valid request with this field set to `value` (or left out, for undefined). */
        const withValue = (value: unknown) => {
          const body = JSON.parse(JSON.stringify(valid));
          const parent = path.reduce((node, key) => node[key], body);
          if (value === undefined) delete parent[field];
          else parent[field] = value;
          return problems(type, body);
        };
        return { fieldPath, property, required, withValue, nested: !!(property.$ref || property.allOf) };
      }),
    );

  it('documents every field validation declares, in each request class', () => {
    expect(Object.keys(schemas.PropertyInput.properties)).toHaveLength(13);
    expect(Object.keys(schemas.ApplicationInput.properties)).toHaveLength(5);
    expect(Object.keys(schemas.ApplicantInput.properties)).toHaveLength(9);
  });

  it('accepts every documented example and refuses what the documented limits leave out', () => {
    for (const { fieldPath, property, required, withValue, nested } of cases()) {
      const expectThat = (what: string, value: unknown, refused: boolean) =>
        expect([fieldPath, what, withValue(value)]).toEqual([fieldPath, what, refused ? [fieldPath] : []]);

      expectThat('left out', undefined, required);
      if (nested) continue;
      expectThat('example', property.example, false);
      expectThat('null', null, !property.nullable);
      if (property.maxLength !== undefined) {
        expectThat('at maxLength', stringOf(property.maxLength, property.format), false);
        expectThat('over maxLength', stringOf(property.maxLength + 1, property.format), true);
      }
      if (property.minLength !== undefined) expectThat('under minLength', stringOf(property.minLength - 1, undefined), true);
      if (property.minimum !== undefined) {
        expectThat('at minimum', property.minimum, false);
        expectThat('under minimum', property.minimum - 1, true);
      }
      for (const allowed of property.enum ?? []) expectThat(`enum ${allowed}`, allowed, false);
      if (property.enum) expectThat('outside the enum', 'none of these', true);
      if (property.pattern)
        expectThat('against the pattern', 'not / matching', !new RegExp(property.pattern).test('not / matching'));
      if (property.type === 'boolean') expectThat('a string', 'true', true);
      if (property.type === 'integer') expectThat('a fraction', 2.5, true);
      if (property.type === 'object') expectThat('an array', [], true);
    }
  });
});
