/**
 * Tests that cross processes: each suite starts the built gateway and services as separate
 * processes talking over the real RabbitMQ and MongoDB (or FerretDB) at AMQP_URL/MONGODB_URI.
 */
module.exports = {
  rootDir: '..',
  roots: ['<rootDir>/test'],
  testRegex: '.*\\.e2e-spec\\.ts$',
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
