import { ensurePreviousRelease, previousReleaseSha } from '../../scripts/previous-release';

/**
 * The previous release beside this build, for the upgrade suites: its root (built once and cached
 * by scripts/previous-release.js; the first build takes minutes, hence the hook's timeout).
 */
export const PREVIOUS_RELEASE_BUILD_MS = 20 * 60 * 1000;

export function previousRelease(): { sha: string; root: string } {
  return { sha: previousReleaseSha(), root: ensurePreviousRelease({ log: (line) => process.stdout.write(`${line}\n`) }) };
}
