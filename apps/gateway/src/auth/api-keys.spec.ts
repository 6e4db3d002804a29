import { inspect } from 'node:util';
import { ApiKeys } from './api-keys';

/** The client a key stands for, or null. */
const clientOf = (keys: ApiKeys, key: string) => keys.identify(key)?.clientId ?? null;

describe('ApiKeys', () => {
  it('maps each configured key to its client', () => {
    const keys = new ApiKeys('alpha-key-0001:1,beta-key-0002:2,gamma-key-0003:300');
    expect(clientOf(keys, 'alpha-key-0001')).toBe(1);
    expect(clientOf(keys, 'beta-key-0002')).toBe(2);
    expect(clientOf(keys, 'gamma-key-0003')).toBe(300);
  });

  it('knows no key when none is configured', () => {
    const keys = new ApiKeys('');
    expect(clientOf(keys, 'alpha-key-0001')).toBeNull();
    expect(clientOf(keys, '')).toBeNull();
  });

  it('gives null for an unknown key, a prefix, a longer key or another case', () => {
    const keys = new ApiKeys('alpha-key-0001:1');
    expect(clientOf(keys, 'delta-key-0004')).toBeNull();
    expect(clientOf(keys, 'alpha-key-000')).toBeNull();
    expect(clientOf(keys, 'alpha-key-00011')).toBeNull();
    expect(clientOf(keys, 'ALPHA-KEY-0001')).toBeNull();
    expect(clientOf(keys, 'alpha-key-0001:1')).toBeNull();
  });

  it('lets several keys belong to one client', () => {
    const keys = new ApiKeys('alpha-key-0001:5,alpha-key-0002:5');
    expect(clientOf(keys, 'alpha-key-0001')).toBe(5);
    expect(clientOf(keys, 'alpha-key-0002')).toBe(5);
  });

  it('reads a per-key rate limit, and leaves the default to keys without one', () => {
    const keys = new ApiKeys('alpha-key-0001:1:5:20,beta-key-0002:2');
    expect(keys.identify('alpha-key-0001')?.rateLimit).toEqual({ perSecond: 5, burst: 20 });
    expect(keys.identify('beta-key-0002')?.rateLimit).toBeNull();
  });

  it('gives each key a bucket of its own that does not reveal it', () => {
    const keys = new ApiKeys('alpha-key-0001:5,alpha-key-0002:5,beta-key-0003:6');
    const buckets = ['alpha-key-0001', 'alpha-key-0002', 'beta-key-0003'].map((key) => keys.identify(key)!.bucket);
    expect(new Set(buckets).size).toBe(3);
    expect(buckets[0]).toMatch(/^5\.[0-9a-f]{16}$/);
    expect(buckets.join()).not.toContain('alpha');
  });

  it('holds no key in clear, only digests', () => {
    const keys = new ApiKeys('alpha-key-0001:1,beta-key-0002:2:3:4');
    const memory = inspect(keys, { depth: null, showHidden: true, maxArrayLength: null });
    expect(memory).not.toContain('alpha-key-0001');
    expect(memory).not.toContain('beta-key-0002');
    expect(memory).not.toContain(Buffer.from('alpha-key-0001').toString('hex'));
  });

  it('names the entries, not the key, when a key is listed twice', () => {
    expect(() => new ApiKeys('alpha-key-0001:1,beta-key-0002:2,alpha-key-0001:3')).toThrow(
      'API_KEYS: entries 1 and 3 are the same key; list each key once',
    );
  });

  it('ignores empty entries', () => {
    const keys = new ApiKeys(',alpha-key-0001:1,,beta-key-0002:2,');
    expect(clientOf(keys, 'alpha-key-0001')).toBe(1);
    expect(clientOf(keys, 'beta-key-0002')).toBe(2);
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
    ['a rate without a burst', 'alpha-key-0001:1:5'],
    ['a zero rate', 'alpha-key-0001:1:0:10'],
    ['a zero burst', 'alpha-key-0001:1:10:0'],
    ['the same key twice, for two clients', 'alpha-key-0001:1,beta-key-0002:2,alpha-key-0001:3'],
    ['the same key twice, for one client', 'alpha-key-0001:1,alpha-key-0001:1'],
  ])('refuses %s', (_label, config) => {
    expect(() => new ApiKeys(config)).toThrow('API_KEYS');
  });
});

describe('ApiKeys scopes (API_KEY_SCOPES)', () => {
  const config = 'alpha-key-0001:1,beta-key-0002:1';

  it('grants a listed key its scope, and no other key any', () => {
    const keys = new ApiKeys(config, 'alpha-key-0001:sensitive_data');
    expect(keys.identify('alpha-key-0001')?.scopes).toEqual(['sensitive_data']);
    expect(keys.identify('beta-key-0002')?.scopes).toEqual([]);
    expect(new ApiKeys(config).identify('alpha-key-0001')?.scopes).toEqual([]);
  });

  it('grants a key listed once per scope each of them: sensitive_data and personal_data_erasure', () => {
    const keys = new ApiKeys(
      config,
      'alpha-key-0001:sensitive_data,beta-key-0002:personal_data_erasure,alpha-key-0001:personal_data_erasure',
    );
    expect(keys.identify('alpha-key-0001')?.scopes).toEqual(['sensitive_data', 'personal_data_erasure']);
    expect(keys.identify('beta-key-0002')?.scopes).toEqual(['personal_data_erasure']);
  });

  it('names each key by a fingerprint that is not the key, the same for every read', () => {
    const keys = new ApiKeys(config);
    const alpha = keys.identify('alpha-key-0001')!.keyId;
    expect(alpha).toMatch(/^[0-9a-f]{16}$/);
    expect(keys.identify('alpha-key-0001')!.keyId).toBe(alpha);
    expect(keys.identify('beta-key-0002')!.keyId).not.toBe(alpha);
  });

  it('refuses a scope for a key API_KEYS does not list, and an unknown scope, naming the entry and never the key', () => {
    expect(() => new ApiKeys(config, 'alpha-key-0001:sensitive_data,gamma-key-0003:sensitive_data')).toThrow(
      'API_KEY_SCOPES: entry 2 names a key that API_KEYS does not list',
    );
    expect(() => new ApiKeys(config, 'alpha-key-0001:admin')).toThrow(/API_KEY_SCOPES: entry 1 must be key:scope/);
    expect(() => new ApiKeys(config, 'sensitive_data')).toThrow(/entry 1/);
    try {
      new ApiKeys(config, 'gamma-key-0003:sensitive_data');
    } catch (error) {
      expect((error as Error).message).not.toContain('gamma-key-0003');
    }
  });
});
