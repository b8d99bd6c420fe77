"""Parsers: spaCy's English pipeline from a pinned wheel, checked before it is used."""

from infra.nlp.spacy_parser import ModelChanged, SpacyParser, english_parser

__all__ = ["ModelChanged", "SpacyParser", "english_parser"]
