#!/bin/bash
# Start Neo4j the way the official image does, as far as graphmem relies on it:
# - NEO4J_AUTH=neo4j/<password> sets the initial password (once), NEO4J_AUTH=none disables auth;
# - every NEO4J_<setting> becomes a neo4j.conf line: '_' is '.', '__' is '_', '___' is '-'
#   (NEO4J_server_memory_heap_max__size=1G -> server.memory.heap.max_size=1G);
# - data in /data, logs in /logs, listening on all interfaces at 7474/7687 unless configured.
set -euo pipefail

home=${NEO4J_HOME:-/var/lib/neo4j}
conf=$home/conf/neo4j.conf
classpath="$home/lib/*"

setting_name() { # NEO4J_server_memory_heap_max__size -> server.memory.heap.max_size
  local name=${1#NEO4J_}
  name=${name//___/-}
  name=${name//__/@}
  name=${name//_/.}
  printf '%s' "${name//@/_}"
}

write_config() {
  declare -A settings=(
    [server.default_listen_address]=0.0.0.0
    [server.directories.data]=/data
    [server.directories.logs]=/logs
    [server.directories.run]=$home/run
    [server.https.enabled]=false
    [dbms.security.auth_enabled]=$auth_enabled
  )
  local variable setting
  while IFS= read -r variable; do
    case $variable in NEO4J_AUTH | NEO4J_HOME | NEO4J_PASSWORD | NEO4J_ACCEPT_LICENSE_AGREEMENT) continue ;; esac
    setting=$(setting_name "$variable")
    [[ $setting == *.* ]] || continue # not a setting (e.g. a variable for the health check)
    settings[$setting]=${!variable}
  done < <(compgen -v NEO4J_)
  local connector # on the host network a moved port must also be the advertised one
  for connector in bolt http; do
    local listen=${settings[server.$connector.listen_address]:-}
    if [[ $listen == *:* && -z ${settings[server.$connector.advertised_address]:-} ]]; then
      settings[server.$connector.advertised_address]=:${listen##*:}
    fi
  done
  {
    echo "# Written by the image's entrypoint on every start from NEO4J_* variables."
    for setting in "${!settings[@]}"; do echo "$setting=${settings[$setting]}"; done | sort
  } >"$conf"
}

read -ra java_flags <"$home/jvm-flags" # the managed Neo4j's, declared in graphmem
java_flags+=(
  # the launcher script (not in the jars) turns the heap settings into these flags
  "-Xms${NEO4J_server_memory_heap_initial__size:-${NEO4J_server_memory_heap_max__size:-512m}}"
  "-Xmx${NEO4J_server_memory_heap_max__size:-512m}"
)

auth=${NEO4J_AUTH:-}
auth_enabled=true
if [[ $auth == none ]]; then
  auth_enabled=false
elif [[ -n $auth && $auth != neo4j/* ]]; then
  echo "NEO4J_AUTH must be neo4j/<password> or none" >&2
  exit 1
fi
write_config

if [[ $auth == neo4j/* && ! -e /data/dbms/auth.ini ]]; then
  NEO4J_CONF=$home/conf java -cp "$classpath" -Dbasedir="$home" \
    org.neo4j.server.startup.Neo4jAdminCommand dbms set-initial-password "${auth#neo4j/}" >/dev/null
fi

exec java "${java_flags[@]}" -cp "$home/conf/*:$classpath" org.neo4j.server.CommunityEntryPoint \
  --home-dir="$home" --config-dir="$home/conf" --console-mode
