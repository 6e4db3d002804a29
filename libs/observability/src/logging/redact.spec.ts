import { isSensitiveField, REDACTED, redactDeep, redactLogLine, SENSITIVE_FIELDS } from './redact';

describe('isSensitiveField', () => {
  it.each([...SENSITIVE_FIELDS, 'Authorization', 'idNumber', 'ID-Number', 'DOB', 'x-api-key', 'apiKey', 'API_KEYS'])(
    'says %s is sensitive',
    (key) => {
      expect(isSensitiveField(key)).toBe(true);
    },
  );

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

describe('redactLogLine', () => {
  it('redacts a serialized line and ends it with a newline', () => {
    const line = `${JSON.stringify({ level: 'info', err: { config: { API_KEYS: 'a:1' } }, msg: 'x' })}\n`;
    expect(redactLogLine(line)).toBe(`${JSON.stringify({ level: 'info', err: { config: { API_KEYS: REDACTED } }, msg: 'x' })}\n`);
  });

  it('passes text that is not JSON through', () => {
    expect(redactLogLine('plain text\n')).toBe('plain text\n');
  });
});
