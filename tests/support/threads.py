"""Running one reader on several threads at once, switching between them as often as Python can,
to catch shared state that is not safe for threads (a snowball stemmer holds its word in itself)."""

from __future__ import annotations

import random
import sys
import threading
from collections.abc import Callable, Hashable, Mapping
from typing import TypeVar

T = TypeVar("T", bound=Hashable)


def misread_under_threads(expected: Mapping[T, object], read: Callable[[T], object],
                           threads: int = 4) -> list[str]:
    """What `read` got wrong (or raised) when `threads` threads each read every key of `expected`,
    in an order of their own, at once."""
    wrong: list[str] = []

    def read_all(seed: int) -> None:
        mine = list(expected)
        random.Random(seed).shuffle(mine)
        try:
            wrong.extend(repr(item) for item in mine if read(item) != expected[item])
        except Exception as error:  # noqa: BLE001 - garbled shared state raises (IndexError, ...)
            wrong.append(repr(error))

    switch = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        running = [threading.Thread(target=read_all, args=(seed,)) for seed in range(threads)]
        for thread in running:
            thread.start()
        for thread in running:
            thread.join()
    finally:
        sys.setswitchinterval(switch)
    return wrong
