// The environment `npm start` runs every app with: the caller's, with the local defaults filled
// in (public development keys, the ports, the URLs the apps hand out).
'use strict';

/** The same keys docker-compose passes; docs/operators/running.md names them. */
const DEV_API_KEYS = [
  { key: 'dev-local-key', clientId: '1' },
  { key: 'dev-local-key-2', clientId: '2' },
];
// Development only, and public on purpose: it encrypts nothing of value. Real deployments set
// FIELD_ENCRYPTION_KEYS to keys of their own (see docs/operators/security.md).
const DEV_FIELD_ENCRYPTION_KEYS = 'dev-local-only:REVWRUxPUE1FTlQgS0VZIC0gTk9UIEEgU0VDUkVUISE=';
// The same for the idempotency fingerprints' FINGERPRINT_KEYS.
const DEV_FINGERPRINT_KEYS = 'dev-local-only:REVWIEZJTkdFUlBSSU5UIEtFWSBOT1QgQSBTRUNSRVQ=';
// And for the form's CSRF_KEYS.
const DEV_CSRF_KEYS = 'dev-local-only:REVWIENTUkYgS0VZIC0gTk9UIEEgU0VDUkVUISEhISE=';
// And for FORM_LINK_KEYS, which sign applicants' form links.
const DEV_FORM_LINK_KEYS = 'dev-local-only:REVWIEZPUk0gTElOSyBLRVkgLSBOT1QgQSBTRUNSRVQ=';
// And for the key pair the form seals to: FORM_SEALING_KEYS (private) and its public key.
const DEV_FORM_SEALING_KEYS = 'dev-local-only:REVWIEZPUk0gU0VBTElORyBLRVkgTk9UIFNFQ1JFVCE=';
const DEV_FORM_SEALING_PUBLIC_KEY = 'dev-local-only:5Kta21ZLWGECSp+ucGmVrm480kO2LrAtobQPxG+Lyl8=';
const DEFAULT_PORT = '3000';
const DEFAULT_FORM_PORT = '3003';

/** The environment every app runs with: the caller's, with the local defaults filled in. */
function appEnvironment(mongodbUri) {
  const env = { ...process.env };
  // As in the Dockerfile: the heap the apps run with in production.
  env.NODE_OPTIONS = `--max-old-space-size=128 --max-semi-space-size=8 ${env.NODE_OPTIONS ?? ''}`.trim();
  env.PORT ||= DEFAULT_PORT;
  // The services cannot know the gateway's port; the URLs they return must name it.
  env.PUBLIC_BASE_URL ||= `http://localhost:${env.PORT}`;
  if (mongodbUri) env.MONGODB_URI = mongodbUri;
  if (!env.API_KEYS) {
    env.API_KEYS = DEV_API_KEYS.map(({ key, clientId }) => `${key}:${clientId}`).join(',');
    // Each development key may erase personal data and change its retention, as before the scope was asked.
    env.API_KEY_SCOPES ||= DEV_API_KEYS.map(({ key }) => `${key}:personal_data_erasure`).join(',');
  }
  env.FIELD_ENCRYPTION_KEYS ||= DEV_FIELD_ENCRYPTION_KEYS;
  env.FINGERPRINT_KEYS ||= DEV_FINGERPRINT_KEYS;
  env.CSRF_KEYS ||= DEV_CSRF_KEYS;
  env.FORM_LINK_KEYS ||= DEV_FORM_LINK_KEYS;
  env.FORM_SEALING_KEYS ||= DEV_FORM_SEALING_KEYS;
  env.FORM_SEALING_PUBLIC_KEY ||= DEV_FORM_SEALING_PUBLIC_KEY;
  // The form's own port, and the base of every form URL the API returns (application_url, form_url).
  env.FORM_PORT ||= DEFAULT_FORM_PORT;
  env.APPLY_BASE_URL ||= `http://localhost:${env.FORM_PORT}`;
  // A receiver under development listens on this machine, over plain http; production refuses
  // both (docker-compose does not set this).
  env.WEBHOOK_ALLOW_PRIVATE_URLS ||= 'true';
  // The apps write into pipes here, which would make them log JSON; the person at this terminal
  // should get what they would get running an app there.
  if (process.stdout.isTTY) {
    env.LOG_FORMAT ||= 'pretty';
    if (!('NO_COLOR' in env) && !('FORCE_COLOR' in env)) env.FORCE_COLOR = '1';
  }
  return env;
}

module.exports = { DEV_API_KEYS, appEnvironment };
