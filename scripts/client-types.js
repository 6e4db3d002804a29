// The typed client's types, generated from the gateway's OpenAPI document by openapi-typescript
// with its default options, as integrators run it: `npm run client:generate` writes them to
// packages/client/src/generated/api.ts; `--check` fails when that file is not what the document
// generates now (run by `npm test`, after the build). Both read dist/openapi.json, which
// scripts/openapi-document.js writes.
'use strict';

const { execFileSync } = require('node:child_process');
const { mkdtempSync, readFileSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const DOCUMENT = path.join(ROOT, 'dist', 'openapi.json');
const GENERATED = path.join(ROOT, 'packages', 'client', 'src', 'generated', 'api.ts');

function generate(out) {
  const cli = path.join(ROOT, 'node_modules', 'openapi-typescript', 'bin', 'cli.js');
  execFileSync(process.execPath, [cli, DOCUMENT, '--output', out], { stdio: ['ignore', 'ignore', 'inherit'] });
}

if (process.argv.includes('--check')) {
  const scratch = mkdtempSync(path.join(tmpdir(), 'client-types-'));
  try {
    const fresh = path.join(scratch, 'api.ts');
    generate(fresh);
    if (readFileSync(fresh, 'utf8') !== readFileSync(GENERATED, 'utf8')) {
      console.error(
        `${path.relative(ROOT, GENERATED)} is not what the OpenAPI document generates: run npm run client:generate and commit it`,
      );
      process.exit(1);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
} else {
  generate(GENERATED);
}
