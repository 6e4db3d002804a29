#!/usr/bin/env node
// `npm run start:local`: runs the three built apps (gateway, applications, properties) together
// as child processes, with their output prefixed by the app name.
//
// Needs `npm run build` first, a RabbitMQ (AMQP_URL) and a MongoDB (MONGODB_URI); see
// scripts/ferretdb.sh for a local MongoDB-compatible server. API_KEYS and FIELD_ENCRYPTION_KEYS
// default to development keys. Ctrl-C (SIGINT) or SIGTERM stops all three.
'use strict';

const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const readline = require('node:readline');
const { APPS, distMain } = require('./apps');

const ROOT = path.resolve(__dirname, '..');
// Two clients, so that a newcomer can see that one client cannot see the other's properties.
const DEV_API_KEYS = [
  { key: 'dev-local-key', clientId: '1' },
  { key: 'dev-local-key-2', clientId: '2' },
];
// Development only, and public on purpose: it encrypts nothing of value. Real deployments set
// FIELD_ENCRYPTION_KEYS to keys of their own (see the README).
const DEV_FIELD_ENCRYPTION_KEYS = 'dev-local-only:REVWRUxPUE1FTlQgS0VZIC0gTk9UIEEgU0VDUkVUISE=';
const FORCE_KILL_AFTER_MS = 10_000;

const label = (name) => `[${name}]`;
const say = (message) => process.stderr.write(`${label('start-local')} ${message}\n`);

const entry = (app) => distMain(app, ROOT);

const missing = APPS.filter((app) => !fs.existsSync(entry(app)));
if (missing.length > 0) {
  for (const app of missing) {
    say(`${path.relative(ROOT, entry(app))} not found`);
  }
  say('run `npm run build` first');
  process.exit(1);
}

const env = { ...process.env };
// As in the Dockerfile: the heap the apps run with in production.
env.NODE_OPTIONS = `--max-old-space-size=128 ${env.NODE_OPTIONS ?? ''}`.trim();
if (!env.API_KEYS) {
  env.API_KEYS = DEV_API_KEYS.map(({ key, clientId }) => `${key}:${clientId}`).join(',');
  const port = env.PORT || '3000';
  const keys = DEV_API_KEYS.map(({ key, clientId }) => `"${key}" (client ${clientId})`).join(' and ');
  say(`API_KEYS is not set; using the development keys ${keys}`);
  say(`  e.g. curl -H 'Authorization: Bearer ${DEV_API_KEYS[0].key}' http://localhost:${port}/api/v2/properties/1`);
}
if (!env.FIELD_ENCRYPTION_KEYS) {
  env.FIELD_ENCRYPTION_KEYS = DEV_FIELD_ENCRYPTION_KEYS;
  say('FIELD_ENCRYPTION_KEYS is not set; using the public development key "dev-local-only" (never for real data)');
}

const width = Math.max(...APPS.map((app) => label(app).length));

/** @type {Map<string, import('node:child_process').ChildProcess>} */
const running = new Map();
let stopping = false;
let exitCode = 0;
let forceKillTimer = null;

function pipeLines(stream, out, prefix) {
  const lines = readline.createInterface({ input: stream, crlfDelay: Infinity });
  lines.on('line', (line) => out.write(`${prefix} ${line}\n`));
}

function finishIfDone() {
  if (running.size > 0) return;
  if (forceKillTimer) clearTimeout(forceKillTimer);
  process.exit(exitCode);
}

function stopAll(reason) {
  if (stopping) return;
  stopping = true;
  say(`${reason}; stopping ${[...running.keys()].join(', ') || 'nothing'}`);
  for (const child of running.values()) {
    child.kill('SIGTERM');
  }
  forceKillTimer = setTimeout(forceKill, FORCE_KILL_AFTER_MS);
  forceKillTimer.unref();
  finishIfDone();
}

function forceKill() {
  if (running.size === 0) return;
  exitCode = 1;
  say(`still running after ${FORCE_KILL_AFTER_MS / 1000}s: ${[...running.keys()].join(', ')}; killing`);
  for (const child of running.values()) {
    child.kill('SIGKILL');
  }
}

for (const app of APPS) {
  const child = spawn(process.execPath, [entry(app)], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.set(app, child);
  const prefix = label(app).padEnd(width);
  pipeLines(child.stdout, process.stdout, prefix);
  pipeLines(child.stderr, process.stderr, prefix);

  let gone = false;
  const onGone = (description) => {
    if (gone) return;
    gone = true;
    running.delete(app);
    if (stopping) {
      finishIfDone();
      return;
    }
    exitCode = 1;
    stopAll(`${app} ${description} unexpectedly`);
  };
  child.on('error', (err) => onGone(`failed (${err.message})`));
  // 'close' rather than 'exit': it comes after the child's output has been read to the end.
  child.on('close', (code, signal) => onGone(signal ? `was killed by ${signal}` : `exited with code ${code}`));
}

say(`started ${APPS.map((app) => `${app} (pid ${running.get(app).pid})`).join(', ')}`);

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    if (stopping) {
      // A second Ctrl-C: do not wait any longer.
      forceKill();
      return;
    }
    stopAll(`received ${signal}`);
  });
}
