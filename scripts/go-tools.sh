#!/usr/bin/env bash
# Operators' tools that the chart, alert and fault checks run, each pinned, built once from Go's
# module proxy with the local Go toolchain and cached in
# ${GO_TOOLS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rental-applications}/go-tools/<tool>-<version>/.
#
#   scripts/go-tools.sh bin <tool>     build <tool> if it is not cached, print its binary's path
#   scripts/go-tools.sh install        build every tool (CI does this beside npm ci)
#
# Tools: helm, helm-unittest, promtool, toxiproxy-server.
set -euo pipefail

prog=$(basename "$0")

# tool -> "module/package@version"
declare -A PACKAGES=(
  [helm]=helm.sh/helm/v3/cmd/helm@v3.22.0
  [helm-unittest]=github.com/helm-unittest/helm-unittest/cmd/helm-unittest@v1.1.2
  [promtool]=github.com/prometheus/prometheus/cmd/promtool@v0.316.0
  [toxiproxy-server]=github.com/Shopify/toxiproxy/v2/cmd/server@v2.5.0
)

# The module of each tool whose go.mod has replace directives: `go install pkg@version` refuses
# those, so the tool is built inside its module's source instead, as its own go.mod says.
declare -A REPLACING_MODULES=(
  [helm-unittest]=github.com/helm-unittest/helm-unittest
)

die() {
  echo "$prog: $*" >&2
  exit 1
}

cache_root() {
  echo "${GO_TOOLS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rental-applications}/go-tools"
}

# Builds <package> (path@version) into the directory <into>.
build() {
  local tool=$1 package=$2 into=$3
  local module=${REPLACING_MODULES[$tool]:-}
  if [[ -z "$module" ]]; then
    GOBIN="$into" CGO_ENABLED=0 go install "$package"
    return
  fi
  local version=${package##*@} path=${package%@*} source
  source=$(go mod download -json "$module@$version" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
  [[ -d "$source" ]] || return 1
  # The module cache is read-only; the build may need to write go.sum.
  cp -R "$source" "$into/src" && chmod -R u+w "$into/src"
  (cd "$into/src" && CGO_ENABLED=0 go build -o "$into/$tool" "./${path#"$module"/}")
  rm -rf "$into/src"
}

# Prints the path of <tool>'s binary, building it first when it is not cached. A build goes to a
# scratch directory and is moved into place whole, so that two builds at once never leave half a
# binary behind.
tool_bin() {
  local tool=$1 package=${PACKAGES[$1]:-}
  [[ -n "$package" ]] || die "unknown tool '$tool' (known: ${!PACKAGES[*]})"
  command -v go >/dev/null 2>&1 || die "Go is needed to build $tool ($package)"
  local version=${package##*@}
  local dir
  dir="$(cache_root)/$tool-$version"
  if [[ ! -x "$dir/$tool" ]]; then
    mkdir -p "$(cache_root)"
    local scratch
    scratch=$(mktemp -d "$(cache_root)/.build-$tool.XXXXXX")
    echo "$prog: building $tool ($package)" >&2
    if ! build "$tool" "$package" "$scratch" >&2; then
      rm -rf "$scratch"
      die "could not build $tool ($package)"
    fi
    local built
    built=$(find "$scratch" -maxdepth 1 -type f -perm -u+x | head -n 1)
    [[ -n "$built" ]] || { rm -rf "$scratch"; die "go install $package left no binary"; }
    mkdir -p "$dir"
    mv -f "$built" "$dir/$tool.tmp.$$"
    mv -f "$dir/$tool.tmp.$$" "$dir/$tool"
    rm -rf "$scratch"
  fi
  echo "$dir/$tool"
}

case "${1:-}" in
  bin)
    [[ $# -eq 2 ]] || die "usage: $prog bin <tool>"
    tool_bin "$2"
    ;;
  install)
    for tool in "${!PACKAGES[@]}"; do tool_bin "$tool" >/dev/null; done
    ;;
  *)
    die "usage: $prog bin <tool> | $prog install"
    ;;
esac
