#!/usr/bin/env bash
# Schemathesis against the generated OpenAPI document (issue 13): a fresh server on the
# embedded store, a superadmin token, then a bounded run whose checks fail the build on any
# 5xx and on any answer the document does not describe. Needs `schemathesis` on PATH
# (pip install schemathesis). Env: PORT (default: a free loopback port), ST_MAX_TIME
# (seconds of generation, default 240), ST_WORKERS (default 2), ST_REPORT (report directory),
# ST_INCLUDE (a path regex: only those operations, e.g. '^/api/v3/reports' while working on them).
set -euo pipefail
cd "$(dirname "$0")/.."

port="${PORT:-$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}"
base="http://127.0.0.1:${port}"
data="$(mktemp -d)"
report="${ST_REPORT:-.ci-artifacts/schemathesis}"
admin_email="schemathesis@ci.local"
admin_password="St-$(python3 -c 'import secrets; print(secrets.token_hex(12))')-Aa1"

mkdir -p "$report"
log="${report}/server.log"
HOST=127.0.0.1 PORT="$port" DATA_DIR="$data" ADMIN_EMAIL="$admin_email" ADMIN_PASSWORD="$admin_password" \
  node --max-old-space-size=256 --import tsx server/src/main.ts >"$log" 2>&1 &
server=$!
cleanup() {
  kill "$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
  rm -rf "$data"
}
trap cleanup EXIT

for _ in $(seq 1 120); do
  curl -fsS "${base}/api/health" >/dev/null 2>&1 && break
  kill -0 "$server" 2>/dev/null || { cat "$log"; exit 1; }
  sleep 0.5
done

token="$(curl -fsS -X POST "${base}/api/auth/sign-in" -H 'content-type: application/json' \
  --data "{\"email\":\"${admin_email}\",\"password\":\"${admin_password}\"}" | python3 -c 'import json, sys; print(json.load(sys.stdin)["token"])')"

# Every check but three: positive/negative_data_acceptance judge validation by the document's
# body schema alone, while records are also checked against the store (references must exist,
# a record must not be empty, sort paths must be sortable), and use_after_free expects a
# DELETE to make a record vanish where it disables it (state 3; hard=true deletes).
# Signing out would end the run's own session, and every later request would be a 401.
# The coverage phase is left out: schemathesis 4.32 itself fails in it, now and then, on our
# schemas ("Inconsistent results" from inside its own case generator), which is its bug, not
# an answer of ours; fuzzing and the stateful phase still reach every operation.
status=0
# The run is bounded by time and must answer at least ST_MIN_REQUESTS (5,000) requests, so
# that it reaches far enough: 150 s gave 4,259 on the 2-core machine while another process
# loaded it, so it has 240 s.
# Its closing banner ("==== 4 warnings in 150.01s ====") is pytest's own closing line, which
# CI's reader takes for a pytest run of no test; the sed turns those banners into plain ones.
schemathesis run "${base}/api/openapi.json" \
  --header "Authorization: Bearer ${token}" \
  --phases examples,fuzzing,stateful \
  --checks all \
  --exclude-checks positive_data_acceptance,negative_data_rejection,use_after_free \
  --exclude-path /api/auth/sign-out \
  ${ST_INCLUDE:+--include-path-regex "$ST_INCLUDE"} \
  --max-time "${ST_MAX_TIME:-240}" \
  --workers "${ST_WORKERS:-2}" \
  --request-timeout 30 \
  --suppress-health-check all \
  --report ndjson --report-dir "$report" \
  --generation-database none \
  --seed "${ST_SEED:-13}" 2>&1 | sed -E 's/^=+ (.*[^= ]) =+$/--- \1 ---/' || status=$?

# The figures asked for, from the server's own request log: requests answered, and any 5xx.
requests="$(grep -c '"msg":"request completed"' "$log" || true)"
errors="$(grep -c '"statusCode":5[0-9][0-9]' "$log" || true)"
echo "schemathesis: ${requests} requests answered by the server, ${errors} with a 5xx"
if [ "$errors" != "0" ]; then status=1; fi
if [ "$requests" -lt "${ST_MIN_REQUESTS:-5000}" ]; then echo "fewer than ${ST_MIN_REQUESTS:-5000} requests"; status=1; fi
exit "$status"
