"""The languages Lore reads, each with its analyzers and how it cuts a text into sentences.

A language is added here, in one place: its module names an analyzer for each purpose
(`index`, `query`, `detail`, `topic`) and its sentence pattern, and every reader — BM25,
extraction, consolidation, summaries — picks it up by its code.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from domain.text import chinese, english
from domain.text.analyzer import Analyzer


@dataclass(frozen=True)
class Language:
    code: str
    analyzers: Mapping[str, Analyzer]
    sentence: re.Pattern[str]

    def sentences(self, text: str) -> list[str]:
        """The sentences of `text`, stripped, none empty."""
        return [s for s in (m.group().strip() for m in self.sentence.finditer(text)) if s]


LANGUAGES: dict[str, Language] = {
    "en": Language("en", english.ANALYZERS, english.SENTENCE),
    "zh": Language("zh", chinese.ANALYZERS, chinese.SENTENCE),
}
DEFAULT = "en"


def language(code: str = DEFAULT) -> Language:
    try:
        return LANGUAGES[code]
    except KeyError:
        raise ValueError(f"no analyzers for the language {code!r} (known: {', '.join(LANGUAGES)})") from None


def analyzer(purpose: str, code: str = DEFAULT) -> Analyzer:
    """The analyzer of `purpose` (index, query, detail, topic) for the language `code`."""
    found = language(code).analyzers.get(purpose)
    if found is None:
        raise ValueError(f"the language {code!r} has no {purpose!r} analyzer")
    return found
