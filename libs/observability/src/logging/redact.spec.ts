import { Writable } from 'node:stream';
import pino, { stdSerializers } from 'pino';
import { isSensitiveField, REDACT_PATHS, REDACTED, redactDeep, redactedError, SENSITIVE_FIELDS, spellings } from './redact';

describe('isSensitiveField', () => {
  it.each([
    ...SENSITIVE_FIELDS,
    'sensitive_data',
    'sensitiveData',
    'Authorization',
    'idNumber',
    'ID-Number',
    'DOB',
    'x-api-key',
    'apiKey',
    'API_KEYS',
  ])('says %s is sensitive', (key) => {
    expect(isSensitiveField(key)).toBe(true);
  });

  it.each(['name', 'id', 'client_id', 'property_id', 'request_id', 'status_code', 'msg', 'key', 'number'])(
    'lets %s through',
    (key) => {
      expect(isSensitiveField(key)).toBe(false);
    },
  );
});

describe('redactDeep', () => {
  it('redacts sensitive fields at any depth, in objects and arrays, and keeps the rest', () => {
    const value = {
      msg: 'message handled',
      headers: { Authorization: 'Bearer key-123', accept: 'application/json' },
      payload: {
        client_id: 1,
        request: {
          application: {
            property_id: 7,
            applicant: { first_name: 'Ada', id_number: '123456789', dob: '1985-12-10', custom_data: { a: 1 } },
          },
        },
      },
      list: [{ api_key: 'k' }, [{ 'x-api-key': 'k2' }], 3, null],
    };

    expect(redactDeep(value)).toEqual({
      msg: 'message handled',
      headers: { Authorization: REDACTED, accept: 'application/json' },
      payload: {
        client_id: 1,
        request: {
          application: {
            property_id: 7,
            applicant: { first_name: REDACTED, id_number: REDACTED, dob: REDACTED, custom_data: REDACTED },
          },
        },
      },
      list: [{ api_key: REDACTED }, [{ 'x-api-key': REDACTED }], 3, null],
    });
  });

  it('leaves its argument untouched', () => {
    const value = { dob: '1985-12-10', nested: { id_number: '123456789' } };
    redactDeep(value);
    expect(value).toEqual({ dob: '1985-12-10', nested: { id_number: '123456789' } });
  });

  it('redacts the fields of class instances too, and keeps dates as they are', () => {
    class Applicant {
      constructor(
        readonly email: string,
        readonly born: Date,
      ) {}
    }
    const born = new Date('1985-12-10T00:00:00Z');
    expect(redactDeep({ applicant: new Applicant('ada@example.com', born) })).toEqual({
      applicant: { email: REDACTED, born },
    });
  });

  it('cuts a cycle instead of following it', () => {
    const value: Record<string, unknown> = { dob: 'x' };
    value.self = value;
    expect(redactDeep(value)).toEqual({ dob: REDACTED, self: '[Circular]' });
  });

  it('returns what is not an object as it is', () => {
    expect(redactDeep('123-45-6789')).toBe('123-45-6789');
    expect(redactDeep(null)).toBeNull();
    expect(redactDeep(42)).toBe(42);
  });
});

describe('spellings', () => {
  it('covers snake, camel, kebab, upper, header and Pascal case', () => {
    expect(spellings('id_number')).toEqual(['id_number', 'idNumber', 'id-number', 'ID_NUMBER', 'Id-Number', 'IdNumber']);
    expect(spellings('dob')).toEqual(['dob', 'DOB', 'Dob']);
  });
});

/** What a pino logger with these paths and the error serializer writes. */
function logged(write: (logger: pino.Logger) => void): Record<string, any> {
  let line = '';
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      line += chunk.toString();
      done();
    },
  });
  write(
    pino(
      { redact: { paths: [...REDACT_PATHS], censor: REDACTED }, serializers: { err: redactedError(stdSerializers.err) } },
      sink,
    ),
  );
  return JSON.parse(line);
}

describe('REDACT_PATHS', () => {
  it('are plain paths, without wildcards, which pino would walk on every line', () => {
    expect(REDACT_PATHS.some((path) => path.includes('*'))).toBe(false);
  });

  it('redact every sensitive field at the top of a line, in bindings, in headers and in an applicant', () => {
    const line = logged((logger) =>
      logger.child({ dob: '1985-12-10' }).info(
        {
          idNumber: '123456789',
          headers: { authorization: 'Bearer k', 'x-api-key': 'k2', accept: 'application/json' },
          body: { application: { property_id: 7, applicant: { first_name: 'Ada', id_number: '123456789', email: 'a@b.c' } } },
          data: { client_id: 1, request: { application: { applicant: { dob: '1985-12-10', phone: '5550101234' } } } },
        },
        'x',
      ),
    );

    expect(line).toMatchObject({
      dob: REDACTED,
      idNumber: REDACTED,
      headers: { authorization: REDACTED, 'x-api-key': REDACTED, accept: 'application/json' },
      body: { application: { property_id: 7, applicant: { first_name: REDACTED, id_number: REDACTED, email: REDACTED } } },
      data: { client_id: 1, request: { application: { applicant: { dob: REDACTED, phone: REDACTED } } } },
    });
  });

  it('leave the logged object untouched', () => {
    const value = { applicant: { dob: '1985-12-10' } };
    logged((logger) => logger.info(value, 'x'));
    expect(value).toEqual({ applicant: { dob: '1985-12-10' } });
  });
});

describe('redactedError', () => {
  it('redacts the fields of a logged error at any depth', () => {
    const error = Object.assign(new Error('duplicate key'), {
      keyValue: { deep: { id_number: '123456789' } },
      config: { API_KEYS: 'a:1' },
    });
    const line = logged((logger) => logger.error({ err: error }, 'failed'));

    expect(line.err).toMatchObject({
      message: 'duplicate key',
      keyValue: { deep: { id_number: REDACTED } },
      config: { API_KEYS: REDACTED },
    });
    expect(JSON.stringify(line)).not.toMatch(/123456789|a:1/);
  });
});
