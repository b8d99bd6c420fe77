"""What an answer had to leave out, and why (issue 35): a search that cannot run one of its sources
answers with what ran and names each source it left out, rather than answer as if complete.

The parts of a search note what they leave out into the collection the request opened
(`noted()`), so that the search's and the context block's signatures need not carry it through
every layer: a context variable, set by the route in the thread that runs it."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Protocol

from infra.embedding import setting_for

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Degradation:
    """A source of an answer that did not run, or ran on part of what it should."""

    source: str   # vector, questions
    code: str     # embedder_changed, reembed_in_progress, embedder_off, embedder_failed, ...
    detail: str   # what happened and what the answer holds instead
    fix: str | None = None  # the command or setting that mends it, where there is one


_NOTED: ContextVar[list[Degradation] | None] = ContextVar("lore_degradations", default=None)


@contextmanager
def noted() -> Iterator[list[Degradation]]:
    """Collect what the work inside the block leaves out (each at most once)."""
    found: list[Degradation] = []
    token = _NOTED.set(found)
    try:
        yield found
    finally:
        _NOTED.reset(token)


def note(degradation: Degradation) -> None:
    """Say that the answer being made leaves this out (logged where no one collects it)."""
    found = _NOTED.get()
    if found is None:
        log.debug("%s left out (%s): %s", degradation.source, degradation.code, degradation.detail)
    elif degradation not in found:
        found.append(degradation)


class StoreModels(Protocol):
    others: tuple[str, ...]
    own: bool


def vector_source(model: str | None, store: StoreModels) -> Degradation | None:
    """What the store's vectors leave the vector source of a search that embeds with `model`."""
    if not store.others:
        return None
    theirs = ", ".join(store.others)
    back = " or ".join(f"LORE_EMBEDDER={setting_for(m)}" for m in store.others)
    if model is None:
        return Degradation(
            "vector", "embedder_off",
            f"no embedder is configured (LORE_EMBEDDER=none), and the store holds vectors of {theirs}: "
            "memories were found by their words and the graph only",
            fix=f"set {back} and restart")
    move = f"lore reembed --model {setting_for(model)}"
    if store.own:
        return Degradation(
            "vector", "reembed_in_progress",
            f"the store is part way through a move from {theirs} to {model}: the vector source compared "
            f"the query only with what has {model}'s vectors already",
            fix=f"{move} (resumable) finishes the move")
    return Degradation(
        "vector", "embedder_changed",
        f"the store's vectors were made by {theirs}, and this server embeds with {model}: vectors of two "
        "models cannot be compared, so memories were found by their words and the graph only (writes are "
        "refused with embedder_changed)",
        fix=f"{move} (moves the store to {model}), or set {back} and restart")
