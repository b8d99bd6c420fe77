"""Extraction quality on LoCoMo's annotated observations: what an extractor finds of what was said.

    python -m bench.extraction                    # the offline rules on all 272 sessions
    python -m bench.extraction --sessions 20      # a fixed sample (the first sessions, in order)
    python -m bench.extraction --runs OLD.jsonl   # also score runs kept by another version (--cache)
    python -m bench.extraction --pairs-to-label pairs.jsonl   # draw pairs for the matcher's labels
    LORE_LLM=openai LORE_LLM_BASE_URL=... python -m bench.extraction --extractor llm --sessions 20

LoCoMo's sessions come with `observation`s: facts about each speaker, each with the turn(s) it
comes from. Each session is extracted once per speaker, that speaker as the person (role user)
and the other as the assistant, as Lore extracts a conversation. An observation is covered when
a memory extracted for its speaker comes from one of its turns and says the same thing; a memory
matches when it covers some observation.

"Says the same thing" is e5-small-v2's cosine (both texts read as `query: `, the memory with the
speaker's name before it, as the observation has) at least a threshold chosen first, on pairs
labelled by hand same / not same (`bench/labelled/locomo_pairs.jsonl`: observations beside
memories of their turns, from the rules before and after this change): the threshold that agrees
most with the labels. Reported: the matcher's agreement, the share of observations covered, the
share of memories that match, memories per session, and the model tokens per session (0 for the
rules). No server is needed: this measures extraction alone.
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
from infra.embedding import open_embedder
from infra.embedding.port import Embedder, embed_queries
from infra.settings import Settings
from services.bootstrap import open_extractor
from services.extraction.extractors import Extractor, RulesExtractor

console = Console(width=160)
PAIRS = Path(__file__).parent / "labelled" / "locomo_pairs.jsonl"


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


def said_by(speaker: str, memory: str) -> str:
    """A memory as an observation reads: "Caroline" + "Moved to ..." -> "Caroline moved to ..."."""
    if memory.startswith(("I ", "I'", "My ", "my ")) or not memory:
        return memory  # in the person's own voice (the rules before this change)
    return f"{speaker} {memory[0].lower()}{memory[1:]}"


def cosines(embedder: Embedder, pairs: list[tuple[str, str]]) -> list[float]:
    texts = [t for pair in pairs for t in pair]
    vectors = np.array(embed_queries(embedder, texts), dtype=np.float32) if texts else np.zeros((0, 1))
    return [float(vectors[2 * i] @ vectors[2 * i + 1]) for i in range(len(pairs))]


def calibrate(embedder: Embedder) -> tuple[float, dict[str, float]]:
    """The cosine threshold that agrees most with the labelled pairs, and how well it agrees."""
    rows = [json.loads(line) for line in PAIRS.read_text().splitlines() if line.strip()]
    scores = cosines(embedder, [(r["observation"], r["memory"]) for r in rows])
    same = [bool(r["same"]) for r in rows]
    best, agreement = 0.0, -1.0
    for threshold in sorted(set(round(x, 3) for x in scores)):
        hits = sum((c >= threshold) == s for c, s in zip(scores, same, strict=True))
        if hits > agreement:
            best, agreement = threshold, hits
    said_same = [c >= best for c in scores]
    true = sum(a and b for a, b in zip(said_same, same, strict=True))
    return best, {"pairs": len(rows), "same": sum(same), "agreement": agreement / len(rows),
                  "precision": true / max(sum(said_same), 1), "recall": true / max(sum(same), 1)}


def score(runs: list[Run], embedder: Embedder, threshold: float, speakers: list[str]) -> dict[str, float]:
    covered = matched = observations = memories = 0
    for run, speaker in zip(runs, speakers, strict=True):
        pairs = [(i, j) for i, o in enumerate(run.observations) for j, m in enumerate(run.memories)
                 if o.turns & m.turns]
        close = cosines(embedder, [(run.observations[i].text, said_by(speaker, run.memories[j].text))
                                   for i, j in pairs])
        hit = {pair for pair, c in zip(pairs, close, strict=True) if c >= threshold}
        covered += len({i for i, _ in hit})
        matched += len({j for _, j in hit})
        observations += len(run.observations)
        memories += len(run.memories)
    return {"observations": observations, "memories": memories,
            "covered": covered / observations if observations else 0.0,
            "matched": matched / memories if memories else 0.0}


def pairs_to_label(runs: list[Run], speakers: list[str], embedder: Embedder, out: Path, count: int) -> None:
    """Observations beside memories of their turns, spread over the cosine range, to be labelled."""
    found = []
    for run, speaker in zip(runs, speakers, strict=True):
        for o in run.observations:
            for m in run.memories:
                if o.turns & m.turns:
                    found.append((o.text, said_by(speaker, m.text)))
    close = cosines(embedder, found)
    ranked = sorted(zip(close, found, strict=True))
    step = max(len(ranked) // count, 1)
    with out.open("a") as file:
        for c, (o, m) in ranked[::step][:count]:
            row = {"observation": o, "memory": m, "cosine": round(c, 3), "same": None}
            file.write(json.dumps(row) + "\n")


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


def _speakers(chosen: list[tuple[dict, int]]) -> list[str]:
    return [speaker for conv, _ in chosen
            for speaker in (conv["conversation"]["speaker_a"], conv["conversation"]["speaker_b"])]


def extracted(extractor: Extractor, chosen: list[tuple[dict, int]],
              cache: Path | None) -> tuple[list[Run], float]:
    """Every chosen session extracted (or read back from `cache`), and the seconds it took."""
    kept, seconds = _cached(cache)
    runs: list[Run] = []
    for conv, n in track(chosen, description=f"extracting with {extractor.name}", console=console):
        key = f"{conv.get('sample_id', id(conv))}/{n}/{extractor.name}"
        if key not in kept:
            began = time.monotonic()
            kept[key] = extract_session(extractor, conv, n)
            seconds[key] = time.monotonic() - began
            if cache is not None:
                with cache.open("a") as out:
                    out.write(json.dumps({"key": key, "seconds": seconds[key],
                                          "runs": [asdict(r) for r in kept[key]]}, default=sorted) + "\n")
        runs += kept[key]
    elapsed = sum(seconds.get(f"{c.get('sample_id', id(c))}/{n}/{extractor.name}", 0.0) for c, n in chosen)
    return runs, elapsed


def kept_runs(path: Path, chosen: list[tuple[dict, int]]) -> tuple[str, list[Run], float]:
    """Runs another version kept (its --cache), in the order of `chosen`."""
    kept, seconds = _cached(path)
    by_session = {tuple(key.split("/")[:2]): (key, runs) for key, runs in kept.items()}
    runs: list[Run] = []
    name, elapsed = "?", 0.0
    for conv, n in chosen:
        key, found = by_session[(str(conv.get("sample_id")), str(n))]
        name = key.split("/", 2)[2]
        runs += found
        elapsed += seconds.get(key, 0.0)
    return f"{name} (kept runs)", runs, elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sessions", type=int, default=0, help="the first N sessions (0: all 272)")
    parser.add_argument("--extractor", choices=["rules", "llm"], default="rules")
    parser.add_argument("--cache", type=Path, default=None,
                        help="keep each session's extraction in this JSON Lines file and reuse it: a long "
                             "model run can stop and go on")
    parser.add_argument("--runs", type=Path, action="append", default=[],
                        help="also score the runs another version kept in its --cache file")
    parser.add_argument("--pairs-to-label", type=Path, default=None,
                        help="write observation / memory pairs to label for the matcher, and stop")
    args = parser.parse_args()
    extractor = RulesExtractor() if args.extractor == "rules" else open_extractor(Settings(extractor="llm"))
    assert extractor is not None
    chosen = sessions(args.sessions)
    speakers = _speakers(chosen)
    embedder = open_embedder(Settings(embedder="e5-small-v2"))
    assert embedder is not None
    rows = [(f"{extractor.name}", *extracted(extractor, chosen, args.cache))]
    rows += [kept_runs(path, chosen) for path in args.runs]
    if args.pairs_to_label is not None:
        args.pairs_to_label.unlink(missing_ok=True)
        for _, runs, _ in rows:
            pairs_to_label(runs, speakers, embedder, args.pairs_to_label, 60)
        return
    threshold, agreement = calibrate(embedder)
    console.print(f"matcher: e5-small-v2 cosine ≥ {threshold:.3f}, chosen on {agreement['pairs']} labelled "
                  f"pairs "
                  f"({agreement['same']} same): agrees on {100 * agreement['agreement']:.1f} %, precision "
                  f"{100 * agreement['precision']:.1f} %, recall {100 * agreement['recall']:.1f} %")
    table = Table(title=f"LoCoMo observations covered by extraction ({len(chosen)} sessions, both speakers; "
                        f"the same turn and cosine ≥ {threshold:.3f})")
    for column in ("extractor", "observations", "memories", "covered", "memories matching",
                   "memories / session", "tokens / session", "s / session"):
        table.add_column(column, justify="right")
    for name, runs, elapsed in rows:
        figures = score(runs, embedder, threshold, speakers)
        table.add_row(name, f"{figures['observations']:,.0f}", f"{figures['memories']:,.0f}",
                      f"{100 * figures['covered']:.1f} %", f"{100 * figures['matched']:.1f} %",
                      f"{figures['memories'] / len(chosen):.1f}",
                      f"{sum(r.tokens for r in runs) / len(chosen):,.0f}", f"{elapsed / len(chosen):.2f}")
    console.print(table)


if __name__ == "__main__":
    main()
