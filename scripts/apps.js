// The apps of this repository and where `npm run build` puts each one's entry point: the one
// place that knows the layout of dist/ (the test stack, the bench, the local run and the
// Dockerfile all ask here).
'use strict';

const path = require('node:path');

/** Every deployable app, in the order a local run starts them (services before the gateway). */
const APPS = ['properties', 'applications', 'webhooks', 'notifications', 'form', 'gateway'];

/**
 * The order a rolling upgrade replaces the apps in (docs/operators/upgrades.md): the services that only
 * consume events first, so that every event a newer producer publishes finds consumers that know
 * it; then the services the others ask (properties, then applications); the front ends last, so
 * that a field the newer API takes reaches services that read it. A rollback goes the other way.
 */
const UPGRADE_ORDER = ['webhooks', 'notifications', 'properties', 'applications', 'form', 'gateway'];

/** The built entry point of `app` under the repository root `root`. */
function distMain(app, root = path.resolve(__dirname, '..')) {
  if (!APPS.includes(app)) throw new Error(`unknown app "${app}" (one of ${APPS.join(', ')})`);
  // Nest's tsc builder keeps the source tree below the common root of the app and the libs.
  return path.join(root, 'dist', 'apps', app, 'apps', app, 'src', 'main.js');
}

module.exports = { APPS, UPGRADE_ORDER, distMain };
