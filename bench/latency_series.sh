#!/usr/bin/env bash
# bench.latency on Neo4j 2026 (vectors filtered by person inside the index) and on 5.26 (the
# index over-fetched by the person's share), each on servers of its own, one after the other.
#   bench/latency_series.sh                      # people of 100 to 100,000 memories in 1,000,000
#   bench/latency_series.sh --sizes 100,1000 --total 3000 --distinct 500 --queries 40
set -euo pipefail
cd "$(dirname "$0")/.."
ARGS=("$@")
for series in 2026 5.26; do
    echo "=== Neo4j ${series}"
    LORE_NEO4J_SERIES="$series" .venv/bin/python -m bench.latency ${ARGS[@]+"${ARGS[@]}"}
done
