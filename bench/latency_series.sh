#!/usr/bin/env bash
# bench.latency on Neo4j 2026 (vectors filtered by person inside the index) and on 5.26 (the
# index over-fetched by the person's share), on servers of their own, one after the other.
#   bench/latency_series.sh                      # people of 100 to 100,000 memories in 1,000,000
#   bench/latency_series.sh --sizes 100,1000 --total 3000 --distinct 500 --queries 40
set -euo pipefail
cd "$(dirname "$0")/.."
ARGS=("$@")
for series in 2026 5.26; do
    home=".lore-bench-series-${series}"
    export LORE_HOME="$home" LORE_NEO4J_SERIES="$series" LORE_LOCAL_BOLT_PORT=27687 LORE_LOCAL_HTTP_PORT=27474 \
        LORE_LOCAL_KAFKA_PORT=29092 LORE_LOCAL_KAFKA_CONTROLLER_PORT=29093 LORE_NEO4J_URI=bolt://127.0.0.1:27687
    .venv/bin/lore infra up >/dev/null
    echo "=== Neo4j ${series}"
    .venv/bin/python -m bench.latency ${ARGS[@]+"${ARGS[@]}"} || { .venv/bin/lore infra wipe --yes >/dev/null; exit 1; }
    .venv/bin/lore infra wipe --yes >/dev/null
done
