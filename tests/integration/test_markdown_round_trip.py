"""A person's memory as Markdown, out and back in, against a real Lore (uvicorn over the real
Neo4j, keys on): export, edit (a changed line, a removed one, a new one, a to-do ticked), a dry
run that changes nothing, the import as one revision, and the export after it that says so; a
malformed line is refused by its number with nothing applied; then the same through `lore export
--markdown` and `lore import --markdown`; and a rebuild from the log gives the same graph."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest
from neo4j import Driver

from infra.settings import Settings
from lore.client import LoreClient, LoreError
from projections.graph.fingerprint import fingerprint
from tests.support.api_server import api_key, running_api
from tests.support.rebuild import rebuilt_fingerprint
from tests.support.servers import ServerEndpoints

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture()
def settings(neo4j: Driver, servers: ServerEndpoints, tmp_path: Path) -> Settings:
    return Settings(neo4j_uri=servers.neo4j_uri, home=tmp_path, embedder="none", auth="keys")


def undated(text: str) -> list[str]:
    return [line for line in text.splitlines() if not line.startswith("<!-- lore-markdown/1 exported")]


def contents(lore: LoreClient) -> list[str]:
    return sorted(m.content for m in lore.iter_memories("ada"))


def test_export_edit_import_export(settings: Settings, neo4j: Driver, tmp_path: Path) -> None:
    with running_api(settings) as url, LoreClient(url, api_key=api_key(settings, "default")) as lore:
        for value, month in (("dark", 1), ("light", 2)):
            lore.remember("ada", f"Ada prefers the {value} editor theme", kind="preference",
                          attribute="editor_theme", value=value,
                          valid_from=datetime(2026, month, 1, tzinfo=UTC))
        cat = lore.remember("ada", "Ada's cat is called Mango", kind="fact").memory_id or ""
        oboe = lore.remember("ada", "Ada plays the oboe", kind="fact").memory_id or ""
        passport = lore.add_todo("ada", "Renew the passport").memory_id or ""
        text = lore.export_markdown("ada")
        assert text.startswith("# What Lore remembers of ada\n")
        assert "  - was: Ada prefers the dark editor theme (2026-01-01 → 2026-02-01)" in text
        assert f"- [ ] Renew the passport <!-- id:{passport}" in text

        edited = (text.replace("- Ada's cat is called Mango", "- Ada's cat is called Miso")
                  .replace(next(line for line in text.splitlines() if f"id:{oboe}" in line) + "\n", "")
                  .replace("## Facts\n", "## Facts\n- Ada speaks Portuguese\n")
                  .replace("- [ ] Renew the passport", "- [x] Renew the passport"))
        before = contents(lore)
        planned = lore.import_markdown("ada", edited)  # a dry run: says, changes nothing
        assert (planned.recorded, planned.corrected, planned.forgotten, planned.completed) == (1, 1, 1, 1)
        assert {(c.action, c.memory_id) for c in planned.changes if c.memory_id} == {
            ("correct", cat), ("forget", oboe), ("complete", passport)}
        assert contents(lore) == before

        malformed = edited.replace("## Facts\n", "## Facts\nthis line is no memory\n")
        with pytest.raises(LoreError) as bad:
            lore.import_markdown("ada", malformed, dry_run=False)
        assert bad.value.status == 422 and bad.value.line == malformed.splitlines().index(
            "this line is no memory") + 1, bad.value.detail
        assert contents(lore) == before  # nothing half-applied

        done = lore.import_markdown("ada", edited, dry_run=False)
        assert done.status == "applied" and not done.dry_run
        after = contents(lore)
        assert "Ada's cat is called Miso" in after and "Ada speaks Portuguese" in after
        assert "Ada's cat is called Mango" not in after and "Ada plays the oboe" not in after
        assert [t.memory_id for t in lore.todos("ada", "done").items] == [passport]

        again = lore.export_markdown("ada")
        assert "  - was worded: Ada's cat is called Mango (corrected)" in again and "oboe" not in again
        assert f"- [x] Renew the passport <!-- id:{passport}" in again
        assert "- Ada speaks Portuguese <!-- id:" in again
        unchanged = lore.import_markdown("ada", again)
        assert unchanged.changes == [] and unchanged.unchanged >= 4

    # The same through the command line, on the same store (the server is stopped: one writer).
    env = {**os.environ, "LORE_HOME": str(settings.home), "LORE_NEO4J_URI": settings.neo4j_uri,
           "LORE_EMBEDDER": "none"}
    out = tmp_path / "ada.md"

    def lore_cli(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "services.cli", *args], env=env, cwd=ROOT,
                              capture_output=True, text=True, timeout=300)

    exported = lore_cli("export", "ada", "--markdown", "--out", str(out))
    assert exported.returncode == 0, exported.stderr
    assert undated(out.read_text(encoding="utf-8")) == undated(again)  # the same file, but for its date
    more = out.read_text(encoding="utf-8").replace("- Ada speaks Portuguese",
                                                   "- Ada speaks Portuguese and Catalan")
    out.write_text(more, encoding="utf-8")
    shown = lore_cli("import", "--markdown", str(out), "--user", "ada")
    assert shown.returncode == 0 and "correct" in shown.stdout + shown.stderr, shown.stderr
    applied = lore_cli("import", "--markdown", str(out), "--user", "ada", "--apply")
    assert applied.returncode == 0, applied.stderr
    final = lore_cli("export", "ada", "--markdown")
    assert "- Ada speaks Portuguese and Catalan <!-- id:" in final.stdout
    assert "  - was worded: Ada speaks Portuguese (corrected)" in final.stdout
    # Replayed from the log, the corrections give the same graph (and call no model).
    live = fingerprint(neo4j)
    assert rebuilt_fingerprint(settings, neo4j) == live
