import { ApiKeys } from './api-keys';

describe('ApiKeys', () => {
  it('maps each configured key to its client', () => {
    const keys = new ApiKeys('alpha-key-0001:1,beta-key-0002:2,gamma-key-0003:300');
    expect(keys.clientFor('alpha-key-0001')).toBe(1);
    expect(keys.clientFor('beta-key-0002')).toBe(2);
    expect(keys.clientFor('gamma-key-0003')).toBe(300);
  });

  it('knows no key when none is configured', () => {
    const keys = new ApiKeys('');
    expect(keys.clientFor('alpha-key-0001')).toBeNull();
    expect(keys.clientFor('')).toBeNull();
  });

  it('gives null for an unknown key, a prefix, a longer key or another case', () => {
    const keys = new ApiKeys('alpha-key-0001:1');
    expect(keys.clientFor('delta-key-0004')).toBeNull();
    expect(keys.clientFor('alpha-key-000')).toBeNull();
    expect(keys.clientFor('alpha-key-00011')).toBeNull();
    expect(keys.clientFor('ALPHA-KEY-0001')).toBeNull();
    expect(keys.clientFor('alpha-key-0001:1')).toBeNull();
  });

  it('lets several keys belong to one client', () => {
    const keys = new ApiKeys('alpha-key-0001:5,alpha-key-0002:5');
    expect(keys.clientFor('alpha-key-0001')).toBe(5);
    expect(keys.clientFor('alpha-key-0002')).toBe(5);
  });

  it('splits a key containing ":" at the last ":"', () => {
    const keys = new ApiKeys('part:one:two:42');
    expect(keys.clientFor('part:one:two')).toBe(42);
    expect(keys.clientFor('part')).toBeNull();
    expect(keys.clientFor('part:one')).toBeNull();
  });

  it('ignores empty entries', () => {
    const keys = new ApiKeys(',alpha-key-0001:1,,beta-key-0002:2,');
    expect(keys.clientFor('alpha-key-0001')).toBe(1);
    expect(keys.clientFor('beta-key-0002')).toBe(2);
  });

  it.each([
    ['a zero client id', 'alpha-key-0001:0'],
    ['a negative client id', 'alpha-key-0001:-1'],
    ['a fractional client id', 'alpha-key-0001:1.5'],
    ['a client id that is not a number', 'alpha-key-0001:abc'],
    ['an empty client id', 'alpha-key-0001:'],
    ['no client id at all', 'alpha-key-0001'],
    ['an unsafe client id', 'alpha-key-0001:9007199254740992'],
    ['one bad pair among good ones', 'alpha-key-0001:1,beta-key-0002:x'],
  ])('refuses %s', (_label, config) => {
    expect(() => new ApiKeys(config)).toThrow('API_KEYS');
  });
});
