#!/usr/bin/env bash
# The Helm chart's offline checks, which `npm test` runs (no cluster needed):
#
#   - `helm lint --strict` of the chart with every example values file (values-*.yaml);
#   - `helm template` of every example, each object decoded strictly into its Kubernetes API type
#     (KEDA's own for ScaledObject and TriggerAuthentication) by deploy/kube-decode, so that a
#     misspelled, misplaced or mistyped field fails;
#   - the values the schema must refuse (REFUSED below), each refused;
#   - the chart's helm-unittest tests (deploy/helm/rental-applications/tests/).
#
# helm and helm-unittest come from scripts/go-tools.sh; kube-decode is built from its own go.mod,
# without the network (CI fetched its modules beside `npm ci`, `scripts/chart-check.sh prepare`).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
chart=deploy/helm/rental-applications
decoder=deploy/kube-decode

log() { echo "[chart-check] $*" >&2; }

# Builds what the checks run, fetching modules as needed: CI runs this beside `npm ci`.
if [[ "${1:-}" == prepare ]]; then
  scripts/go-tools.sh bin helm >/dev/null
  scripts/go-tools.sh bin helm-unittest >/dev/null
  go -C "$decoder" build -o /dev/null .
  exit 0
fi

helm=$(scripts/go-tools.sh bin helm)
unittest=$(scripts/go-tools.sh bin helm-unittest)
work=$(mktemp -d "${TMPDIR:-/tmp}/chart-check.XXXXXX")
trap 'rm -rf "$work"' EXIT

GOPROXY=off GOFLAGS="${GOFLAGS:-} -mod=readonly" go -C "$decoder" build -o "$work/kube-decode" .
# The Kubernetes release of the API types the objects are decoded into (k8s.io/api v0.N.x is 1.N.x).
kube_version=$(sed -n 's/^[[:space:]]*k8s\.io\/api v0\.\([0-9]*\)\.\([0-9]*\)$/1.\1.\2/p' "$decoder/go.mod")
[[ -n "$kube_version" ]] || { log "$decoder/go.mod requires no k8s.io/api"; exit 1; }

examples=("$chart"/values-*.yaml)
[[ ${#examples[@]} -gt 0 && -f "${examples[0]}" ]] || { log "no values-*.yaml beside $chart"; exit 1; }
for values in "${examples[@]}"; do
  log "$(basename "$values"): lint, template, decode"
  "$helm" lint --strict --quiet --kube-version "$kube_version" "$chart" -f "$values" >&2
  "$helm" template rentals "$chart" --kube-version "$kube_version" -f "$values" >"$work/rendered.yaml"
  "$work/kube-decode" <"$work/rendered.yaml" >"$work/decoded.txt"
  log "  $(wc -l <"$work/decoded.txt") objects decoded"
done

# What would not start, or must never ship: each must be refused when the chart is rendered. Each
# line: the example it starts from, then the --set (or --set-json) that breaks it.
REFUSED=(
  "values-production.yaml --set form.frameAncestors="
  "values-production.yaml --set form.frameAncestors=*"
  "values-production.yaml --set publicBaseUrl="
  "values-production.yaml --set apps.gateway.replicaz=2"
  "values-production.yaml --set apps.form.env.FIELD_ENCRYPTION_KEYS=k1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="
  "values-production.yaml --set apps.properties.keda.minReplicaCount=0"
  "values-production.yaml --set apps.gateway.shutdown.terminationGracePeriodSeconds=12"
  "values-production.yaml --set-json networkPolicy.broker.to=[]"
  "values-development.yaml --set allowDevelopmentKeys=false"
  "values-development.yaml --set secrets.fieldEncryptionKeys="
  "values-development.yaml --set secrets.formSealingKeys=s1:c2hvcnQ="
  "values-development.yaml --set broker.users.form.password="
  "values-development.yaml --set broker.monitoringUser.password="
  "values-development.yaml --set database.users.form.password="
  "values-development.yaml --set database.url=mongodb://root:secret@mongodb.data.svc.cluster.local:27017"
  "values-development.yaml --set database.createUsers.adminUri="
)
for refused in "${REFUSED[@]}"; do
  read -r example flag setting <<<"$refused"
  if "$helm" template rentals "$chart" --kube-version "$kube_version" -f "$chart/$example" "$flag" "$setting" \
    >/dev/null 2>"$work/refusal.txt"; then
    log "$example with $flag $setting was accepted; it must be refused"
    exit 1
  fi
  log "refused: $example with $flag $setting"
done

log "helm-unittest"
"$unittest" --color=false "$chart" >&2
