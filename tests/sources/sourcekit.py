"""Helpers for the source-reader tests: the real published training logs in
``../shared/realworld-logs`` beside the repository (one folder a run, each with its SOURCE.md).

They are read where they are: logs fetched from other people's repositories are not ours to
commit. CI has ``../shared`` beside the clone; there a missing folder fails the test that
needs it, elsewhere that test skips and says why."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

#: ``<repo>/../shared/realworld-logs`` (this file is ``<repo>/tests/sources/sourcekit.py``).
REALWORLD = Path(__file__).resolve().parents[2].parent / "shared" / "realworld-logs"


def realworld_root() -> Path:
    """The folder of published logs; fails the test under env ``CI`` when it is missing,
    skips it elsewhere."""
    if REALWORLD.is_dir():
        return REALWORLD
    reason = f"{REALWORLD} is missing: the published logs are read from ../shared/realworld-logs beside the clone"
    if os.environ.get("CI"):
        pytest.fail(reason)
    pytest.skip(reason)


def realworld_names() -> list[str]:
    """Every run folder there, for parametrising (one placeholder when the folder is
    missing, so the test runs and fails or skips through ``realworld_root``)."""
    if not REALWORLD.is_dir():
        return ["(../shared/realworld-logs missing)"]
    return sorted(p.name for p in REALWORLD.iterdir() if p.is_dir())


#: What a run folder holds besides its log: where it came from, and for a labelled run one
#: reader's blind judgement and its machine-readable expectations (the folder's README).
_ABOUT = frozenset({"SOURCE.md", "JUDGEMENT.md", "expect.json"})


def realworld_log(name: str) -> Path:
    """The log file of one published run (the folder's only file besides ``_ABOUT``)."""
    files = [p for p in (realworld_root() / name).iterdir() if p.name not in _ABOUT]
    assert len(files) == 1, files
    return files[0]
