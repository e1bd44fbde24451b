#!/bin/sh
# Chromium for the Neo4j Browser test (Debian's package; no browser download). Where it cannot
# be installed (not root, no apt-get), the test skips and says why; this script never fails.
command -v chromium >/dev/null 2>&1 && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  { apt-get install -y -qq chromium || { apt-get update -qq && apt-get install -y -qq chromium; }; } \
    >/dev/null 2>&1 || echo "chromium could not be installed: the Browser test will skip" >&2
else
  echo "no chromium, and no root apt-get to install it: the Browser test will skip" >&2
fi
exit 0
