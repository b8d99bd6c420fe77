"""Where API keys are kept (hashed): a SQLite file, or a compacted Kafka topic shared by servers."""

from infra.apikeys.port import ApiKeyStore, open_api_key_store

__all__ = ["ApiKeyStore", "open_api_key_store"]
