"""The Markdown file of a person's memory (services/markdown.py): what it shows, and what an edited
one changes; a line it cannot read is named, and nothing is planned from a file with one."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from domain.model import MemoryKind
from lore.schemas import MemoryView
from services.markdown import MarkdownError, Profile, parse, plan, render

T = datetime(2026, 3, 1, 10, tzinfo=UTC)


def view(memory_id: str, content: str, kind: str = "fact", **fields: object) -> MemoryView:
    values: dict[str, object] = {"memory_id": memory_id, "user_id": "ada", "kind": kind, "content": content,
                                 "status": "active", "valid_from": datetime(2026, 1, 1, tzinfo=UTC),
                                 "valid_until": None, "recorded_at": datetime(2026, 1, 2, tzinfo=UTC),
                                 "importance": 0.5, "confidence": 1.0}
    return MemoryView.model_validate({**values, **fields})


LIGHT = view("m-light", "Ada prefers the light editor theme", "preference", attribute="editor_theme",
             value="light", valid_from=datetime(2026, 2, 1, tzinfo=UTC))
DARK = view("m-dark", "Ada prefers the dark editor theme", "preference", attribute="editor_theme",
            value="dark", status="superseded", valid_until=datetime(2026, 2, 1, tzinfo=UTC))
CAT = view("m-cat", "Ada's cat is called Miso")
PASSPORT = view("m-pass", "Renew the passport", "todo", due_at=datetime(2026, 3, 20, tzinfo=UTC))
CURRENT = {m.memory_id: m for m in (LIGHT, CAT, PASSPORT)}


def exported() -> str:
    narrative = "Ada is a cellist in Lisbon.\n\nShe likes quiet tools."
    profile = Profile(2, narrative, [("home city", "Lisbon")], T)
    sections = [(MemoryKind.PREFERENCE, [(LIGHT, [DARK])]), (MemoryKind.FACT, [(CAT, [])]),
                (MemoryKind.TODO, [(PASSPORT, [])])]
    return "".join(render("ada", T, profile, sections))


def changes(text: str) -> list[tuple[str, str, str | None]]:
    found = plan(parse(text), CURRENT, {DARK.memory_id: DARK}, {})
    return [(c.action, c.content, c.memory_id) for c in found.changes]


def test_the_file_reads_as_the_person_would_tell_it() -> None:
    text = exported()
    assert text.startswith("# What Lore remembers of ada\n")
    assert "## Who ada is now" in text and "> Ada is a cellist in Lisbon." in text
    assert "- **home city:** Lisbon" in text
    assert ("- Ada prefers the light editor theme <!-- id:m-light · editor_theme = light · since "
            "2026-02-01 -->") in text
    assert "  - was: Ada prefers the dark editor theme (2026-01-01 → 2026-02-01)" in text
    assert "- [ ] Renew the passport <!-- id:m-pass · since 2026-01-01 · due 2026-03-20 -->" in text
    assert text.index("## Preferences") < text.index("## Facts") < text.index("## To-dos")


def test_a_file_given_back_unchanged_changes_nothing() -> None:
    found = plan(parse(exported()), CURRENT, {DARK.memory_id: DARK}, {})
    assert found.empty and found.kept == 3


def test_new_changed_removed_and_ticked_lines_become_their_changes() -> None:
    text = exported()
    text = text.replace("Ada's cat is called Miso", "Ada's cat is called Mochi")
    text = text.replace("- [ ] Renew the passport", "- [x] Renew the passport")
    text = text.replace("## Facts\n\n", "## Facts\n\n- Ada reads Borges\n")
    text = text.replace("- Ada prefers the light editor theme <!-- id:m-light · editor_theme = light · since "
                        "2026-02-01 -->\n", "")
    assert changes(text) == [("record", "Ada reads Borges", None),
                             ("correct", "Ada's cat is called Mochi", "m-cat"),
                             ("complete", "Renew the passport", "m-pass"),
                             ("forget", "Ada prefers the light editor theme", "m-light")]
    found = plan(parse(text), CURRENT, {DARK.memory_id: DARK}, {"m-cat": ["Mochi"]})
    (fix,) = found.correct
    assert fix.entities == ("Mochi",) and fix.memory_id == "m-cat"
    assert found.record[0].kind is MemoryKind.FACT and found.forget == ["m-light"]


def test_a_slot_value_edited_in_the_note_is_corrected_with_the_words() -> None:
    text = exported().replace("light editor theme <!-- id:m-light · editor_theme = light",
                              "solarized editor theme <!-- id:m-light · editor_theme = solarized")
    (fix,) = plan(parse(text), CURRENT, {}, {}).correct
    assert (fix.content, fix.attribute, fix.value) == ("Ada prefers the solarized editor theme",
                                                       "editor_theme", "solarized")


def test_a_memory_recorded_after_the_export_is_not_forgotten_for_missing() -> None:
    later = view("m-new", "Ada moved to Porto", recorded_at=datetime(2026, 3, 2, tzinfo=UTC))
    found = plan(parse(exported()), {**CURRENT, later.memory_id: later}, {}, {})
    assert found.empty


@pytest.mark.parametrize("edit, line, problem", [
    (("## Facts", "## Hobbies"), "## Hobbies", "unknown section 'Hobbies'"),
    (("## Facts\n\n", "## Facts\n\nAda reads Borges\n"), "Ada reads Borges", "a list item"),
    (("id:m-cat", "id:m-none"), "id:m-none", "not one of this person's"),
    (("Miso <!-- id:m-cat · since 2026-01-01 -->", "Miso <!-- id:m-cat"), "id:m-cat", "must close"),
    (("- Ada's cat", "- [x] Ada's cat"), "[x] Ada's cat", "for to-dos"),
    (("## Facts\n\n", "## Facts\n\n- <!-- id:m-pass -->\n"), "- <!-- id:m-pass", "without words"),
    (("## Facts\n\n", "## Facts\n\n- Ada is tall <!-- id:m-light -->\n"), "Ada is tall", "already"),
    (("## Facts", "## Goals"), "Ada's cat is called Miso", "is a fact: it stays under '## Facts'"),
    (("  - was: Ada prefers the dark", "  - Ada prefers the dark"), "  - Ada prefers the dark", "indented"),
    (("id:m-cat", "id:m/dog"), "id:m/dog", "not a memory id"),
])
def test_a_line_that_cannot_be_read_is_named(edit: tuple[str, str], line: str, problem: str) -> None:
    text = exported().replace(*edit, 1)
    number = next(i for i, t in enumerate(text.splitlines(), start=1) if line in t)
    with pytest.raises(MarkdownError) as bad:
        plan(parse(text), CURRENT, {DARK.memory_id: DARK}, {})
    assert bad.value.line == number and problem in str(bad.value), str(bad.value)


def test_an_edited_line_of_a_memory_no_longer_in_force_is_refused() -> None:
    text = exported().replace("## Facts\n\n", "## Preferences\n\n- Ada prefers the black editor theme "
                              "<!-- id:m-dark -->\n## Facts\n\n")
    with pytest.raises(MarkdownError, match="superseded since the export"):
        plan(parse(text), CURRENT, {DARK.memory_id: DARK}, {})
