#!/usr/bin/env node
// Runs one built app in this process: `node scripts/run-app.js gateway` (or APP=gateway).
// With --check, only says whether it is built. The Dockerfile starts every app this way.
'use strict';

const fs = require('node:fs');
const { APPS, distMain } = require('./apps');

const args = process.argv.slice(2);
const check = args[0] === '--check';
const app = (check ? args[1] : args[0]) ?? process.env.APP;
if (!APPS.includes(app)) {
  console.error(`run-app: APP must be one of ${APPS.join(', ')} (got ${JSON.stringify(app)})`);
  process.exit(2);
}
const main = distMain(app);
if (!fs.existsSync(main)) {
  console.error(`run-app: ${main} not found; run \`npm run build\` first`);
  process.exit(1);
}
if (!check) require(main);
