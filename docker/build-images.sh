#!/bin/sh
# Build graphmem's images with no image registry (run as root, with a Docker engine running and
# graphmem installed, e.g. in the project's .venv):
#   graphmem/debian:bookworm  a Debian base made from Debian packages (debootstrap + docker import)
#   graphmem/neo4j:<version>  Neo4j Community from the jars pinned in neo4j.lock.json, Debian's Java
#   graphmem/graphmem:local   graphmem's Dockerfile on that base, from wheels built on this host
# A step that fails prints one line naming it (the whole output stays in the log it names).
# GRAPHMEM_DEBIAN_MIRROR picks the Debian mirror; GRAPHMEM_REBUILD_BASE=1 remakes the base.
set -eu
cd "$(dirname "$0")/.."

BASE_IMAGE=graphmem/debian:bookworm
NEO4J_VERSION=$(python3 -c 'import json; print(json.load(open("graphmem/localdb/neo4j.lock.json"))["neo4j_version"])')
NEO4J_IMAGE=graphmem/neo4j:$NEO4J_VERSION
GRAPHMEM_IMAGE=graphmem/graphmem:local
MIRROR=${GRAPHMEM_DEBIAN_MIRROR:-http://deb.debian.org/debian}
LOG=${TMPDIR:-/tmp}/graphmem-build-images.log

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
: >"$LOG"

step() { # step NAME COMMAND...: run it, output to the log; on failure one line naming the step
  name=$1
  shift
  began=$(date +%s)
  echo "== $name" >>"$LOG"
  if "$@" >>"$LOG" 2>&1; then
    echo "build-images: $name: done in $(($(date +%s) - began)) s"
  else
    reason=$(grep -v '^[[:space:]]*$' "$LOG" | tail -1)
    echo "build-images: step '$name' failed: $reason (log: $LOG)" >&2
    exit 1
  fi
}

# The steps run inside `if` (see step), where `set -e` does not apply: each chains with &&.
base_image() { # the root file system is archived first: a pipe would hide a failing tar
  debootstrap --variant=minbase bookworm "$work/rootfs" "$MIRROR" &&
    tar -C "$work/rootfs" -cf "$work/rootfs.tar" . &&
    docker import "$work/rootfs.tar" "$BASE_IMAGE"
}

neo4j_context() {
  home=$(graphmem neo4j fetch) && [ -d "$home/lib" ] &&
    mkdir -p "$work/neo4j" &&
    cp -rL "$home/lib" "$work/neo4j/lib" &&
    cp docker/neo4j/Dockerfile docker/neo4j/entrypoint.sh docker/neo4j/healthcheck.sh "$work/neo4j/" &&
    python3 -c 'from graphmem.localdb.server import JVM_FLAGS; print(*JVM_FLAGS)' >"$work/neo4j/jvm-flags"
}

graphmem_wheels() { # compiled wheels must match the image's Python (Debian bookworm: 3.11)
  python3 -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))' ||
    { echo "the wheels must be built with Python 3.11, the image's; python3 is $(python3 -V)"; return 1; }
  rm -f docker/wheels/*.whl &&
    python3 -m pip wheel --quiet --wheel-dir docker/wheels .
}

if [ "${GRAPHMEM_REBUILD_BASE:-0}" = 1 ] || ! docker image inspect "$BASE_IMAGE" >/dev/null 2>&1; then
  step "debian base image ($BASE_IMAGE, debootstrap from $MIRROR)" base_image
fi
step "neo4j jars (pinned, SHA-256 checked)" neo4j_context
step "neo4j image ($NEO4J_IMAGE)" docker build --network host --build-arg BASE="$BASE_IMAGE" \
  --tag "$NEO4J_IMAGE" "$work/neo4j"
step "graphmem wheels (docker/wheels)" graphmem_wheels
step "graphmem image ($GRAPHMEM_IMAGE)" docker build --network host --build-arg BASE="$BASE_IMAGE" \
  --tag "$GRAPHMEM_IMAGE" .
docker image ls --format '{{.Repository}}:{{.Tag}} {{.Size}}' | grep '^graphmem/' | sed 's/^/build-images: /'
