# Lore's two commands:  `make run`  and  `make test`.  Everything else is a helper.
SHELL := /bin/bash
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test setup infra-up infra-down infra-status infra-wipe serve worker bench bench-ingest bench-retrieval bench-latency bench-latency-series bench-graphiti bench-reads bench-extraction bench-layers bench-maintenance bench-encryption bench-graph-away bench-kafka-clients bench-smoke contract lint clean

## run: set up, start Neo4j and Kafka (local Java processes), then serve Lore on :8000, on that Kafka
run: setup infra-up serve

## test: set up and run the whole test suite (starts its own Neo4j and Kafka)
test: setup
	$(BIN)/pytest

setup: $(STAMP)

$(STAMP): pyproject.toml
	@command -v java >/dev/null || { echo "Java 17 is needed (apt-get install openjdk-17-jre-headless)"; exit 1; }
	@command -v mvn >/dev/null || { echo "Maven is needed once to fetch the servers (apt-get install maven)"; exit 1; }
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV) || python3 -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e ".[dev,bench]"
	@touch $(STAMP)

infra-up: setup
	$(BIN)/lore infra up
infra-down: setup
	$(BIN)/lore infra down
infra-status: setup
	$(BIN)/lore infra status
infra-wipe: setup
	$(BIN)/lore infra wipe --yes

## serve: Lore on the Kafka that `make infra-up` runs (log on lore.events, commands on lore.commands)
serve: setup
	$(BIN)/lore serve --stack

## worker: a Kafka worker alone (run `make serve` or `lore serve --no-worker` for the API)
worker: setup
	LORE_KAFKA_BOOTSTRAP=$${LORE_KAFKA_BOOTSTRAP:-127.0.0.1:9092} $(BIN)/lore worker

## bench: ingest and rebuild rates at 1,000,000 events (each bench-* runs on servers of its own, never make run's)
bench: setup
	$(BIN)/python -m bench.core

## bench-ingest: Kafka -> worker -> Neo4j throughput and latency (a Neo4j and a Kafka of its own)
bench-ingest: setup
	$(BIN)/python -m bench.ingest

## bench-retrieval: LoCoMo, lifechats and FactConsolidation retrieval quality (a Neo4j of its own)
bench-retrieval: setup
	$(BIN)/python -m bench.retrieval

## bench-latency: search latency by person size (100 to 100,000 memories) x 1, 4, 16 clients at 1,000,000 memories (a Neo4j of its own; ~40 min)
bench-latency: setup
	$(BIN)/python -m bench.latency

## bench-reads: the CPU and the queries of reading one person's memories: listings, a search, a /context block, the state a command is decided on (a Neo4j of its own)
bench-reads: setup
	$(BIN)/python -m bench.reads

## bench-graphiti: Lore's search beside Graphiti's on the same facts, Neo4j and embedder (a Neo4j of its own)
bench-graphiti: setup
	$(BIN)/python -m bench.graphiti

## bench-latency-series: the same search latency on Neo4j 2026 (filtered vector index) and 5.26, one after the other, on servers of their own (~80 min)
bench-latency-series: setup
	bench/latency_series.sh

## bench-extraction: LoCoMo observations covered by the offline extractor (no server needed)
bench-extraction: setup
	$(BIN)/python -m bench.extraction

## bench-layers: LoCoMo session summaries, profiles, question synthesis and context blocks (a Neo4j of its own)
bench-layers: setup
	$(BIN)/python -m bench.layers

## bench-maintenance: a maintenance run over 1,000,000 memories of 1,000 people (a Neo4j of its own)
bench-maintenance: setup
	$(BIN)/python -m bench.maintenance

## bench-encryption: ingest and rebuild rates of the event log, plain and sealed (no server needed)
bench-encryption: setup
	$(BIN)/python -m bench.encryption

## bench-graph-away: how soon a Neo4j that is away is known, and that a busy one is not (a Neo4j of its own)
bench-graph-away: setup
	$(BIN)/python -m bench.graph_away

## bench-kafka-clients: kafka-python beside confluent-kafka, producing and reading (a Kafka of its own)
bench-kafka-clients: setup
	$(BIN)/python -m bench.kafka_clients

## bench-smoke: the same at a tiny size, on servers of its own (what CI runs)
bench-smoke: setup
	bench/smoke.sh

## contract: schemathesis with every check over every operation of a real Lore (also in make test)
contract: setup
	$(BIN)/pytest tests/integration/test_contract.py -s

lint: setup
	$(BIN)/ruff check domain services projections infra lore tests bench examples
	$(BIN)/lint-imports
	$(BIN)/mypy

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache
