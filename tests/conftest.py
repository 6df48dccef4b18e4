"""Shared fixtures: synthetic runs written through the real Recorder, cached per session."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def synth_run(tmp_path_factory: pytest.TempPathFactory):
    """``synth_run(pathology, n_steps=400, seed=0)`` → path of a synthetic run (cached)."""
    from rlprobe.doctor.synth import generate

    root = tmp_path_factory.mktemp("synth")
    made: dict[tuple[str, int, int], Path] = {}

    def make(pathology: str = "healthy", n_steps: int = 400, seed: int = 0) -> Path:
        key = (pathology, n_steps, seed)
        if key not in made:
            path = root / f"{pathology}-{n_steps}-{seed}"
            shutil.rmtree(path, ignore_errors=True)
            generate(path, pathology, n_steps=n_steps, seed=seed)
            made[key] = path
        return made[key]

    return make
