"""Fixtures for the foreign-source readers: an import cache of the test's own, and the real
published training logs under tests/fixtures/realworld (each with its SOURCE.md)."""
from __future__ import annotations

from pathlib import Path

import pytest

REALWORLD = Path(__file__).resolve().parent.parent / "fixtures" / "realworld"


@pytest.fixture(autouse=True)
def import_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    cache = tmp_path_factory.mktemp("import-cache")
    monkeypatch.setenv("RLPROBE_CACHE_DIR", str(cache))
    return cache


def realworld_log(name: str) -> Path:
    """The log file of one real-world fixture (the folder's only file besides SOURCE.md)."""
    files = [p for p in (REALWORLD / name).iterdir() if p.name != "SOURCE.md"]
    assert len(files) == 1, files
    return files[0]
