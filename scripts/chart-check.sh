#!/usr/bin/env bash
# The Helm chart's offline checks, which `npm test` runs (no cluster needed):
#
#   - `helm lint --strict` of the chart with every example values file (values-*.yaml);
#   - `helm template` of every example, each object decoded strictly into its Kubernetes API type
#     (KEDA's own for ScaledObject and TriggerAuthentication) by deploy/kube-decode, so that a
#     misspelled, misplaced or mistyped field fails;
#   - every example's admission, by deploy/kube-admission: each pod template against the Pod
#     Security Standards' restricted profile (latest), with the library the API server's Pod
#     Security admission runs, and each KEDA and Prometheus Operator object against its CRD's own
#     OpenAPI schema, from the CRD files those projects' Go modules ship (CRD_MODULES below);
#     and a deliberately broken example of each (BROKEN below), each refused;
#   - the values the schema must refuse (REFUSED below), each refused;
#   - the chart's helm-unittest tests (deploy/helm/rental-applications/tests/).
#
# helm and helm-unittest come from scripts/go-tools.sh; kube-decode and kube-admission are built
# from their own go.mod, without the network (CI fetched their modules and the CRDs' beside
# `npm ci`, `scripts/chart-check.sh prepare`). scripts/kube-apiserver.sh takes the same examples
# through a real API server (not in CI).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
chart=deploy/helm/rental-applications
decoder=deploy/kube-decode
admission=deploy/kube-admission
# The module of each CRD file: KEDA's at the release whose API types kube-decode decodes into; the
# Prometheus Operator's at v0.85.0, the newest release of its main module (which alone ships the
# CRD files) that the module proxy serves, while its API types' module is at v0.95.2.
keda_version=$(sed -n 's/^[[:space:]]*github\.com\/kedacore\/keda\/v2 \(v[0-9.]*\)$/\1/p' "$decoder/go.mod")
CRD_MODULES=(
  "github.com/kedacore/keda/v2@$keda_version config/crd/bases/keda.sh_scaledobjects.yaml"
  "github.com/kedacore/keda/v2@$keda_version config/crd/bases/keda.sh_triggerauthentications.yaml"
  "github.com/prometheus-operator/prometheus-operator@v0.85.0 example/prometheus-operator-crd/monitoring.coreos.com_prometheusrules.yaml"
)

log() { echo "[chart-check] $*" >&2; }

# Builds what the checks run, fetching modules as needed: CI runs this beside `npm ci`.
if [[ "${1:-}" == prepare ]]; then
  scripts/go-tools.sh bin helm >/dev/null
  scripts/go-tools.sh bin helm-unittest >/dev/null
  go -C "$decoder" build -o /dev/null .
  go -C "$admission" build -o /dev/null .
  for crd in "${CRD_MODULES[@]}"; do go mod download "${crd%% *}"; done
  exit 0
fi

helm=$(scripts/go-tools.sh bin helm)
unittest=$(scripts/go-tools.sh bin helm-unittest)
work=$(mktemp -d "${TMPDIR:-/tmp}/chart-check.XXXXXX")
trap 'rm -rf "$work"' EXIT

GOPROXY=off GOFLAGS="${GOFLAGS:-} -mod=readonly" go -C "$decoder" build -o "$work/kube-decode" .
GOPROXY=off GOFLAGS="${GOFLAGS:-} -mod=readonly" go -C "$admission" build -o "$work/kube-admission" .
crd_flags=()
for crd in "${CRD_MODULES[@]}"; do
  dir=$(GOPROXY=off go mod download -json "${crd%% *}" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
  [[ -f "$dir/${crd#* }" ]] || { log "no ${crd#* } in ${crd%% *}"; exit 1; }
  crd_flags+=(--crd "$dir/${crd#* }")
done
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
  "$work/kube-admission" "${crd_flags[@]}" <"$work/rendered.yaml" >"$work/admitted.txt" ||
    { cat "$work/admitted.txt" >&2; exit 1; }
  log "  $(grep -c '^allowed: ' "$work/admitted.txt") objects admitted ($(grep -c 'pod security restricted' "$work/admitted.txt") pod templates restricted)"
done

# What admission must refuse: each line, an example, then a sed expression that breaks the first
# object it reaches of the kind named last, checked by the check named in its refusal.
BROKEN=(
  "values-production.yaml|0,/allowPrivilegeEscalation: false/s//allowPrivilegeEscalation: true/|pod security restricted"
  "values-production.yaml|0,/runAsNonRoot: true/s//runAsNonRoot: false/|pod security restricted"
  "values-development.yaml|0,/minReplicaCount:/s//minReplicaCountt:/|schema of scaledobjects.keda.sh"
  "values-development.yaml|0,/pollingInterval: \([0-9]*\)/s//pollingInterval: '\1s'/|schema of scaledobjects.keda.sh"
  "values-development.yaml|0,/      for: /s//      for: often /|schema of prometheusrules.monitoring.coreos.com"
  "values-development.yaml|0,/secretTargetRef:/s//secretTargetRefs:/|schema of triggerauthentications.keda.sh"
)
for broken in "${BROKEN[@]}"; do
  IFS='|' read -r example expression check <<<"$broken"
  "$helm" template rentals "$chart" --kube-version "$kube_version" -f "$chart/$example" |
    sed "$expression" >"$work/broken.yaml"
  if "$work/kube-admission" "${crd_flags[@]}" <"$work/broken.yaml" >"$work/refusal.txt" 2>&1; then
    log "$example broken by $expression was admitted; it must be refused"
    exit 1
  fi
  grep -q "^refused: .* ($check): " "$work/refusal.txt" ||
    { log "$example broken by $expression was not refused by $check:"; cat "$work/refusal.txt" >&2; exit 1; }
  log "refused by $check: $example with $expression"
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
  "values-development.yaml --set database.createUsers.adminSecret.name="
  "values-development.yaml --set database.createUsers.adminUri=mongodb://root:secret@mongodb.data.svc.cluster.local:27017/admin"
  "values-production.yaml --set-json networkPolicy.webhooksExcept=[]"
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
