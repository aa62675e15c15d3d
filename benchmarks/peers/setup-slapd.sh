#!/usr/bin/env bash
# Sets up a private OpenLDAP slapd (Debian's package) and starts it on ldap://127.0.0.1:SLAPD_PORT.
#   setup-slapd.sh [--help]
#
# 1. When slapd, slapadd or ldapwhoami is missing, installs the Debian packages slapd and ldap-utils with
#    apt-get (as root; APT=1 always runs it, APT=0 never). The package may start and enable its own system
#    slapd (ldap:/// on port 389): that instance is stopped by its pid and disabled; it is never used.
# 2. Under PEERS_DIR/slapd (PEERS_DIR defaults to ./.peers, which must be outside the checkout): a
#    slapd.conf with the schemas core, cosine, nis and inetorgperson, a back-mdb database for
#    dc=example,dc=com with equality indexes on INDEXES (objectClass and uid; "objectClass uid mail cn sn
#    givenName" are this server's shipped six, for an import side by side), "loglevel none" as Debian ships it
#    and the default 16 threads; the sample LDIF (USERS users, password "password") loaded with slapadd.
# 3. Starts slapd as the current user, listening on 127.0.0.1 only, and checks two binds.
#
# Re-running stops the previous private instance (by its pid file) and starts again from a fresh load.
# Root DN "cn=Directory Manager", password "password". Stop it with stop-peers.sh slapd.
# With TLS_CERT and TLS_KEY (a PEM chain, server certificate first, and its unencrypted PEM key: for a side-by-
# side run, this server's config/tls/server.pem and server-key.pem, so both present the same certificate),
# slapd also listens on ldaps://127.0.0.1:SLAPD_LDAPS_PORT and offers StartTLS, with Debian's defaults
# otherwise (GnuTLS; its session cache and tickets as built).
# Env: SLAPD_PORT=3389  SLAPD_LDAPS_PORT=3636  TLS_CERT  TLS_KEY  USERS=5000  INDEXES="objectClass uid"
#      PEERS_DIR=./.peers  APT (see 1.)
# Exit: 0 running and answering binds; 1 a step failed (the lines above say which); 2 usage, a work folder
# inside the checkout, or a port already taken.
set -euo pipefail
source "$(dirname "$0")/_lib.sh"
case "${1:-}" in
  -h|--help) usage; exit 0 ;;
  "") ;;
  *) die 2 "unknown argument '$1' (see --help)" ;;
esac
PORT=${SLAPD_PORT:-3389}
INDEX_CONF=$(slapd_index_conf "${INDEXES:-objectClass uid}") || exit 2
init_work_dir
WORK=$PEERS_DIR/slapd

missing=0
for tool in slapd slapadd slappasswd ldapwhoami; do command -v "$tool" >/dev/null || missing=1; done
if [[ "${APT:-$missing}" == 1 ]]; then
  (( EUID == 0 )) || die 2 "slapd and ldap-utils are not installed, and apt-get needs root: run as root or install them first."
  echo "installing slapd and ldap-utils with apt-get"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q >/dev/null || die 1 "apt-get update failed"
  apt-get install -y -q slapd ldap-utils >/dev/null || die 1 "apt-get install slapd ldap-utils failed"
fi
for tool in slapd slapadd slappasswd ldapwhoami; do
  command -v "$tool" >/dev/null || die 2 "$tool is not on the PATH (Debian: apt-get install slapd ldap-utils; or APT=1)"
done

# The package's own instance, if its maintainer scripts started one: stop and disable it.
if [[ -s /run/slapd/slapd.pid ]] && pid_alive "$(tr -dc '0-9' </run/slapd/slapd.pid)" slapd; then
  echo "stopping the system slapd started by the Debian package"
  kill -TERM "$(tr -dc '0-9' </run/slapd/slapd.pid)" 2>/dev/null || true
fi
if [[ -d /run/systemd/system ]]; then systemctl disable slapd >/dev/null 2>&1 || true
elif command -v update-rc.d >/dev/null; then update-rc.d slapd disable >/dev/null 2>&1 || true; fi

stop_pidfile "$WORK/slapd.pid" "$WORK/slapd.conf"
port_free "$PORT" || die 2 "something already listens on 127.0.0.1:$PORT; stop it or set SLAPD_PORT"
LDAPS_PORT=${SLAPD_LDAPS_PORT:-3636}
if [[ -n "${TLS_CERT:-}${TLS_KEY:-}" ]]; then
  [[ -r "${TLS_CERT:-}" && -r "${TLS_KEY:-}" ]] || die 2 "TLS_CERT and TLS_KEY must both name readable PEM files"
  port_free "$LDAPS_PORT" || die 2 "something already listens on 127.0.0.1:$LDAPS_PORT; stop it or set SLAPD_LDAPS_PORT"
fi
LDIF=$(users_ldif)
rm -rf "$WORK"; mkdir -p "$WORK/data" "$WORK/rootdn"
TLS_CONF=""
URLS="ldap://127.0.0.1:$PORT/"
if [[ -n "${TLS_CERT:-}" ]]; then
  # GnuTLS refuses an EC key whose encoding leaves out the public key ("ASN1 parser: Element was not found"),
  # as keys written by this server's first start did before 2026-11-24: delete config/tls and start it again.
  mkdir -p "$WORK/tls" && cp "$TLS_CERT" "$WORK/tls/server.pem"
  (umask 077; cp "$TLS_KEY" "$WORK/tls/server-key.pem")
  TLS_CONF="TLSCertificateFile $WORK/tls/server.pem
TLSCertificateKeyFile $WORK/tls/server-key.pem"
  URLS="$URLS ldaps://127.0.0.1:$LDAPS_PORT/"
fi

write_slapd_conf "$WORK" "$INDEX_CONF" "$TLS_CONF"
check=$(slaptest -u -f "$WORK/slapd.conf" 2>&1) || { echo "$check" >&2; die 1 "slaptest rejects $WORK/slapd.conf"; }
echo "loading $LDIF ($USERS users)"
t0=$(date +%s.%N)
slapadd -q -f "$WORK/slapd.conf" -b dc=example,dc=com -l "$LDIF" || die 1 "slapadd failed"
echo "slapadd -q loaded $USERS users in $(echo "$(date +%s.%N) - $t0" | bc) s"

"$(command -v slapd)" -f "$WORK/slapd.conf" -h "$URLS" || die 1 "slapd did not start"
wait_port "$PORT" 30 || die 1 "slapd does not listen on 127.0.0.1:$PORT"
echo "slapd pid $(cat "$WORK/slapd.pid") on $URLS (files in $WORK)"
last=$((USERS - 1))
ldapwhoami -x -H "ldap://127.0.0.1:$PORT" -D "uid=user.$last,ou=People,dc=example,dc=com" -w password \
  || die 1 "a bind as uid=user.$last fails"
ldapwhoami -x -H "ldap://127.0.0.1:$PORT" -D "cn=Directory Manager" -w password || die 1 "the root DN bind fails"
