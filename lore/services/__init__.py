"""Application layer: command handlers, queries, the HTTP API, the Kafka worker and the CLI."""
