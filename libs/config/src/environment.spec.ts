import { randomBytes } from 'node:crypto';
import { CommonEnvironment, environmentValidator, isAddressList, ServiceEnvironment } from './environment';
import { refusalOf } from './environment.testing';

const validateCommon = environmentValidator(CommonEnvironment);
const FINGERPRINT_KEYS = `f1:${randomBytes(32).toString('base64')}`;
/** A service's environment with a valid FINGERPRINT_KEYS, which has no default. */
const validateService = (raw: Record<string, unknown>) => environmentValidator(ServiceEnvironment)({ FINGERPRINT_KEYS, ...raw });

/** The message of what `validate` throws, or a failure when it throws nothing. */
const refusal = (validate: (raw: Record<string, unknown>) => unknown, raw: Record<string, unknown>): string =>
  refusalOf(validate)(raw);

describe('environmentValidator', () => {
  it('fills in every variable left unset with its default', () => {
    const config = validateService({});
    expect(config).toBeInstanceOf(ServiceEnvironment);
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
      HTTP_PORT: 0,
      FINGERPRINT_KEYS,
      DB_COMMAND_METRICS: 'false',
      TRUSTED_SENDERS: '',
      EVENT_PUBLISHERS: '',
    });
  });

  it('refuses a service without FINGERPRINT_KEYS, naming it and quoting no key', () => {
    expect(refusal(environmentValidator(ServiceEnvironment), {})).toContain('FINGERPRINT_KEYS is not set');
    const short = refusal(validateService, { FINGERPRINT_KEYS: 'f1:c2hvcnQ=' });
    expect(short).toContain('FINGERPRINT_KEYS entry 1 (key id f1) must be 32 bytes');
    expect(short).not.toContain('c2hvcnQ');
  });

  it('treats an empty variable as unset', () => {
    const config = validateService({ AMQP_URL: '', MONGODB_URI: '', RMQ_PREFETCH: '' });
    expect(config.AMQP_URL).toBe('amqp://guest:guest@localhost:5672');
    expect(config.MONGODB_URI).toBe('mongodb://localhost:27017');
    expect(config.RMQ_PREFETCH).toBe(32);
  });

  it('does not judge the rest of the process environment', () => {
    const config = validateCommon({ PATH: '/usr/bin:/bin', HOME: '/root', NODE_ENV: 'test', PORT: 'not this one' });
    expect(config).toMatchObject({
      AMQP_URL: 'amqp://guest:guest@localhost:5672',
      NAMESPACE: '',
      PUBLIC_BASE_URL: 'http://localhost:3000',
    });
  });

  it('takes TRUSTED_SENDERS as sender roles, each with its broker user when that has another name', () => {
    const entries = 'gateway,form:form-eu,notifications:mailer';
    expect(validateService({ TRUSTED_SENDERS: entries }).TRUSTED_SENDERS).toBe(entries);
    for (const wrong of ['guest', 'gateway,webhooks', 'form:', 'form:a:b', 'gateway, form']) {
      expect(refusal(validateService, { TRUSTED_SENDERS: wrong })).toContain('TRUSTED_SENDERS must be roles');
    }
  });

  it('converts numbers from text', () => {
    const config = validateService({ RMQ_PREFETCH: '4' });
    expect(config.RMQ_PREFETCH).toBe(4);
  });

  it('keeps valid text as given', () => {
    const config = validateService({
      AMQP_URL: 'amqps://user:pass@broker.example.com:5671/vhost',
      NAMESPACE: 'ci_42-',
      PUBLIC_BASE_URL: 'https://api.example.com/rentals',
      MONGODB_URI: 'mongodb+srv://cluster0.example.net',
    });
    expect(config.AMQP_URL).toBe('amqps://user:pass@broker.example.com:5671/vhost');
    expect(config.NAMESPACE).toBe('ci_42-');
    expect(config.PUBLIC_BASE_URL).toBe('https://api.example.com/rentals');
    expect(config.MONGODB_URI).toBe('mongodb+srv://cluster0.example.net');
  });

  it('accepts the limits of a range', () => {
    expect(validateService({ RMQ_PREFETCH: '1' }).RMQ_PREFETCH).toBe(1);
    expect(validateService({ RMQ_PREFETCH: '1000' }).RMQ_PREFETCH).toBe(1000);
    expect(validateService({ HTTP_PORT: '0' }).HTTP_PORT).toBe(0);
    expect(validateService({ HTTP_PORT: '65535' }).HTTP_PORT).toBe(65535);
  });

  it.each(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])('accepts LOG_LEVEL %s', (level) => {
    expect(validateCommon({ LOG_LEVEL: level }).LOG_LEVEL).toBe(level);
  });

  it.each(['auto', 'json', 'pretty'])('accepts LOG_FORMAT %s', (format) => {
    expect(validateCommon({ LOG_FORMAT: format }).LOG_FORMAT).toBe(format);
  });

  it.each([
    ['AMQP_URL', 'http://x'],
    ['AMQP_URL', 'localhost:5672'],
    ['PUBLIC_BASE_URL', 'localhost:3000'],
    ['PUBLIC_BASE_URL', 'ftp://example.com'],
    ['NAMESPACE', 'has space'],
    ['NAMESPACE', 'n'.repeat(33)],
    ['MONGODB_URI', 'foo'],
    ['MONGODB_URI', 'postgres://db/rent'],
    ['RMQ_PREFETCH', '0'],
    ['RMQ_PREFETCH', '1001'],
    ['RMQ_PREFETCH', '2.5'],
    ['RMQ_PREFETCH', 'many'],
    ['EVENT_RELAY_INTERVAL_MS', '10'],
    ['EVENT_DROP_AFTER_SECONDS', '0'],
    ['EVENT_RELAY_ON_WRITE', 'yes'],
    ['HTTP_PORT', '-1'],
    ['HTTP_PORT', '65536'],
    ['HTTP_PORT', 'eighty'],
    ['LOG_LEVEL', 'verbose'],
    ['LOG_LEVEL', 'INFO'],
    ['LOG_FORMAT', 'text'],
    ['LOG_FORMAT', 'JSON'],
  ])('throws an Error naming %s when it is %j', (name, value) => {
    expect(refusal(validateService, { [name]: value })).toContain(name);
  });

  it('names every bad variable at once, and no good one', () => {
    const message = refusal(validateService, { AMQP_URL: 'http://x', MONGODB_URI: 'foo', NAMESPACE: 'ok' });
    expect(message).toContain('AMQP_URL');
    expect(message).toContain('MONGODB_URI');
    expect(message).not.toContain('NAMESPACE');
    expect(message).not.toContain('RMQ_PREFETCH');
  });

  describe('an address list (TRUSTED_PROXIES)', () => {
    class Proxies {
      @isAddressList('TRUSTED_PROXIES')
      TRUSTED_PROXIES?: string;
    }
    const validate = environmentValidator(Proxies);

    it('takes addresses and CIDR networks of either family, or nothing', () => {
      expect(validate({ TRUSTED_PROXIES: '10.0.0.1,10.0.0.0/8,fd00::/8,::1' }).TRUSTED_PROXIES).toBe(
        '10.0.0.1,10.0.0.0/8,fd00::/8,::1',
      );
      expect(validate({}).TRUSTED_PROXIES).toBeUndefined();
    });

    it.each(['proxy.internal', '10.0.0.0/33', 'fd00::/129', '10.0.0.1/8/8', '10.0.0.1, 10.0.0.2', '10.0.0.1,'])(
      'refuses %s, naming the variable',
      (value) =>
        expect(refusal(validate, { TRUSTED_PROXIES: value })).toContain(
          'TRUSTED_PROXIES must be IP addresses or CIDR networks such as 10.0.0.0/8, comma separated',
        ),
    );
  });
});
