#!/usr/bin/env bash
# Every drill of docs/SCALING.md in turn on a topology built from nothing, then torn
# down: a race over the hosts, then kill -9 a web host, kill -9 a worker host, stop a
# Redis shard, stop PostgreSQL, cut a web host off from Redis. Each prints its table.
#   bench/scale/drills.sh [--db-pool 20]     (as root; about 8 minutes)
set -euo pipefail
cd "$(dirname "$0")/../.."
trap '.venv/bin/python bench/scale/topology.py down >/dev/null' EXIT
mkdir -p var/scale
.venv/bin/python bench/scale/topology.py up "$@" >var/scale/up.txt
head -n 1 var/scale/up.txt
failed=0
drill() {  # its progress and any traceback go to var/scale/drills.log
    .venv/bin/python bench/scale/drill.py "$@" 2>>var/scale/drills.log || failed=1
    echo
}
drill race
drill kill-web --seconds 45
drill kill-worker --seconds 60
drill redis --rooms 4 --cpus 2 --seconds 45
drill postgres --seconds 45
drill partition --seconds 50 --down 15
exit $failed
