#!/usr/bin/env bash
# Builds (once) and starts the MongoDB wire server used by CI, in the background.
#   scripts/mongo-wire/start.sh [port]        default port: $MONGO_WIRE_PORT or 27018
#   MONGO_WIRE_HEAP (default 1g): the in-memory backend keeps every database in the JVM heap
# Prints the connection string on stdout, e.g.  mongodb://127.0.0.1:27018
#   export MONGODB_URI=$(scripts/mongo-wire/start.sh)
# Everything it builds lives in .tools/mongo-wire (git-ignored); delete that to rebuild.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
tools="$root/.tools/mongo-wire"
port="${1:-${MONGO_WIRE_PORT:-27018}}"
pidfile="$tools/mongo-wire.pid"
logfile="$tools/mongo-wire.log"
urifile="$tools/uri"

mkdir -p "$tools"

if [[ -f "$pidfile" ]] && kill -0 "$(cat "$pidfile")" 2>/dev/null; then
  echo "mongo-wire already running (pid $(cat "$pidfile"))" >&2
  cat "$urifile"
  exit 0
fi

# Build stamp includes the pom and launcher hashes so editing either triggers a rebuild.
stamp="$(cat "$here/pom.xml" "$here/MongoWire.java" | sha256sum | cut -c1-16)"
if [[ ! -f "$tools/build-$stamp" ]]; then
  echo "building mongo-wire into $tools ..." >&2
  rm -rf "$tools/lib" "$tools/classes" "$tools"/build-*
  mvn -q -B -f "$here/pom.xml" dependency:copy-dependencies \
      -DincludeScope=runtime -DoutputDirectory="$tools/lib" >&2
  javac -nowarn -d "$tools/classes" -cp "$tools/lib/*" "$here/MongoWire.java" >&2
  touch "$tools/build-$stamp"
fi

: > "$logfile"
# setsid: the server must outlive this script and the shell that ran it.
setsid java -Xmx"${MONGO_WIRE_HEAP:-1g}" -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
  -cp "$tools/classes:$tools/lib/*" MongoWire "$port" >>"$logfile" 2>&1 < /dev/null &
echo $! > "$pidfile"

for _ in $(seq 1 150); do
  if uri="$(grep -m1 -o 'mongodb://[0-9.:]*' "$logfile" 2>/dev/null)" && [[ -n "$uri" ]]; then
    echo "$uri" > "$urifile"
    echo "mongo-wire listening at $uri (pid $(cat "$pidfile"), log $logfile)" >&2
    echo "$uri"
    exit 0
  fi
  if ! kill -0 "$(cat "$pidfile")" 2>/dev/null; then
    echo "mongo-wire failed to start; log:" >&2
    cat "$logfile" >&2
    rm -f "$pidfile"
    exit 1
  fi
  sleep 0.2
done
echo "mongo-wire did not print READY within 30 s; log:" >&2
cat "$logfile" >&2
exit 1
