#!/usr/bin/env bash
# Fault drill: kill -9 the web server (uvicorn and both its workers) in the middle of
# running races, start it again, and let the load clients reconnect and resync from their
# snapshots. The client's report counts acknowledged pairs missing after the resync and,
# against the database, pairs lost or doubled. Results: docs/PERFORMANCE.md.
#
#   DATABASE_URL=postgres://postgres@127.0.0.1:5432/mahjong_load \
#   REDIS_URL=redis://127.0.0.1:6379/9 bench/drills/kill_web.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
PORT="${PORT:-8210}"
PLAYERS="${PLAYERS:-40}"
export CHANNEL_PREFIX="${CHANNEL_PREFIX:-drill}" VAR_DIR="${VAR_DIR:-var/drill}"
mkdir -p "$VAR_DIR"

start_web() {
    setsid .venv/bin/python -m uvicorn config.asgi:application --host 127.0.0.1 \
        --port "$PORT" --workers 2 --no-access-log >>"$VAR_DIR/web.log" 2>&1 &
    echo $!
}
wait_for_web() {
    for _ in $(seq 50); do
        curl -s -o /dev/null "http://127.0.0.1:$PORT/healthz" && return
        sleep 0.2
    done
}

web=$(start_web)
wait_for_web
.venv/bin/python bench/load/run.py --players "$PLAYERS" --seconds 40 --reconnect \
    --url "http://127.0.0.1:$PORT" >"$VAR_DIR/client.log" 2>&1 &
client=$!
sleep 20  # rooms made, sockets open, races running for ~10 s
echo "$(date -u +%T) kill -9 the web server (process group $web)"
kill -9 -- "-$web"
sleep 3
web=$(start_web)
wait_for_web
echo "$(date -u +%T) web server back"
wait "$client" || true
grep '^|' "$VAR_DIR/client.log"
kill -- "-$web"
