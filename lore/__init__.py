"""Lore: a temporal, event-sourced memory service for AI assistants."""

__version__ = "0.1.0"
