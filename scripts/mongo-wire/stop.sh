#!/usr/bin/env bash
# Stops the wire server started by start.sh (by the PID it recorded, nothing broader).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
tools="$(cd "$here/../.." && pwd)/.tools/mongo-wire"
pidfile="$tools/mongo-wire.pid"
if [[ ! -f "$pidfile" ]]; then
  echo "mongo-wire not running (no $pidfile)" >&2
  exit 0
fi
pid="$(cat "$pidfile")"
if kill -0 "$pid" 2>/dev/null; then
  kill "$pid"
  for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -0 "$pid" 2>/dev/null && kill -9 "$pid"
  echo "mongo-wire stopped (pid $pid)" >&2
fi
rm -f "$pidfile" "$tools/uri"
