"""What crypto-shredding costs: the event log's ingest and rebuild rates with and without sealing.

Realistic entries (bench/history.py's commands decided by the domain, each memory and message with
a 384-dimension vector, as the local embedder gives) are appended to an embedded SQLite log in
batches (encode + seal + insert) and read back whole (read + open + decode): plain; sealed with
per-person AES-256-GCM keys from a SQLite key store made during the ingest (new people); and
sealed with keys that exist already (known people). Each mode goes first in turn, several rounds;
prints the median rates and their ratios to plain. No server needed.

    python -m bench.encryption             # 50,000 commands, 5 rounds
    python -m bench.encryption --smoke     # 2,000 commands, 3 rounds
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from collections.abc import Sequence
from datetime import timedelta
from pathlib import Path

from bench.history import START, history
from domain.commands import RecordEpisode, RecordMemory, message_text
from domain.decide import decide
from domain.errors import DomainError
from domain.events import Embedding
from domain.state import UserState, evolve
from domain.stored import Decided
from infra.eventlog.sqlite import SqliteEventLog
from infra.keys.sqlite import SqliteKeyStore

DIMENSIONS = 384
BATCH = 2000


def decided_history(users: int, commands: int) -> list[tuple[str, str, list]]:
    """(command_id, user_id, events) of every command the domain accepts."""
    rng = random.Random(11)
    states: dict[str, UserState] = {}
    out = []
    for n, command in enumerate(history(users, commands)):
        texts = ([command.content] if isinstance(command, RecordMemory)
                 else [message_text(m) for m in command.messages] if isinstance(command, RecordEpisode)
                 else [])
        vectors = tuple(Embedding.of("minilm", [rng.uniform(-1, 1) for _ in range(DIMENSIONS)])
                        for _ in texts)
        state = states.setdefault(command.user_id, UserState(command.user_id))
        try:
            events = decide(state, command, START + timedelta(seconds=n), vectors)
        except DomainError:
            continue
        evolve(state, events)
        out.append((command.command_id, command.user_id, events))
    return out


def one_round(entries: Sequence[tuple[str, str, list]], folder: Path, mode: str) -> tuple[float, float]:
    """Events per second appended, and read back. `mode`: plain; sealed (each person's key made
    during the ingest, as for new people); sealed-known (keys made before, as for known people)."""
    keys = SqliteKeyStore(folder / "keys.sqlite3") if mode != "plain" else None
    if keys is not None and mode == "sealed-known":
        keys.prepare({u for _, u, _ in entries})
    log = SqliteEventLog(folder / "events.sqlite3", keys=keys)
    events = sum(len(e) for _, _, e in entries)
    try:
        started = time.perf_counter()
        for at in range(0, len(entries), BATCH):
            # Fresh Decided objects: each entry is encoded inside the timing, as a live append does.
            log.append([Decided(c, u, e) for c, u, e in entries[at:at + BATCH]])
        ingest = events / (time.perf_counter() - started)
        started = time.perf_counter()
        read = sum(len(batch) for batch in log.read({}, batch_size=BATCH))
        rebuild = read / (time.perf_counter() - started)
        assert read == events, (read, events)  # no erasure shreds here: bench.history's keys stay
    finally:
        log.close()
        if keys is not None:
            keys.close()
    return ingest, rebuild


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--commands", type=int, default=50_000)
    parser.add_argument("--users", type=int, default=1_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--smoke", action="store_true", help="2,000 commands, 3 rounds")
    args = parser.parse_args()
    if args.smoke:
        args.commands, args.users, args.rounds = 2_000, 100, 3
    entries = decided_history(args.users, args.commands)
    # Erasures would shred entries and make the two reads differ in work: leave them out.
    entries = [(c, u, e) for c, u, e in entries if type(e[0]).__name__ != "UserErased"]
    events = sum(len(e) for _, _, e in entries)
    print(f"{len(entries):,} entries ({events:,} events, {DIMENSIONS}-d vectors), {args.rounds} rounds")
    modes = ["plain", "sealed", "sealed-known"]
    rates: dict[str, list[tuple[float, float]]] = {m: [] for m in modes}
    for n in range(args.rounds):
        for mode in modes[n % 3:] + modes[:n % 3]:  # each mode first in turn
            with tempfile.TemporaryDirectory() as folder:
                rates[mode].append(one_round(entries, Path(folder), mode))
    medians = {m: (statistics.median(r[0] for r in rs), statistics.median(r[1] for r in rs))
               for m, rs in rates.items()}
    for label, at in (("ingest (encode+append)", 0), ("rebuild (read+decode)", 1)):
        plain = medians["plain"][at]
        print(f"{label:24s} plain {plain:>9,.0f} events/s   " + "   ".join(
            f"{m} {medians[m][at]:>9,.0f} events/s ({medians[m][at] / plain:.2f}x)" for m in modes[1:]))


if __name__ == "__main__":
    main()
