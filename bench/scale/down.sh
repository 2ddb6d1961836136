#!/usr/bin/env bash
# Remove the topology: every process of its hosts, its namespaces, its bridge, its
# PostgreSQL cluster. Safe to run twice, or on a topology a crash left half built.
#   bench/scale/down.sh [--name mjs]
set -euo pipefail
cd "$(dirname "$0")/../.."
exec .venv/bin/python bench/scale/topology.py down "$@"
