""""my husband Dev and I": one person named, and the person with them ("Is going to Rome in May
2026 with their husband Dev"); "my girlfriend, Toby and I" is two people, not a girlfriend named
Toby. How one of the family is ("my son is allergic to peanuts") is kept of them. Every sentence
here is our own."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from domain.commands import Message
from domain.extraction.candidate import Candidate
from domain.extraction.rules import extract
from domain.model import MemoryKind
from infra.nlp import english_parser

SAID_AT = datetime(2026, 3, 18, 9, 0, tzinfo=UTC)


def found(line: str) -> list[Candidate]:
    return extract([Message(role="user", content=line, timestamp=SAID_AT)], SAID_AT, english_parser())


def test_a_partner_named_before_and_i_is_named_and_goes_with_them() -> None:
    plan, partner = found("my husband Dev and I are going to Rome in May")
    assert (plan.kind, plan.content) == (
        MemoryKind.PLAN, "Is going to Rome in May 2026 with their husband Dev")
    assert (partner.attribute, partner.value) == ("partner", "Dev")
    (named,) = found("my husband Dev and I are planning a trip")
    assert (named.attribute, named.value) == ("partner", "Dev")


def test_a_list_after_a_comma_is_two_people() -> None:
    (went,) = found("my girlfriend, Toby and I went to Rome")
    assert went.content == "Went to Rome with their girlfriend and Toby"
    assert went.attribute is None  # no girlfriend named Toby


@pytest.mark.parametrize(("line", "content"), [
    ("my son is allergic to peanuts", "Son is allergic to peanuts"),
    ("my mum is deaf", "Mum is deaf"),
    ("my husband Dev is diabetic", "Husband Dev is diabetic"),
])
def test_how_one_of_the_family_is_is_kept_of_them(line: str, content: str) -> None:
    (kin,) = found(line)
    assert (kin.kind, kin.content) == (MemoryKind.PERSON, content)


@pytest.mark.parametrize("line", ["my son is great", "my friend is diabetic"])
def test_no_memory_of_praise_or_of_a_friend_s_health(line: str) -> None:
    assert found(line) == []


def said_in_turn(*lines: str) -> list[Candidate]:
    return extract([Message(role="user", content=line, timestamp=SAID_AT) for line in lines], SAID_AT,
                   english_parser())


def test_a_name_given_earlier_in_the_conversation_is_known_later() -> None:
    found_ = said_in_turn("my husband Dev and I are planning a trip",
                          "Dev is diabetic so we need snacks sorted", "Dev works at Barclays")
    assert [c.content for c in found_] == [
        "Husband is named Dev", "Husband Dev is diabetic", "Husband Dev works at Barclays"]
    assert [c.attribute for c in found_] == ["partner", None, None]  # the name fills the slot once


@pytest.mark.parametrize("later", ["Dev thinks I should rest", "Dev is lovely", "Dev was diabetic as a kid"])
def test_no_memory_of_a_known_name_s_opinions_praise_or_past(later: str) -> None:
    found_ = said_in_turn("my husband Dev and I are planning a trip", later)
    assert [c.content for c in found_] == ["Husband is named Dev"]


def test_a_name_not_given_as_one_of_theirs_is_no_one_s() -> None:
    assert said_in_turn("Dev is diabetic") == []
    # a name given to two of theirs is neither's
    found_ = said_in_turn("my brother Sam lives in Leeds", "my friend Sam is a vet", "Sam is diabetic")
    assert not any(c.content.endswith("Sam is diabetic") for c in found_)
