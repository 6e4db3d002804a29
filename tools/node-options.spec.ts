import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PRODUCTION_NODE_ARGS } from './stack';

/**
 * The heap every app runs with (docs/contributors/performance.md says why each limit): the image, `npm start`
 * and the test stack start the apps alike, so that what the tests and the bench measure is what
 * production runs.
 */
const read = (file: string) => readFileSync(join(__dirname, '..', file), 'utf8');

describe('the options node runs every app with', () => {
  it('are the same in the image, in npm start and in the test stack', () => {
    const image = /^ENV NODE_OPTIONS="([^"]+)"$/m.exec(read('Dockerfile'))?.[1];
    const start = /env\.NODE_OPTIONS = `([^$`]+) \$\{env\.NODE_OPTIONS/.exec(read('scripts/start/environment.js'))?.[1];

    expect(image?.split(' ')).toEqual(PRODUCTION_NODE_ARGS);
    expect(start?.split(' ')).toEqual(PRODUCTION_NODE_ARGS);
  });
});
