import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';

const SCRIPT = readFileSync(
  join(__dirname, '..', 'deploy', 'helm', 'rental-applications', 'files', 'mongodb', 'users.js'),
  'utf8',
);
const APPS = ['gateway', 'form', 'properties', 'applications', 'webhooks', 'notifications'];

interface Privilege {
  resource: { db: string; collection: string };
  actions: string[];
}
interface Role {
  role: string;
  db: string;
}

/**
 * What the script asks of the server, run as mongosh would run it: MongoDB's user administration
 * as a record of the roles and users it holds. The database this machine has (FerretDB) has no
 * users or roles, so the deployments' configuration is checked here, as generated.
 */
function run(env: Record<string, string>, existing: { roles?: string[]; users?: string[] } = {}) {
  const roles = new Map<string, Privilege[]>();
  const users = new Map<string, { pwd: string; roles: Role[] }>();
  const calls: string[] = [];
  const admin = {
    getName: () => 'admin',
    getRole: (name: string) => (existing.roles?.includes(name) || roles.has(name) ? { role: name } : null),
    getUser: (name: string) => (existing.users?.includes(name) || users.has(name) ? { user: name } : null),
    createRole: ({ role, privileges }: { role: string; privileges: Privilege[] }) => {
      calls.push(`createRole ${role}`);
      roles.set(role, privileges);
    },
    updateRole: (role: string, { privileges }: { privileges: Privilege[] }) => {
      calls.push(`updateRole ${role}`);
      roles.set(role, privileges);
    },
    createUser: ({ user, pwd, roles: granted }: { user: string; pwd: string; roles: Role[] }) => {
      calls.push(`createUser ${user}`);
      users.set(user, { pwd, roles: granted });
    },
    updateUser: (user: string, { pwd, roles: granted }: { pwd: string; roles: Role[] }) => {
      calls.push(`updateUser ${user}`);
      users.set(user, { pwd, roles: granted });
    },
  };
  const server = { getSiblingDB: (name: string) => (name === 'admin' ? admin : null) };
  const connected: string[] = [];
  const connect = (uri: string) => {
    connected.push(uri);
    return server;
  };
  // Given the administrator's URI, it connects itself (mongosh --nodb); otherwise it works on `db`.
  const db = env.MONGODB_ADMIN_URI ? undefined : server;
  runInNewContext(SCRIPT, { db, connect, print: () => undefined, process: { env } });
  return { roles, users, calls, connected };
}

const passwords = Object.fromEntries(APPS.map((app) => [`MONGODB_${app.toUpperCase()}_PASSWORD`, `secret-${app}`]));

/** Every (database, collection or '*', action) a user may, through its roles. */
function reach(result: ReturnType<typeof run>, user: string): string[] {
  return result.users
    .get(user)!
    .roles.flatMap((granted) =>
      granted.role === 'readWrite'
        ? [`${granted.db} * readWrite`]
        : result.roles.get(granted.role)!.flatMap((p) => p.actions.map((a) => `${p.resource.db} ${p.resource.collection} ${a}`)),
    )
    .sort();
}

describe('the database users every deployment creates (files/mongodb/users.js)', () => {
  const result = run({ ...passwords, NAMESPACE: 'eu1_' });

  it('gives each service its own database and nothing else', () => {
    for (const service of ['properties', 'applications', 'webhooks', 'notifications']) {
      expect(reach(result, `eu1_${service}`)).toEqual([`eu1_${service} * readWrite`]);
    }
  });

  it('lets the gateway read the documents bucket, and nothing more', () => {
    expect(reach(result, 'eu1_gateway')).toEqual([
      'eu1_applications documents.chunks find',
      'eu1_applications documents.files find',
    ]);
  });

  it('lets the form add uploads to the bucket and nothing more: it removes none, reads no chunk and no record', () => {
    expect(reach(result, 'eu1_form')).toEqual([
      'eu1_applications documents.chunks insert',
      'eu1_applications documents.chunks listIndexes',
      'eu1_applications documents.files find',
      'eu1_applications documents.files insert',
      'eu1_applications documents.files listIndexes',
    ]);
  });

  it('names every user with the prefix, so that deployments with different prefixes on one server keep their own', () => {
    expect([...result.users.keys()].sort()).toEqual(APPS.map((app) => `eu1_${app}`).sort());
    const other = run({ ...passwords, NAMESPACE: 'us1_' });
    expect([...other.users.keys()].filter((user) => result.users.has(user))).toEqual([]);
  });

  it('sets each user’s password and name from the environment', () => {
    expect(result.users.get('eu1_form')!.pwd).toBe('secret-form');
    const renamed = run({ ...passwords, MONGODB_FORM_USER: 'rentals-form' });
    expect([...renamed.users.keys()]).toContain('rentals-form');
    expect(reach(renamed, 'rentals-form')).toContain('applications documents.files insert');
  });

  it('brings users and roles that exist up to date, so that it runs again at each upgrade', () => {
    const again = run(passwords, { roles: ['documents-reader', 'documents-uploader'], users: APPS });
    expect(again.calls.filter((call) => call.startsWith('create'))).toEqual([]);
    expect(again.calls.filter((call) => call.startsWith('update'))).toHaveLength(APPS.length + 2);
  });

  it('takes each user and password from the app’s own URI, as the chart’s Job gives them, signed in with the admin URI', () => {
    const uris = Object.fromEntries(
      APPS.map((app) => [
        `MONGODB_${app.toUpperCase()}_URI`,
        `mongodb://rentals-${app}:p%40ss-${app}@h1:27017,h2:27017/?authSource=admin`,
      ]),
    );
    const fromUris = run({ ...uris, MONGODB_ADMIN_URI: 'mongodb://root:x@h1:27017/admin' });
    expect(fromUris.connected).toEqual(['mongodb://root:x@h1:27017/admin']);
    expect(fromUris.users.get('rentals-webhooks')!.pwd).toBe('p@ss-webhooks');
    expect(reach(fromUris, 'rentals-webhooks')).toEqual(['webhooks * readWrite']);
    expect(() => run({ ...uris, MONGODB_FORM_URI: 'mongodb://h1:27017' })).toThrow('MONGODB_FORM_URI holds no user and password');
  });

  it('refuses a URI whose user does not start with the prefix, naming the user to make', () => {
    const uri = (user: string) => ({ ...passwords, NAMESPACE: 'eu1_', MONGODB_FORM_URI: `mongodb://${user}:pw@h1:27017/` });
    expect(() => run(uri('rentals-form'))).toThrow("MONGODB_FORM_URI's user rentals-form does not start with NAMESPACE (eu1_)");
    expect(run(uri('eu1_rentals-form')).users.has('eu1_rentals-form')).toBe(true);
  });

  it('stops, naming the variable, when a password is missing', () => {
    const { MONGODB_WEBHOOKS_PASSWORD: _missing, ...rest } = passwords;
    expect(() => run(rest)).toThrow('MONGODB_WEBHOOKS_PASSWORD is not set');
  });
});
