"""Application layer: command handlers, queries, the HTTP API, the Kafka worker and the CLI."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("lore")
except PackageNotFoundError:  # running from a checkout that was never installed
    __version__ = "0.0.0"
