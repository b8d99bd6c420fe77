"""Who may do what: tenants, the people in them, API keys and their scopes.

A person lives in exactly one tenant. Their id inside Lore is the tenant's name, a slash, and the
id the tenant gave them (`acme/ada`); the operator's own tenant, `default`, keeps bare ids
(`ada`), so a deployment without tenants reads as before. A slash never appears in an id a client
sends, so no tenant can name a person of another: isolation follows from the id itself, in every
query, event and node.

An API key is `lore_<key id>_<secret>`. Only a hash of the secret is kept (SHA-256: the secret is
32 random bytes, so no slow hash is needed against guessing), with the key's tenant and scope.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass
from datetime import datetime
from enum import IntEnum

DEFAULT_TENANT = "default"
TENANT_SEPARATOR = "/"
TENANT_PATTERN = r"^[a-z0-9][a-z0-9_\-]{0,62}$"
_TENANT = re.compile(TENANT_PATTERN)
_PREFIX = "lore"


class Scope(IntEnum):
    """What a key may do; each scope includes the ones below it."""

    READ = 1  # list, search, context, export
    WRITE = 2  # remember, forget, restore, edit, erase
    ADMIN = 3  # settings, maintenance

    @classmethod
    def named(cls, name: str) -> Scope:
        try:
            return cls[name.upper()]
        except KeyError:
            raise ValueError(f"unknown scope {name!r}: read, write or admin") from None


def valid_tenant(tenant: str) -> bool:
    return bool(_TENANT.match(tenant))


def person_id(tenant: str, user_id: str) -> str:
    """The id Lore keeps a tenant's person under."""
    if not valid_tenant(tenant):
        raise ValueError(f"invalid tenant {tenant!r}: lower-case letters, digits, '_' and '-'")
    return user_id if tenant == DEFAULT_TENANT else f"{tenant}{TENANT_SEPARATOR}{user_id}"


def split_person(person: str) -> tuple[str, str]:
    """Tenant and the tenant's own id of a person Lore keeps."""
    tenant, separator, user_id = person.partition(TENANT_SEPARATOR)
    return (tenant, user_id) if separator else (DEFAULT_TENANT, person)


class NotThisPerson(PermissionError):
    """A page link names one person; the request named another."""


@dataclass(frozen=True)
class Principal:
    """Who a request comes from: a key's tenant and scope (or the operator, when auth is off), or a
    page link's person (`only`: the one person it may name, until `expires_at`)."""

    tenant: str
    scope: Scope
    key_id: str | None = None
    only: str | None = None
    expires_at: datetime | None = None

    def allows(self, needed: Scope) -> bool:
        return self.scope >= needed

    def person(self, user_id: str) -> str:
        person = person_id(self.tenant, user_id)
        if self.only is not None and person != self.only:
            raise NotThisPerson(f"this page link opens the memory of {self.own_id(self.only)!r} only")
        return person

    def own_id(self, person: str) -> str:
        """A person's id as this tenant knows it."""
        return split_person(person)[1]

    @property
    def operator(self) -> bool:
        """May act across tenants (maintenance of everyone): the default tenant's admin."""
        return self.tenant == DEFAULT_TENANT and self.scope is Scope.ADMIN and self.only is None


OPERATOR = Principal(DEFAULT_TENANT, Scope.ADMIN)


@dataclass(frozen=True)
class People:
    """Whose entries a reader of the log may open: one person, or every person of a tenant."""

    tenant: str
    person: str | None = None

    def holds(self, user_id: str) -> bool:
        if self.person is not None:
            return user_id == self.person
        return split_person(user_id)[0] == self.tenant


@dataclass(frozen=True)
class ApiKey:
    """A key as it is kept: never its secret, only the secret's hash."""

    key_id: str
    tenant: str
    scope: Scope
    secret_hash: str
    created_at: datetime
    name: str = ""

    def opens_with(self, secret: str) -> bool:
        return hmac.compare_digest(self.secret_hash, hash_secret(secret))


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def issue_key(tenant: str, scope: Scope, created_at: datetime, name: str = "") -> tuple[str, ApiKey]:
    """A new key: the token to hand out once, and what is kept of it."""
    if not valid_tenant(tenant):
        raise ValueError(f"invalid tenant {tenant!r}: lower-case letters, digits, '_' and '-'")
    key_id, secret = secrets.token_hex(8), secrets.token_urlsafe(32)
    token = f"{_PREFIX}_{key_id}_{secret}"
    return token, ApiKey(key_id, tenant, scope, hash_secret(secret), created_at, name)


def read_token(token: str) -> tuple[str, str] | None:
    """Key id and secret of a token; None when it is not shaped like one of Lore's."""
    prefix, _, rest = token.strip().partition("_")
    key_id, _, secret = rest.partition("_")
    if prefix != _PREFIX or len(key_id) != 16 or not secret:
        return None
    return key_id, secret
