import { randomBytes } from 'node:crypto';
import { environmentValidator } from '@app/config';
import { refusalOf } from '@app/config/environment.testing';
import { ApplicationsEnvironment } from './applications.environment';

const validateRaw = environmentValidator(ApplicationsEnvironment);
const FIELD_ENCRYPTION_KEYS = `k1:${randomBytes(32).toString('base64')}`;
const FINGERPRINT_KEYS = `f1:${randomBytes(32).toString('base64')}`;
const FORM_LINK_KEYS = `l1:${randomBytes(32).toString('base64')}`;
const FORM_SEALING_KEYS = `s1:${randomBytes(32).toString('base64')}`;
/** The environment with valid key rings, which have no default. */
const validate = (raw: Record<string, unknown>) =>
  validateRaw({ FIELD_ENCRYPTION_KEYS, FINGERPRINT_KEYS, FORM_LINK_KEYS, FORM_SEALING_KEYS, ...raw });

const refusal = refusalOf(validate);

describe('ApplicationsEnvironment', () => {
  it('has the documented defaults', () => {
    const config = validate({});
    expect(config).toBeInstanceOf(ApplicationsEnvironment);
    expect({ ...config }).toEqual({
      AMQP_URL: 'amqp://guest:guest@localhost:5672',
      NAMESPACE: '',
      PUBLIC_BASE_URL: 'http://localhost:3000',
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'auto',
      MONGODB_URI: 'mongodb://localhost:27017',
      RMQ_PREFETCH: 32,
      EVENT_RELAY_INTERVAL_MS: 1000,
      EVENT_DROP_AFTER_SECONDS: 600,
      EVENT_RELAY_ON_WRITE: 'true',
      HTTP_PORT: 3002,
      DB_COMMAND_METRICS: 'false',
      TRUSTED_SENDERS: '',
      EVENT_PUBLISHERS: '',
      PROPERTY_LOOKUP_TIMEOUT_MS: 2000,
      APPLY_BASE_URL: 'http://localhost:3003',
      FIELD_ENCRYPTION_KEYS,
      FORM_LINK_KEYS,
      FORM_SEALING_KEYS,
      DOCUMENT_STORAGE_PER_CLIENT_MB: 10240,
      CLIENT_DOCUMENT_STORAGE_MB: '',
      UNSUBMITTED_DOCUMENT_STORAGE_PERCENT: 10,
      AUDIT_RETENTION_DAYS: 365,
      ABANDONED_FORM_DAYS: 30,
      FINGERPRINT_KEYS,
    });
  });

  it('reads the lookup deadline from text', () => {
    expect(validate({ PROPERTY_LOOKUP_TIMEOUT_MS: '1500' }).PROPERTY_LOOKUP_TIMEOUT_MS).toBe(1500);
  });

  it('gives each client the document storage budget of its own entry, else the default, in bytes', () => {
    const config = validate({ DOCUMENT_STORAGE_PER_CLIENT_MB: '100', CLIENT_DOCUMENT_STORAGE_MB: '7:5,17:2000' });
    expect([7, 17, 1].map((client) => config.documentStorageBytes(client))).toEqual([5, 2000, 100].map((mb) => mb * 1024 * 1024));
  });

  it('gives uploads on public forms not yet completed a tenth of each client’s budget, or the percent set', () => {
    const config = validate({ DOCUMENT_STORAGE_PER_CLIENT_MB: '100', CLIENT_DOCUMENT_STORAGE_MB: '7:5' });
    expect([7, 1].map((client) => config.unsubmittedDocumentStorageBytes(client))).toEqual([512 * 1024, 10 * 1024 * 1024]);
    const half = validate({ DOCUMENT_STORAGE_PER_CLIENT_MB: '100', UNSUBMITTED_DOCUMENT_STORAGE_PERCENT: '50' });
    expect(half.unsubmittedDocumentStorageBytes(1)).toBe(50 * 1024 * 1024);
  });

  it('lets HTTP_PORT replace its own default', () => {
    expect(validate({ HTTP_PORT: '4002' }).HTTP_PORT).toBe(4002);
  });

  it.each([
    ['MONGODB_URI', 'foo'],
    ['AMQP_URL', 'http://x'],
    ['PROPERTY_LOOKUP_TIMEOUT_MS', '10'],
    ['PROPERTY_LOOKUP_TIMEOUT_MS', '120001'],
    ['PROPERTY_LOOKUP_TIMEOUT_MS', 'later'],
    ['APPLY_BASE_URL', 'localhost:3003'],
    ['APPLY_BASE_URL', 'ftp://forms.example.com'],
    ['AUDIT_RETENTION_DAYS', '0'],
    ['UNSUBMITTED_DOCUMENT_STORAGE_PERCENT', '0'],
    ['UNSUBMITTED_DOCUMENT_STORAGE_PERCENT', '101'],
    ['AUDIT_RETENTION_DAYS', 'forever'],
    ['ABANDONED_FORM_DAYS', '0'],
    ['ABANDONED_FORM_DAYS', '3651'],
    ['ABANDONED_FORM_DAYS', '1.5'],
    ['DOCUMENT_STORAGE_PER_CLIENT_MB', '0'],
    ['CLIENT_DOCUMENT_STORAGE_MB', '7'],
    ['CLIENT_DOCUMENT_STORAGE_MB', '7:5,'],
  ])('throws an Error naming %s when it is %j', (name, value) => {
    expect(refusal({ [name]: value })).toContain(name);
  });

  it('requires FIELD_ENCRYPTION_KEYS, naming it', () => {
    expect(() => validateRaw({})).toThrow('FIELD_ENCRYPTION_KEYS is not set');
  });

  it('requires FORM_SEALING_KEYS, naming it and quoting no key', () => {
    expect(refusal({ FORM_SEALING_KEYS: '' })).toContain('FORM_SEALING_KEYS is not set');
    const short = randomBytes(16).toString('base64');
    const bad = refusal({ FORM_SEALING_KEYS: `s1:${short}` });
    expect(bad).toContain('FORM_SEALING_KEYS entry 1 (key id s1) must be 32 bytes');
    expect(bad).not.toContain(short);
  });

  it('requires FORM_LINK_KEYS, naming it and quoting no key', () => {
    expect(refusal({ FORM_LINK_KEYS: '' })).toContain('FORM_LINK_KEYS is not set');
    const short = randomBytes(16).toString('base64');
    const bad = refusal({ FORM_LINK_KEYS: `l1:${short}` });
    expect(bad).toContain('FORM_LINK_KEYS entry 1 (key id l1) must be 32 bytes');
    expect(bad).not.toContain(short);
  });
});
