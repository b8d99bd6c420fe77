"""The key store: people's keys, kept outside the event log (crypto-shredding)."""

from infra.keys.port import KeyStore, open_key_store

__all__ = ["KeyStore", "open_key_store"]
