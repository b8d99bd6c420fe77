"""An API key as a JSON record (both stores keep the same shape)."""

from __future__ import annotations

import json
from datetime import datetime

from domain.access import ApiKey, Scope


def dump_key(key: ApiKey) -> bytes:
    return json.dumps({"key_id": key.key_id, "tenant": key.tenant, "scope": key.scope.name.lower(),
                       "secret_hash": key.secret_hash, "created_at": key.created_at.isoformat(),
                       "name": key.name}).encode()


def load_key(raw: bytes) -> ApiKey:
    data = json.loads(raw)
    return ApiKey(data["key_id"], data["tenant"], Scope.named(data["scope"]), data["secret_hash"],
                  datetime.fromisoformat(data["created_at"]), data.get("name", ""))
