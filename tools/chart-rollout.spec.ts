import { KubeObject, ofKind, renderChart } from './chart';

interface Deployment extends KubeObject {
  spec: { template: { metadata: { annotations?: Record<string, string> } } };
}

/** Each app's `checksum/secret` annotation, by app. */
function checksums(settings: string[] = []): Record<string, string | undefined> {
  return Object.fromEntries(
    ofKind<Deployment>(renderChart('development', settings), 'Deployment').map((deployment) => [
      deployment.metadata.labels?.['app.kubernetes.io/component'],
      deployment.spec.template.metadata.annotations?.['checksum/secret'],
    ]),
  );
}

/**
 * A pod reads its settings only when it starts, so the pods of an app must roll when what it takes
 * from the chart's Secret changes, and only then: a new CSRF key rolls the forms and nothing else.
 */
describe("the chart's rollouts on a change of its Secret", () => {
  const before = checksums();

  it('roll the apps that take the changed key, and no other', () => {
    const after = checksums(['secrets.csrfKeys=c2027:Q1NSRiBLRVkgMjAyNyAtIE5PVCBBIFNFQ1JFVCEhISE=']);
    const rolled = Object.keys(before).filter((app) => before[app] !== after[app]);
    expect(rolled).toEqual(['form']);
  });

  it('roll every app on a new database address, which all take', () => {
    const after = checksums(['database.url=mongodb://mongodb-2.data.svc.cluster.local:27017']);
    expect(Object.keys(before).filter((app) => before[app] === after[app])).toEqual([]);
  });

  it('roll only the app whose database password changed: each has its own user', () => {
    const after = checksums(['database.users.webhooks.password=dev-only-webhooks-2']);
    expect(Object.keys(before).filter((app) => before[app] !== after[app])).toEqual(['webhooks']);
  });
});
