"""The Neo4j graph projection of the event log, and the read-side queries over it."""
