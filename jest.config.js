/**
 * Unit specs: `*.spec.ts` beside the code under apps/, libs/ and bench/, the specs of the
 * repository's own rules under tools/, and the one beside docker-compose.yml.
 * Tests that cross processes live in test/ with their own config.
 *
 * ts-jest compiles with the root tsconfig.json and type-checks each spec and what it imports
 * (no isolatedModules): `nest build` leaves spec files out, so this is where their types are
 * checked.
 */
require('./scripts/node-runtime').requireSupportedRuntime();

module.exports = {
  rootDir: __dirname,
  roots: ['<rootDir>'],
  testMatch: ['<rootDir>/{apps,libs,bench}/**/*.spec.ts', '<rootDir>/tools/**/*.spec.ts', '<rootDir>/docker-compose.spec.ts'],
  moduleFileExtensions: ['ts', 'js', 'json'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.json' }],
  },
  moduleNameMapper: {
    '^@app/([a-z-]+)(|/.*)$': '<rootDir>/libs/$1/src$2',
  },
  // Each app loads reflect-metadata through Nest before the contract classes are decorated.
  setupFiles: ['reflect-metadata'],
  testEnvironment: 'node',
};
