"""The line a context block ends with when its search left a source out, so that the assistant
reading the block knows its recall was partial; kept within the block's token budget."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from services.context import ContextBlock, Renderer
from services.degraded import Degradation

_SAID = {"vector": "meaning (vector) search", "questions": "question synthesis"}


def partial_line(left_out: list[Degradation]) -> str:
    sources = ", ".join(dict.fromkeys(_SAID.get(d.source, d.source) for d in left_out))
    return (f"Note: recall was partial ({sources} unavailable): other memories may bear on this; "
            "say so if it matters.")


def with_partial_note(block: ContextBlock, left_out: list[Degradation], renderer: Renderer,
                      now: datetime, budget: int) -> ContextBlock:
    """The block with the line at its end (text and Markdown; JSON says it in `degraded` only),
    the last items dropped while it does not fit the budget."""
    if not left_out or renderer.form == "json":
        return block
    line = "\n\n" + partial_line(left_out)
    sections = [replace(s, items=list(s.items)) for s in block.sections]
    text = renderer.render(now, sections) + line
    tokens = renderer.counter.count(text)
    while tokens > budget and sections:
        sections[-1].items.pop()
        if not sections[-1].items:
            sections.pop()
        text = renderer.render(now, sections) + line
        tokens = renderer.counter.count(text)
    shown = {(s.name, i.id) for s in sections for i in s.items}
    return replace(block, text=text, tokens=tokens, sections=sections,
                   always=[m for m in block.always if ("always", m.memory_id) in shown],
                   todos=[m for m in block.todos if ("todos", m.memory_id) in shown],
                   relevant=[h for h in block.relevant if ("relevant", h.id) in shown],
                   profile_version=block.profile_version if any(s.name == "profile" for s in sections) else 0)
