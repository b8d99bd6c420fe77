"""What compresses a group of old low-use memories: a model asked to keep every detail, checked
that it did, or the deterministic offline compression (its sentences, each once)."""

from __future__ import annotations

import logging
import re

from pydantic import BaseModel, ConfigDict, Field

from domain.commands import MAX_MEMORY_CHARS, Compression
from domain.lifecycle.maintenance import OFFLINE_COMPRESSOR, Group, compress_offline
from infra.llm import LLM
from services.lifecycle.maintenance import OfflineCompressor

log = logging.getLogger(__name__)

COMPRESS_PROMPT = "compress/1"
COMPRESS_SYSTEM = """You compress a person's old memories of one kind into 1 to 3 memories.
Each memory you write is one or two sentences that together keep EVERY detail of the originals:
names, places, numbers, dates, amounts. Merge what repeats; never add anything the originals do not
say. Answer JSON: {"memories": ["...", ...]}."""

# Details a compression must keep: numbers, and words capitalised inside a sentence (names,
# places, months); a sentence's first word is capitalised whatever it is.
_DETAILS = re.compile(r"\b(?:\d[\d.,:/-]*\d|\d|[A-Z][a-zA-Z]+)\b")
_SENTENCES = re.compile(r"(?<=[.!?])\s+")


def details(text: str) -> set[str]:
    found: set[str] = set()
    for sentence in _SENTENCES.split(text.strip()):
        words = _DETAILS.findall(sentence)
        first = sentence.split(maxsplit=1)[0] if sentence.split() else ""
        found.update(w for w in words if w != first or w[0].isdigit())
    return found


class CompressionAnswer(BaseModel):
    model_config = ConfigDict(extra="forbid")

    memories: list[str] = Field(min_length=1, max_length=3)


def lost_details(group: Group, written: list[str]) -> set[str]:
    """The originals' names and numbers that the compressed memories do not say."""
    kept = " ".join(written).casefold()
    said = set().union(*(details(content) for content in group.contents))
    return {d for d in said if d.casefold() not in kept}


class LLMCompressor:
    def __init__(self, llm: LLM) -> None:
        self.llm = llm
        self.offline = OfflineCompressor()

    def compress(self, group: Group) -> Compression:
        listing = "\n".join(f"{i + 1}. {content}" for i, content in enumerate(group.contents))
        try:
            answer = self.llm.structured(COMPRESS_SYSTEM, f"Kind: {group.kind.value}\n{listing}",
                                         CompressionAnswer, "compressed_memories")
        except Exception as error:  # noqa: BLE001 - any failure: the offline compression stands in
            log.warning("compression by %s failed, the offline one stands in: %s", self.llm.model, error)
            return self.offline.compress(group)
        written = [m.strip() for m in answer.value.memories if m.strip()]
        missing = lost_details(group, written)
        if not written or missing or any(len(m) > MAX_MEMORY_CHARS for m in written):
            log.info("compression by %s left out %s; the offline one stands in", self.llm.model,
                     sorted(missing)[:5])
            return Compression(memory_ids=group.memory_ids, contents=tuple(compress_offline(group)),
                               compressor=f"{OFFLINE_COMPRESSOR} (after {self.llm.model})",
                               prompt_tokens=answer.prompt_tokens, completion_tokens=answer.completion_tokens)
        return Compression(memory_ids=group.memory_ids, contents=tuple(written),
                           compressor=f"{answer.model} {COMPRESS_PROMPT}", prompt_tokens=answer.prompt_tokens,
                           completion_tokens=answer.completion_tokens)
