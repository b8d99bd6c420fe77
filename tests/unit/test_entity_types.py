"""Entities typed by the words around their names, on sentences of our own, with the names the
words say nothing about left as things."""

from __future__ import annotations

import pytest

from domain.entity_types import entity_type, entity_types


@pytest.mark.parametrize(("text", "name", "expected"), [
    ("My sister Maya is visiting next week", "Maya", "person"),
    ("Had lunch with my colleague, Tomás", "Tomás", "person"),
    ("I met Priya at the conference", "Priya", "person"),
    ("We moved to Lisbon in March", "Lisbon", "place"),
    ("She grew up in Kraków", "Kraków", "place"),
    ("Planning a trip to Hokkaido", "Hokkaido", "place"),
    ("He works at Globex", "Globex", "organisation"),
    ("I joined Initech last year", "Initech", "organisation"),
    ("Got an offer from Acme Inc", "Acme Inc", "organisation"),
    ("Studied physics at Porto University", "Porto University", "organisation"),
    ("I switched to Neovim for everything", "Neovim", "tool"),
    ("The team uses Kafka for events", "Kafka", "tool"),
    ("I code in Rust at home", "Rust", "tool"),
])
def test_the_words_around_a_name_say_what_it_is(text: str, name: str, expected: str) -> None:
    assert entity_type(name, text) == expected


@pytest.mark.parametrize(("text", "name"), [
    ("Maya called about the plans", "Maya"),          # the name leads the sentence: no cue before it
    ("Kafka is hard to operate", "Kafka"),
    ("Loves the color teal", "teal"),
    ("My favourite book is Dune", "Dune"),
    ("Prefers window seats", "Aisle"),                 # not in the text at all
])
def test_a_name_the_words_say_nothing_about_stays_a_thing(text: str, name: str) -> None:
    assert entity_type(name, text) == "thing"


def test_only_typed_names_are_listed() -> None:
    assert entity_types(["Maya", "Dune"], "My friend Maya lent me Dune") == (("Maya", "person"),)
