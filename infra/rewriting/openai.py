"""Query rewording through any OpenAI-compatible chat endpoint (OpenAI, vLLM, Ollama, LiteLLM, ...)."""

from __future__ import annotations

import re

from openai import OpenAI

PROMPT = (
    "You rewrite search queries for a personal memory store of notes about one person and their "
    "past conversations. Give {count} alternative wordings of the user's query, each on its own "
    "line: use other words for the same things (synonyms, the likely answer's terms, names spelled "
    "out), keep any dates or names. No numbering, no commentary."
)
_BULLET = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s*")


class OpenAIRewriter:
    def __init__(self, base_url: str | None, api_key: str, model: str, count: int, timeout_s: float) -> None:
        # No retries: a search waits for this, and answers with the query as asked when it fails.
        self._client = OpenAI(base_url=base_url, api_key=api_key, timeout=timeout_s, max_retries=0)
        self.model = model
        self.count = count

    def rewrite(self, query: str) -> list[str]:
        # An endpoint that fails raises: the search goes on with the query as asked, and says so.
        response = self._client.chat.completions.create(
            model=self.model, temperature=0,
            messages=[{"role": "system", "content": PROMPT.format(count=self.count)},
                      {"role": "user", "content": query}])
        text = (response.choices[0].message.content or "") if response.choices else ""
        found: dict[str, None] = {}
        for line in text.splitlines():
            wording = _BULLET.sub("", line).strip().strip('"')
            if wording and wording.lower() != query.strip().lower():
                found.setdefault(wording, None)
        return list(found)[:self.count]
