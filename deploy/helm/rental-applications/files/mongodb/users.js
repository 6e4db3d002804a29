/* global db, connect, print -- mongosh runs this script: these are its own */
// The database users of rental-applications, one per app, each allowed what that app reaches and
// nothing more. Run with mongosh as a user who may manage users and roles (userAdminAnyDatabase):
//
//   NAMESPACE=eu1_ MONGODB_GATEWAY_PASSWORD=... (one per app) mongosh "mongodb://admin:...@host/admin" users.js
//
// It creates each user and role, or brings one that exists up to date (its password and what it
// may do), so it can run again at every upgrade. docker-compose runs it when the database is
// first made; the Helm chart runs it in a hook Job before each install and upgrade.
//
// Each service reads and writes its own database and no other. The gateway only reads the
// applicants' documents (the GridFS bucket in the applications service's database). The form,
// which serves anyone on the internet, only adds uploads to that bucket: it removes nothing (a
// role cannot narrow `remove` to its own uploads, so it could remove every document), reads no
// chunk, no record and no other database. An upload it could not finish is left to the
// applications service's sweep of unrecorded uploads.
//
// Every user's name starts with NAMESPACE, as its roles' and databases' names do, so that two
// deployments with different prefixes on one server never take over each other's users: a user
// named by its own variables gets the prefix put in front, one named by a URI must carry it.

const prefix = process.env.NAMESPACE || '';
const server = process.env.MONGODB_ADMIN_URI ? connect(process.env.MONGODB_ADMIN_URI) : db;
const admin = server.getSiblingDB(process.env.MONGODB_AUTH_SOURCE || 'admin');
const documents = (collection) => ({ db: `${prefix}applications`, collection: `documents.${collection}` });

const ROLES = {
  [`${prefix}documents-reader`]: [
    { resource: documents('files'), actions: ['find'] },
    { resource: documents('chunks'), actions: ['find'] },
  ],
  // GridFS lists the bucket's indexes (the applications service makes them) and looks for a file
  // before the first upload; the form finds file records only, whose keys it cannot open.
  [`${prefix}documents-uploader`]: [
    { resource: documents('files'), actions: ['find', 'insert', 'listIndexes'] },
    { resource: documents('chunks'), actions: ['insert', 'listIndexes'] },
  ],
};

const own = (service) => [{ role: 'readWrite', db: `${prefix}${service}` }];
const USERS = {
  gateway: [{ role: `${prefix}documents-reader`, db: admin.getName() }],
  form: [{ role: `${prefix}documents-uploader`, db: admin.getName() }],
  properties: own('properties'),
  applications: own('applications'),
  webhooks: own('webhooks'),
  notifications: own('notifications'),
};

for (const [role, privileges] of Object.entries(ROLES)) {
  if (admin.getRole(role)) admin.updateRole(role, { privileges, roles: [] });
  else admin.createRole({ role, privileges, roles: [] });
}

/**
 * The app's user name and password: from its URI when given, whose user must start with the
 * prefix; otherwise from its own variables, the prefix put before the name.
 */
function credentials(app) {
  const variable = `MONGODB_${app.toUpperCase()}`;
  const uri = process.env[`${variable}_URI`];
  if (uri) {
    const found = /^mongodb(?:\+srv)?:\/\/([^:@/]+):([^@/]+)@/.exec(uri);
    if (!found) throw new Error(`${variable}_URI holds no user and password`);
    const user = decodeURIComponent(found[1]);
    if (!user.startsWith(prefix))
      throw new Error(`${variable}_URI's user ${user} does not start with NAMESPACE (${prefix}): rename it ${prefix}${user}`);
    return { user, pwd: decodeURIComponent(found[2]) };
  }
  const pwd = process.env[`${variable}_PASSWORD`];
  if (!pwd) throw new Error(`${variable}_PASSWORD is not set: the password of the ${app} app's database user`);
  return { user: `${prefix}${process.env[`${variable}_USER`] || app}`, pwd };
}

for (const [app, roles] of Object.entries(USERS)) {
  const { user, pwd } = credentials(app);
  if (admin.getUser(user)) admin.updateUser(user, { pwd, roles });
  else admin.createUser({ user, pwd, roles });
  print(`database user ${user}: ${roles.map((role) => `${role.role}@${role.db}`).join(', ')}`);
}
