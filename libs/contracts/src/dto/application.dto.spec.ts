import { ErrorCode, FieldProblem, ServiceError } from '../errors';
import { parseRequest } from '../validation/parse';
import { ApplicantInput, ApplicationInput, CreateApplicationRequest } from './application.dto';

type Fields = Record<string, unknown>;

/** A valid body with `application` and `applicant` fields replaced; JSON-shaped, as the gateway gets it. */
function body(application: Fields = {}, applicant: Fields = {}): unknown {
  return JSON.parse(
    JSON.stringify({
      application: {
        property_id: 12,
        ...application,
        applicant: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', ...applicant },
      },
    }),
  );
}

function parseApplication(application: Fields): ApplicationInput {
  return parseRequest(CreateApplicationRequest, body(application)).application;
}

function parseApplicant(applicant: Fields): ApplicantInput {
  return parseRequest(CreateApplicationRequest, body({}, applicant)).application.applicant;
}

function problems(input: unknown): FieldProblem[] {
  try {
    parseRequest(CreateApplicationRequest, input);
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    expect(error.code).toBe(ErrorCode.VALIDATION_FAILED);
    return error.details ?? [];
  }
  throw new Error('the application was accepted');
}

const applicationProblems = (application: Fields) => problems(body(application));
const applicantProblems = (applicant: Fields) => problems(body({}, applicant));
const fieldsOf = (found: FieldProblem[]) => found.map((p) => p.field);

/** A UTC calendar day relative to today, as YYYY-MM-DD. */
function isoDay(daysFromToday: number): string {
  const day = new Date();
  day.setUTCDate(day.getUTCDate() + daysFromToday);
  return day.toISOString().slice(0, 10);
}

function usDate(iso: string): string {
  const [year, month, day] = iso.split('-');
  return `${month}/${day}/${year}`;
}

describe('CreateApplicationRequest', () => {
  it('accepts the smallest valid application, adding nothing', () => {
    expect(JSON.parse(JSON.stringify(parseRequest(CreateApplicationRequest, body())))).toEqual({
      application: {
        property_id: 12,
        applicant: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
      },
    });
  });

  it('accepts and normalizes every documented field', () => {
    const dob = isoDay(-365 * 30);
    const moveIn = isoDay(45);
    const request = parseRequest(
      CreateApplicationRequest,
      body(
        { property_id: '12', user_specified_rent: '1850', desired_move_in: usDate(moveIn), assigned_user_id: '4' },
        {
          first_name: ' Ada ',
          last_name: ' Lovelace ',
          email: ' ada@example.com ',
          dob: usDate(dob),
          id_number: '123-45-6789',
          phone: '+1 (555) 010-9999',
          custom_data: { unit_pref: 'corner' },
          reference_id: 'crm-1815',
          redirect_url: 'https://example.com/thanks',
        },
      ),
    );
    expect(JSON.parse(JSON.stringify(request))).toEqual({
      application: {
        property_id: 12,
        user_specified_rent: 1850,
        desired_move_in: moveIn,
        assigned_user_id: 4,
        applicant: {
          first_name: 'Ada',
          last_name: 'Lovelace',
          email: 'ada@example.com',
          dob,
          id_number: '123456789',
          phone: '15550109999',
          custom_data: { unit_pref: 'corner' },
          reference_id: 'crm-1815',
          redirect_url: 'https://example.com/thanks',
        },
      },
    });
  });

  it('accepts null for every optional field', () => {
    const application = parseRequest(
      CreateApplicationRequest,
      body(
        { user_specified_rent: null, desired_move_in: null, assigned_user_id: null },
        { dob: null, id_number: null, phone: null, custom_data: null, reference_id: null, redirect_url: null },
      ),
    ).application;
    expect(application.user_specified_rent).toBeNull();
    expect(application.desired_move_in).toBeNull();
    expect(application.assigned_user_id).toBeNull();
    const { applicant } = application;
    for (const field of ['dob', 'id_number', 'phone', 'custom_data', 'reference_id', 'redirect_url'] as const) {
      expect(applicant[field]).toBeNull();
    }
  });

  describe('applicant', () => {
    it('is required', () => {
      const input = { application: { property_id: 12 } };
      expect(problems(input)).toEqual([{ field: 'application.applicant', message: 'is required' }]);
      expect(problems({ application: { property_id: 12, applicant: null } })).toEqual([
        { field: 'application.applicant', message: 'is required' },
      ]);
    });

    it.each([[[]], ['Ada Lovelace'], [5]])('must be an object, not %j', (applicant) => {
      expect(fieldsOf(problems({ application: { property_id: 12, applicant } }))).toEqual(['application.applicant']);
    });
  });

  describe('property_id', () => {
    it('accepts a JSON integer or a string of digits, read as a number', () => {
      expect(parseApplication({ property_id: 7 }).property_id).toBe(7);
      expect(parseApplication({ property_id: '7' }).property_id).toBe(7);
      expect(parseApplication({ property_id: String(Number.MAX_SAFE_INTEGER) }).property_id).toBe(Number.MAX_SAFE_INTEGER);
    });
  });

  describe('user_specified_rent', () => {
    it.each([
      [0, 0],
      ['0', 0],
      [1850, 1850],
      ['1850', 1850],
      [1_000_000, 1_000_000],
      ['1000000', 1_000_000],
    ])('accepts %j as %j', (value, expected) => {
      expect(parseApplication({ user_specified_rent: value }).user_specified_rent).toBe(expected);
    });

    it.each([[1_000_001], ['1000001'], [Number.MAX_SAFE_INTEGER]])('refuses %j, over a million', (value) => {
      expect(applicationProblems({ user_specified_rent: value })).toEqual([
        { field: 'application.user_specified_rent', message: 'must be at most 1000000' },
      ]);
    });

    it('refuses a negative amount', () => {
      expect(applicationProblems({ user_specified_rent: -1 })).toEqual([
        { field: 'application.user_specified_rent', message: 'must be at least 0' },
      ]);
    });

    it.each([['1.5'], ['-3'], [1.5], ['abc'], [true], [''], [' 5'], ['5 '], ['1e3'], ['0x10'], [[5]], [{}]])(
      'refuses %j',
      (value) => {
        expect(applicationProblems({ user_specified_rent: value })).toEqual([
          { field: 'application.user_specified_rent', message: 'must be an integer' },
        ]);
      },
    );

    it.each([[2 ** 53], ['9007199254740992'], [1e21], ['99999999999999999999']])('refuses the unsafe %j', (value) => {
      expect(fieldsOf(applicationProblems({ user_specified_rent: value }))).toEqual(['application.user_specified_rent']);
    });
  });

  describe('assigned_user_id', () => {
    it.each([
      [1, 1],
      ['1', 1],
      [305, 305],
      ['305', 305],
      [2_147_483_647, 2_147_483_647],
    ])('accepts %j as %j', (value, expected) => {
      expect(parseApplication({ assigned_user_id: value }).assigned_user_id).toBe(expected);
    });

    it.each([[2_147_483_648], ['2147483648']])('refuses %j, over the largest 32-bit id', (value) => {
      expect(applicationProblems({ assigned_user_id: value })).toEqual([
        { field: 'application.assigned_user_id', message: 'must be at most 2147483647' },
      ]);
    });

    it.each([[0], ['0'], [-2]])('refuses %j, which is not positive', (value) => {
      expect(applicationProblems({ assigned_user_id: value })).toEqual([
        { field: 'application.assigned_user_id', message: expect.any(String) },
      ]);
    });

    it.each([['1.5'], ['-3'], [1.5], ['abc'], [true], [2 ** 53], ['9007199254740992']])('refuses %j', (value) => {
      expect(applicationProblems({ assigned_user_id: value })).toEqual([
        { field: 'application.assigned_user_id', message: 'must be an integer' },
      ]);
    });
  });

  describe('desired_move_in', () => {
    it('accepts a future date in either format and returns YYYY-MM-DD', () => {
      const day = isoDay(60);
      expect(parseApplication({ desired_move_in: usDate(day) }).desired_move_in).toBe(day);
      expect(parseApplication({ desired_move_in: day }).desired_move_in).toBe(day);
    });

    it('accepts a past date: only the date of birth must be in the past', () => {
      const day = isoDay(-3);
      expect(parseApplication({ desired_move_in: usDate(day) }).desired_move_in).toBe(day);
    });

    it('reads the documented example format', () => {
      expect(parseApplication({ desired_move_in: '02/29/2028' }).desired_move_in).toBe('2028-02-29');
    });

    it.each([['02/30/2024'], ['13/01/2024'], ['2024-02-30'], ['02/29/2023'], ['next week'], ['2024/03/01'], [20240301], [true]])(
      'refuses %j',
      (value) => {
        expect(applicationProblems({ desired_move_in: value })).toEqual([
          { field: 'application.desired_move_in', message: 'must be a calendar date written MM/DD/YYYY or YYYY-MM-DD' },
        ]);
      },
    );
  });

  describe.each(['first_name', 'last_name'])('%s', (name) => {
    const path = `application.applicant.${name}`;

    it('is required', () => {
      expect(applicantProblems({ [name]: undefined })).toEqual([{ field: path, message: 'is required' }]);
      expect(applicantProblems({ [name]: null })).toEqual([{ field: path, message: 'is required' }]);
    });

    it('is trimmed', () => {
      expect(parseApplicant({ [name]: '  Byron \t' })[name as keyof ApplicantInput]).toBe('Byron');
    });

    it('must not be empty, nor only white space', () => {
      expect(applicantProblems({ [name]: '' })).toEqual([{ field: path, message: 'must not be empty' }]);
      expect(applicantProblems({ [name]: '   ' })).toEqual([{ field: path, message: 'must not be empty' }]);
    });

    it('accepts 1 and 100 characters and refuses 101', () => {
      expect(parseApplicant({ [name]: 'B' })[name as keyof ApplicantInput]).toBe('B');
      expect(parseApplicant({ [name]: 'b'.repeat(100) })[name as keyof ApplicantInput]).toBe('b'.repeat(100));
      expect(parseApplicant({ [name]: ` ${'b'.repeat(100)} ` })[name as keyof ApplicantInput]).toBe('b'.repeat(100));
      expect(applicantProblems({ [name]: 'b'.repeat(101) })).toEqual([
        { field: path, message: 'must be at most 100 characters' },
      ]);
    });

    it('must be a string', () => {
      expect(applicantProblems({ [name]: 42 })).toEqual([{ field: path, message: 'must be a string' }]);
    });
  });

  describe('email', () => {
    const path = 'application.applicant.email';
    // 64 + 1 + 63 + 1 + 63 + 1 + 57 + 4 = 254 characters, every part within its own limit.
    const longest = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(57)}.com`;

    it('is required', () => {
      expect(applicantProblems({ email: undefined })).toEqual([{ field: path, message: 'is required' }]);
      expect(applicantProblems({ email: null })).toEqual([{ field: path, message: 'is required' }]);
    });

    it('is trimmed', () => {
      expect(parseApplicant({ email: '  ada@example.com ' }).email).toBe('ada@example.com');
    });

    it('accepts 254 characters and refuses 255', () => {
      expect(longest).toHaveLength(254);
      expect(parseApplicant({ email: longest }).email).toBe(longest);
      const tooLong = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(58)}.com`;
      expect(tooLong).toHaveLength(255);
      expect(applicantProblems({ email: tooLong })).toEqual([{ field: path, message: 'must be at most 254 characters' }]);
    });

    it.each([['ada'], ['ada@'], ['@example.com'], ['ada@example'], ['ada lovelace@example.com'], ['ada@@example.com'], ['']])(
      'refuses %j',
      (email) => {
        expect(fieldsOf(applicantProblems({ email }))).toEqual([path]);
      },
    );

    it('must be a string', () => {
      expect(applicantProblems({ email: ['ada@example.com'] })).toEqual([{ field: path, message: 'must be a string' }]);
    });
  });

  describe('dob', () => {
    const path = 'application.applicant.dob';

    it('accepts yesterday in either format and returns YYYY-MM-DD', () => {
      const yesterday = isoDay(-1);
      expect(parseApplicant({ dob: yesterday }).dob).toBe(yesterday);
      expect(parseApplicant({ dob: usDate(yesterday) }).dob).toBe(yesterday);
    });

    it('accepts a leap day long past', () => {
      expect(parseApplicant({ dob: '02/29/2000' }).dob).toBe('2000-02-29');
    });

    it.each([
      ['today', 0],
      ['tomorrow', 1],
      ['next year', 366],
    ])('refuses %s', (_label, offset) => {
      const day = isoDay(offset);
      expect(applicantProblems({ dob: day })).toEqual([{ field: path, message: 'must be a date in the past' }]);
      expect(applicantProblems({ dob: usDate(day) })).toEqual([{ field: path, message: 'must be a date in the past' }]);
    });

    it.each([['02/30/2000'], ['13/01/1990'], ['1990-02-30'], ['02/29/1900'], ['1990-1-1'], ['yesterday'], [19900101]])(
      'refuses %j',
      (dob) => {
        expect(applicantProblems({ dob })).toEqual([
          { field: path, message: 'must be a calendar date written MM/DD/YYYY or YYYY-MM-DD' },
        ]);
      },
    );
  });

  describe('id_number', () => {
    const path = 'application.applicant.id_number';

    it.each([
      ['123-45-6789', '123456789'],
      ['123456789', '123456789'],
      [' 123-45-6789 ', '123456789'],
    ])('accepts %j and keeps the nine digits', (value, digits) => {
      expect(parseApplicant({ id_number: value }).id_number).toBe(digits);
    });

    it.each([
      ['12-345-6789'],
      ['1234-56-789'],
      ['123-45-678'],
      ['12345678'],
      ['1234567890'],
      ['123 45 6789'],
      ['123--45-6789'],
      ['123-456789'],
      ['12345-6789'],
      ['123-45-678a'],
      ['abc-de-fghi'],
      [''],
      [123456789],
    ])('refuses %j', (value) => {
      expect(applicantProblems({ id_number: value })).toEqual([
        { field: path, message: 'must be a US social security number: 9 digits, dashes allowed (123-45-6789)' },
      ]);
    });
  });

  describe('phone', () => {
    const path = 'application.applicant.phone';

    it.each([
      ['5550109999', '5550109999'],
      ['(555) 010-9999', '5550109999'],
      ['555.010.9999', '5550109999'],
      ['+44 20 7946 0958', '442079460958'],
      ['+1 (555) 010-9999', '15550109999'],
      ['123456789012345', '123456789012345'],
      ['+123 4567 8901 2345', '123456789012345'],
    ])('accepts %j as %j', (value, digits) => {
      expect(parseApplicant({ phone: value }).phone).toBe(digits);
    });

    it.each([
      ['555010999'],
      ['(555) 010-999'],
      ['1234567890123456'],
      ['555-010-999x'],
      ['555/010/9999'],
      ['555_010_9999'],
      ['phone'],
      [''],
      [5550109999],
    ])('refuses %j', (value) => {
      expect(applicantProblems({ phone: value })).toEqual([
        { field: path, message: 'must be a phone number of 10 to 15 digits' },
      ]);
    });
  });

  describe('custom_data', () => {
    const path = 'application.applicant.custom_data';

    it('is kept exactly as sent, nested values, key order and look-alike fields included', () => {
      const customData = {
        z_last: 'first key',
        first_name: '  padded  ',
        property_id: '7',
        dob: '02/03/2001',
        phone: '(555) 010-9999',
        nested: { list: [1, 2.5, -3, null, true, 'x', { deep: [] }], empty: {} },
        toString: 'not a function',
        a: null,
      };
      const kept = parseApplicant({ custom_data: customData }).custom_data;
      expect(kept).toEqual(customData);
      expect(JSON.stringify(kept)).toBe(JSON.stringify(customData));
    });

    it('accepts an empty object', () => {
      expect(parseApplicant({ custom_data: {} }).custom_data).toEqual({});
    });

    it.each([[[]], [[{ a: 1 }]], ['{"a":1}'], [42], [true]])('refuses %j', (value) => {
      expect(applicantProblems({ custom_data: value })).toEqual([{ field: path, message: 'must be a JSON object' }]);
    });

    // {"d":"<n characters>"} is n + 8 bytes of JSON.
    it('accepts 16 KiB of JSON and refuses one byte more', () => {
      const limit = { d: 'x'.repeat(16 * 1024 - 8) };
      expect(Buffer.byteLength(JSON.stringify(limit))).toBe(16384);
      expect(parseApplicant({ custom_data: limit }).custom_data).toEqual(limit);
      const over = { d: 'x'.repeat(16 * 1024 - 7) };
      expect(applicantProblems({ custom_data: over })).toEqual([{ field: path, message: 'must be at most 16384 bytes as JSON' }]);
    });

    it('counts bytes, not characters', () => {
      const limit = { d: 'é'.repeat(8188) };
      expect(Buffer.byteLength(JSON.stringify(limit))).toBe(16384);
      expect(parseApplicant({ custom_data: limit }).custom_data).toEqual(limit);
      const over = { d: 'é'.repeat(8189) };
      expect(JSON.stringify(over).length).toBeLessThan(16384);
      expect(fieldsOf(applicantProblems({ custom_data: over }))).toEqual([path]);
    });
  });

  describe('custom_data nesting', () => {
    const path = 'application.applicant.custom_data';
    /** An object `levels` deep, the outermost counting as the first level, alternating objects and arrays. */
    const nested = (levels: number): Record<string, unknown> => {
      let value: unknown = 'bottom';
      for (let level = levels; level > 1; level--) value = level % 2 === 0 ? [value] : { next: value };
      return { top: value };
    };

    it('accepts 10 levels of objects and arrays and refuses 11', () => {
      expect(parseApplicant({ custom_data: nested(10) }).custom_data).toEqual(nested(10));
      expect(applicantProblems({ custom_data: nested(11) })).toEqual([
        { field: path, message: 'must be nested at most 10 levels deep' },
      ]);
    });

    it('refuses nesting far beyond what the stack could serialize, without overflowing it', () => {
      const deep = `${'{"a":'.repeat(12_000)}1${'}'.repeat(12_000)}`;
      const applicant = `{"first_name":"Ada","last_name":"Lovelace","email":"ada@example.com","custom_data":${deep}}`;
      const request = JSON.parse(`{"application":{"property_id":12,"applicant":${applicant}}}`);
      expect(() => JSON.stringify(request)).toThrow(RangeError);
      expect(problems(request)).toEqual([{ field: path, message: 'must be nested at most 10 levels deep' }]);
    });

    it('accepts 1000 items in an array or object and refuses 1001', () => {
      const items = (n: number) => Array.from({ length: n }, () => 0);
      const keys = (n: number) => Object.fromEntries(items(n).map((_, i) => [`k${i}`, 0]));
      expect(parseApplicant({ custom_data: { list: items(1000) } }).custom_data).toEqual({ list: items(1000) });
      expect(parseApplicant({ custom_data: keys(1000) }).custom_data).toEqual(keys(1000));
      for (const wide of [{ list: items(1001) }, keys(1001), { inner: keys(1001) }]) {
        expect(applicantProblems({ custom_data: wide })).toEqual([
          { field: path, message: 'must have at most 1000 items in any one array or object' },
        ]);
      }
    });
  });

  describe('custom_data keys that could read as MongoDB operators or paths', () => {
    const path = 'application.applicant.custom_data';

    it.each([
      ['an operator at the top', { $gt: '' }],
      ['an operator deep down', { a: { b: [{ c: { $where: 'sleep(1000)' } }] } }],
      ['a "$" key alone', { $: 1 }],
      ['a dotted key', { 'a.b': 1 }],
      ['a dotted key deep down', { a: [[{ 'x.y': { z: 1 } }]] }],
      ['a key that is only a dot', { '.': 1 }],
    ])('refuses %s', (_label, customData) => {
      expect(applicantProblems({ custom_data: customData })).toEqual([
        { field: path, message: 'must not have keys that start with "$" or contain "."' },
      ]);
    });

    it('accepts "$" and "." inside keys and in values', () => {
      const customData = { price$: '$1,000', a$b: 'x.y', note: { text: '{"$gt": ""}' }, list: ['$ne', '.'] };
      expect(parseApplicant({ custom_data: customData }).custom_data).toEqual(customData);
    });
  });

  describe('custom_data with keys named like built-in members of every object', () => {
    it('is accepted and kept as sent, at any depth', () => {
      const customData = JSON.parse(
        '{"constructor":1,"toString":"x","nested":{"constructor":{"prototype":null},"valueOf":[1]},"__proto__":{"a":1}}',
      );
      const parsed = parseApplicant({ custom_data: customData });
      expect(JSON.stringify(parsed.custom_data)).toBe(JSON.stringify(customData));
    });
  });

  describe('reference_id', () => {
    const path = 'application.applicant.reference_id';

    it('accepts a string of up to 255 characters', () => {
      expect(parseApplicant({ reference_id: 'crm-1815' }).reference_id).toBe('crm-1815');
      expect(parseApplicant({ reference_id: 'r'.repeat(255) }).reference_id).toBe('r'.repeat(255));
    });

    it('refuses 256 characters', () => {
      expect(applicantProblems({ reference_id: 'r'.repeat(256) })).toEqual([
        { field: path, message: 'must be at most 255 characters' },
      ]);
    });

    it.each([[1815], [true], [{ id: 1 }]])('refuses the non-string %j', (value) => {
      expect(applicantProblems({ reference_id: value })).toEqual([{ field: path, message: 'must be a string' }]);
    });
  });

  describe('redirect_url', () => {
    const path = 'application.applicant.redirect_url';

    it.each([
      ['https://example.com/thanks?from=apply#top', 'https://example.com/thanks?from=apply#top'],
      ['http://localhost:8080/done', 'http://localhost:8080/done'],
      // Stored as the URL parser writes it: what a Location header can carry.
      ['https://例え.jp/', 'https://xn--r8jz45g.jp/'],
      ['HTTPS://Example.COM/Thanks', 'https://example.com/Thanks'],
    ])('accepts %j, stored as %j', (url, stored) => {
      expect(parseApplicant({ redirect_url: url }).redirect_url).toBe(stored);
    });

    it.each([
      ['ftp://example.com/thanks'],
      ['/thanks'],
      ['thanks.html'],
      ['example.com/thanks'],
      ['//example.com/thanks'],
      ['javascript:alert(1)'],
      ['data:text/html,<p>hi</p>'],
      ['mailto:ada@example.com'],
      ['https://'],
      ['https:example.com'],
      ['http:/example.com'],
      ['http://exa mple.com/'],
      [''],
    ])('refuses %j', (url) => {
      expect(applicantProblems({ redirect_url: url })).toEqual([
        { field: path, message: 'must be an absolute http or https URL' },
      ]);
    });

    it('must be a string', () => {
      expect(applicantProblems({ redirect_url: 7 })).toEqual([{ field: path, message: 'must be a string' }]);
    });
  });
});
