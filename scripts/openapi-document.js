// Writes the gateway's OpenAPI document to a file, from the built gateway (`npm run build`),
// without starting it or any service: `node scripts/openapi-document.js [out.json]`. The linters
// (`npm run lint:openapi`) read it there.
'use strict';

const { mkdirSync, writeFileSync } = require('node:fs');
const { Buffer } = require('node:buffer');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const GATEWAY = path.join(ROOT, 'dist', 'apps', 'gateway', 'apps', 'gateway', 'src');

async function main(out) {
  // Read by the gateway's environment class at boot; the document depends on neither.
  process.env.FIELD_ENCRYPTION_KEYS ??= `k1:${Buffer.alloc(32).toString('base64')}`;
  process.env.FINGERPRINT_KEYS ??= `f1:${Buffer.alloc(32).toString('base64')}`;
  const { NestFactory } = require('@nestjs/core');
  const { FastifyAdapter } = require('@nestjs/platform-fastify');
  const { AppModule } = require(path.join(GATEWAY, 'app.module.js'));
  const { buildOpenApiDocument } = require(path.join(GATEWAY, 'openapi', 'openapi.js'));
  // Creating the app builds its routes and providers; nothing connects before init or listen.
  const app = await NestFactory.create(AppModule, new FastifyAdapter(), { logger: false, abortOnError: false });
  const document = buildOpenApiDocument(app);
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(document, null, 2)}\n`);
  await app.close();
}

main(path.resolve(process.argv[2] ?? path.join(ROOT, 'dist', 'openapi.json'))).catch((error) => {
  console.error(`writing the OpenAPI document failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
