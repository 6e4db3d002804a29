/**
 * The Helm chart (deploy/helm/rental-applications) rendered as the cluster would get it, for the
 * specs that tie it to the code: `helm template` with the pinned helm of scripts/go-tools.sh.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';

const ROOT = join(__dirname, '..');
export const CHART = join(ROOT, 'deploy', 'helm', 'rental-applications');

/**
 * The Kubernetes release the chart is rendered for: that of the API types the objects are decoded
 * into (k8s.io/api v0.N.x is Kubernetes 1.N.x), as scripts/chart-check.sh renders it.
 */
export function kubeVersion(): string {
  const goMod = readFileSync(join(ROOT, 'deploy', 'kube-decode', 'go.mod'), 'utf8');
  const found = /^\s*k8s\.io\/api v0\.(\d+)\.(\d+)$/m.exec(goMod);
  if (!found) throw new Error('deploy/kube-decode/go.mod requires no k8s.io/api');
  return `1.${found[1]}.${found[2]}`;
}

/** One rendered object, as far as the specs read it. */
export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  [field: string]: unknown;
}

/** The pinned helm, built once into its cache. */
function helm(): string {
  return execFileSync(join(ROOT, 'scripts', 'go-tools.sh'), ['bin', 'helm'], { encoding: 'utf8' }).trim();
}

/**
 * The objects the chart renders with the example `values-<example>.yaml` and `--set` settings;
 * throws with helm's message when the chart refuses them.
 */
export function renderChart(example: string, settings: string[] = []): KubeObject[] {
  const args = ['template', 'rentals', CHART, '--kube-version', kubeVersion(), '-f', join(CHART, `values-${example}.yaml`)];
  for (const setting of settings) args.push('--set', setting);
  const output = execFileSync(helm(), args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  return parseAllDocuments(output)
    .map((document) => document.toJS() as KubeObject | null)
    .filter((object): object is KubeObject => object !== null);
}

/** The rendered objects of one kind. */
export function ofKind<T = KubeObject>(objects: KubeObject[], kind: string): T[] {
  return objects.filter((object) => object.kind === kind) as T[];
}
