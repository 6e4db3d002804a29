import { randomBytes } from 'node:crypto';
import { environmentValidator } from '@app/config';
import { refusalOf } from '@app/config/environment.testing';
import { GatewayEnvironment } from './gateway.environment';

const validateRaw = environmentValidator(GatewayEnvironment);
const FIELD_ENCRYPTION_KEYS = `k1:${randomBytes(32).toString('base64')}`;
/** The environment with a valid FIELD_ENCRYPTION_KEYS, which has no default. */
const validate = (raw: Record<string, unknown>) => validateRaw({ FIELD_ENCRYPTION_KEYS, ...raw });

const refusal = refusalOf(validate);

describe('GatewayEnvironment', () => {
  it('has the documented defaults', () => {
    const config = validate({});
    expect(config).toBeInstanceOf(GatewayEnvironment);
    expect({ ...config }).toEqual({
      AMQP_URL: 'amqp://guest:guest@localhost:5672',
      NAMESPACE: '',
      PUBLIC_BASE_URL: 'http://localhost:3000',
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'auto',
      PORT: 3000,
      HTTP_PORT: 3010,
      API_KEYS: '',
      API_KEY_SCOPES: '',
      RATE_LIMIT_PER_SECOND: 50,
      RATE_LIMIT_BURST: 100,
      RATE_LIMIT_UNAUTHENTICATED_PER_SECOND: 5,
      RATE_LIMIT_UNAUTHENTICATED_BURST: 20,
      WEBHOOK_SENDS_PER_MINUTE: 10,
      MAX_CONNECTIONS: 1000,
      SUMMARY_PDF_WORKERS: 1,
      SUMMARY_PDF_QUEUE: 8,
      RPC_TIMEOUT_MS: 5000,
      FIELD_ENCRYPTION_KEYS,
      MONGODB_URI: 'mongodb://localhost:27017',
    });
  });

  it('reads numbers from text', () => {
    const config = validate({ PORT: '8080', RPC_TIMEOUT_MS: '250' });
    expect(config.PORT).toBe(8080);
    expect(config.RPC_TIMEOUT_MS).toBe(250);
  });

  it('bases the URLs it returns on its own port when PUBLIC_BASE_URL is unset', () => {
    expect(validate({ PORT: '3031' }).PUBLIC_BASE_URL).toBe('http://localhost:3031');
    expect(validate({ PORT: '3031', PUBLIC_BASE_URL: '' }).PUBLIC_BASE_URL).toBe('http://localhost:3031');
  });

  it('keeps PUBLIC_BASE_URL as given, whatever the port', () => {
    const config = validate({ PORT: '3031', PUBLIC_BASE_URL: 'https://api.example.com' });
    expect(config.PUBLIC_BASE_URL).toBe('https://api.example.com');
  });

  it('names only PORT when a bad port leaves no base to derive', () => {
    const message = refusal({ PORT: 'abc' });
    expect(message).toContain('PORT');
    expect(message).not.toContain('PUBLIC_BASE_URL');
  });

  it('accepts the limits of each range', () => {
    expect(validate({ PORT: '1' }).PORT).toBe(1);
    expect(validate({ PORT: '65535' }).PORT).toBe(65535);
    expect(validate({ RPC_TIMEOUT_MS: '50' }).RPC_TIMEOUT_MS).toBe(50);
    expect(validate({ RPC_TIMEOUT_MS: '120000' }).RPC_TIMEOUT_MS).toBe(120000);
    expect(validate({ SUMMARY_PDF_WORKERS: '16', SUMMARY_PDF_QUEUE: '0' })).toMatchObject({
      SUMMARY_PDF_WORKERS: 16,
      SUMMARY_PDF_QUEUE: 0,
    });
  });

  it('accepts key:client_id pairs, comma separated', () => {
    const keys = 'alpha-key-0001:1,Beta.Key_0002~x+y/z=:22';
    expect(validate({ API_KEYS: keys }).API_KEYS).toBe(keys);
  });

  it('accepts per-key rate limits, a Redis URL and CORS origins', () => {
    const config = validate({
      API_KEYS: 'alpha-key-0001:1:5:20,beta-key-0002:2',
      RATE_LIMIT_PER_SECOND: '7',
      RATE_LIMIT_BURST: '9',
      REDIS_URL: 'redis://:secret@cache.internal:6379/2',
      CORS_ORIGINS: 'https://app.example.com,http://localhost:8080',
    });
    expect(config).toMatchObject({
      API_KEYS: 'alpha-key-0001:1:5:20,beta-key-0002:2',
      RATE_LIMIT_PER_SECOND: 7,
      RATE_LIMIT_BURST: 9,
      REDIS_URL: 'redis://:secret@cache.internal:6379/2',
      CORS_ORIGINS: 'https://app.example.com,http://localhost:8080',
    });
  });

  it.each([
    ['API_KEYS', 'alpha-key-0001:1:5'],
    ['API_KEYS', 'alpha-key-0001:1:5:x'],
    ['API_KEY_SCOPES', 'alpha-key-0001:admin'],
    ['API_KEY_SCOPES', 'alpha-key-0001'],
    ['RATE_LIMIT_PER_SECOND', '0'],
    ['RATE_LIMIT_PER_SECOND', '2.5'],
    ['RATE_LIMIT_BURST', '1000001'],
    ['SUMMARY_PDF_WORKERS', '0'],
    ['SUMMARY_PDF_WORKERS', '17'],
    ['SUMMARY_PDF_QUEUE', '-1'],
    ['REDIS_URL', 'http://cache:6379'],
    ['CORS_ORIGINS', '*'],
    ['CORS_ORIGINS', 'https://app.example.com/path'],
    ['CORS_ORIGINS', 'app.example.com'],
  ])('throws an Error naming %s when it is %j', (name, value) => {
    expect(refusal({ [name]: value })).toContain(name);
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '0'],
    ['PORT', '65536'],
    ['PORT', '80.5'],
    ['AMQP_URL', 'http://x'],
    ['API_KEYS', 'short:1'],
    ['API_KEYS', 'alpha-key-0001'],
    ['API_KEYS', 'alpha-key-0001:abc'],
    ['API_KEYS', 'alpha-key-0001:1;beta-key-0002:2'],
    ['API_KEYS', 'alpha key 0001:1'],
    ['API_KEYS', 'alpha-key-0001:1,'],
    ['RPC_TIMEOUT_MS', '10'],
    ['RPC_TIMEOUT_MS', '120001'],
    ['RPC_TIMEOUT_MS', 'soon'],
  ])('throws an Error naming %s when it is %j', (name, value) => {
    expect(refusal({ [name]: value })).toContain(name);
  });

  it('names every bad variable at once', () => {
    const message = refusal({ PORT: 'abc', API_KEYS: 'short:1', RPC_TIMEOUT_MS: '10' });
    expect(message).toContain('PORT');
    expect(message).toContain('API_KEYS');
    expect(message).toContain('RPC_TIMEOUT_MS');
    expect(message).not.toContain('AMQP_URL');
  });

  it('requires FIELD_ENCRYPTION_KEYS, naming it', () => {
    expect(() => validateRaw({})).toThrow('FIELD_ENCRYPTION_KEYS is not set');
  });
});
