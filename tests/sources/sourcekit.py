"""Helpers for the source-reader tests: the real published training logs under
tests/fixtures/realworld (each folder with its SOURCE.md)."""
from __future__ import annotations

from pathlib import Path

REALWORLD = Path(__file__).resolve().parent.parent / "fixtures" / "realworld"


def realworld_log(name: str) -> Path:
    """The log file of one real-world fixture (the folder's only file besides SOURCE.md)."""
    files = [p for p in (REALWORLD / name).iterdir() if p.name != "SOURCE.md"]
    assert len(files) == 1, files
    return files[0]
