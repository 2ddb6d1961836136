#!/usr/bin/env bash
# Fault drill: PostgreSQL goes down in the middle of running races (an immediate stop,
# as in a crash) and comes back a few seconds later. Uses a private PostgreSQL cluster
# on its own port, made here from the machine's PostgreSQL binaries, never a shared one.
# While it is down, every move must be answered `unavailable` (nothing stored); after it,
# play goes on; the report counts pairs lost or doubled and boards half-written.
#
#   bench/drills/postgres_down.sh            (as root: the cluster runs as user postgres)
set -euo pipefail
cd "$(dirname "$0")/../.."
PORT="${PORT:-8212}"
PG_PORT="${PG_PORT:-5441}"
PLAYERS="${PLAYERS:-40}"
DOWN_SECONDS="${DOWN_SECONDS:-5}"
PG_BIN="${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)}"
CLUSTER="${CLUSTER:-/tmp/mahjong-pg-drill}"
export CHANNEL_PREFIX="${CHANNEL_PREFIX:-pgdrill}" VAR_DIR="${VAR_DIR:-var/drill}"
export REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379/10}"
export DATABASE_URL="postgres://postgres@127.0.0.1:$PG_PORT/mahjong_drill"
mkdir -p "$VAR_DIR"

as_postgres() { runuser -u postgres -- "$@"; }
pg_ctl() { as_postgres "$PG_BIN/pg_ctl" -D "$CLUSTER" "$@"; }

rm -rf "$CLUSTER"
mkdir -p "$CLUSTER" && chown postgres "$CLUSTER"
as_postgres "$PG_BIN/initdb" -D "$CLUSTER" -U postgres --auth=trust >/dev/null
pg_ctl -l "$CLUSTER/log" -w -o "-p $PG_PORT -k /tmp -c listen_addresses=127.0.0.1" start >/dev/null
as_postgres "$PG_BIN/createdb" -h 127.0.0.1 -p "$PG_PORT" -U postgres mahjong_drill
.venv/bin/python manage.py migrate -v 0

setsid .venv/bin/python -m uvicorn config.asgi:application --host 127.0.0.1 \
    --port "$PORT" --workers 2 --no-access-log >>"$VAR_DIR/web-pg.log" 2>&1 &
web=$!
for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$PORT/rooms/" && break; sleep 0.2; done
.venv/bin/python bench/load/run.py --players "$PLAYERS" --seconds 40 --reconnect \
    --level easy --url "http://127.0.0.1:$PORT" >"$VAR_DIR/client-pg.log" 2>&1 &
client=$!
sleep 20
echo "$(date -u +%T) PostgreSQL stopped (immediate: no clean shutdown)"
pg_ctl -m immediate stop >/dev/null
sleep "$DOWN_SECONDS"
pg_ctl -l "$CLUSTER/log" -w -o "-p $PG_PORT -k /tmp -c listen_addresses=127.0.0.1" start >/dev/null
echo "$(date -u +%T) PostgreSQL back"
wait "$client" || true
grep '^|' "$VAR_DIR/client-pg.log"
echo "server errors logged: $(grep -c 'ERROR' "$VAR_DIR/web-pg.log" || true)"
echo "'unavailable' warnings logged: $(grep -c 'database unavailable' "$VAR_DIR/web-pg.log" || true)"
kill -- "-$web"
pg_ctl -m fast stop >/dev/null
rm -rf "$CLUSTER"
