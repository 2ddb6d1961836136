#!/usr/bin/env bash
# Fault drill: restart Redis (channel layer, cache and broker) in the middle of running
# races. Uses a private redis-server on its own port, never a shared one. The load clients
# reconnect and resync if their sockets drop; the report counts error answers, acknowledged
# pairs missing after a resync and, against the database, pairs lost or doubled.
#
#   DATABASE_URL=postgres://postgres@127.0.0.1:5432/mahjong_load bench/drills/restart_redis.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
PORT="${PORT:-8211}"
REDIS_PORT="${REDIS_PORT:-6391}"
PLAYERS="${PLAYERS:-40}"
export CHANNEL_PREFIX="${CHANNEL_PREFIX:-drill}" VAR_DIR="${VAR_DIR:-var/drill}"
export REDIS_URL="redis://127.0.0.1:$REDIS_PORT/0"
mkdir -p "$VAR_DIR"

start_redis() {
    redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save "" --appendonly no \
        --daemonize no >>"$VAR_DIR/redis.log" 2>&1 &
    echo $!
}
redis=$(start_redis)
sleep 1
setsid .venv/bin/python -m uvicorn config.asgi:application --host 127.0.0.1 \
    --port "$PORT" --workers 2 --no-access-log >>"$VAR_DIR/web-redis.log" 2>&1 &
web=$!
for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$PORT/rooms/" && break; sleep 0.2; done
.venv/bin/python bench/load/run.py --players "$PLAYERS" --seconds 40 --reconnect \
    --url "http://127.0.0.1:$PORT" >"$VAR_DIR/client-redis.log" 2>&1 &
client=$!
sleep 20
echo "$(date -u +%T) stop Redis (pid $redis)"
kill "$redis"
while kill -0 "$redis" 2>/dev/null; do sleep 0.1; done
sleep 3
redis=$(start_redis)
echo "$(date -u +%T) Redis back"
wait "$client" || true
grep '^|' "$VAR_DIR/client-redis.log"
echo "server errors logged: $(grep -c 'ERROR' "$VAR_DIR/web-redis.log" || true)"
kill -- "-$web"
kill "$redis"
