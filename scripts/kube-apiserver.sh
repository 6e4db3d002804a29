#!/usr/bin/env bash
# The chart through a real Kubernetes API server's admission, on this machine, with no cluster:
#
#   scripts/kube-apiserver.sh build    build kube-apiserver and etcd once into the cache
#   scripts/kube-apiserver.sh check    start them on loopback, install the CRDs, label a namespace
#                                      restricted (enforce, warn, audit), apply every example's
#                                      rendered output, print every warning and refusal, stop them
#
# Not part of CI: the build takes tens of minutes on two cores (docs/operators/containers.md, "The chart
# through a real API server", records its time and what the shipped examples got). Built once, a
# check takes about a minute.
#
# kube-apiserver is built from k8s.io/kubernetes, whose go.mod points each k8s.io/... staging
# module at its own tree; here each points at its published version of the same release instead.
# etcd is built from its etcdmain package. Both go to
# ${GO_TOOLS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rental-applications}/kube-apiserver/<version>/.
# kubectl is the newest installed one (google-cloud-sdk ships several), or KUBECTL.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$(pwd -P)
prog=$(basename "$0")
chart=deploy/helm/rental-applications

# The release of the API types the chart's checks decode into (deploy/kube-decode/go.mod).
KUBERNETES_VERSION=v1.37.2
# The etcd release that Kubernetes release names in its build/dependencies.yaml.
ETCD_VERSION=v3.7.0

log() { echo "[$prog] $*" >&2; }
die() {
  log "$*"
  exit 1
}

cache=${GO_TOOLS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rental-applications}/kube-apiserver/$KUBERNETES_VERSION
apiserver_bin=$cache/kube-apiserver
etcd_bin=$cache/etcd

# Writes a module in <dir> that builds <package> of k8s.io/kubernetes, each staging module replaced
# by its published version (v0.N.x for Kubernetes 1.N.x).
kubernetes_module() {
  local dir=$1 mod staging_version=v0.${KUBERNETES_VERSION#v1.}
  mod=$(go mod download -json "k8s.io/kubernetes@$KUBERNETES_VERSION" | sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",$/\1/p')
  [[ -f "$mod" ]] || die "could not download k8s.io/kubernetes@$KUBERNETES_VERSION"
  {
    echo "module kube-apiserver-build"
    echo
    sed -n 's/^go \(.*\)$/go \1/p' "$mod"
    echo
    echo "require k8s.io/kubernetes $KUBERNETES_VERSION"
    echo
    sed -n 's|^[[:space:]]*\(k8s\.io/[a-z0-9-]*\) => \./staging/src/.*$|replace \1 => \1 '"$staging_version"'|p' "$mod"
  } >"$dir/go.mod"
  grep -q '^replace k8s.io/api ' "$dir/go.mod" || die "found no staging module in k8s.io/kubernetes@$KUBERNETES_VERSION's go.mod"
}

build() {
  command -v go >/dev/null 2>&1 || die "Go is needed to build kube-apiserver and etcd"
  mkdir -p "$cache"
  local work
  work=$(mktemp -d "$cache/.build.XXXXXX")
  # shellcheck disable=SC2064 # the scratch directory is known now
  trap "rm -rf '$work'" EXIT
  if [[ ! -x "$apiserver_bin" ]]; then
    log "building kube-apiserver $KUBERNETES_VERSION (tens of minutes on two cores)"
    mkdir "$work/kubernetes"
    kubernetes_module "$work/kubernetes"
    (
      cd "$work/kubernetes"
      go get -tool "k8s.io/kubernetes/cmd/kube-apiserver@$KUBERNETES_VERSION"
      CGO_ENABLED=0 go build -trimpath -o "$work/kube-apiserver" k8s.io/kubernetes/cmd/kube-apiserver
    )
    mv -f "$work/kube-apiserver" "$apiserver_bin"
  fi
  if [[ ! -x "$etcd_bin" ]]; then
    log "building etcd $ETCD_VERSION"
    mkdir "$work/etcd"
    (
      cd "$work/etcd"
      printf 'module etcd-build\n\ngo 1.26\n' >go.mod
      printf 'package main\n\nimport (\n\t"os"\n\n\t"go.etcd.io/etcd/server/v3/etcdmain"\n)\n\nfunc main() { etcdmain.Main(os.Args) }\n' >main.go
      go get "go.etcd.io/etcd/server/v3@$ETCD_VERSION"
      go mod tidy
      CGO_ENABLED=0 go build -trimpath -o "$work/etcd-bin" .
    )
    mv -f "$work/etcd-bin" "$etcd_bin"
  fi
  log "built: $apiserver_bin, $etcd_bin"
}

# The newest kubectl installed: KUBECTL, else google-cloud-sdk's kubectl.1.N, else kubectl.
find_kubectl() {
  if [[ -n "${KUBECTL:-}" ]]; then
    echo "$KUBECTL"
    return
  fi
  local newest
  newest=$(find /usr/lib/google-cloud-sdk/bin -maxdepth 1 -name 'kubectl.1.*' 2>/dev/null | sort -t. -k3 -n | tail -n 1)
  if [[ -n "$newest" ]]; then echo "$newest"; else command -v kubectl || die "no kubectl installed (set KUBECTL)"; fi
}

free_port() {
  node -e 'const s = require("net").createServer(); s.listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });'
}

wait_for() {
  local what=$1 i
  shift
  for ((i = 0; i < 120; i++)); do
    "$@" >/dev/null 2>&1 && return 0
    sleep 1
  done
  die "$what did not come up within 120 s (logs in $work)"
}

# Runs <command>, printing its output whole (every warning and refusal), and counts a failure.
report() {
  local title=$1 output
  shift
  echo "== $title"
  if output=$("$@" 2>&1); then
    printf '%s\n' "$output"
  else
    printf '%s\n' "$output"
    echo "!! refused"
    refusals=$((refusals + 1))
  fi
}

# The CRDs the chart's objects need, from the modules scripts/chart-check.sh takes them from.
crd_files() {
  local keda_version crd
  keda_version=$(sed -n 's/^[[:space:]]*github\.com\/kedacore\/keda\/v2 \(v[0-9.]*\)$/\1/p' deploy/kube-decode/go.mod)
  for crd in "github.com/kedacore/keda/v2@$keda_version config/crd/bases/keda.sh_scaledobjects.yaml" \
    "github.com/kedacore/keda/v2@$keda_version config/crd/bases/keda.sh_triggerauthentications.yaml" \
    "github.com/prometheus-operator/prometheus-operator@v0.85.0 example/prometheus-operator-crd/monitoring.coreos.com_prometheusrules.yaml"; do
    echo "$(go mod download -json "${crd%% *}" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')/${crd#* }"
  done
}

start_servers() {
  local etcd_port peer_port api_port token
  etcd_port=$(free_port) peer_port=$(free_port) api_port=$(free_port)
  "$etcd_bin" --data-dir "$work/etcd" --listen-client-urls "http://127.0.0.1:$etcd_port" \
    --advertise-client-urls "http://127.0.0.1:$etcd_port" --listen-peer-urls "http://127.0.0.1:$peer_port" \
    --initial-advertise-peer-urls "http://127.0.0.1:$peer_port" \
    --initial-cluster "default=http://127.0.0.1:$peer_port" >"$work/etcd.log" 2>&1 &
  pids+=($!)
  openssl genrsa -out "$work/service-account.key" 2048 2>/dev/null
  token=$(od -An -tx1 -N16 /dev/urandom | tr -d ' \n')
  echo "$token,admin,admin,system:masters" >"$work/tokens.csv"
  "$apiserver_bin" --etcd-servers "http://127.0.0.1:$etcd_port" --bind-address 127.0.0.1 \
    --advertise-address 127.0.0.1 --endpoint-reconciler-type none --secure-port "$api_port" --cert-dir "$work/certs" \
    --token-auth-file "$work/tokens.csv" --authorization-mode RBAC \
    --service-account-key-file "$work/service-account.key" \
    --service-account-signing-key-file "$work/service-account.key" \
    --service-account-issuer https://kubernetes.default.svc --service-cluster-ip-range 10.96.0.0/16 \
    >"$work/kube-apiserver.log" 2>&1 &
  pids+=($!)
  printf '%s\n' 'apiVersion: v1' 'kind: Config' 'current-context: local' \
    "clusters: [{name: local, cluster: {server: \"https://127.0.0.1:$api_port\", insecure-skip-tls-verify: true}}]" \
    "users: [{name: admin, user: {token: \"$token\"}}]" \
    'contexts: [{name: local, context: {cluster: local, user: admin}}]' >"$work/kubeconfig"
  export KUBECONFIG=$work/kubeconfig
  wait_for kube-apiserver "$kubectl" get --raw /readyz
  log "kube-apiserver $("$apiserver_bin" --version | cut -d' ' -f2) on 127.0.0.1:$api_port, etcd $ETCD_VERSION on 127.0.0.1:$etcd_port, $("$kubectl" version --client | head -n 1)"
}

check() {
  [[ -x "$apiserver_bin" && -x "$etcd_bin" ]] || die "not built yet: run $prog build first (tens of minutes)"
  command -v openssl >/dev/null 2>&1 || die "openssl is needed for the API server's service account key"
  local helm admission namespace=rentals crd values example
  kubectl=$(find_kubectl)
  helm=$(scripts/go-tools.sh bin helm)
  work=$(mktemp -d "${TMPDIR:-/tmp}/kube-apiserver.XXXXXX")
  pids=()
  trap 'for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done; wait; rm -rf "$work"' EXIT
  go -C deploy/kube-admission build -o "$work/kube-admission" .
  admission=$work/kube-admission
  start_servers

  refusals=0
  while read -r crd; do
    report "CRD $(basename "$crd")" "$kubectl" apply --server-side -f "$crd"
  done < <(crd_files)
  "$kubectl" wait --for condition=established --timeout 60s crd --all >/dev/null
  "$kubectl" create namespace "$namespace" >/dev/null
  # No controller manager runs to make it, and a Pod is refused without its service account.
  "$kubectl" create serviceaccount default -n "$namespace" >/dev/null
  "$kubectl" label namespace "$namespace" >/dev/null \
    pod-security.kubernetes.io/enforce=restricted pod-security.kubernetes.io/enforce-version=latest \
    pod-security.kubernetes.io/warn=restricted pod-security.kubernetes.io/warn-version=latest \
    pod-security.kubernetes.io/audit=restricted pod-security.kubernetes.io/audit-version=latest

  for values in "$chart"/values-*.yaml; do
    example=$(basename "$values")
    "$helm" template rentals "$chart" --namespace "$namespace" --kube-version "${KUBERNETES_VERSION#v}" -f "$values" \
      >"$work/$example.rendered.yaml"
    "$admission" --pods <"$work/$example.rendered.yaml" >"$work/$example.pods.yaml"
    report "$example: apply --dry-run=server" \
      "$kubectl" apply -n "$namespace" --validate=strict --dry-run=server -f "$work/$example.rendered.yaml"
    report "$example: apply" "$kubectl" apply -n "$namespace" --validate=strict -f "$work/$example.rendered.yaml"
    report "$example: each pod template as a bare Pod, --dry-run=server" \
      "$kubectl" apply -n "$namespace" --validate=strict --dry-run=server -f "$work/$example.pods.yaml"
    report "$example: delete" "$kubectl" delete -n "$namespace" --wait=false -f "$work/$example.rendered.yaml"
  done
  echo "== $refusals refused"
  [[ $refusals -eq 0 ]]
}

case "${1:-}" in
  build) build ;;
  check) check ;;
  *) die "usage: $prog build | check" ;;
esac
