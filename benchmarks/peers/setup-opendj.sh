#!/usr/bin/env bash
# Installs OpenDJ 5.0.3 (Open Identity Platform) once and starts it on ldap://127.0.0.1:OPENDJ_PORT.
#   setup-opendj.sh [--fresh] [--no-start] [--help]
#
# 1. Fetches org.openidentityplatform.opendj:opendj-server-legacy:5.0.3:zip (84 MB) from Maven Central
#    with Maven, once, into PEERS_DIR/dl (PEERS_DIR defaults to ./.peers, outside the checkout).
# 2. Unzips it into PEERS_DIR/opendj and runs its non-interactive setup: LDAP on OPENDJ_PORT, the
#    administration connector on OPENDJ_ADMIN_PORT (TLS with its own self-signed certificate; the LDAP
#    port gets no TLS), root DN "cn=Directory Manager" / "password", a JE backend for dc=example,dc=com
#    with the sample LDIF (USERS users, password "password") imported. This takes 1-2 minutes with little
#    output. Its listeners default to 0.0.0.0, so the offline config/config.ldif is then edited to
#    listen on 127.0.0.1 only. OpenDJ keeps its defaults otherwise, including its two access loggers
#    (text and JSON, about 0.8 GB of logs per million binds under PEERS_DIR/opendj/logs).
# 3. Starts it with its own bin/start-ds and checks a bind.
#
# An install made earlier by this script with the same ports and USERS is reused (only started);
# --fresh deletes it and installs again. --no-start stops after step 2. Stop it with stop-peers.sh opendj.
# Java: OpenDJ 5.0.3 is built for Java 11 and runs on 17; it uses OPENDJ_JAVA_HOME, else JAVA_HOME (this
# script passes it on), else java on the PATH. Its JVM keeps its default heap (a quarter of the RAM).
# With TLS_CERT and TLS_KEY (a PEM chain, server certificate first, and its unencrypted key: for a side-by-
# side run, this server's config/tls/server.pem and server-key.pem), OpenDJ also gets LDAPS on
# OPENDJ_LDAPS_PORT with that certificate (put in a PKCS#12 key store with openssl for its setup).
# Env: OPENDJ_PORT=1389  OPENDJ_ADMIN_PORT=4444  OPENDJ_LDAPS_PORT=1636  TLS_CERT  TLS_KEY  USERS=5000
#      PEERS_DIR=./.peers
# Exit: 0 installed (and running, unless --no-start); 1 a step failed (see the lines above, and
# PEERS_DIR/opendj/logs/errors); 2 usage, missing tools, a work folder inside the checkout, a port taken.
set -euo pipefail
source "$(dirname "$0")/_lib.sh"
fresh=0 start=1
for a in "$@"; do
  case "$a" in
    -h|--help) usage; exit 0 ;;
    --fresh) fresh=1 ;;
    --no-start) start=0 ;;
    *) die 2 "unknown argument '$a' (see --help)" ;;
  esac
done
PORT=${OPENDJ_PORT:-1389}
ADMIN_PORT=${OPENDJ_ADMIN_PORT:-4444}
VERSION=5.0.3
init_work_dir
WORK=$PEERS_DIR/opendj
PIDFILE=$WORK/logs/server.pid
SERVER_CLASS=org.opends.server.core.DirectoryServer
for tool in java unzip; do command -v "$tool" >/dev/null || die 2 "$tool is not on the PATH"; done
[[ -n "${OPENDJ_JAVA_HOME:-}" || -z "${JAVA_HOME:-}" ]] || export OPENDJ_JAVA_HOME=$JAVA_HOME

# What the install was made with: an install made otherwise is not reused.
LDAPS_PORT=${OPENDJ_LDAPS_PORT:-1636}
TLS_ARGS=()
if [[ -n "${TLS_CERT:-}${TLS_KEY:-}" ]]; then
  [[ -r "${TLS_CERT:-}" && -r "${TLS_KEY:-}" ]] || die 2 "TLS_CERT and TLS_KEY must both name readable PEM files"
  command -v openssl >/dev/null || die 2 "openssl is needed to give OpenDJ the certificate (apt-get install openssl)"
fi
SETTINGS="opendj=$VERSION ldap_port=$PORT admin_port=$ADMIN_PORT users=$USERS"
[[ -n "${TLS_CERT:-}" ]] && SETTINGS="$SETTINGS ldaps_port=$LDAPS_PORT cert=$(sha256sum <"$TLS_CERT" | cut -c1-16)"
if [[ $fresh == 0 && "$(cat "$WORK/.setup-settings" 2>/dev/null)" == "$SETTINGS" ]]; then
  pid=$(tr -dc '0-9' <"$PIDFILE" 2>/dev/null || true)
  if pid_alive "$pid" "$SERVER_CLASS"; then echo "OpenDJ already runs (pid $pid) on ldap://127.0.0.1:$PORT"; exit 0; fi
  echo "reusing the OpenDJ install in $WORK"
else
  stop_pidfile "$PIDFILE" "$SERVER_CLASS"
  for p in "$PORT" "$ADMIN_PORT"; do
    port_free "$p" || die 2 "something already listens on 127.0.0.1:$p; stop it or set OPENDJ_PORT / OPENDJ_ADMIN_PORT"
  done
  maven_fetch "org.openidentityplatform.opendj:opendj-server-legacy:$VERSION:zip" "opendj-server-legacy-$VERSION.zip"
  LDIF=$(users_ldif)
  rm -rf "$WORK" "$PEERS_DIR/opendj.unzip"
  unzip -q "$PEERS_DIR/dl/opendj-server-legacy-$VERSION.zip" -d "$PEERS_DIR/opendj.unzip"
  mv "$PEERS_DIR/opendj.unzip/opendj" "$WORK" && rmdir "$PEERS_DIR/opendj.unzip"
  printf 'password' >"$WORK/.rootpw"; chmod 600 "$WORK/.rootpw"
  if [[ -n "${TLS_CERT:-}" ]]; then
    port_free "$LDAPS_PORT" || die 2 "something already listens on 127.0.0.1:$LDAPS_PORT; set OPENDJ_LDAPS_PORT"
    openssl pkcs12 -export -in "$TLS_CERT" -inkey "$TLS_KEY" -name server-cert -passout file:"$WORK/.rootpw" \
        -out "$WORK/server.p12" || die 1 "openssl could not put $TLS_CERT and $TLS_KEY in a PKCS#12 key store"
    TLS_ARGS=(--ldapsPort "$LDAPS_PORT" --usePkcs12keyStore "$WORK/server.p12"
              --keyStorePasswordFile "$WORK/.rootpw" --certNickname server-cert)
  fi
  echo "running OpenDJ's setup and importing $LDIF (1-2 minutes)"
  "$WORK/setup" --cli --no-prompt --noPropertiesFile --acceptLicense \
      --hostname 127.0.0.1 --ldapPort "$PORT" --adminConnectorPort "$ADMIN_PORT" \
      --rootUserDN "cn=Directory Manager" --rootUserPasswordFile "$WORK/.rootpw" \
      --baseDN dc=example,dc=com --backendType je --ldifFile "$LDIF" --doNotStart ${TLS_ARGS[@]+"${TLS_ARGS[@]}"} \
    || die 1 "OpenDJ's setup failed; see its output above and $WORK/logs"
  sed -i 's/^ds-cfg-listen-address: 0\.0\.0\.0$/ds-cfg-listen-address: 127.0.0.1/' "$WORK/config/config.ldif"
  if grep -q '^ds-cfg-listen-address: 0\.0\.0\.0' "$WORK/config/config.ldif"; then
    die 1 "a listener in $WORK/config/config.ldif still binds 0.0.0.0"
  fi
  echo "$SETTINGS" >"$WORK/.setup-settings"
fi

[[ $start == 1 ]] || { echo "OpenDJ installed in $WORK, not started (--no-start)"; exit 0; }
port_free "$PORT" || die 2 "something else already listens on 127.0.0.1:$PORT"
"$WORK/bin/start-ds" --quiet || die 1 "OpenDJ did not start; see $WORK/logs/errors and $WORK/logs/server.out"
wait_port "$PORT" 60 || die 1 "OpenDJ does not listen on 127.0.0.1:$PORT; see $WORK/logs/errors"
echo "OpenDJ pid $(cat "$PIDFILE") on ldap://127.0.0.1:$PORT (files in $WORK)"
last=$((USERS - 1))
"$WORK/bin/ldapsearch" --hostname 127.0.0.1 --port "$PORT" \
    --bindDN "uid=user.$last,ou=People,dc=example,dc=com" --bindPassword password \
    --baseDN "uid=user.$last,ou=People,dc=example,dc=com" --searchScope base "(objectClass=*)" 1.1 \
  || die 1 "a bind and read as uid=user.$last fails"
