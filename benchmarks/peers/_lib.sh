# Sourced by the scripts in benchmarks/peers/: where a run's files go, and the helpers they share.
#
# Everything the scripts create (downloads, the sample LDIF, the slapd and OpenDJ instances, logs, pid
# files) goes under PEERS_DIR, by default ./.peers in the folder you run them from. That folder must be
# outside the checkout, so that a run leaves nothing in the work tree: use a scratch folder such as
# ~/peerwork, or point PEERS_DIR elsewhere.
PEERS_HOME=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CHECKOUT=$(cd "$PEERS_HOME/../.." && pwd -P)
USERS=${USERS:-5000}

die() { local code=$1; shift; echo "$(basename "$0"): $*" >&2; exit "$code"; }

# Prints the leading comment block of the calling script (its --help text).
usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; }

# Sets PEERS_DIR to an absolute path outside the checkout and creates it.
init_work_dir() {
  PEERS_DIR=$(realpath -m "${PEERS_DIR:-$PWD/.peers}")
  case "$PEERS_DIR/" in
    "$CHECKOUT"/*) die 2 "the work folder $PEERS_DIR would be inside the checkout $CHECKOUT." \
                         "Run from a scratch folder (mkdir -p ~/peerwork && cd ~/peerwork) or set PEERS_DIR." ;;
  esac
  mkdir -p "$PEERS_DIR"
}

# pid_alive PID TEXT: PID runs and its command line contains TEXT (case-insensitive), so that a stale pid
# file never makes us signal a process that has reused the number.
pid_alive() {
  [[ -n "${1:-}" && -r /proc/$1/cmdline ]] || return 1
  tr '\0' ' ' <"/proc/$1/cmdline" | grep -qiF -- "$2"
}

# stop_pidfile FILE TEXT: TERM the pid recorded in FILE if it still runs TEXT, wait up to 30 s, then KILL.
stop_pidfile() {
  local file=$1 text=$2 pid
  [[ -s "$file" ]] || return 0
  pid=$(tr -dc '0-9' <"$file")
  if pid_alive "$pid" "$text"; then
    echo "stopping pid $pid ($file)"
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 60); do pid_alive "$pid" "$text" || break; sleep 0.5; done
    if pid_alive "$pid" "$text"; then
      echo "pid $pid did not stop within 30 s; sending KILL" >&2
      kill -KILL "$pid" 2>/dev/null || true
    fi
  fi
  rm -f "$file"
}

# wait_port PORT SECONDS: true once 127.0.0.1:PORT accepts a connection.
wait_port() {
  local port=$1 secs=${2:-60}
  for _ in $(seq 1 $((secs * 2))); do
    (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && return 0
    sleep 0.5
  done
  echo "nothing listens on 127.0.0.1:$port after ${secs} s" >&2
  return 1
}

# port_free PORT: true if nothing listens on 127.0.0.1:PORT yet.
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# maven_fetch GROUP:ARTIFACT:VERSION[:TYPE] FILE: FILE (under $PEERS_DIR/dl) from Maven Central, once.
maven_fetch() {
  local artifact=$1 file=$PEERS_DIR/dl/$2
  [[ -s "$file" ]] && return 0
  command -v mvn >/dev/null || die 2 "Maven (mvn) is needed to fetch $artifact from Maven Central."
  mkdir -p "$PEERS_DIR/dl"
  echo "fetching $artifact from Maven Central into $PEERS_DIR/dl (Maven also keeps a copy in ~/.m2)"
  local out
  out=$(cd "$PEERS_DIR/dl" && mvn -q -B org.apache.maven.plugins:maven-dependency-plugin:3.6.1:copy \
      -Dartifact="$artifact" -DoutputDirectory="$PEERS_DIR/dl" 2>&1) \
    || { echo "$out" >&2; die 1 "Maven could not fetch $artifact (is Maven Central reachable?)"; }
  [[ -s "$file" ]] || die 1 "Maven ran but $file is missing"
}

# users_ldif: the sample LDIF of USERS users ($PEERS_DIR/users-USERS.ldif), written on first use.
users_ldif() {
  local file=$PEERS_DIR/users-$USERS.ldif
  [[ -s "$file" ]] || python3 "$PEERS_HOME/make-users.py" "$USERS" "$file" >&2 || die 1 "could not write $file"
  echo "$file"
}

# slapd_index_conf "ATTRIBUTE ...": slapd.conf's equality index lines for those attributes (names checked).
slapd_index_conf() {
  local attribute
  for attribute in $1; do
    [[ $attribute =~ ^[A-Za-z][A-Za-z0-9-]*$ ]] || die 2 "INDEXES: '$attribute' is not an attribute name"
    echo "index $attribute eq"
  done
}

# write_slapd_conf DIR INDEX_CONF [TLS_CONF]: DIR/slapd.conf for a private slapd whose files are under DIR
# (DIR/data for dc=example,dc=com in back-mdb, DIR/rootdn for the root DN's password, the pid and args files).
# slapd accepts rootpw only for a root DN under the database's suffix, and "cn=Directory Manager" is not
# under dc=example,dc=com: its password lives in a tiny ldif database of its own, and the mdb database
# names it as its root DN.
write_slapd_conf() {
  local dir=$1 index_conf=$2 tls_conf=${3:-}
  cat >"$dir/slapd.conf" <<CONF
# Private benchmark instance written by benchmarks/peers/_lib.sh (write_slapd_conf)
include /etc/ldap/schema/core.schema
include /etc/ldap/schema/cosine.schema
include /etc/ldap/schema/nis.schema
include /etc/ldap/schema/inetorgperson.schema
pidfile  $dir/slapd.pid
argsfile $dir/slapd.args
modulepath /usr/lib/ldap
moduleload back_mdb
loglevel none
$tls_conf

database mdb
suffix "dc=example,dc=com"
rootdn "cn=Directory Manager"
directory $dir/data
maxsize 4294967296
$index_conf

access to attrs=userPassword
  by anonymous auth
  by self write
  by * none
access to *
  by * read

database ldif
suffix "cn=Directory Manager"
rootdn "cn=Directory Manager"
rootpw $(slappasswd -h '{SSHA}' -s password)
directory $dir/rootdn
CONF
}
