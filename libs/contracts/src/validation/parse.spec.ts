import { ApplicantInput, ApplicationInput, CreateApplicationRequest } from '../dto/application.dto';
import { RecordDecisionRequest } from '../dto/decision.dto';
import { PutNotificationSettingsRequest } from '../dto/notification.dto';
import { CreatePropertyRequest, PropertyInput } from '../dto/property.dto';
import { ErrorCode, PROPERTY_ID_INVALID_MESSAGE, ServiceError } from '../errors';
import { declaredFields } from './fields';
import { parseRequest } from './parse';

/** What the gateway receives: a JSON text parsed back into values. */
function json(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value));
}

function refusal(type: new () => object, body: unknown): ServiceError {
  try {
    parseRequest(type, body);
  } catch (error) {
    if (error instanceof ServiceError) return error;
    throw error;
  }
  throw new Error('the body was accepted');
}

function validApplication(applicant: Record<string, unknown> = {}, application: Record<string, unknown> = {}) {
  return json({
    application: {
      property_id: 12,
      ...application,
      applicant: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', ...applicant },
    },
  });
}

describe('parseRequest', () => {
  describe('a body that is not a JSON object', () => {
    it.each([
      ['an array', [{ property: { name: 'Elm Court' } }]],
      ['a string', '{"property":{"name":"Elm Court"}}'],
      ['null', null],
      ['a number', 42],
      ['undefined', undefined],
    ])('refuses %s', (_label, body) => {
      const error = refusal(CreatePropertyRequest, body);
      expect(error.code).toBe(ErrorCode.VALIDATION_FAILED);
      expect(error.message).toBe('the request body must be a JSON object');
      expect(error.details).toEqual([{ field: 'body', message: 'must be a JSON object' }]);
    });
  });

  describe('the wrapper object', () => {
    it('requires it', () => {
      const error = refusal(CreatePropertyRequest, {});
      expect(error.details).toEqual([{ field: 'property', message: 'is required' }]);
      expect(error.message).toBe('property is required');
    });

    it.each([[[]], ['Elm Court'], [7], [null]])('refuses %j in its place', (value) => {
      const error = refusal(CreatePropertyRequest, { property: value });
      expect(error.code).toBe(ErrorCode.VALIDATION_FAILED);
      expect(error.details?.map((p) => p.field)).toEqual(['property']);
    });
  });

  describe('problems', () => {
    it('are reported as {field, message} with the full dotted path', () => {
      const error = refusal(CreateApplicationRequest, validApplication({ email: 'not-an-address' }));
      expect(error.code).toBe(ErrorCode.VALIDATION_FAILED);
      expect(error.details).toEqual([{ field: 'application.applicant.email', message: 'must be a valid e-mail address' }]);
      for (const problem of error.details ?? []) {
        expect(Object.keys(problem)).toEqual(['field', 'message']);
      }
    });

    it('lists one problem per wrong field, and the message names the first', () => {
      const error = refusal(
        CreateApplicationRequest,
        validApplication({ first_name: '', email: 'nobody', phone: '12' }, { user_specified_rent: -5 }),
      );
      expect(error.details?.map((p) => p.field)).toEqual([
        'application.user_specified_rent',
        'application.applicant.first_name',
        'application.applicant.email',
        'application.applicant.phone',
      ]);
      const first = error.details![0];
      expect(error.message).toBe(`application.user_specified_rent ${first.message}`);
      expect(error.message).toBe('application.user_specified_rent must be at least 0');
    });

    it('names every missing required field', () => {
      const error = refusal(CreateApplicationRequest, { application: { property_id: 3, applicant: {} } });
      expect(error.details).toEqual([
        { field: 'application.applicant.first_name', message: 'is required' },
        { field: 'application.applicant.last_name', message: 'is required' },
        { field: 'application.applicant.email', message: 'is required' },
      ]);
      expect(error.message).toBe('application.applicant.first_name is required');
    });
  });

  describe('unknown fields', () => {
    it('are refused at the top level', () => {
      const body = { property: { name: 'Elm Court' }, extra: true };
      const error = refusal(CreatePropertyRequest, body);
      expect(error.code).toBe(ErrorCode.VALIDATION_FAILED);
      expect(error.details).toEqual([{ field: 'extra', message: 'is not a known field' }]);
      expect(error.message).toBe('extra is not a known field');
    });

    it('are refused inside the wrapper object', () => {
      const error = refusal(CreatePropertyRequest, { property: { name: 'Elm Court', bedrooms: 3 } });
      expect(error.details).toEqual([{ field: 'property.bedrooms', message: 'is not a known field' }]);
    });

    it('are refused two levels down, with the full path', () => {
      const error = refusal(CreateApplicationRequest, validApplication({ foo: 'bar' }));
      expect(error.details).toEqual([{ field: 'application.applicant.foo', message: 'is not a known field' }]);
      expect(error.message).toBe('application.applicant.foo is not a known field');
    });

    it('are each named, after the problems with known fields', () => {
      const body = validApplication({ foo: 1, email: 'nobody' }, { bar: 2 });
      const error = refusal(CreateApplicationRequest, { ...(body as object), baz: 3 });
      expect(error.details?.[0]).toEqual({ field: 'application.applicant.email', message: 'must be a valid e-mail address' });
      expect(error.details?.slice(1)).toEqual(
        expect.arrayContaining([
          { field: 'baz', message: 'is not a known field' },
          { field: 'application.bar', message: 'is not a known field' },
          { field: 'application.applicant.foo', message: 'is not a known field' },
        ]),
      );
      expect(error.details).toHaveLength(4);
    });

    it.each(['constructor', 'toString', 'hasOwnProperty', 'valueOf', '__proto__', '__defineGetter__'])(
      'are refused when named %s, like a built-in member of every object, at every level',
      (name) => {
        // JSON.parse makes even "__proto__" an own key, as it arrives from the wire.
        const body = JSON.parse(
          `{"${name}":1,"application":{"${name}":1,"property_id":12,` +
            `"applicant":{"${name}":1,"first_name":"Ada","last_name":"Lovelace","email":"ada@example.com"}}}`,
        );
        const error = refusal(CreateApplicationRequest, body);
        expect(error.code).toBe(ErrorCode.VALIDATION_FAILED);
        expect(error.details?.map((d) => d.field).sort()).toEqual(
          [name, `application.${name}`, `application.applicant.${name}`].sort(),
        );
        expect(({} as Record<string, unknown>).admin).toBeUndefined();
      },
    );

    it('are refused even when their value is null', () => {
      const error = refusal(CreatePropertyRequest, { property: { name: 'Elm Court', note: null } });
      expect(error.details).toEqual([{ field: 'property.note', message: 'is not a known field' }]);
    });
  });

  describe('property_id', () => {
    it.each([
      ['missing', undefined],
      ['null', null],
      ['zero', 0],
      ['negative', -4],
      ['a fraction', 1.5],
      ['a fraction as text', '1.5'],
      ['a negative as text', '-3'],
      ['not a number', 'abc'],
      ['a boolean', true],
      ['an object', { id: 1 }],
      ['unsafe', 2 ** 53],
    ])('answers with the documented error when %s', (_label, propertyId) => {
      const body = validApplication({}, { property_id: propertyId });
      const error = refusal(CreateApplicationRequest, body);
      expect(error.code).toBe(ErrorCode.PROPERTY_ID_INVALID);
      expect(error.message).toBe('property_id is invalid or cannot be found');
      expect(error.message).toBe(PROPERTY_ID_INVALID_MESSAGE);
      expect(error.details).toBeNull();
    });

    it('wins over every other problem in the body', () => {
      const body = {
        application: {
          property_id: 'seven',
          user_specified_rent: -1,
          unknown: 1,
          applicant: { first_name: '', email: 'nobody', dob: '02/30/2024', foo: 2 },
        },
        extra: true,
      };
      const error = refusal(CreateApplicationRequest, body);
      expect(error.code).toBe(ErrorCode.PROPERTY_ID_INVALID);
      expect(error.message).toBe(PROPERTY_ID_INVALID_MESSAGE);
      expect(error.details).toBeNull();
    });

    it('is checked even when the applicant is missing', () => {
      const error = refusal(CreateApplicationRequest, { application: {} });
      expect(error.code).toBe(ErrorCode.PROPERTY_ID_INVALID);
      expect(error.details).toBeNull();
    });
  });

  describe('normalized output', () => {
    const today = new Date();
    const lastYear = `${String(today.getUTCMonth() + 1).padStart(2, '0')}/01/${today.getUTCFullYear() - 1}`;

    it.each([
      [
        'an application',
        CreateApplicationRequest,
        validApplication(
          {
            first_name: '  Ada ',
            email: ' ada@example.com ',
            dob: lastYear,
            id_number: '123-45-6789',
            phone: '+1 (555) 010-9999',
            custom_data: { tier: 'gold', scores: [1, 2.5, null], nested: { ok: true } },
            reference_id: 'crm-77',
            redirect_url: 'https://example.com/thanks',
          },
          { property_id: '12', user_specified_rent: '1500', assigned_user_id: 9, desired_move_in: '2030-07-01' },
        ),
      ],
      ['a property', CreatePropertyRequest, json({ property: { name: ' Elm Court ', kind: 'generic', zip: ' 02139 ' } })],
    ])('of %s parses to itself', (_label, type, body) => {
      const once = parseRequest(type as new () => object, body);
      const twice = parseRequest(type as new () => object, json(once));
      expect(json(twice)).toEqual(json(once));
      const thrice = parseRequest(type as new () => object, once);
      expect(json(thrice)).toEqual(json(once));
    });

    it('writes redirect_url as the WHATWG URL parser does, so that it goes out as a Location header as it is', () => {
      const { application } = parseRequest(
        CreateApplicationRequest,
        validApplication({ redirect_url: 'https://Bücher.Example/merci-été?nom=Zoë#fin' }),
      );
      expect(application.applicant.redirect_url).toBe('https://xn--bcher-kva.example/merci-%C3%A9t%C3%A9?nom=Zo%C3%AB#fin');
    });

    it('is an instance of the contract class', () => {
      const request = parseRequest(CreatePropertyRequest, { property: { name: 'Elm Court' } });
      expect(request).toBeInstanceOf(CreatePropertyRequest);
    });
  });

  describe('a nullable nested field', () => {
    it('takes null, which unsets it, as an object or a list of them', () => {
      const settings = parseRequest(PutNotificationSettingsRequest, { notification_settings: { screening_agency: null } });
      expect(settings.notification_settings.screening_agency).toBeNull();
      const decision = parseRequest(RecordDecisionRequest, { decision: { status: 'approved', conditions: null } });
      expect(decision.decision.conditions).toBeNull();
    });

    it('still checks what is given in its place', () => {
      expect(refusal(PutNotificationSettingsRequest, { notification_settings: { screening_agency: 'Acme' } }).details).toEqual([
        { field: 'notification_settings.screening_agency', message: 'must be an object' },
      ]);
      expect(
        refusal(PutNotificationSettingsRequest, { notification_settings: { screening_agency: { name: '' } } }).details?.[0].field,
      ).toMatch(/^notification_settings\.screening_agency\./);
    });

    it('is refused as null where it is required', () => {
      expect(refusal(CreatePropertyRequest, { property: null }).details).toEqual([{ field: 'property', message: 'is required' }]);
    });
  });

  describe('a MongoDB operator object in place of any field', () => {
    const operators = [{ $gt: '' }, { $ne: null }, { $where: 'sleep(100)' }, { $regex: '.*' }];
    const fieldsOf = (type: new () => object) => [...declaredFields(type).keys()];
    const cases: Array<[string, new () => object, (operator: object) => unknown]> = [
      ...fieldsOf(PropertyInput).map((name): [string, new () => object, (operator: object) => unknown] => [
        `property.${name}`,
        CreatePropertyRequest,
        (operator) => json({ property: { name: 'Elm Court', [name]: operator } }),
      ]),
      ...fieldsOf(ApplicationInput).map((name): [string, new () => object, (operator: object) => unknown] => [
        `application.${name}`,
        CreateApplicationRequest,
        (operator) => {
          const body = validApplication() as { application: Record<string, unknown> };
          body.application[name] = operator;
          return body;
        },
      ]),
      ...fieldsOf(ApplicantInput).map((name): [string, new () => object, (operator: object) => unknown] => [
        `application.applicant.${name}`,
        CreateApplicationRequest,
        (operator) => validApplication({ [name]: operator }),
      ]),
      ['property', CreatePropertyRequest, (operator) => ({ property: operator })],
      ['application', CreateApplicationRequest, (operator) => ({ application: operator })],
    ];

    it('covers every declared field', () => {
      expect(cases.length).toBe(
        fieldsOf(PropertyInput).length + fieldsOf(ApplicationInput).length + fieldsOf(ApplicantInput).length + 2,
      );
      expect(cases.length).toBeGreaterThan(20);
    });

    it.each(cases)('is refused in %s', (path, type, bodyWith) => {
      for (const operator of operators) {
        const error = refusal(type, bodyWith(operator));
        if (path === 'application.property_id' || path === 'application') {
          expect(error.code).toBe(ErrorCode.PROPERTY_ID_INVALID);
          continue;
        }
        expect(error.code).toBe(ErrorCode.VALIDATION_FAILED);
        expect(error.details?.map((d) => d.field)).toEqual(
          expect.arrayContaining([expect.stringMatching(new RegExp(`^${path.replace(/\./g, '\\.')}(\\.|$)`))]),
        );
      }
    });
  });
});
