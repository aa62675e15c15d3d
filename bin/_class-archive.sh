# Sourced by bin/_common.sh: a class-data archive per tool, so that a tool's JVM maps the classes it loads
# (the SDK's, the storage's, the server's, the JDK's) from one file instead of reading, parsing and verifying them
# from the jars on every start: bin/status took ~0.87 s without one, ~0.66 s with one (JDK 17; 25 alike).
#
# How: the first run of a tool after a build lists the classes it loads (-XX:DumpLoadedClassList; the JVM writes
# the list as it loads them, so nothing is left to do at exit: a run that ends, fails or is killed keeps its own
# exit status). A later run, once that first one is gone, takes the list (an atomic rename: one run does it), has a
# JVM of its own write the archive from it (-Xshare:dump, ~1.2-1.8 s, once) and moves the archive into place only
# when that JVM succeeded; a run from then on maps it (-XX:SharedArchiveFile). A tool's JVM never writes an
# archive, so it never maps a half-written one nor fails at exit for want of disk. A dump that fails leaves a
# marker, so that it is not tried again on every other run.
# An archive is named after the tool and a checksum of what decides whether a JVM can use it: the java binary,
# the JDK's build (its release file's version, the size and date of libjvm.so and of the class image), the tools'
# jars (names, sizes, dates) and the JVM options that shape the heap (its size, the collector, compressed
# pointers, object headers), the environment's JDK_JAVA_OPTIONS and JAVA_TOOL_OPTIONS included. A JVM given an
# archive that does not fit ignores it (JDK 17) or says so on every start (JDK 24 and later): with all of that in
# the name, it is never given one. Files of an older build (a jar or the JDK newer than them) are deleted. Where the
# build's folder cannot be written, a tool runs as before. Only for the JDKs this was tried on (17 to 25): the
# options are the JVM's own, and a JVM refuses to start on one it no longer knows. Nothing when the options deal
# with class sharing themselves, or CLASS_ARCHIVE=off. What the first run loads is what the archive holds: a
# first run that stopped early (a usage error) makes a small one, until the next build.

# class_archive_options MAIN CLASSPATH JVM_OPTIONS...: the JVM options that use MAIN's archive or list its
# classes, one per line, or nothing.
class_archive_options() {
  local main=$1 cp=$2
  shift 2
  [[ ${CLASS_ARCHIVE:-on} != off ]] || return 0
  local java_bin java_home version
  java_bin=$(readlink -f "$(command -v java)") || return 0
  java_home=$(dirname "$(dirname "$java_bin")")
  version=$(sed -n 's/^JAVA_VERSION="\(.*\)"$/\1/p' "$java_home/release" 2>/dev/null || true)
  [[ $version =~ ^(1[7-9]|2[0-5])([.+-]|$) ]] || return 0
  local opt fit=()
  for opt in "$@"; do
    case $opt in
      -Xshare:* | -XX:SharedArchiveFile=* | -XX:ArchiveClassesAtExit=* | -XX:DumpLoadedClassList=* | \
      -XX:SharedClassListFile=* | -XX:[+-]AutoCreateSharedArchive | -XX:*AOT*)
        return 0 ;;
      -Xmx* | -Xms* | -XX:MaxHeapSize=* | -XX:InitialHeapSize=* | -XX:*RAM* | -XX:[+-]Use*GC | \
      -XX:[+-]UseCompressed* | -XX:[+-]UseCompactObjectHeaders | -XX:ObjectAlignmentInBytes=*)
        fit+=("$opt") ;;
    esac
  done
  local dir="$TOOLS_JAR_DIR/class-archives" tool=${main##*.} key
  key=$( {
    printf '%s\n' "$java_bin" "${JDK_JAVA_OPTIONS:-}" "${JAVA_TOOL_OPTIONS:-}" ${fit[@]+"${fit[@]}"}
    grep '^JAVA_' "$java_home/release" || true
    stat -L -c '%n %s %Y' "$java_home/lib/server/libjvm.so" "$java_home/lib/modules" "$TOOLS_JAR_DIR"/*.jar \
      "$TOOLS_JAR_DIR"/lib/*.jar || true     # what is missing is left out
  } 2>/dev/null | cksum | cut -d ' ' -f 1)
  local archive="$dir/$tool.$key.jsa"
  class_archive_tidy "$dir" "$tool" "$java_home"

  local list pid taken=
  for list in "$dir/$tool.$key.classlist."*; do
    [[ -f $list ]] || continue
    pid=${list##*.}
    [[ $pid =~ ^[0-9]+$ && -d /proc/$pid ]] && continue      # its run still loads classes and lists them
    if [[ -z $taken && ! -f $archive ]] && mv "$list" "$dir/.dump.$$.classlist" 2>/dev/null; then
      taken=yes
    else
      rm -f "$list" 2>/dev/null || true     # another user's, in a folder shared with them: left
    fi
  done
  if [[ -n $taken ]]; then
    local limit=()
    ! command -v timeout >/dev/null || limit=(timeout 60)
    if ${limit[@]+"${limit[@]}"} java ${fit[@]+"${fit[@]}"} -Xshare:dump \
          -XX:SharedClassListFile="$dir/.dump.$$.classlist" -XX:SharedArchiveFile="$dir/.dump.$$.jsa" \
          -cp "$cp" </dev/null >/dev/null 2>&1; then
      mv -f "$dir/.dump.$$.jsa" "$archive" 2>/dev/null || true
    else
      : >"$dir/$tool.$key.failed" 2>/dev/null || true
    fi
    rm -f "$dir/.dump.$$.classlist" "$dir/.dump.$$.jsa" 2>/dev/null || true
  fi

  if [[ -f $archive ]]; then
    echo "-XX:SharedArchiveFile=$archive"
  elif [[ ! -f $dir/$tool.$key.failed ]] && mkdir -p "$dir" 2>/dev/null && [[ -w $dir ]]; then
    # $$: the tool's pid, as run_tool execs it
    echo "-XX:DumpLoadedClassList=$dir/$tool.$key.classlist.$$"
  fi
}

# class_archive_tidy DIR TOOL JAVA_HOME: deletes TOOL's archives, class lists and failed-dump markers older than a
# jar or the JDK, what a dump left behind when it was killed, and the archives of the scheme before this one
# (written at exit).
class_archive_tidy() {
  local dir=$1 tool=$2 java_home=$3 f pid
  [[ -d $dir ]] || return 0
  for f in "$dir/$tool".*.jsa "$dir/$tool".*.classlist.* "$dir/$tool".*.failed; do
    [[ ! -f $f ]] || [[ -z $(class_archive_outdated "$f" "$java_home") ]] || rm -f "$f" 2>/dev/null || true
  done
  for f in "$dir"/.dump.*; do
    pid=${f#"$dir"/.dump.}
    pid=${pid%%.*}
    [[ ! -f $f ]] || [[ -d /proc/$pid ]] || rm -f "$f" 2>/dev/null || true
  done
  rm -f "$dir/$tool.jsa" "$dir/$tool.jsa."* 2>/dev/null || true
}

# class_archive_outdated FILE JAVA_HOME: the first jar of the tools (lib/ included) or the JDK's class image
# newer than FILE, or nothing.
class_archive_outdated() {
  find -L "$TOOLS_JAR_DIR" -maxdepth 2 -name '*.jar' -newer "$1" -print -quit 2>/dev/null
  [[ ! -f $2/lib/modules ]] || find "$2/lib/modules" -newer "$1" -print 2>/dev/null
}
