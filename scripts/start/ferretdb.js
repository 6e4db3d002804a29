// The FerretDB `npm start` runs when no MONGODB_URI is given (scripts/ferretdb.sh): its data
// folder claimed for this run, built on first use, started on a free port and stopped last.
'use strict';

const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { runStep } = require('./children');
const { ROOT, complain, say } = require('./launcher');
const { anyFreePort, portIsFree } = require('./ports');
const { state, stopLast } = require('./shutdown');

const DEFAULT_FERRETDB_PORT = 27017;
const FERRETDB_DIR = path.join(ROOT, '.data', 'ferretdb');
const FERRETDB_SCRIPT = path.join(ROOT, 'scripts', 'ferretdb.sh');
/** Written beside FerretDB's data while this launcher runs it: tells a later run whose it is. */
const OWNER_FILE = path.join(FERRETDB_DIR, 'launcher.pid');

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
  stopLast('FerretDB', stopFerretdb);
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
  const result = spawnSync(FERRETDB_SCRIPT, ['stop', FERRETDB_DIR], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  if (result.status !== 0) {
    state.exitCode = 1;
    complain(`stopping FerretDB failed: ${String(result.stderr).trim()}`);
  }
  fs.rmSync(OWNER_FILE, { force: true });
}

module.exports = { claimFerretdbDir, installFerretdb, startFerretdb };
