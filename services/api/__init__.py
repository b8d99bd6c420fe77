"""The HTTP API (FastAPI), v1."""

from services.api.app import create_app

__all__ = ["create_app"]
