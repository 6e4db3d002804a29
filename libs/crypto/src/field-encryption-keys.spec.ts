import { randomBytes } from 'node:crypto';
import { environmentValidator } from '@app/config';
import { refusalOf } from '@app/config/environment.testing';
import { isFieldEncryptionKeys } from './field-encryption-keys';

describe('isFieldEncryptionKeys', () => {
  class WithKeys {
    @isFieldEncryptionKeys()
    FIELD_ENCRYPTION_KEYS: string;
  }
  const validate = environmentValidator(WithKeys);
  const key = () => randomBytes(32).toString('base64');

  it('accepts a ring of keys', () => {
    const ring = `k2:${key()},k1:${key()}`;
    expect(validate({ FIELD_ENCRYPTION_KEYS: ring }).FIELD_ENCRYPTION_KEYS).toBe(ring);
  });

  it('refuses no keys and bad keys, naming the variable and never quoting a key', () => {
    expect(refusalOf(validate)({})).toContain('FIELD_ENCRYPTION_KEYS is not set');
    const shortKey = randomBytes(16).toString('base64');
    const bad = refusalOf(validate)({ FIELD_ENCRYPTION_KEYS: `k1:${key()},k2:${shortKey}` });
    expect(bad).toContain('FIELD_ENCRYPTION_KEYS entry 2 (key id k2) must be 32 bytes');
    expect(bad).not.toContain(shortKey);
  });
});
