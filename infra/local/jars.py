"""Assemble a server's classpath from Maven Central, once, and keep it between runs."""

from __future__ import annotations

import hashlib
import logging
import shutil
import subprocess
from importlib import resources
from pathlib import Path

log = logging.getLogger(__name__)

_STAMP = ".assembled"


class JarAssemblyError(RuntimeError):
    pass


def _pom(server: str) -> Path:
    return Path(str(resources.files("infra.local") / "maven" / server / "pom.xml"))


def ensure_jars(server: str, cache_root: Path) -> Path:
    """The folder holding every jar of ``server`` ('neo4j' or 'kafka'); downloads only once.

    The folder is keyed by the pom's hash, so changing a pinned version assembles anew
    while an unchanged pom never reaches the network again.
    """
    pom = _pom(server)
    digest = hashlib.sha256(pom.read_bytes()).hexdigest()[:12]
    target = cache_root / f"{server}-{digest}"
    if (target / _STAMP).exists():
        return target
    if shutil.which("mvn") is None:
        raise JarAssemblyError("Maven ('mvn') is needed once to fetch the server jars; install it.")
    partial = target.with_name(target.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    log.info("Fetching %s jars from Maven Central into %s (once)", server, target)
    proc = subprocess.run(
        [
            "mvn", "-B", "-q", "-f", str(pom), "dependency:copy-dependencies",
            "-DincludeScope=runtime", f"-DoutputDirectory={partial}",
        ],
        capture_output=True,
        text=True,
    )
    if proc.returncode != 0:
        tail = "\n".join((proc.stdout + proc.stderr).splitlines()[-30:])
        raise JarAssemblyError(f"mvn failed to assemble the {server} jars:\n{tail}")
    (partial / _STAMP).write_text(digest)
    shutil.rmtree(target, ignore_errors=True)
    partial.rename(target)
    return target
