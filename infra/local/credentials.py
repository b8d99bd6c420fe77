"""Passwords for a secured local stack, made once and kept in the `.env` file Lore reads."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from dotenv import dotenv_values, set_key

SECRETS = ("LORE_NEO4J_PASSWORD", "LORE_KAFKA_PASSWORD")


def ensure_passwords(env_file: Path) -> list[str]:
    """Give each server a random password unless one is set already (in the environment or in
    `env_file`); the names of those written. The file is made readable by its owner only."""
    kept = dotenv_values(env_file) if env_file.exists() else {}
    missing = [name for name in SECRETS if not (os.environ.get(name) or kept.get(name))]
    if not env_file.exists():
        env_file.touch(mode=0o600)
    env_file.chmod(0o600)
    for name in missing:
        set_key(env_file, name, secrets.token_urlsafe(24), quote_mode="never")
    return missing
