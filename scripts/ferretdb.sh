#!/usr/bin/env bash
# FerretDB (a MongoDB-compatible server backed by SQLite) for tests and local runs.
#
#   scripts/ferretdb.sh install              build once into a cache, print the binary path
#   scripts/ferretdb.sh start <dir> <port>   start in the background, print its MongoDB URI
#   scripts/ferretdb.sh stop <dir>           stop the server started with <dir>
#
# The binary is built from Go's module proxy with the local Go toolchain and cached in
# ${FERRETDB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rental-applications}/ferretdb-<version>-p<patch level>/.
set -euo pipefail

FERRETDB_VERSION=v1.24.2
# Raised whenever the patches applied to the module source (patch_source) change, so that a binary
# cached by an earlier build is rebuilt rather than reused.
FERRETDB_PATCH_LEVEL=2
FERRETDB_MODULE=github.com/FerretDB/FerretDB
PATCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)/ferretdb-patches"
START_TIMEOUT_S=${FERRETDB_START_TIMEOUT:-30}
# SQLite's `synchronous` setting for FerretDB's databases (it runs them in WAL mode). With `full`
# (SQLite's default) every commit waits for an fsync of the log; FerretDB commits each write on its
# own, one at a time, so that fsync bounds every create
# (docs/benchmarks/2026-11-27-commits-without-fsync.md). With `normal` a commit is durable once
# written to the log: a crash of FerretDB loses nothing, a crash of the machine can lose the last
# moment's commits but never corrupts the database. That is what MongoDB itself promises by
# default (a standalone acknowledges a write before its journal, which it syncs every 100 ms), and
# this database is for tests and local runs.
SYNCHRONOUS=${FERRETDB_SYNCHRONOUS:-normal}
# What a delete or an update removes must leave the database files (an applicant's erased personal
# data above all, docs/integrators/api.md "Retention of personal data"), and SQLite keeps it otherwise: a row
# deleted or rewritten stays in the page's free space, and in the write-ahead log's frames past
# where the log starts over after a checkpoint. `secure_delete` overwrites the freed space with
# zeros; `journal_size_limit(0)` cuts the log back when it starts over, so that frames of earlier
# rounds, which hold rows as they were, do not outlive it. Measured on FerretDB 1.24.2: without
# the first, a deleted document's text is in the database file after a checkpoint; without the
# second, it is in the log's tail after megabytes of further writes; with both, in neither.
SQLITE_PRAGMAS="_pragma=synchronous($SYNCHRONOUS)&_pragma=secure_delete(1)&_pragma=journal_size_limit(0)"
STOP_TIMEOUT_S=10

prog=$(basename "$0")

usage() {
  cat <<EOF
Usage:
  $prog install              Build FerretDB $FERRETDB_VERSION once (needs Go) and print the binary path.
  $prog start <dir> <port>   Start FerretDB on 127.0.0.1:<port> with its data, state, log
                             (ferretdb.log) and pid file (ferretdb.pid) in <dir>, wait until it
                             accepts connections, and print its MongoDB URI.
  $prog stop <dir>           Stop the FerretDB started with <dir>.

Environment:
  FERRETDB_CACHE          cache directory (default \${XDG_CACHE_HOME:-\$HOME/.cache}/rental-applications)
  FERRETDB_START_TIMEOUT  seconds to wait for the port on start (default 30)
  FERRETDB_SYNCHRONOUS    SQLite's synchronous setting: normal (default) or full

Example:
  uri=\$($prog start /tmp/ferretdb 27017) && MONGODB_URI=\$uri npm test; $prog stop /tmp/ferretdb
EOF
}

die() {
  echo "$prog: $*" >&2
  exit 1
}

cache_dir() {
  echo "${FERRETDB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rental-applications}/ferretdb-$FERRETDB_VERSION-p$FERRETDB_PATCH_LEVEL"
}

# Applies scripts/ferretdb-patches/*.patch, in order, to the copied module source. Each patch
# says at its top what it changes and why; the main one makes reads, updates and deletes by
# `{_id: <string or ObjectId>}` use the unique `_id` index instead of scanning the table. To check
# a build: `db.runCommand({explain: {find: "<coll>", filter: {_id: "x"}}})` returns SQLite's plan
# in queryPlanner.Plan, `SEARCH ... USING INDEX` rather than `SCAN` (test/ferretdb-index.e2e-spec.ts).
patch_source() {
  local src="$1" file
  # A repository of its own, so that git applies the paths relative to the source even when the
  # cache lies inside another work tree.
  git -C "$src" init -q || die "git init in $src failed"
  for file in "$PATCH_DIR"/*.patch; do
    git -C "$src" apply "$file" >&2 ||
      die "applying $(basename "$file") to FerretDB $FERRETDB_VERSION failed"
  done
}

# Builds the binary into the cache if absent; prints its path (and nothing else) on stdout.
#
# Not `go install ...@version`: the module as published lacks the generated
# build/version/version.txt, so a binary built straight from it panics at startup. The module
# source is copied to a scratch directory, version.txt is written, and it is built there.
cmd_install() {
  local dir bin tmp moddir
  dir=$(cache_dir)
  bin="$dir/ferretdb"
  if [[ -x "$bin" ]]; then
    echo "$bin"
    return 0
  fi
  command -v go >/dev/null 2>&1 || die "Go is needed to build FerretDB (https://go.dev/dl/)"
  mkdir -p "$dir"
  # Build in a private temporary directory, then rename: an interrupted or failed build never
  # leaves a binary at the cached path.
  tmp=$(mktemp -d "$dir/.build.XXXXXX")
  # shellcheck disable=SC2064 # expand $tmp now
  trap "chmod -R u+w '$tmp' 2>/dev/null; rm -rf '$tmp'" EXIT
  echo "$prog: building FerretDB $FERRETDB_VERSION into $dir (once; takes 2 to 5 minutes on 2 cores)" >&2
  moddir=$(go mod download -json "$FERRETDB_MODULE@$FERRETDB_VERSION" |
    sed -n 's/^[[:space:]]*"Dir":[[:space:]]*"\(.*\)",\{0,1\}[[:space:]]*$/\1/p') ||
    die "go mod download $FERRETDB_MODULE@$FERRETDB_VERSION failed"
  [[ -n "$moddir" && -d "$moddir" ]] ||
    die "go mod download $FERRETDB_MODULE@$FERRETDB_VERSION gave no module directory"
  cp -R "$moddir" "$tmp/src"
  chmod -R u+w "$tmp/src"
  echo "$FERRETDB_VERSION" >"$tmp/src/build/version/version.txt"
  patch_source "$tmp/src"
  (cd "$tmp/src" && go build -buildvcs=false -o "$tmp/ferretdb" ./cmd/ferretdb) >&2 ||
    die "building FerretDB failed"
  "$tmp/ferretdb" --version >/dev/null 2>&1 ||
    die "the FerretDB binary that was built does not run ($tmp/ferretdb --version failed)"
  mv -f "$tmp/ferretdb" "$bin"
  chmod -R u+w "$tmp"
  rm -rf "$tmp"
  trap - EXIT
  echo "$bin"
}

# Succeeds while process $1 exists and is not a zombie (an exited child not yet reaped).
alive() {
  local state
  kill -0 "$1" 2>/dev/null || return 1
  if [[ -r "/proc/$1/stat" ]]; then
    state=$(sed 's/^.*) \([A-Za-z]\).*$/\1/' "/proc/$1/stat" 2>/dev/null) || return 0
    [[ "$state" != Z ]] || return 1
  fi
  return 0
}

port_open() {
  # Succeeds when something accepts TCP connections on 127.0.0.1:$1.
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# Prints the pid from <dir>/ferretdb.pid if that process is alive and is a ferretdb.
running_pid() {
  local pidfile="$1/ferretdb.pid" pid
  [[ -f "$pidfile" ]] || return 1
  pid=$(tr -dc '0-9' <"$pidfile")
  [[ -n "$pid" ]] || return 1
  alive "$pid" || return 1
  if [[ -r "/proc/$pid/cmdline" ]] && ! tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q ferretdb; then
    return 1 # stale pid file; the pid now belongs to something else
  fi
  echo "$pid"
}

cmd_start() {
  [[ $# -eq 2 ]] || { usage >&2; exit 2; }
  local dir="$1" port="$2" bin pid log waited=0
  if ! [[ "$port" =~ ^[0-9]{1,5}$ ]] || ((10#$port < 1 || 10#$port > 65535)); then
    die "invalid port: $port"
  fi
  port=$((10#$port))
  [[ "$SYNCHRONOUS" == normal || "$SYNCHRONOUS" == full ]] ||
    die "FERRETDB_SYNCHRONOUS must be normal or full, not '$SYNCHRONOUS'"
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd -P)
  log="$dir/ferretdb.log"
  if pid=$(running_pid "$dir"); then
    die "FerretDB is already running from $dir (pid $pid); run '$prog stop $dir' first"
  fi
  if port_open "$port"; then
    die "port $port on 127.0.0.1 is already in use"
  fi
  bin=$(cmd_install)
  mkdir -p "$dir/state"
  # Detached from our stdin/stdout so that callers using $(...) do not wait for the server.
  "$bin" \
    --handler=sqlite \
    --sqlite-url="file:$dir/?$SQLITE_PRAGMAS" \
    --state-dir="$dir/state" \
    --listen-addr="127.0.0.1:$port" \
    --telemetry=disable \
    --debug-addr=- \
    </dev/null >"$log" 2>&1 &
  pid=$!
  echo "$pid" >"$dir/ferretdb.pid"
  until port_open "$port"; do
    if ! alive "$pid"; then
      echo "$prog: FerretDB exited during startup; last lines of $log:" >&2
      tail -n 30 "$log" >&2 || true
      rm -f "$dir/ferretdb.pid"
      exit 1
    fi
    if ((waited >= START_TIMEOUT_S * 5)); then
      echo "$prog: FerretDB did not accept connections on 127.0.0.1:$port within ${START_TIMEOUT_S}s; last lines of $log:" >&2
      tail -n 30 "$log" >&2 || true
      kill "$pid" 2>/dev/null || true
      rm -f "$dir/ferretdb.pid"
      exit 1
    fi
    sleep 0.2
    waited=$((waited + 1))
  done
  echo "mongodb://127.0.0.1:$port/"
}

cmd_stop() {
  [[ $# -eq 1 ]] || { usage >&2; exit 2; }
  local dir="$1" pid i
  if ! pid=$(running_pid "$dir"); then
    rm -f "$dir/ferretdb.pid"
    echo "$prog: no FerretDB running from $dir" >&2
    return 0
  fi
  kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < STOP_TIMEOUT_S * 10; i++)); do
    alive "$pid" || break
    sleep 0.1
  done
  if alive "$pid"; then
    echo "$prog: FerretDB (pid $pid) did not stop within ${STOP_TIMEOUT_S}s; killing it" >&2
    kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -f "$dir/ferretdb.pid"
}

case "${1:-}" in
  install) shift; [[ $# -eq 0 ]] || { usage >&2; exit 2; }; cmd_install ;;
  start) shift; cmd_start "$@" ;;
  stop) shift; cmd_stop "$@" ;;
  -h | --help | help) usage ;;
  "") usage; exit 2 ;;
  *) echo "$prog: unknown command: $1" >&2; usage >&2; exit 2 ;;
esac
