#!/bin/bash
# Healthy when the HTTP port answers Neo4j's discovery document (it lists the Bolt address).
set -euo pipefail
address=$(sed -n 's/^server\.http\.listen_address=//p' "${NEO4J_HOME:-/var/lib/neo4j}/conf/neo4j.conf" | tail -1)
host=${address%:*}
port=${address##*:}
[[ -z $host || $host == 0.0.0.0 ]] && host=127.0.0.1
exec 3<>"/dev/tcp/$host/${port:-7474}"
printf 'GET / HTTP/1.0\r\nHost: localhost\r\n\r\n' >&3
grep -q bolt <&3
