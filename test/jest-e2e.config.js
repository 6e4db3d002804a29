/**
 * Tests that cross processes: each suite starts the built gateway and services as separate
 * processes talking over the real RabbitMQ and MongoDB (or FerretDB) at AMQP_URL/MONGODB_URI.
 *
 * Two suites restart that broker (`rabbitmqctl stop_app`/`start_app`), which breaks whatever else
 * uses it meanwhile: RESTART_BROKER=false leaves them out, for a broker shared with other work.
 * CI sets nothing, and runs them.
 */
require('../scripts/node-runtime').requireSupportedRuntime();

const BROKER_RESTARTING_SUITES = ['<rootDir>/test/faults\\.e2e-spec\\.ts$', '<rootDir>/test/webhook-faults\\.e2e-spec\\.ts$'];

if (process.env.RESTART_BROKER !== undefined && !['true', 'false'].includes(process.env.RESTART_BROKER)) {
  throw new Error(`RESTART_BROKER must be true or false, not "${process.env.RESTART_BROKER}"`);
}
const restartBroker = process.env.RESTART_BROKER !== 'false';

module.exports = {
  rootDir: '..',
  roots: ['<rootDir>/test'],
  testRegex: '.*\\.e2e-spec\\.ts$',
  testPathIgnorePatterns: ['/node_modules/', ...(restartBroker ? [] : BROKER_RESTARTING_SUITES)],
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.json' }] },
  moduleNameMapper: {
    '^@app/([a-z-]+)(|/.*)$': '<rootDir>/libs/$1/src$2',
  },
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  testTimeout: 60000,
  // Each suite starts its own processes; one suite at a time keeps a 2-core machine honest.
  maxWorkers: 1,
};
