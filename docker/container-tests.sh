#!/bin/sh
# The container suite (README, after the ci:container-test-command marker). As root on a fresh
# machine it installs docker.io, debootstrap and docker-compose when missing, starts a Docker
# engine with no bridge and no firewall rules when none answers (containers use the host
# network, so test traffic stays on loopback), builds the offline images, runs the integration
# suite against graphmem's Neo4j image, then the compose test, and stops what it started.
# A step that fails prints one line naming it.
set -eu
cd "$(dirname "$0")/.."

LOG=${TMPDIR:-/tmp}/graphmem-container-tests.log
NEO4J_VERSION=$(python3 -c 'import json; print(json.load(open("graphmem/localdb/neo4j.lock.json"))["neo4j_version"])')
engine_pid=""
: >"$LOG"

say() { echo "container-tests: $*" >&2; }
fail() {
  say "step '$1' failed: $(grep -v '^[[:space:]]*$' "$LOG" | tail -1) (log: $LOG)"
  exit 1
}
stop_engine() {
  # test containers left by an interrupted run (Ryuk, which would reap them, cannot be pulled)
  leftovers=$(docker ps -aq --filter label=graphmem.test 2>/dev/null || true)
  [ -z "$leftovers" ] || docker rm -f $leftovers >/dev/null 2>&1 || true
  if [ -n "$engine_pid" ]; then
    kill "$engine_pid" 2>/dev/null || true
    while kill -0 "$engine_pid" 2>/dev/null; do sleep 0.5; done
    say "stopped the Docker engine it started"
  fi
}
trap stop_engine EXIT
trap 'exit 130' INT TERM # dash runs the EXIT trap on exit, not on a signal

missing=""
command -v dockerd >/dev/null || missing="$missing docker.io"
command -v docker >/dev/null || missing="$missing docker.io"
command -v debootstrap >/dev/null || missing="$missing debootstrap"
command -v docker-compose >/dev/null || missing="$missing docker-compose"
if [ -n "$missing" ]; then
  [ "$(id -u)" = 0 ] || { echo "needs root to install:$missing" >"$LOG"; fail "install$missing"; }
  say "installing$missing"
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing; } >>"$LOG" 2>&1 ||
    fail "install$missing"
fi

if ! docker info >/dev/null 2>&1; then
  [ "$(id -u)" = 0 ] || { echo "no Docker engine answers and starting one needs root" >"$LOG"; fail "start a Docker engine"; }
  dockerd --bridge=none --iptables=false --ip-masq=false >>"$LOG" 2>&1 &
  engine_pid=$!
  tries=0
  until docker info >/dev/null 2>&1; do
    tries=$((tries + 1))
    kill -0 "$engine_pid" 2>/dev/null && [ "$tries" -lt 60 ] || fail "start a Docker engine"
    sleep 0.5
  done
  say "started a Docker engine (no bridge, host network only)"
fi

sh docker/build-images.sh

say "integration suite against the container (graphmem/neo4j:$NEO4J_VERSION)"
env -u NEO4J_URI GRAPHMEM_TEST_NEO4J=docker GRAPHMEM_TEST_NEO4J_IMAGE="graphmem/neo4j:$NEO4J_VERSION" \
  python3 -m pytest -m integration -p no:cacheprovider
say "compose stack"
GRAPHMEM_CONTAINER_TESTS=1 python3 -m pytest -p no:cacheprovider -rs tests/containers
