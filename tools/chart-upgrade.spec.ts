import { UPGRADE_ORDER } from '../scripts/apps';
import { KubeObject, ofKind, renderChart } from './chart';

interface Deployment extends KubeObject {
  spec: { template: { spec: { containers: Array<{ image: string }> } } };
}

/** The apps whose image the chart tags `tag` with these settings. */
function appsOnTag(tag: string, settings: string[]): string[] {
  return ofKind<Deployment>(renderChart('production', settings), 'Deployment')
    .filter((deployment) => deployment.spec.template.spec.containers[0].image.endsWith(`:${tag}`))
    .map((deployment) => deployment.metadata.labels!['app.kubernetes.io/component']);
}

/**
 * The chart's phases of a rolling upgrade (image.upgrade) replace the apps in UPGRADE_ORDER, the
 * order docs/operators/upgrades.md prescribes and test/upgrade-rolling.e2e-spec.ts runs: each phase moves the
 * apps before it and one more, and a rollback steps back through the same phases.
 */
describe("the chart's rolling upgrade", () => {
  it('moves the apps one phase at a time in UPGRADE_ORDER', () => {
    const phases = ['', ...UPGRADE_ORDER].map((through) =>
      appsOnTag('2.0.0', ['image.tag=2.0.0', 'image.upgrade.from=1.9.0', `image.upgrade.through=${through}`]).sort(),
    );
    expect(phases).toEqual(UPGRADE_ORDER.map((_, i) => UPGRADE_ORDER.slice(0, i).sort()).concat([[...UPGRADE_ORDER].sort()]));
  });
});
