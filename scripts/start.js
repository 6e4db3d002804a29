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

const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const readline = require('node:readline');
const { setInterval, clearInterval } = require('node:timers');
const { APPS, distMain } = require('./apps');

const ROOT = path.resolve(__dirname, '..');
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
const DEFAULT_AMQP_URL = 'amqp://guest:guest@localhost:5672';
const DEFAULT_PORT = '3000';
const DEFAULT_FORM_PORT = '3003';
/** The gateway's operations listener (health and metrics), as in its environment's default. */
const DEFAULT_GATEWAY_HTTP_PORT = '3010';
const DEFAULT_FERRETDB_PORT = 27017;
/** The local inbox's SMTP and web ports, MailDev's own defaults, when free. */
const DEFAULT_INBOX_SMTP_PORT = 1025;
const DEFAULT_INBOX_WEB_PORT = 1080;
/** The inbox's mail (names, form links): kept from one run to the next, readable by its owner only. */
const INBOX_DIR = path.join(ROOT, '.data', 'inbox');
/** Files and folders MailDev creates while this mask is set are the owner's alone (0600, 0700). */
const OWNER_ONLY_UMASK = 0o077;
const FERRETDB_DIR = path.join(ROOT, '.data', 'ferretdb');
const FERRETDB_SCRIPT = path.join(ROOT, 'scripts', 'ferretdb.sh');
/** Written beside FerretDB's data while this launcher runs it: tells a later run whose it is. */
const OWNER_FILE = path.join(FERRETDB_DIR, 'launcher.pid');
/** What the build reads besides apps/ and libs/. */
const BUILD_SETTINGS = ['tsconfig.json', 'tsconfig.build.json', 'nest-cli.json'];
const AMQP_TIMEOUT_MS = 3000;
const READY_TIMEOUT_MS = 60_000;
const READY_POLL_MS = 250;
const FORCE_KILL_AFTER_MS = 10_000;
/** How often a long step (a build, FerretDB's first build) says it is still running. */
const PROGRESS_EVERY_MS = 20_000;
/** How long each build step took the last time, to tell the next run what to expect. */
const BUILD_TIMES_FILE = path.join(ROOT, '.data', 'build-times.json');
/** A build step's time on a 2-core machine, quiet to busy, for a first build that has none measured yet. */
const FIRST_BUILD_STEP_ESTIMATE = '30 to 90 s, on 2 cores';
/** npm passes a Ctrl-C on as well, so one press can arrive twice; only a later one is a second. */
const REPEAT_SIGNAL_MS = 1000;
/** How often the launcher looks whether its parent (npm, a shell, a supervisor) is still there. */
const PARENT_CHECK_MS = 1000;

const NAME = 'start';
const say = (message) => process.stdout.write(`[${NAME}] ${message}\n`);
const complain = (message) => process.stderr.write(`[${NAME}] ${message}\n`);

/** What has to be undone on the way out. */
const state = {
  stopping: false,
  exitCode: 0,
  firstSignalAt: 0,
  /**
   * The one-off commands running now (the build and FerretDB's install side by side, FerretDB's
   * start), each with its label.
   * @type {Map<import('node:child_process').ChildProcess, string>}
   */
  steps: new Map(),
  /** @type {Map<string, import('node:child_process').ChildProcess>} */
  apps: new Map(),
  ferretdbStarted: false,
  forceKillTimer: null,
};

class Stopped extends Error {}

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

function newestModification(entry) {
  let stat;
  try {
    stat = fs.statSync(entry);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of fs.readdirSync(entry)) newest = Math.max(newest, newestModification(path.join(entry, name)));
  return newest;
}

/** Why a build is needed, or null when every app's build is newer than all it is built from. */
function staleness() {
  const missing = APPS.filter((app) => !fs.existsSync(distMain(app, ROOT)));
  if (missing.length > 0) return `${missing.join(', ')} not built`;
  // The build empties dist/ first (nest-cli.json deleteOutDir), so each entry point is as old as
  // the build that wrote it.
  const built = Math.min(...APPS.map((app) => fs.statSync(distMain(app, ROOT)).mtimeMs));
  const sources = Math.max(...['apps', 'libs', ...BUILD_SETTINGS].map((entry) => newestModification(path.join(ROOT, entry))));
  return sources > built ? 'sources changed since the last build' : null;
}

function prefixLines(stream, out, prefix) {
  readline.createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => out.write(`${prefix} ${line}\n`));
}

/**
 * Runs a one-off command to its end, its stderr (and stdout unless captured) prefixed; resolves
 * with its stdout when captured. Rejects when it fails, or with Stopped when stopping ends it.
 */
function runStep(label, command, args, { capture = false, detached = false, env = process.env, doing = null } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached });
    state.steps.set(child, label);
    const startedAt = Date.now();
    // Some steps print nothing for minutes: say now and then that they are still under way.
    const progress =
      doing && setInterval(() => say(`still ${doing} (${seconds(Date.now() - startedAt)} so far)`), PROGRESS_EVERY_MS);
    child.on('close', () => clearInterval(progress));
    let stdout = '';
    if (capture) child.stdout.on('data', (chunk) => (stdout += chunk));
    else prefixLines(child.stdout, process.stdout, `[${label}]`);
    prefixLines(child.stderr, process.stderr, `[${label}]`);
    child.on('error', (error) => {
      state.steps.delete(child);
      reject(error);
    });
    child.on('close', (code, signal) => {
      state.steps.delete(child);
      if (state.stopping) {
        reject(new Stopped());
        // The step beside one that failed ends here, after the failure has been reported.
        finishIfDone();
      } else if (code === 0) resolve(stdout.trim());
      else
        reject(new Error(`${[command, ...args].join(' ')} ${signal ? `was killed by ${signal}` : `exited with code ${code}`}`));
    });
  });
}

function portIsFree(port) {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

function anyFreePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Whether `pid` is a live launcher: not gone, not a zombie waiting to be reaped, not reused. */
function launcherIsAlive(pid) {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if (error.code !== 'EPERM') return false;
  }
  let stat;
  let command;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    command = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    // No /proc to ask (not Linux): the signal check is all there is.
    return true;
  }
  const processState = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  return processState !== 'Z' && command.includes(path.join('scripts', 'start.js'));
}

function readPid(file) {
  try {
    const pid = Number.parseInt(fs.readFileSync(file, 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/**
 * A FerretDB left running from this folder by a launcher that is gone (killed outright) is
 * stopped; one that a live launcher runs is that launcher's, so this run cannot use the folder.
 */
function reclaimFerretdbDir() {
  const owner = readPid(OWNER_FILE);
  if (owner !== null && owner !== process.pid && launcherIsAlive(owner)) {
    throw new Error(
      `another \`npm start\` (pid ${owner}) runs the FerretDB in ${path.relative(ROOT, FERRETDB_DIR)}; stop it first`,
    );
  }
  if (readPid(path.join(FERRETDB_DIR, 'ferretdb.pid')) !== null) {
    say('stopping the FerretDB an earlier run left running');
    spawnSync(FERRETDB_SCRIPT, ['stop', FERRETDB_DIR], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  }
}

function seconds(ms) {
  const total = Math.round(ms / 1000);
  return total < 60 ? `${total} s` : `${Math.floor(total / 60)} min ${total % 60} s`;
}

function readBuildTimes() {
  try {
    return JSON.parse(fs.readFileSync(BUILD_TIMES_FILE, 'utf8'));
  } catch {
    return {};
  }
}

/**
 * The steps of `npm run build` that build an app (`nest build <app>`): the bench, which `npm run
 * build` compiles too, is not needed to run the stack.
 */
function appBuildSteps() {
  const steps = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts.build.split(' && ');
  return steps.filter((step) => APPS.some((app) => step === `nest build ${app}`));
}

/**
 * Runs the apps' build steps one at a time, so that a first build, minutes long, says where it
 * is; each step's time is kept for the next run's estimate.
 */
async function build() {
  const steps = appBuildSteps();
  // The build's tools (`#!/usr/bin/env node`) run on this launcher's own Node, whichever PATH it was given.
  const bins = [path.dirname(process.execPath), path.join(ROOT, 'node_modules', '.bin'), process.env.PATH];
  const env = { ...process.env, PATH: bins.join(path.delimiter) };
  const times = readBuildTimes();
  const startedAt = Date.now();
  for (const [index, step] of steps.entries()) {
    const name = step.replace(/^nest build /, '');
    const estimate = times[step] ? `${seconds(times[step])} last time` : FIRST_BUILD_STEP_ESTIMATE;
    say(`building ${index + 1} of ${steps.length}: ${name} (${estimate})`);
    const stepStartedAt = Date.now();
    // The binary itself rather than a shell around it, so that stopping the step stops the build.
    const [command, ...args] = step.split(' ');
    await runStep('build', command, args, { env, doing: `building ${name}` });
    times[step] = Date.now() - stepStartedAt;
    fs.mkdirSync(path.dirname(BUILD_TIMES_FILE), { recursive: true });
    fs.writeFileSync(BUILD_TIMES_FILE, `${JSON.stringify(times, null, 2)}\n`);
  }
  say(`built in ${seconds(Date.now() - startedAt)}`);
}

/** Makes FerretDB's data folder this run's, before anything slow. */
function claimFerretdbDir() {
  fs.mkdirSync(FERRETDB_DIR, { recursive: true });
  reclaimFerretdbDir();
  fs.writeFileSync(OWNER_FILE, `${process.pid}\n`);
}

/** Builds FerretDB if it is not built yet. */
async function installFerretdb() {
  // Instant once built; the first time, Go builds it for minutes without a word.
  await runStep('ferretdb', FERRETDB_SCRIPT, ['install'], { capture: true, doing: 'building FerretDB' });
}

/** Starts the installed FerretDB on its data folder; resolves with its MongoDB URI. */
async function startFerretdb() {
  let port;
  if (process.env.FERRETDB_PORT) port = Number(process.env.FERRETDB_PORT);
  else port = (await portIsFree(DEFAULT_FERRETDB_PORT)) ? DEFAULT_FERRETDB_PORT : await anyFreePort();
  state.ferretdbStarted = true;
  // In a session of its own, so that a Ctrl-C at the terminal reaches the apps and this launcher
  // but not the database they are still using while they stop; the launcher stops it last.
  const uri = await runStep('ferretdb', FERRETDB_SCRIPT, ['start', FERRETDB_DIR, String(port)], {
    capture: true,
    detached: true,
  });
  const pid = readPid(path.join(FERRETDB_DIR, 'ferretdb.pid'));
  say(`FerretDB (pid ${pid}) on port ${port}, data in ${path.relative(ROOT, FERRETDB_DIR)}`);
  return uri;
}

function stopFerretdb() {
  if (!state.ferretdbStarted) return;
  state.ferretdbStarted = false;
  const result = spawnSync(FERRETDB_SCRIPT, ['stop', FERRETDB_DIR], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  if (result.status !== 0) {
    state.exitCode = 1;
    complain(`stopping FerretDB failed: ${String(result.stderr).trim()}`);
  }
  fs.rmSync(OWNER_FILE, { force: true });
}

/** The environment every app runs with: the caller's, with the local defaults filled in. */
function appEnvironment(mongodbUri) {
  const env = { ...process.env };
  // As in the Dockerfile: the heap the apps run with in production.
  env.NODE_OPTIONS = `--max-old-space-size=128 --max-semi-space-size=8 ${env.NODE_OPTIONS ?? ''}`.trim();
  env.PORT ||= DEFAULT_PORT;
  // The services cannot know the gateway's port; the URLs they return must name it.
  env.PUBLIC_BASE_URL ||= `http://localhost:${env.PORT}`;
  if (mongodbUri) env.MONGODB_URI = mongodbUri;
  env.API_KEYS ||= DEV_API_KEYS.map(({ key, clientId }) => `${key}:${clientId}`).join(',');
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
 * Without SMTP_URL, a local mail server with a web inbox (MailDev, from node_modules) that the
 * notifications service sends to: nothing leaves the machine. Returns the inbox's URL, or null.
 */
async function startInbox(env) {
  if (process.env.SMTP_URL) return null;
  const smtpPort = await portOr(DEFAULT_INBOX_SMTP_PORT);
  const webPort = await portOr(DEFAULT_INBOX_WEB_PORT);
  const maildevDir = path.join(ROOT, 'node_modules', 'maildev');
  const maildev = path.join(maildevDir, require(path.join(maildevDir, 'package.json')).bin.maildev);
  const args = [maildev, '--ip', '127.0.0.1', '--web-ip', '127.0.0.1', '--smtp', String(smtpPort), '--web', String(webPort)];
  // MailDev writes each message to a file of its own (in its temporary folder when given none),
  // readable by every user of the machine: here they are the owner's alone.
  fs.mkdirSync(INBOX_DIR, { recursive: true });
  fs.chmodSync(INBOX_DIR, 0o700);
  args.push('--mail-directory', INBOX_DIR);
  const umask = process.umask(OWNER_ONLY_UMASK);
  try {
    startChild('inbox', args, env);
  } finally {
    process.umask(umask);
  }
  env.SMTP_URL = `smtp://127.0.0.1:${smtpPort}`;
  return `http://localhost:${webPort}`;
}

/** `port` when it is free, else any free port. */
async function portOr(port) {
  return (await portIsFree(port)) ? port : anyFreePort();
}

/** Runs one long-lived child (an app, the inbox), its output prefixed; its end unasked stops everything. */
function startChild(app, args, env) {
  const width = Math.max(...[...APPS, 'inbox'].map((name) => name.length + 2));
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  state.apps.set(app, child);
  const prefix = `[${app}]`.padEnd(width);
  prefixLines(child.stdout, process.stdout, prefix);
  prefixLines(child.stderr, process.stderr, prefix);
  let gone = false;
  const onGone = (clean, description) => {
    if (gone) return;
    gone = true;
    state.apps.delete(app);
    if (!state.stopping) {
      stop(`${app} ${description} unexpectedly`, 1);
      return;
    }
    if (clean) say(`${app} stopped`);
    else {
      state.exitCode = 1;
      complain(`${app} ${description} while stopping`);
    }
    finishIfDone();
  };
  child.on('error', (error) => onGone(false, `failed (${error.message})`));
  // 'close' rather than 'exit': it comes after the child's output has been read to the end.
  child.on('close', (code, signal) => onGone(code === 0, signal ? `was killed by ${signal}` : `exited with code ${code}`));
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

function finishIfDone() {
  if (!state.stopping || state.apps.size > 0 || state.steps.size > 0) return;
  if (state.forceKillTimer) clearTimeout(state.forceKillTimer);
  if (state.ferretdbStarted) {
    stopFerretdb();
    say('FerretDB stopped');
  }
  process.exit(state.exitCode);
}

function forceKill() {
  const left = [...state.steps.values(), ...state.apps.keys()];
  if (left.length === 0) return;
  state.exitCode = 1;
  complain(`still running after ${FORCE_KILL_AFTER_MS / 1000} s: ${left.join(', ')}; killing`);
  for (const child of [...state.apps.values(), ...state.steps.keys()]) child.kill('SIGKILL');
}

/** Stops whatever runs (the apps, or the step under way), then FerretDB, then exits. */
function stop(reason, exitCode) {
  if (state.stopping) return;
  state.stopping = true;
  state.exitCode = Math.max(state.exitCode, exitCode);
  const running = [...state.steps.values(), ...state.apps.keys(), ...(state.ferretdbStarted ? ['FerretDB'] : [])];
  say(`${reason}; stopping ${running.join(', ') || 'nothing'}`);
  for (const child of [...state.apps.values(), ...state.steps.keys()]) child.kill('SIGTERM');
  state.forceKillTimer = setTimeout(forceKill, FORCE_KILL_AFTER_MS);
  state.forceKillTimer.unref();
  finishIfDone();
}

function onSignal(signal) {
  if (!state.stopping) {
    state.firstSignalAt = Date.now();
    stop(`received ${signal}`, 0);
  } else if (Date.now() - state.firstSignalAt >= REPEAT_SIGNAL_MS) {
    forceKill();
  }
}

/**
 * Stops everything once the parent is gone: npm ends on a signal it does not pass on (SIGHUP) or
 * on SIGKILL, and this launcher, left to pid 1, would otherwise keep the whole stack running.
 */
function watchParent() {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid !== parent) stop(`its parent (pid ${parent}) is gone`, 0);
  }, PARENT_CHECK_MS);
  timer.unref();
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
