import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { AppName, distMain, testFieldKey, testFormSealingKey } from '../tools/stack';

const SEALING = testFormSealingKey('s1');

/** Starts one app with `env` and resolves with its exit code and everything it printed. */
async function runToExit(app: AppName, env: Record<string, string>) {
  const child = spawn(process.execPath, [distMain(app)], {
    env: {
      ...process.env,
      NO_COLOR: '1',
      FIELD_ENCRYPTION_KEYS: testFieldKey('t1'),
      FINGERPRINT_KEYS: testFieldKey('f1'),
      CSRF_KEYS: testFieldKey('c1'),
      FORM_LINK_KEYS: testFieldKey('l1'),
      FORM_SEALING_KEYS: SEALING.privateKey,
      FORM_SEALING_PUBLIC_KEY: SEALING.publicKey,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const killer = setTimeout(() => child.kill('SIGKILL'), 20000);
  const [code] = await once(child, 'exit');
  clearTimeout(killer);
  return { code: code as number | null, output };
}

describe('configuration is validated at boot', () => {
  it.each<[AppName, Record<string, string>, string]>([
    ['gateway', { PORT: 'abc' }, 'PORT'],
    ['gateway', { API_KEYS: 'no-client-id' }, 'API_KEYS'],
    ['gateway', { RPC_TIMEOUT_MS: '5' }, 'RPC_TIMEOUT_MS'],
    ['gateway', { PUBLIC_BASE_URL: 'localhost:3000' }, 'PUBLIC_BASE_URL'],
    ['properties', { AMQP_URL: 'http://broker' }, 'AMQP_URL'],
    ['properties', { MONGODB_URI: 'postgres://db' }, 'MONGODB_URI'],
    ['properties', { CLIENT_DEFAULTS: '1:2' }, 'CLIENT_DEFAULTS'],
    ['applications', { RMQ_PREFETCH: '0' }, 'RMQ_PREFETCH'],
    ['applications', { PROPERTY_LOOKUP_TIMEOUT_MS: 'soon' }, 'PROPERTY_LOOKUP_TIMEOUT_MS'],
    ['applications', { NAMESPACE: 'has spaces' }, 'NAMESPACE'],
    ['gateway', { FIELD_ENCRYPTION_KEYS: '' }, 'FIELD_ENCRYPTION_KEYS is not set'],
    ['applications', { FIELD_ENCRYPTION_KEYS: '' }, 'FIELD_ENCRYPTION_KEYS is not set'],
    ['applications', { FIELD_ENCRYPTION_KEYS: 'k1:c2hvcnQ=' }, 'FIELD_ENCRYPTION_KEYS entry 1 (key id k1) must be 32 bytes'],
    ['properties', { FINGERPRINT_KEYS: '' }, 'FINGERPRINT_KEYS is not set'],
    ['webhooks', { FIELD_ENCRYPTION_KEYS: '' }, 'FIELD_ENCRYPTION_KEYS is not set'],
    ['webhooks', { WEBHOOK_MAX_SUBSCRIPTIONS: '0' }, 'WEBHOOK_MAX_SUBSCRIPTIONS'],
    ['webhooks', { WEBHOOK_RETRY_OVERDUE_SECONDS: '1' }, 'WEBHOOK_RETRY_OVERDUE_SECONDS'],
    ['gateway', { WEBHOOK_SENDS_PER_MINUTE: 'many' }, 'WEBHOOK_SENDS_PER_MINUTE'],
    ['applications', { FINGERPRINT_KEYS: 'f1:c2hvcnQ=' }, 'FINGERPRINT_KEYS entry 1 (key id f1) must be 32 bytes'],
    ['form', { CSRF_KEYS: '' }, 'CSRF_KEYS is not set'],
    ['form', { FORM_LINK_KEYS: '' }, 'FORM_LINK_KEYS is not set'],
    ['form', { FORM_SEALING_PUBLIC_KEY: '' }, 'FORM_SEALING_PUBLIC_KEY is not set'],
    [
      'form',
      { FORM_SEALING_PUBLIC_KEY: `${SEALING.publicKey},${SEALING.publicKey}` },
      'FORM_SEALING_PUBLIC_KEY must be a single entry',
    ],
    ['applications', { FORM_SEALING_KEYS: 's1:c2hvcnQ=' }, 'FORM_SEALING_KEYS entry 1 (key id s1) must be 32 bytes'],
    ['applications', { FORM_LINK_KEYS: 'l1:c2hvcnQ=' }, 'FORM_LINK_KEYS entry 1 (key id l1) must be 32 bytes'],
    ['form', { CSRF_KEYS: 'c1:c2hvcnQ=' }, 'CSRF_KEYS entry 1 (key id c1) must be 32 bytes'],
    ['form', { NODE_ENV: 'production' }, 'APPLY_FRAME_ANCESTORS must name the origins'],
    ['form', { NODE_ENV: 'production', APPLY_FRAME_ANCESTORS: '*' }, 'APPLY_FRAME_ANCESTORS must name the origins'],
    ['form', { NODE_ENV: 'production', APPLY_FRAME_ANCESTORS: "'self' *" }, 'APPLY_FRAME_ANCESTORS must name the origins'],
    ['form', { FORM_HSTS_MAX_AGE_SECONDS: '-1' }, 'FORM_HSTS_MAX_AGE_SECONDS'],
  ])('%s stops with a message naming the variable when %j', async (app, env, variable) => {
    const { code, output } = await runToExit(app, env);

    expect(code).toBe(1);
    expect(output).toContain('invalid configuration');
    expect(output).toContain(variable);
  });
});
