import { ErrorCode, FieldProblem, ServiceError } from '../errors';
import { parseRequest } from '../validation/parse';
import { CreatePropertyRequest, PROPERTY_KINDS, PropertyInput } from './property.dto';

function parseProperty(fields: Record<string, unknown>): PropertyInput {
  return parseRequest(CreatePropertyRequest, JSON.parse(JSON.stringify({ property: fields }))).property;
}

function problems(fields: Record<string, unknown>): FieldProblem[] {
  try {
    parseProperty(fields);
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    expect(error.code).toBe(ErrorCode.VALIDATION_FAILED);
    return error.details ?? [];
  }
  throw new Error('the property was accepted');
}

const NAMED = { name: 'Elm Court' };

describe('CreatePropertyRequest', () => {
  it('accepts a property with only a name, adding nothing', () => {
    const property = parseProperty({ name: 'Elm Court' });
    expect(property).toEqual({ name: 'Elm Court' });
  });

  it('accepts every documented field', () => {
    const fields = {
      available: false,
      kind: 'single_family',
      name: 'Elm Court',
      street: '1 Elm St',
      city: 'Springfield',
      state: 'IL',
      zip: '62701',
      invitation_only: true,
      invitation_only_message: 'Ask the leasing office for an invitation.',
    };
    expect(parseProperty(fields)).toEqual(fields);
  });

  describe('name', () => {
    it('is required', () => {
      expect(problems({})).toEqual([{ field: 'property.name', message: 'is required' }]);
      expect(problems({ name: null })).toEqual([{ field: 'property.name', message: 'is required' }]);
    });

    it('is trimmed', () => {
      expect(parseProperty({ name: '  Elm Court \t\n' }).name).toBe('Elm Court');
    });

    it('must not be empty, nor only white space', () => {
      expect(problems({ name: '' })).toEqual([{ field: 'property.name', message: 'must not be empty' }]);
      expect(problems({ name: '   ' })).toEqual([{ field: 'property.name', message: 'must not be empty' }]);
    });

    it('accepts 1 and 255 characters and refuses 256', () => {
      expect(parseProperty({ name: 'x' }).name).toBe('x');
      expect(parseProperty({ name: 'x'.repeat(255) }).name).toBe('x'.repeat(255));
      expect(problems({ name: 'x'.repeat(256) })).toEqual([
        { field: 'property.name', message: 'must be at most 255 characters' },
      ]);
    });

    it('counts its length after trimming', () => {
      expect(parseProperty({ name: ` ${'x'.repeat(255)} ` }).name).toBe('x'.repeat(255));
    });

    it.each([[42], [true], [['Elm Court']], [{ text: 'Elm Court' }]])('refuses the non-string %j', (name) => {
      expect(problems({ name })).toEqual([{ field: 'property.name', message: 'must be a string' }]);
    });
  });

  describe('kind', () => {
    it.each(PROPERTY_KINDS.map((kind) => [kind]))('accepts %s', (kind) => {
      expect(parseProperty({ ...NAMED, kind }).kind).toBe(kind);
    });

    it('has exactly the three documented kinds', () => {
      expect([...PROPERTY_KINDS].sort()).toEqual(['generic', 'multi_family', 'single_family']);
    });

    it.each([['house'], ['MULTI_FAMILY'], [' generic'], [''], [1], [null], [['generic']]])('refuses %j', (kind) => {
      const found = problems({ ...NAMED, kind });
      expect(found.map((p) => p.field)).toEqual(['property.kind']);
    });
  });

  describe.each(['available', 'invitation_only'])('%s', (flag) => {
    it.each([[true], [false]])('accepts the JSON boolean %j', (value) => {
      expect(parseProperty({ ...NAMED, [flag]: value })[flag as keyof PropertyInput]).toBe(value);
    });

    it.each([['true'], ['false'], [1], [0], [null], ['yes'], [[]]])('refuses %j', (value) => {
      expect(problems({ ...NAMED, [flag]: value })).toEqual([{ field: `property.${flag}`, message: expect.any(String) }]);
    });
  });

  describe.each(['street', 'city', 'state', 'zip'])('%s', (name) => {
    it('accepts 255 characters and refuses 256', () => {
      expect(parseProperty({ ...NAMED, [name]: 'a'.repeat(255) })[name as keyof PropertyInput]).toBe('a'.repeat(255));
      expect(problems({ ...NAMED, [name]: 'a'.repeat(256) })).toEqual([
        { field: `property.${name}`, message: 'must be at most 255 characters' },
      ]);
    });

    it('is trimmed, and may be empty', () => {
      expect(parseProperty({ ...NAMED, [name]: '  A1  ' })[name as keyof PropertyInput]).toBe('A1');
      expect(parseProperty({ ...NAMED, [name]: '' })[name as keyof PropertyInput]).toBe('');
    });

    it('may be null', () => {
      expect(parseProperty({ ...NAMED, [name]: null })[name as keyof PropertyInput]).toBeNull();
    });

    it.each([[5], [false], [{}]])('refuses the non-string %j', (value) => {
      expect(problems({ ...NAMED, [name]: value })).toEqual([{ field: `property.${name}`, message: 'must be a string' }]);
    });
  });

  describe('invitation_only_message', () => {
    it('accepts 2000 characters and refuses 2001', () => {
      const message = 'm'.repeat(2000);
      expect(parseProperty({ ...NAMED, invitation_only_message: message }).invitation_only_message).toBe(message);
      expect(problems({ ...NAMED, invitation_only_message: `${message}m` })).toEqual([
        { field: 'property.invitation_only_message', message: 'must be at most 2000 characters' },
      ]);
    });

    it('is trimmed', () => {
      expect(parseProperty({ ...NAMED, invitation_only_message: ' By invitation. ' }).invitation_only_message).toBe(
        'By invitation.',
      );
    });
  });
});
