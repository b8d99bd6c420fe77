"""Local Neo4j and Kafka servers, assembled from Maven Central, for machines without Docker."""

from infra.local.stack import LocalStack, ServerStatus, StartError

__all__ = ["LocalStack", "ServerStatus", "StartError"]
