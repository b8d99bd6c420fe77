"""neo4j-admin's offline import (`database import full`), run with a local server's jars and Java.

The import writes a database's store files directly, so the database must not be running where it
writes. Lore imports into a staging folder beside the running server (`staged_import`), which
serves the old store meanwhile; the server is stopped only to put the new store in place
(LocalStack.replace_neo4j_database), so the time Neo4j is away is a restart, not the import.
"""

from __future__ import annotations

import os
import shutil
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


def import_options(files: ImportFiles, report: Path, extra: tuple[str, ...] = ()) -> list[str]:
    """The options both 5.26 and 2026 understand, in the same spelling. They go after the
    database's name: --nodes and --relationships take every word that follows as a file."""
    return [
        *extra,
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


def _run(server: Neo4jServer, jars: Path, files: ImportFiles, database: str, conf: Path,
         extra: tuple[str, ...]) -> str:
    report = server.home / "logs" / "import.report"
    # The importer's caches want the same JVM flags as the server (direct buffers, Netty).
    argv = [server.java, f"-Xmx{server.heap}", *_NEO4J_JVM_FLAGS, "-cp", f"{jars}/*",
            "org.neo4j.cli.AdminTool", "database", "import", "full", database,
            *import_options(files, report, extra)]
    proc = subprocess.run(
        argv, env={**os.environ, "NEO4J_HOME": str(server.home), "NEO4J_CONF": str(conf)},
        capture_output=True, text=True, cwd=server.home,
    )
    if proc.returncode != 0:
        tail = "\n".join((proc.stdout + proc.stderr).splitlines()[-40:])
        raise ImportFailed(f"neo4j-admin database import failed (report: {report}):\n{tail}")
    return proc.stdout


def run_import(server: Neo4jServer, jars: Path, files: ImportFiles, database: str = "neo4j") -> str:
    """Import into `database` of the (stopped) local server; returns neo4j-admin's output."""
    return _run(server, jars, files, database, server.home / "conf", ())


def staged_import(server: Neo4jServer, jars: Path, files: ImportFiles, staging: Path,
                  database: str = "neo4j", memory: str | None = None) -> str:
    """Import into `staging` (its own data folder) while the server keeps running on its store:
    the server's configuration, its data folder replaced. `memory`: the most the importer may
    take beside the running server (its page cache and caches; default: neo4j-admin's, 90% of
    the free memory)."""
    shutil.rmtree(staging, ignore_errors=True)
    conf = staging / "conf"
    conf.mkdir(parents=True)
    lines = [line for line in (server.home / "conf" / "neo4j.conf").read_text().splitlines()
             if not line.startswith("server.directories.data=")]
    (conf / "neo4j.conf").write_text("\n".join([*lines, f"server.directories.data={staging / 'data'}", ""]))
    extra = (f"--max-off-heap-memory={memory}",) if memory else ()
    return _run(server, jars, files, database, conf, extra)
