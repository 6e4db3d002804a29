import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FormOpener, FormSealer, formSealingPublicKey, legacyFormLinkKeys } from '@app/crypto';

/** scripts/form-keys.js, the operators' way to the form's keys, against what the apps compute. */
const SCRIPT = join(__dirname, '..', 'scripts', 'form-keys.js');
const key = (id: string) => `${id}:${randomBytes(32).toString('base64')}`;

function run(command: string, env: Record<string, string>) {
  const { status, stdout, stderr } = spawnSync(process.execPath, [SCRIPT, command], {
    env: { PATH: process.env.PATH, ...env },
    encoding: 'utf8',
  });
  return { status, stdout: stdout.trim(), stderr };
}

describe('scripts/form-keys.js', () => {
  it('public: the FORM_SEALING_PUBLIC_KEY of FORM_SEALING_KEYS, which seals what the private key opens', () => {
    const privateKeys = `${key('s2')},${key('s1')}`;
    const answer = run('public', { FORM_SEALING_KEYS: privateKeys });
    expect(answer).toEqual({ status: 0, stdout: formSealingPublicKey(privateKeys), stderr: '' });
    expect(answer.stdout).toMatch(/^s2:[A-Za-z0-9+/]{43}=$/);
    const sealed = new FormSealer(answer.stdout).seal('078051120', 'applicant.id_number', 'form:x message:y');
    expect(new FormOpener(privateKeys).open(sealed, 'applicant.id_number', 'form:x message:y')).toBe('078051120');
  });

  it('public: the development key pair of docker-compose.yml and npm start', () => {
    const compose = readFileSync(join(__dirname, '..', 'docker-compose.yml'), 'utf8');
    const [, privateKeys] = /FORM_SEALING_KEYS: (\S+)/.exec(compose)!;
    const [, publicKey] = /FORM_SEALING_PUBLIC_KEY: (\S+)/.exec(compose)!;
    expect(run('public', { FORM_SEALING_KEYS: privateKeys }).stdout).toBe(publicKey);
    const start = readFileSync(join(__dirname, '..', 'scripts', 'start', 'environment.js'), 'utf8');
    expect(start).toContain(`'${privateKeys}'`);
    expect(start).toContain(`'${publicKey}'`);
  });

  it('link-keys: the FORM_LINK_KEYS entries that read the links FIELD_ENCRYPTION_KEYS signed before', () => {
    const fieldKeys = `${key('k2')},${key('k1')}`;
    expect(run('link-keys', { FIELD_ENCRYPTION_KEYS: fieldKeys })).toEqual({
      status: 0,
      stdout: legacyFormLinkKeys(fieldKeys),
      stderr: '',
    });
  });

  it('refuses a missing or bad key without quoting it, and an unknown command', () => {
    expect(run('link-keys', {}).stderr).toContain('FIELD_ENCRYPTION_KEYS is not set');
    expect(run('public', {}).stderr).toContain('FORM_SEALING_KEYS is not set');
    const short = randomBytes(16).toString('base64');
    const bad = run('link-keys', { FIELD_ENCRYPTION_KEYS: `k1:${short}` });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('FIELD_ENCRYPTION_KEYS entry 1');
    expect(bad.stderr).not.toContain(short);
    expect(run('nonsense', {}).status).toBe(2);
  });
});
