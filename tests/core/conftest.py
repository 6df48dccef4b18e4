"""Fixtures for the recorder's tests: quiet in-process recorders and child processes."""
from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from corekit import Child

from rlprobe import Recorder


@pytest.fixture
def run_dir(tmp_path: Path) -> Path:
    return tmp_path / "run"


@pytest.fixture
def make_recorder(run_dir: Path) -> Iterator[Callable[..., Recorder]]:
    """``make_recorder(**kwargs)`` → a Recorder on ``run_dir`` that installs no process
    handlers (this is pytest's process) and skips the environment probe; closed at teardown."""
    made: list[Recorder] = []

    def make(path: Path | None = None, **kwargs: Any) -> Recorder:
        kwargs.setdefault("install_handlers", False)
        kwargs.setdefault("capture_env", False)
        rec = Recorder(path or run_dir, **kwargs)
        made.append(rec)
        return rec

    yield make
    for rec in made:
        rec.close(timeout=10)


@pytest.fixture
def child() -> Iterator[Callable[..., Child]]:
    started: list[Child] = []

    def start(*args: str, prefix: list[str] | None = None) -> Child:
        c = Child(*args, prefix=prefix)
        started.append(c)
        return c

    yield start
    for c in started:
        c.finish()
