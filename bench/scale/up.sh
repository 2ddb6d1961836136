#!/usr/bin/env bash
# Build the multi-host topology from nothing (tearing down any leftover first):
#   bench/scale/up.sh [--small] [--name mjs] [--net 198.18.0]      (as root)
# docs/SCALING.md has what runs where.
set -euo pipefail
cd "$(dirname "$0")/../.."
exec .venv/bin/python bench/scale/topology.py up "$@"
