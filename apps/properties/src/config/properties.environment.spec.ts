import { randomBytes } from 'node:crypto';
import { environmentValidator } from '@app/config';
import { refusalOf } from '@app/config/environment.testing';
import { PropertiesEnvironment } from './properties.environment';

const FINGERPRINT_KEYS = `f1:${randomBytes(32).toString('base64')}`;
/** The environment with a valid FINGERPRINT_KEYS, which has no default. */
const validate = (raw: Record<string, unknown>) => environmentValidator(PropertiesEnvironment)({ FINGERPRINT_KEYS, ...raw });

const refusal = refusalOf(validate);

describe('PropertiesEnvironment', () => {
  it('has the documented defaults: form preset and background config 1', () => {
    const config = validate({});
    expect(config).toBeInstanceOf(PropertiesEnvironment);
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
      HTTP_PORT: 3001,
      DB_COMMAND_METRICS: 'false',
      APPLY_BASE_URL: 'http://localhost:3003',
      INVITATION_LIFETIME_HOURS: 168,
      TRUSTED_SENDERS: '',
      EVENT_PUBLISHERS: '',
      DEFAULT_FORM_PRESET_ID: 1,
      DEFAULT_BACKGROUND_CONFIG_ID: 1,
      CLIENT_DEFAULTS: '',
      FINGERPRINT_KEYS,
    });
  });

  it('reads numbers from text', () => {
    const config = validate({ DEFAULT_FORM_PRESET_ID: '2', DEFAULT_BACKGROUND_CONFIG_ID: '9', RMQ_PREFETCH: '4' });
    expect(config.DEFAULT_FORM_PRESET_ID).toBe(2);
    expect(config.DEFAULT_BACKGROUND_CONFIG_ID).toBe(9);
    expect(config.RMQ_PREFETCH).toBe(4);
  });

  it('accepts per-client overrides', () => {
    expect(validate({ CLIENT_DEFAULTS: '7:3:4,9:5:6' }).CLIENT_DEFAULTS).toBe('7:3:4,9:5:6');
  });

  it.each([
    ['MONGODB_URI', 'foo'],
    ['DEFAULT_FORM_PRESET_ID', '0'],
    ['DEFAULT_FORM_PRESET_ID', '1.5'],
    // Every client has the shipped presets, and only those.
    ['DEFAULT_FORM_PRESET_ID', '101'],
    ['DEFAULT_BACKGROUND_CONFIG_ID', 'one'],
    ['CLIENT_DEFAULTS', '7:3'],
    ['CLIENT_DEFAULTS', 'seven:3:4'],
    ['CLIENT_DEFAULTS', '7:3:4;9:5:6'],
  ])('throws an Error naming %s when it is %j', (name, value) => {
    expect(refusal({ [name]: value })).toContain(name);
  });
});
