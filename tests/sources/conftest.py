"""Fixtures for the foreign-source readers: an import cache of the test's own."""
from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def import_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    cache = tmp_path_factory.mktemp("import-cache")
    monkeypatch.setenv("RLPROBE_CACHE_DIR", str(cache))
    return cache
