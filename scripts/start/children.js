// The processes `npm start` runs, their output prefixed with their name: one-off steps (the
// build, FerretDB's) run to their end, and the long-lived apps and inbox.
'use strict';

const { spawn } = require('node:child_process');
const readline = require('node:readline');
const { setInterval, clearInterval } = require('node:timers');
const { APPS } = require('../apps');
const { ROOT, complain, say, seconds } = require('./launcher');
const { Stopped, finishIfDone, state, stop } = require('./shutdown');

/** How often a long step (a build, FerretDB's first build) says it is still running. */
const PROGRESS_EVERY_MS = 20_000;

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

module.exports = { runStep, startChild };
