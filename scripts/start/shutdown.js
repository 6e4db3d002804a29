// How `npm start` ends: what it has running, stopping it all on a signal, on its parent going
// away or on a failure, and exiting once everything it started has stopped.
'use strict';

const { setInterval } = require('node:timers');
const { complain, say } = require('./launcher');

const FORCE_KILL_AFTER_MS = 10_000;
/** npm passes a Ctrl-C on as well, so one press can arrive twice; only a later one is a second. */
const REPEAT_SIGNAL_MS = 1000;
/** How often the launcher looks whether its parent (npm, a shell, a supervisor) is still there. */
const PARENT_CHECK_MS = 1000;

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
  /**
   * What is stopped once every step and app has ended (the FerretDB the launcher started, which
   * the apps use while they stop), by name.
   * @type {Map<string, () => void>}
   */
  stoppedLast: new Map(),
  forceKillTimer: null,
};

class Stopped extends Error {}

/** Has `stopIt` called, then `name` said stopped, once everything else has ended. */
function stopLast(name, stopIt) {
  state.stoppedLast.set(name, stopIt);
}

function finishIfDone() {
  if (!state.stopping || state.apps.size > 0 || state.steps.size > 0) return;
  if (state.forceKillTimer) clearTimeout(state.forceKillTimer);
  for (const [name, stopIt] of state.stoppedLast) {
    state.stoppedLast.delete(name);
    stopIt();
    say(`${name} stopped`);
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
  const running = [...state.steps.values(), ...state.apps.keys(), ...state.stoppedLast.keys()];
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

module.exports = { Stopped, finishIfDone, onSignal, state, stop, stopLast, watchParent };
