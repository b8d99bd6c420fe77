"""Consolidation without a model: what a candidate is to the memories the person already has.

Deterministic and conservative. A single-valued slot decides by value and time: the same value
in force is the same memory, another value in force is an update (the old window closes where
the new one opens) — except that a model's inference never replaces what the person said
themselves. Without a slot, a candidate is judged against the person's memories of the same kind
that are close to it (cosine at least the policy's): when its words are all in one of them it is
the same memory; when it holds every word of one and more, it is a merge (it keeps every detail of
both); anything else is distinct. Words are compared as sets of stemmed content words (the text
module's `detail` analyzer), so a number or a name that differs keeps two memories apart.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from domain.commands import ProposedVerdict, Similar
from domain.extraction.candidate import Candidate
from domain.model import normalized
from domain.state import MemoryState, UserState, slot_key
from domain.text import analyzer

VerdictName = Literal["new", "same", "merge", "update", "distinct", "kept_out"]

_DETAIL = analyzer("detail")


def content_words(text: str) -> frozenset[str]:
    """The words that carry detail, stemmed ("lives" and "live" are one word; "5" and "10" two)."""
    return frozenset(_DETAIL.words(text))


@dataclass(frozen=True)
class Judgement:
    verdict: VerdictName
    reason: str
    target: MemoryState | None = None  # same: the memory reinforced; update: the one closed;
    others: tuple[str, ...] = ()  # merge: the one merged in
    after: MemoryState | None = None  # a slot's next value, when the candidate is a late one
    content: str | None = None  # merge: the sentence of both, when a model wrote it
    decided_by: str | None = None  # a model that judged it; None: these rules


def judge(
    state: UserState,
    candidate: Candidate,
    similar: Sequence[Similar],
    proposed: ProposedVerdict | None = None,
) -> Judgement:
    slot = slot_key(candidate.attribute)
    ruled = (
        _judge_slot(state, candidate, slot) if slot is not None else _judge_free(state, candidate, similar)
    )
    return ruled if proposed is None else _proposal(state, candidate, similar, proposed, ruled)


def _proposal(
    state: UserState,
    candidate: Candidate,
    similar: Sequence[Similar],
    proposed: ProposedVerdict,
    ruled: Judgement,
) -> Judgement:
    """A model's verdict, where it may decide; else the rules' verdict, saying why not the model's.

    The model judges what it was shown (the memories close to the candidate), and meaning: that
    two wordings are one memory, that two memories are best one, that two that share words say
    different things. It never supersedes: a slot's timeline decides updates, so that nothing is
    closed across the graph, and a person's own word is never replaced by an inference."""
    why = f"the model: {proposed.reason}".strip().removesuffix(":")[:500]
    if ruled.verdict == "kept_out":
        return ruled
    target = state.memories.get(proposed.memory_id) if proposed.memory_id else None
    unshown = target is None or target.memory_id not in {s.memory_id for s in similar} or not target.active
    if proposed.verdict != "distinct" and unshown:
        return _overruled(ruled, f"its {proposed.verdict} named no memory it was shown")
    if slot_key(candidate.attribute) is not None:
        if (
            proposed.verdict == "same"
            and ruled.verdict == "update"
            and target is not None
            and target is ruled.target
        ):
            return Judgement("same", why, target, (target.memory_id,), decided_by=proposed.by)
        return _overruled(ruled, f"a single-valued {candidate.attribute} is decided by its timeline")
    if proposed.verdict == "update":
        return _overruled(ruled, "an update closes only a single-valued slot's value")
    if target is not None and target.slot is not None:
        return _overruled(ruled, f"{target.memory_id} is a value of {target.slot}")
    if proposed.verdict == "same" and target is not None:
        return Judgement("same", why, target, (target.memory_id,), decided_by=proposed.by)
    if proposed.verdict == "merge" and target is not None:
        if not (proposed.content and proposed.content.strip()):
            return _overruled(ruled, "its merge gave no sentence")
        return Judgement(
            "merge",
            why,
            target,
            (target.memory_id,),
            content=proposed.content.strip(),
            decided_by=proposed.by,
        )
    if ruled.verdict in ("same", "merge"):
        return Judgement("distinct", why, None, ruled.others, decided_by=proposed.by)
    return Judgement(
        ruled.verdict,
        f"{ruled.reason}; {why}",
        ruled.target,
        ruled.others,
        ruled.after,
        decided_by=proposed.by,
    )


def _overruled(ruled: Judgement, why: str) -> Judgement:
    return Judgement(
        ruled.verdict,
        f"{ruled.reason} (the model's verdict not taken: {why})",
        ruled.target,
        ruled.others,
        ruled.after,
    )


def slot_around(
    state: UserState, slot: str, moment: datetime
) -> tuple[MemoryState | None, MemoryState | None]:
    """The values of `slot` (neither forgotten nor merged) that began last at or before `moment`,
    and first after it."""
    timeline = [m for m in state.timeline(slot) if not m.forgotten and not m.merged_into]
    at = bisect_right([m.valid_from for m in timeline], moment)
    return (timeline[at - 1] if at > 0 else None), (timeline[at] if at < len(timeline) else None)


def _judge_slot(state: UserState, candidate: Candidate, slot: str) -> Judgement:
    before, after = slot_around(state, slot, candidate.valid_from)
    value = normalized(candidate.value or candidate.content)
    if before is not None and before.holds_at(candidate.valid_from):
        if before.value_key == value:
            return Judgement("same", f"{slot} already holds this value", before, (before.memory_id,))
        if before.asserted and not candidate.asserted:
            return Judgement(
                "kept_out",
                f"the person said {slot} is {before.value_key!r} themselves; "
                "an inference does not replace it",
                before,
                (before.memory_id,),
            )
        return Judgement(
            "update",
            f"{slot} changes from {before.value_key!r} to {value!r}",
            before,
            (before.memory_id,),
            after,
        )
    if after is not None:
        return Judgement(
            "new", f"an earlier value of {slot}, before {after.value_key!r}", None, (after.memory_id,), after
        )
    return Judgement("new", f"the first value of {slot}")


def _judge_free(state: UserState, candidate: Candidate, similar: Sequence[Similar]) -> Judgement:
    key = normalized(candidate.content)
    for memory_id in reversed(state.by_content.get((candidate.kind, key), [])):
        memory = state.memories[memory_id]
        if memory.active:
            return Judgement("same", "the same words", memory, (memory_id,))
    words = content_words(candidate.content)
    close = [(s, state.memories[s.memory_id]) for s in similar if s.memory_id in state.memories]
    close = [(s, m) for s, m in close if m.active and m.kind is candidate.kind and m.slot is None]
    for match, memory in close:
        theirs = content_words(memory.content_key)
        if words <= theirs:
            return Judgement(
                "same",
                f"every word of it is in the memory already (cosine {match.cosine:.2f})",
                memory,
                (memory.memory_id,),
            )
        if theirs <= words:
            return Judgement(
                "merge",
                f"it holds every detail of the memory and more (cosine {match.cosine:.2f})",
                memory,
                (memory.memory_id,),
            )
    if close:
        named = ", ".join(f"{m.memory_id} ({s.cosine:.2f})" for s, m in close)
        return Judgement(
            "distinct",
            f"close to {named}, but each says something the other does not",
            None,
            tuple(m.memory_id for _, m in close),
        )
    return Judgement("new", "nothing like it yet")
