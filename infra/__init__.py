"""Adapters: settings, the event log, embedders, and the local Neo4j/Kafka servers."""
