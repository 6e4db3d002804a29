import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { KubeObject, ofKind, renderChart } from './chart';

/** The apps' own stop: how long a service drains, and when any app gives up stopping. */
const RUN_SERVICE = readFileSync(join(__dirname, '..', 'libs', 'runtime', 'src', 'run-service.ts'), 'utf8');

function constant(name: string): number {
  const found = new RegExp(`const ${name} = ([0-9_]+);`).exec(RUN_SERVICE);
  if (!found) throw new Error(`libs/runtime/src/run-service.ts no longer defines ${name}`);
  return Number(found[1].replace(/_/g, ''));
}

interface Deployment extends KubeObject {
  spec: {
    template: {
      spec: {
        terminationGracePeriodSeconds: number;
        containers: Array<{ lifecycle?: { preStop?: { sleep?: { seconds: number }; exec?: unknown } } }>;
      };
    };
  };
}

const DRAIN_TIMEOUT_MS = constant('DRAIN_TIMEOUT_MS');
const STOP_DEADLINE_MS = constant('STOP_DEADLINE_MS');

/**
 * Kubernetes kills a pod terminationGracePeriodSeconds after it began stopping, the preStop sleep
 * included; the apps' own shutdown (libs/runtime) must fit in what remains, or a drain is cut short
 * and its messages are handed out again.
 */
describe("the chart's grace periods and the apps' own shutdown", () => {
  it('drain within their stop deadline', () => {
    expect(DRAIN_TIMEOUT_MS).toBeLessThan(STOP_DEADLINE_MS);
  });

  describe.each(['development', 'production'])('values-%s.yaml', (example) => {
    const deployments = ofKind<Deployment>(renderChart(example), 'Deployment');

    it('renders the six apps', () => expect(deployments).toHaveLength(6));

    it.each(deployments.map((d) => [d.metadata.labels?.['app.kubernetes.io/component'], d] as const))(
      "gives %s a grace period that covers its preStop sleep and the apps' stop deadline",
      (_app, deployment) => {
        const pod = deployment.spec.template.spec;
        const preStop = pod.containers[0].lifecycle?.preStop;
        // Kubernetes' own sleep: the image has no shell or sleep binary to exec.
        expect(preStop?.exec).toBeUndefined();
        const sleepMs = (preStop?.sleep?.seconds ?? 0) * 1000;
        expect(pod.terminationGracePeriodSeconds * 1000).toBeGreaterThanOrEqual(sleepMs + STOP_DEADLINE_MS);
      },
    );

    it('keeps the gateway and the form serving while their endpoints are taken out of the load balancers', () => {
      for (const app of ['gateway', 'form']) {
        const deployment = deployments.find((d) => d.metadata.labels?.['app.kubernetes.io/component'] === app)!;
        expect(deployment.spec.template.spec.containers[0].lifecycle?.preStop?.sleep?.seconds).toBeGreaterThan(0);
      }
    });
  });

  it("refuses a grace period shorter than the apps' stop deadline, and takes one as long", () => {
    const deadlineSeconds = Math.ceil(STOP_DEADLINE_MS / 1000);
    const grace = (seconds: number) => [
      'apps.properties.shutdown.preStopSleepSeconds=0',
      `apps.properties.shutdown.terminationGracePeriodSeconds=${seconds}`,
    ];
    expect(() => renderChart('production', grace(deadlineSeconds - 1))).toThrow(/must cover preStopSleepSeconds/);
    expect(ofKind(renderChart('production', grace(deadlineSeconds)), 'Deployment')).toHaveLength(6);
  });
});
