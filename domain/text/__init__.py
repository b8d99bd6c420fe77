"""One text module: how Lore reads words and sentences, per language (`languages.py`)."""

from domain.text.analyzer import Analyzer
from domain.text.languages import LANGUAGES, Language, analyzer, language
from domain.text.stemming import stem

__all__ = ["LANGUAGES", "Analyzer", "Language", "analyzer", "language", "stem"]
