#!/usr/bin/env node
// The previous release, built once beside this tree for the upgrade suites: the commit pinned in
// test/upgrade/previous-release, exported with `git archive` (no worktree to register or leave
// behind), installed with `npm ci` and built with its own `npm run build`, into
// ~/.cache/rental-applications/releases/<sha>/. It is built in a scratch directory and renamed
// into place, so a build cut short is never taken for a built release.
//
//   node scripts/previous-release.js          builds it if it is not cached, prints its root
//   node scripts/previous-release.js sha      prints the pinned commit
'use strict';

const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const PIN_FILE = path.join(ROOT, 'test', 'upgrade', 'previous-release');
const RELEASES = path.join(os.homedir(), '.cache', 'rental-applications', 'releases');

/** The pinned commit: the one line of the pin file that is not a comment. */
function previousReleaseSha() {
  const lines = fs
    .readFileSync(PIN_FILE, 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  if (lines.length !== 1 || !/^[0-9a-f]{40}$/.test(lines[0])) {
    throw new Error(`${PIN_FILE} must hold one full commit sha (40 hex digits) besides its comments`);
  }
  return lines[0];
}

/** Throws, saying what to do, unless this clone holds the commit (a shallow clone may not). */
function requireCommit(sha) {
  try {
    execFileSync('git', ['cat-file', '-e', `${sha}^{commit}`], { cwd: ROOT, stdio: 'ignore' });
  } catch {
    throw new Error(
      `the previous release ${sha} (test/upgrade/previous-release) is not in this clone: ` +
        'clone with its history (`git fetch --unshallow`, or a full clone) to run the upgrade suites',
    );
  }
}

/** The root of the built previous release, building it first unless it is cached. */
function ensurePreviousRelease({ log = (line) => process.stderr.write(`${line}\n`) } = {}) {
  const sha = previousReleaseSha();
  const target = path.join(RELEASES, sha);
  if (fs.existsSync(target)) return target;
  requireCommit(sha);
  fs.mkdirSync(RELEASES, { recursive: true });
  const scratch = fs.mkdtempSync(path.join(RELEASES, `.build-${sha.slice(0, 12)}-`));
  const started = Date.now();
  try {
    log(`previous release ${sha}: exporting, installing and building in ${scratch}`);
    execFileSync('sh', ['-c', `git archive --format=tar ${sha} | tar -x -C "${scratch}"`], { cwd: ROOT, stdio: 'inherit' });
    // Built on the Node this runs on, which the suites run it on as well: what they test (the data
    // it stored, the messages it sends) does not depend on the runtime, and the previous release's
    // own Node line may be one the project no longer supports.
    const PATH = [path.dirname(process.execPath), process.env.PATH].join(path.delimiter);
    const quiet = { cwd: scratch, stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, PATH } };
    execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--prefer-offline'], quiet);
    execFileSync('npm', ['run', 'build'], quiet);
    try {
      fs.renameSync(scratch, target);
    } catch (error) {
      // Another run built it meanwhile: theirs is as good.
      if (!fs.existsSync(target)) throw error;
      fs.rmSync(scratch, { recursive: true, force: true });
    }
    log(`previous release ${sha}: built in ${Math.round((Date.now() - started) / 1000)} s`);
    return target;
  } catch (error) {
    fs.rmSync(scratch, { recursive: true, force: true });
    throw error;
  }
}

module.exports = { previousReleaseSha, ensurePreviousRelease, RELEASES };

if (require.main === module) {
  const command = process.argv[2] ?? 'build';
  if (command === 'sha') process.stdout.write(`${previousReleaseSha()}\n`);
  else if (command === 'build') process.stdout.write(`${ensurePreviousRelease()}\n`);
  else {
    process.stderr.write(`previous-release: unknown command "${command}" (build or sha)\n`);
    process.exit(2);
  }
}
