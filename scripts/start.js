#!/usr/bin/env node
// `npm start`: the whole stack on this machine, from a fresh clone (after `npm ci`), no Docker.
//
//   1. Checks that RabbitMQ answers at AMQP_URL; when it does not, says in one line how to start
//      one and exits 1 (before anything slow).
//   2. Builds the apps (the `nest build` steps of `npm run build`, one by one, not the bench) when
//      an app of scripts/apps.js is not built, or anything it is built from (apps/, libs/, the
//      TypeScript and Nest settings) is newer than its build; it says which step runs, how long it
//      took the last time, and every so often that it is still at it.
//   3. Without MONGODB_URI, starts a FerretDB of its own with scripts/ferretdb.sh, its data in
//      .data/ferretdb (kept from one run to the next), on FERRETDB_PORT, else 27017 when that is
//      free, else any free port. Its first build (Go, minutes) runs beside the apps' build.
//   4. Without SMTP_URL, starts a local inbox (MailDev), its mail in .data/inbox, owner-only.
//   5. Starts every app of scripts/apps.js, its output prefixed by its name; once the gateway is
//      ready, prints the URLs and the development keys.
//
// Ctrl-C (SIGINT), SIGTERM or SIGHUP stops the apps and the inbox, then the FerretDB it started,
// and exits once all of them have; so does its parent going away (npm killed outright, or by a
// signal npm does not pass on). package.json runs this with `exec`, so that npm's own child is
// this process and the SIGINT and SIGTERM npm passes on arrive here, not at a shell between.
//
// API_KEYS and the key rings (FIELD_ENCRYPTION_KEYS, FINGERPRINT_KEYS, CSRF_KEYS, FORM_LINK_KEYS,
// FORM_SEALING_KEYS and its FORM_SEALING_PUBLIC_KEY) default to public development keys,
// PUBLIC_BASE_URL to the gateway on PORT (default 3000), and WEBHOOK_ALLOW_PRIVATE_URLS to true.
'use strict';

require('./node-runtime').requireSupportedRuntime();

// The steps are in scripts/start/, a file each: the build, FerretDB, the inbox, the apps'
// environment, the processes it runs and how it stops them all.
const { APPS, distMain } = require('./apps');
const { build, staleness } = require('./start/build');
const { startChild } = require('./start/children');
const { appEnvironment, DEV_API_KEYS } = require('./start/environment');
const { claimFerretdbDir, installFerretdb, startFerretdb } = require('./start/ferretdb');
const { startInbox } = require('./start/inbox');
const { NAME, ROOT, complain, say } = require('./start/launcher');
const { anyFreePort, portIsFree } = require('./start/ports');
const { Stopped, finishIfDone, onSignal, state, stop, watchParent } = require('./start/shutdown');

const DEFAULT_AMQP_URL = 'amqp://guest:guest@localhost:5672';
/** The gateway's operations listener (health and metrics), as in its environment's default. */
const DEFAULT_GATEWAY_HTTP_PORT = '3010';
const AMQP_TIMEOUT_MS = 3000;
const READY_TIMEOUT_MS = 60_000;
const READY_POLL_MS = 250;

/** `url` with its password hidden, for messages. */
function withoutPassword(url) {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString().replace(/\/$/, '');
  } catch {
    return url;
  }
}

/** Resolves when RabbitMQ accepts a connection at `url`; rejects with why not. */
async function rabbitAnswers(url) {
  const { connect } = require('amqplib');
  const connection = await connect(url, { timeout: AMQP_TIMEOUT_MS });
  await connection.close();
}

function startApps(env, perApp = {}) {
  for (const app of APPS) {
    const own = { ...env, ...perApp[app] };
    // The form seals to FORM_SEALING_PUBLIC_KEY and holds no key that opens what is stored.
    if (app === 'form') for (const name of ['FIELD_ENCRYPTION_KEYS', 'FORM_SEALING_KEYS']) delete own[name];
    startChild(app, [distMain(app, ROOT)], own);
  }
  say(`started ${[...state.apps].map(([app, child]) => `${app} (pid ${child.pid})`).join(', ')}`);
}

/**
 * Resolves once the gateway says, on its operations port, it is ready (broker connected, every
 * service answering), and its API port answers too: the gateway opens that port last, after its
 * operations port, so a ready probe alone can come before the API listens.
 */
async function untilReady(port, apiPort) {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  const url = `http://127.0.0.1:${port}/health/ready`;
  const api = `http://127.0.0.1:${apiPort}/`;
  for (;;) {
    if (state.stopping) throw new Stopped();
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(READY_POLL_MS * 4) });
      await response.arrayBuffer();
      if (response.ok) {
        await (await fetch(api, { signal: AbortSignal.timeout(READY_POLL_MS * 4) })).arrayBuffer();
        return;
      }
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`the gateway was not ready within ${READY_TIMEOUT_MS / 1000} s (${url})`);
    await new Promise((resolve) => setTimeout(resolve, READY_POLL_MS));
  }
}

function printReady(env, startedAt, inbox) {
  const local = `http://localhost:${env.PORT}`;
  const lines = [
    `ready in ${((Date.now() - startedAt) / 1000).toFixed(1)} s; Ctrl-C stops everything`,
    // The index (where the documentation is): every path under /api/v2 wants a key.
    `  API   ${local}/`,
    `  docs  ${local}/api/docs`,
  ];
  lines.push(`  form  ${env.APPLY_BASE_URL}/properties/<id>/apply`);
  lines.push(inbox ? `  inbox ${inbox} (the e-mails sent; SMTP at ${env.SMTP_URL})` : `  mail  sent to SMTP_URL`);
  if (process.env.API_KEYS) {
    lines.push('  keys  those of API_KEYS');
  } else {
    const keys = DEV_API_KEYS.map(({ key, clientId }) => `${key} (client ${clientId})`).join(', ');
    lines.push(`  development keys  ${keys}`);
    // The list answers 200 whatever the database holds; any one id may not exist, or be deleted
    // (the walk through the API, docs/integrators/walkthrough.md, deletes property 1, and the data is kept between runs).
    lines.push(`  e.g.  curl -i -H 'Authorization: Bearer ${DEV_API_KEYS[0].key}' ${local}/api/v2/properties`);
  }
  process.stdout.write(lines.map((line) => `[${NAME}] ${line}\n`).join(''));
}

async function main() {
  const startedAt = Date.now();
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, onSignal);
  // A reader gone (a closed terminal, a supervisor's pipe) must not end the launcher before it has
  // stopped what it started; what it would have printed is lost either way.
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});
  watchParent();

  const amqpUrl = process.env.AMQP_URL || DEFAULT_AMQP_URL;
  try {
    await rabbitAnswers(amqpUrl);
  } catch (error) {
    complain(
      `no RabbitMQ to use at ${withoutPassword(amqpUrl)} (${error.message}): start one with ` +
        '`rabbitmq-server -detached` or `docker run -d -p 5672:5672 rabbitmq:3.13-management`, or set AMQP_URL',
    );
    process.exit(1);
  }

  const ownDatabase = !process.env.MONGODB_URI;
  if (ownDatabase) claimFerretdbDir();
  const stale = staleness();
  if (stale) say(`building (${stale})`);
  // FerretDB's first build (Go) and the apps' (TypeScript) run side by side.
  await Promise.all([ownDatabase ? installFerretdb() : null, stale ? build() : null]);

  let mongodbUri = null;
  if (ownDatabase) mongodbUri = await startFerretdb();
  if (state.stopping) throw new Stopped();

  // The gateway's operations port is its own, whatever HTTP_PORT the services were given.
  const gatewayHttpPort = String(
    (await portIsFree(Number(DEFAULT_GATEWAY_HTTP_PORT))) ? DEFAULT_GATEWAY_HTTP_PORT : await anyFreePort(),
  );
  const env = appEnvironment(mongodbUri);
  const inbox = await startInbox(env);
  startApps(env, { gateway: { HTTP_PORT: gatewayHttpPort } });
  await untilReady(gatewayHttpPort, env.PORT);
  printReady(env, startedAt, inbox);
}

main().catch((error) => {
  if (!(error instanceof Stopped)) {
    complain(error.message);
    stop('could not start', 1);
    return;
  }
  finishIfDone();
});
