# Sourced by bin/_common.sh: a class-data archive per tool, so that a tool's JVM maps the classes it loads
# (the SDK's, the storage's, the server's) from a file instead of reading, parsing and verifying them from the
# jars on every start. A tool took ~1.25 s to import three entries and ~0.9 s with its archive (JDK 17's
# dynamic CDS archives, -XX:ArchiveClassesAtExit / -XX:SharedArchiveFile).
#
# The first run of a tool after a build writes the archive as it exits, to a file named after its pid; a later
# run checks a finished one (its writer is gone) by starting a JVM on it with the archive verified, and only then
# moves it into place: a JVM killed while writing leaves a partial archive, and mapping one aborts the JVM.
# An archive older than a jar or the JDK is deleted and written again (the JVM would ignore it). Runs side by side
# each write their own file, and the move is atomic. Where the build's folder cannot be written, tools run as
# before. The JVM's archive messages are turned off (-Xlog:cds*=off): old classes it skips (picocli's) and an
# archive it cannot use are not the user's business. CLASS_ARCHIVE=off turns all of this off.

# class_archive_options MAIN CLASSPATH JVM_OPTIONS...: the JVM options that use or write MAIN's archive, one
# per line, or nothing.
class_archive_options() {
  local main=$1 cp=$2
  shift 2
  [[ ${CLASS_ARCHIVE:-on} != off ]] || return 0
  local dir="$TOOLS_JAR_DIR/class-archives"
  local archive="$dir/${main##*.}.jsa" written pid
  for written in "$archive".*; do
    [[ -f $written ]] || continue
    pid=${written##*.}
    if [[ $pid =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null; then
      continue                                   # still running: it writes its archive when it exits
    fi
    if (java "$@" -Xshare:on -XX:SharedArchiveFile="$written" -XX:+VerifySharedSpaces -Xlog:cds*=off \
          -XX:-CreateCoredumpOnCrash -XX:ErrorFile=/dev/null -cp "$cp" -version) >/dev/null 2>&1; then
      mv -f "$written" "$archive" 2>/dev/null || rm -f "$written"
    else
      rm -f "$written"
    fi
  done
  if [[ -f $archive ]] && [[ -z $(class_archive_outdated "$archive") ]]; then
    printf '%s\n' "-XX:SharedArchiveFile=$archive" "-Xlog:cds*=off"
    return 0
  fi
  rm -f "$archive" 2>/dev/null || true
  if mkdir -p "$dir" 2>/dev/null && [[ -w $dir ]]; then
    # $$: the tool's pid, as run_tool execs it
    printf '%s\n' "-XX:ArchiveClassesAtExit=$archive.$$" "-Xlog:cds*=off"
  fi
}

# class_archive_outdated ARCHIVE: the first jar (or the JDK's class image) newer than ARCHIVE, or nothing.
class_archive_outdated() {
  local java_home
  java_home=$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")
  find "$TOOLS_JAR_DIR" -maxdepth 2 -name '*.jar' -newer "$1" -print -quit 2>/dev/null
  [[ ! -f $java_home/lib/modules ]] || find "$java_home/lib/modules" -newer "$1" -print 2>/dev/null
}
