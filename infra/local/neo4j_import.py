"""neo4j-admin's offline import (`database import full`), run with a local server's jars and Java.

The server must be stopped: the import writes the store files of the database directly.
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

from infra.local.servers import _NEO4J_JVM_FLAGS, Neo4jServer


@dataclass(frozen=True)
class ImportFiles:
    nodes: list[Path]
    relationships: list[Path]
    array_delimiter: str


class ImportFailed(RuntimeError):
    pass


def delimiter_option(char: str) -> str:
    """neo4j-admin takes a control character as `U+001F`."""
    return char if char.isprintable() else f"U+{ord(char):04X}"


def import_options(files: ImportFiles, report: Path) -> list[str]:
    """The options both 5.26 and 2026 understand, in the same spelling. They go after the
    database's name: --nodes and --relationships take every word that follows as a file."""
    return [
        "--overwrite-destination=true",
        "--id-type=integer",
        "--multiline-fields=true",  # text keeps its newlines
        f"--array-delimiter={delimiter_option(files.array_delimiter)}",
        f"--report-file={report}",
        *[f"--nodes={path}" for path in files.nodes],
        *[f"--relationships={path}" for path in files.relationships],
    ]


def admin_command(files: ImportFiles, report: Path, database: str = "neo4j") -> list[str]:
    """What to run by hand against a Neo4j that Lore does not run (stopped, or a database it may replace)."""
    return ["neo4j-admin", "database", "import", "full", database, *import_options(files, report)]


def run_import(server: Neo4jServer, jars: Path, files: ImportFiles, database: str = "neo4j") -> str:
    """Import into `database` of the (stopped) local server; returns neo4j-admin's output."""
    report = server.home / "logs" / "import.report"
    # The importer's caches want the same JVM flags as the server (direct buffers, Netty).
    argv = [server.java, f"-Xmx{server.heap}", *_NEO4J_JVM_FLAGS, "-cp", f"{jars}/*",
            "org.neo4j.cli.AdminTool", "database", "import", "full", database, *import_options(files, report)]
    proc = subprocess.run(
        argv, env={**os.environ, "NEO4J_HOME": str(server.home), "NEO4J_CONF": str(server.home / "conf")},
        capture_output=True, text=True, cwd=server.home,
    )
    if proc.returncode != 0:
        tail = "\n".join((proc.stdout + proc.stderr).splitlines()[-40:])
        raise ImportFailed(f"neo4j-admin database import failed (report: {report}):\n{tail}")
    return proc.stdout
