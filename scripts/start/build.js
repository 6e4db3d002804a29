// The apps' build, as `npm start` runs it: whether one is needed (an app not built, or anything
// it is built from newer than its build), and the `nest build` steps one by one, each saying how
// long it took the last time.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { APPS, distMain } = require('../apps');
const { runStep } = require('./children');
const { ROOT, say, seconds } = require('./launcher');

/** What the build reads besides apps/ and libs/. */
const BUILD_SETTINGS = ['tsconfig.json', 'tsconfig.build.json', 'nest-cli.json'];
/** How long each build step took the last time, to tell the next run what to expect. */
const BUILD_TIMES_FILE = path.join(ROOT, '.data', 'build-times.json');
/** A build step's time on a 2-core machine, quiet to busy, for a first build that has none measured yet. */
const FIRST_BUILD_STEP_ESTIMATE = '30 to 90 s, on 2 cores';

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

module.exports = { build, staleness };
