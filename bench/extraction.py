"""Extraction quality on LoCoMo's annotated observations: what an extractor finds of what was said.

    python -m bench.extraction                    # the offline rules on all 272 sessions
    python -m bench.extraction --sessions 20      # a fixed sample (the first sessions, in order)
    LORE_LLM=openai LORE_LLM_BASE_URL=... python -m bench.extraction --extractor llm --sessions 20

LoCoMo's sessions come with `observation`s: facts about each speaker, each with the turn(s) it
comes from. Each session is extracted once per speaker, that speaker as the person (role user)
and the other as the assistant, as Lore extracts a conversation. An observation is covered when
a memory extracted for its speaker comes from one of its turns and has a cosine of at least 0.7
with it (the local embedder); a memory matches when it covers some observation. Reported: the
share of observations covered, the share of memories that match, memories per session, and the
model tokens per session (0 for the rules). No server is needed: this measures extraction alone.
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.progress import track
from rich.table import Table

from bench.retrieval import load_locomo, session_time
from domain.commands import Message
from infra.embedding.local import LocalMiniLM
from infra.settings import Settings
from services.bootstrap import open_extractor
from services.extraction.extractors import Extractor, RulesExtractor

console = Console(width=160)
COSINE = 0.7


@dataclass
class Found:
    text: str
    turns: set[str]


@dataclass
class Run:
    observations: list[Found]
    memories: list[Found]
    tokens: int


def evidence(ref: object) -> set[str]:
    refs = ref if isinstance(ref, list) else [ref]
    return {r.strip() for part in refs for r in str(part).replace(";", ",").split(",") if r.strip()}


def sessions(limit: int) -> list[tuple[dict, int]]:
    out = []
    for conv in load_locomo(10):
        n = 1
        while f"session_{n}" in conv["conversation"]:
            out.append((conv, n))
            n += 1
    return out[:limit] if limit else out


def extract_session(extractor: Extractor, conv: dict, n: int) -> list[Run]:
    c = conv["conversation"]
    turns = c[f"session_{n}"]
    at = session_time(c[f"session_{n}_date_time"])
    observed = conv["observation"].get(f"session_{n}_observation", {})
    runs = []
    for speaker in (c["speaker_a"], c["speaker_b"]):
        messages = [Message(role="user" if t["speaker"] == speaker else "assistant", content=t["text"],
                            timestamp=at) for t in turns if t.get("text")]
        kept = [t for t in turns if t.get("text")]
        result = extractor.extract(messages, at)
        memories = [Found(m.content, {kept[p]["dia_id"] for p in m.positions if p < len(kept)})
                    for m in result.candidates]
        observations = [Found(text, evidence(ref)) for text, ref in observed.get(speaker, [])]
        runs.append(Run(observations, memories, result.prompt_tokens + result.completion_tokens))
    return runs


def score(runs: list[Run], model: LocalMiniLM) -> dict[str, float]:
    texts = [f.text for r in runs for f in (*r.observations, *r.memories)]
    vectors = iter(np.array(model.embed(texts), dtype=np.float32)) if texts else iter(())
    covered = matched = observations = memories = 0
    for run in runs:
        obs = [(o, next(vectors)) for o in run.observations]
        mem = [(m, next(vectors)) for m in run.memories]
        hit = {(i, j) for i, (o, ov) in enumerate(obs) for j, (m, mv) in enumerate(mem)
               if o.turns & m.turns and float(ov @ mv) >= COSINE}
        covered += len({i for i, _ in hit})
        matched += len({j for _, j in hit})
        observations += len(obs)
        memories += len(mem)
    return {"observations": observations, "memories": memories,
            "covered": covered / observations if observations else 0.0,
            "matched": matched / memories if memories else 0.0}


def _cached(path: Path | None) -> tuple[dict[str, list[Run]], dict[str, float]]:
    """The sessions extracted before (runs, and the seconds each took), from the cache file."""
    kept: dict[str, list[Run]] = {}
    seconds: dict[str, float] = {}
    if path is None or not path.exists():
        return kept, seconds
    for line in path.read_text().splitlines():
        row = json.loads(line)
        kept[row["key"]] = [Run([Found(f["text"], set(f["turns"])) for f in r["observations"]],
                                [Found(f["text"], set(f["turns"])) for f in r["memories"]], r["tokens"])
                            for r in row["runs"]]
        seconds[row["key"]] = row.get("seconds", 0.0)
    return kept, seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sessions", type=int, default=0, help="the first N sessions (0: all 272)")
    parser.add_argument("--extractor", choices=["rules", "llm"], default="rules")
    parser.add_argument("--cache", type=Path, default=None,
                        help="keep each session's extraction in this JSON Lines file and reuse it: a long "
                             "model run can stop and go on")
    args = parser.parse_args()
    extractor = RulesExtractor() if args.extractor == "rules" else open_extractor(Settings(extractor="llm"))
    assert extractor is not None
    chosen = sessions(args.sessions)
    model = LocalMiniLM()
    kept, seconds = _cached(args.cache)
    runs: list[Run] = []
    for conv, n in track(chosen, description=f"extracting with {extractor.name}", console=console):
        key = f"{conv.get('sample_id', id(conv))}/{n}/{extractor.name}"
        if key not in kept:
            began = time.monotonic()
            kept[key] = extract_session(extractor, conv, n)
            seconds[key] = time.monotonic() - began
            if args.cache is not None:
                with args.cache.open("a") as out:
                    out.write(json.dumps({"key": key, "seconds": seconds[key],
                                          "runs": [asdict(r) for r in kept[key]]}, default=sorted) + "\n")
            console.log(f"{key}: {sum(len(r.memories) for r in kept[key])} memories, "
                        f"{sum(r.tokens for r in kept[key]):,} tokens")
        runs += kept[key]
    elapsed = sum(seconds.get(f"{c.get('sample_id', id(c))}/{n}/{extractor.name}", 0.0) for c, n in chosen)
    figures = score(runs, model)
    table = Table(title=f"LoCoMo observations covered by extraction ({len(chosen)} sessions, both speakers; "
                        f"cosine ≥ {COSINE} and the same turn)")
    for column in ("extractor", "observations", "memories", "covered", "memories matching",
                   "memories / session", "tokens / session", "s / session"):
        table.add_column(column, justify="right")
    table.add_row(extractor.name, f"{figures['observations']:,.0f}", f"{figures['memories']:,.0f}",
                  f"{100 * figures['covered']:.1f} %", f"{100 * figures['matched']:.1f} %",
                  f"{figures['memories'] / len(chosen):.1f}",
                  f"{sum(r.tokens for r in runs) / len(chosen):,.0f}", f"{elapsed / len(chosen):.2f}")
    console.print(table)


if __name__ == "__main__":
    main()
