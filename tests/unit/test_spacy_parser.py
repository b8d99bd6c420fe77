"""The parser the offline rules read through: the pinned model, refused when its files change."""

from __future__ import annotations

from pathlib import Path

import pytest

from infra.nlp import spacy_parser
from infra.nlp.spacy_parser import ModelChanged, SpacyParser, digest, package_folder


def test_the_installed_model_is_the_pinned_one() -> None:
    assert digest(package_folder()) == spacy_parser.MODEL_DIGEST


def test_a_changed_file_changes_the_digest(tmp_path: Path) -> None:
    (tmp_path / "weights").write_bytes(b"\x00" * 64)
    before = digest(tmp_path)
    (tmp_path / "weights").write_bytes(b"\x00" * 63 + b"\x01")
    assert digest(tmp_path) != before


def test_a_model_whose_files_do_not_hash_to_the_pin_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(spacy_parser, "MODEL_DIGEST", "0" * 64)
    with pytest.raises(ModelChanged, match="not the pinned"):
        SpacyParser().parse(["I live in Porto."])


def test_a_parse_gives_words_with_their_heads_and_entities() -> None:
    ((sentence,),) = SpacyParser().parse(["I moved to Lisbon last month."])
    moved = next(w for w in sentence.words if w.text == "moved")
    assert (moved.lemma, moved.tag, moved.dep) == ("move", "VBD", "ROOT")
    named = [(kind, " ".join(w.text for w in words)) for kind, words in sentence.entities()]
    assert ("GPE", "Lisbon") in named


def test_a_word_the_tagger_takes_for_punctuation_stays_a_word_and_punctuation_stays_punctuation() -> None:
    """The small model tags some unseen lower-case names with digits as punctuation, and the rules
    leave punctuation out of what they write ("Loves hiking near on weekends")."""
    ((odd,), (marks,)) = SpacyParser().parse(["I love hiking near zermattee33adcc on weekends.",
                                              "I love hiking, near Zermatt, on weekends!!"])
    name = next(w for w in odd.words if w.text == "zermattee33adcc")
    assert (name.pos, name.dep) != ("PUNCT", "punct")
    assert [w.text for w in marks.words if w.pos == "PUNCT"] == [",", ",", "!", "!"]
