import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { legacyFormLinkKeys } from '@app/crypto';

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
    const short = randomBytes(16).toString('base64');
    const bad = run('link-keys', { FIELD_ENCRYPTION_KEYS: `k1:${short}` });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('FIELD_ENCRYPTION_KEYS entry 1');
    expect(bad.stderr).not.toContain(short);
    expect(run('nonsense', {}).status).toBe(2);
  });
});
