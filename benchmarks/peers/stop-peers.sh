#!/usr/bin/env bash
# Stops what the peer scripts started, each by the pid it recorded, and only if that pid still runs the
# expected program (a stale pid file never makes it signal another process).
#   stop-peers.sh [slapd] [opendj] [authrate]      (no argument: all three)
# slapd: PEERS_DIR/slapd/slapd.pid; OpenDJ: PEERS_DIR/opendj/logs/server.pid; a running AuthRate client:
# PEERS_DIR/authrate.pid. Each gets TERM (a clean shutdown), then KILL if it still runs 30 s later.
# Run it from the folder you ran the setup scripts from, or with the same PEERS_DIR.
# Exit: 0 nothing of ours runs any more; 2 usage.
set -euo pipefail
source "$(dirname "$0")/_lib.sh"
[[ "${1:-}" == -h || "${1:-}" == --help ]] && { usage; exit 0; }
for a in "$@"; do case "$a" in slapd|opendj|authrate) ;; *) die 2 "unknown server '$a' (slapd, opendj, authrate)" ;; esac; done
init_work_dir
targets=("$@")
(( ${#targets[@]} )) || targets=(authrate slapd opendj)
for w in "${targets[@]}"; do
  case "$w" in
    authrate) stop_pidfile "$PEERS_DIR/authrate.pid" com.unboundid.ldap.sdk.examples.AuthRate ;;
    slapd) stop_pidfile "$PEERS_DIR/slapd/slapd.pid" "$PEERS_DIR/slapd/slapd.conf" ;;
    opendj) stop_pidfile "$PEERS_DIR/opendj/logs/server.pid" org.opends.server.core.DirectoryServer ;;
  esac
done
