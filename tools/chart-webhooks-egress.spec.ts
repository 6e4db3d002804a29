import { REFUSED_RANGES } from '../apps/webhooks/src/deliveries/target-guard';
import { KubeObject, ofKind, renderChart } from './chart';

interface NetworkPolicy extends KubeObject {
  spec: { egress: Array<{ to?: Array<{ ipBlock?: { cidr: string; except?: string[] } }> }> };
}

/** The ranges the webhooks service's NetworkPolicy lets it reach everything but, by the ipBlock's cidr. */
function excluded(settings: string[] = []): Record<string, string[]> {
  const policy = ofKind<NetworkPolicy>(renderChart('development', settings), 'NetworkPolicy').find(
    (each) => each.metadata.labels?.['app.kubernetes.io/component'] === 'webhooks',
  )!;
  const blocks = policy.spec.egress.flatMap((rule) => rule.to ?? []).flatMap((peer) => (peer.ipBlock ? [peer.ipBlock] : []));
  return Object.fromEntries(blocks.map((block) => [block.cidr, [...(block.except ?? [])].sort()]));
}

/**
 * The webhooks service's egress NetworkPolicy and the app's own guard (target-guard.ts) refuse the
 * same addresses: a range added to either fails here until the other has it, so that the network
 * never lets through what the app would refuse, nor the app reach what the network drops.
 */
describe("the webhooks service's NetworkPolicy and its target guard", () => {
  it('excludes every range the guard refuses, those that carry an IPv4 address whole, and nothing else', () => {
    expect(excluded()).toEqual({
      '0.0.0.0/0': [...REFUSED_RANGES.ipv4].sort(),
      '::/0': [...REFUSED_RANGES.ipv6, ...REFUSED_RANGES.ipv6CarryingIpv4].sort(),
    });
  });

  it("adds the cluster's own ranges, each to its family's", () => {
    const ranges = excluded(['networkPolicy.clusterRanges={10.96.0.0/12,2600:1f00:5::/56,10.0.0.0/8}']);
    expect(ranges['0.0.0.0/0']).toEqual([...REFUSED_RANGES.ipv4, '10.96.0.0/12'].sort());
    expect(ranges['::/0']).toEqual([...REFUSED_RANGES.ipv6, ...REFUSED_RANGES.ipv6CarryingIpv4, '2600:1f00:5::/56'].sort());
  });
});
