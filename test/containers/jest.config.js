/**
 * The container suite (`scripts/containers.sh test`): the project's images and docker-compose.yml
 * run for real, with podman, inside a network namespace of their own. The script builds the images
 * first and sets DOCKER_HOST and the stand-in images' variables; run alone, it fails at once.
 */
module.exports = {
  rootDir: '../..',
  roots: ['<rootDir>/test/containers'],
  testRegex: '.*\\.container-spec\\.ts$',
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.json' }] },
  moduleNameMapper: {
    '^@app/([a-z-]+)(|/.*)$': '<rootDir>/libs/$1/src$2',
  },
  testTimeout: 300000,
  // One engine, one stack: the suites share them in turn.
  maxWorkers: 1,
};
