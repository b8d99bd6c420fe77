"""The labelled formation set (bench/labelled): every part parses, and where a part's header gives
its counts, they are the file's — a part's figures are read against them."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest

from bench.formation import FOLDER, PARTS, Label, Statement, load, mismatch
from domain.extraction.candidate import Candidate
from domain.model import MemoryKind


@pytest.mark.parametrize("part", PARTS)
def test_every_part_parses_with_labels_of_known_kinds(part: str) -> None:
    statements = [s for session in load(part) for s in session.statements.values()]
    assert statements and any(s.labels for s in statements)
    kinds = {"fact", "event", "preference", "goal", "todo", "person", "health", "plan"}
    assert {label.kind for s in statements for label in s.labels} <= kinds


@pytest.mark.parametrize("part", ["fresh2", "fresh3"])
def test_a_parts_header_gives_its_own_counts(part: str) -> None:
    header = " ".join(line[1:] for line in (FOLDER / f"{part}.chats").read_text().splitlines()
                      if line.startswith("# "))
    said = re.search(r"(\d+) user statements in (\d+) chats.*?"
                     r"(\d+) that should give nothing,\s+(\d+) labelled", header)
    assert said, "the header names its statements, chats, empty statements and labels"
    sessions = load(part)
    statements = [s for session in sessions for s in session.statements.values()]
    counted = (len(statements), len({s.chat for s in statements}), sum(not s.labels for s in statements),
               sum(len(s.labels) for s in statements))
    assert counted == tuple(int(n) for n in said.groups())


def _said(content: str) -> tuple[Candidate, Statement]:
    at = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
    found = Candidate(kind=MemoryKind.PERSON, content=content, valid_from=at, confidence=0.8,
                      extractor="test")
    return found, Statement("chat", 1, 0, "(the line)", at)


@pytest.mark.parametrize(("memory", "label", "same"), [
    ("Sister Amira is getting married in Porto", "Going to sister Amira's wedding in Porto", True),
    ("Sister Amira is getting married in Porto", "Going to sister Amina's wedding in Porto", False),
    ("Has a brother named Jon", "Has a brother named Jon's", True),
])
def test_a_name_said_with_its_possessive_is_the_name(memory: str, label: str, same: bool) -> None:
    found, said = _said(memory)
    why = mismatch(found, Label("person", label, frozenset({"person"})), said)
    assert (why is None) == same, why


@pytest.mark.parametrize(("attribute", "same"), [
    ("name", True),  # the labels have no slot for a person's own name: not held against the memory
    ("employer", False),  # a slot the labels can name, where the label names none, is a different memory
])
def test_a_slot_the_labels_cannot_name_is_not_held_against_a_memory(attribute: str, same: bool) -> None:
    found, said = _said("Is named Ellen")
    found = found.model_copy(update={"kind": MemoryKind.FACT, "attribute": attribute, "value": "Ellen"})
    why = mismatch(found, Label("fact", "Is named Ellen", frozenset({"fact"})), said)
    assert (why is None) == same, why
