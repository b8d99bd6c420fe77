"""Lore's Python client: `from lore.client import LoreClient, AsyncLoreClient`."""
