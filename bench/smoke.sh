#!/usr/bin/env bash
# The benchmarks at smoke size, on one Neo4j and Kafka of their own (own ports and folder), so that
# they keep working: each is pointed at them with --neo4j-uri and --wipe-store (the store is theirs).
# Real figures: `make bench` (each benchmark then starts servers of its own).
set -euo pipefail
cd "$(dirname "$0")/.."
# Ports may be given, e.g. when another stack holds these.
export LORE_HOME=.lore-bench-smoke
export LORE_LOCAL_BOLT_PORT=${LORE_LOCAL_BOLT_PORT:-17687} LORE_LOCAL_HTTP_PORT=${LORE_LOCAL_HTTP_PORT:-17474}
export LORE_LOCAL_KAFKA_PORT=${LORE_LOCAL_KAFKA_PORT:-19092}
export LORE_LOCAL_KAFKA_CONTROLLER_PORT=${LORE_LOCAL_KAFKA_CONTROLLER_PORT:-19093}
NEO4J=(--neo4j-uri "bolt://127.0.0.1:$LORE_LOCAL_BOLT_PORT" --wipe-store)
KAFKA=(--kafka-bootstrap "127.0.0.1:$LORE_LOCAL_KAFKA_PORT")
trap '.venv/bin/lore infra wipe --yes >/dev/null; rm -rf .lore-bench/*-on-"$LORE_LOCAL_BOLT_PORT"' EXIT
.venv/bin/lore infra up
.venv/bin/python -m bench.core --events 5000 --users 50 --vector-events 3000 --embed-sample 300 --verify "${NEO4J[@]}"
.venv/bin/python -m bench.ingest --commands 3000 --users 50 --paced 300 --rate 200 --embed-commands 100 \
    "${NEO4J[@]}" "${KAFKA[@]}"
.venv/bin/python -m bench.retrieval --conversations 1 --lifechats 1 --fc-sizes 6k --baselines local "${NEO4J[@]}"
.venv/bin/python -m bench.context --conversations 1 --lifechats 1 "${NEO4J[@]}"
.venv/bin/python -m bench.turn_windows --conversations 1
.venv/bin/python -m bench.embedders --turns 64 --queries 5 --models local,e5-small-v2
.venv/bin/python -m bench.extraction --sessions 10
.venv/bin/python -m bench.layers --conversations 1 --questions 50 "${NEO4J[@]}"
.venv/bin/python -m bench.latency --sizes 100,1000 --total 3000 --clients 1,4 --distinct 500 --queries 40 "${NEO4J[@]}"
.venv/bin/python -m bench.reads --preferences 20 --facts 200 --todos 5 --turns 40 --repeat 3 "${NEO4J[@]}"
.venv/bin/python -m bench.graphiti --sizes 2000 --queries 20 --distinct 500 "${NEO4J[@]}"
.venv/bin/python -m bench.maintenance --people 10 --per-person 100 "${NEO4J[@]}"
.venv/bin/python -m bench.encryption --smoke
.venv/bin/python -m bench.kafka_clients --records 2000 --rounds 1 "${KAFKA[@]}"
