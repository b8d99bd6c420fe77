"""The labelled formation set (bench/labelled): every part parses, and where a part's header gives
its counts, they are the file's — a part's figures are read against them."""

from __future__ import annotations

import re

import pytest

from bench.formation import FOLDER, PARTS, load


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
