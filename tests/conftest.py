"""Shared fixtures: synthetic runs written through the real Recorder, cached per session; and,
under CI, a test requirement that cannot be imported fails its tests instead of skipping them
(``pytest.importorskip`` is for a developer's machine, never for hiding a missing feature)."""
from __future__ import annotations

import os
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


def _missing_requirement(report: pytest.TestReport | pytest.CollectReport) -> bool:
    return bool(os.environ.get("CI")) and report.skipped and "could not import" in str(report.longrepr)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> object:
    outcome = yield
    report = outcome.get_result()
    if _missing_requirement(report):
        report.outcome = "failed"


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector: pytest.Collector) -> object:
    outcome = yield
    report = outcome.get_result()
    if _missing_requirement(report):
        report.outcome = "failed"


_DOCTOR = """
import json, sys
from rlprobe.doctor.cli import main
sys.argv = ["rlprobe", "doctor", sys.argv[1]]
try:
    main()
except SystemExit:
    pass
print(json.dumps(sorted(sys.modules)))
"""


@pytest.fixture
def doctor_modules():
    """``doctor_modules(path)`` → (exit status, the modules a fresh ``rlprobe doctor <path>`` process had
    imported when it ended, its stderr): what a command loads, checked from outside it."""
    import json
    import subprocess
    import sys

    def run(path: Path) -> tuple[int, set[str], str]:
        done = subprocess.run([sys.executable, "-c", _DOCTOR, str(path)], capture_output=True, text=True,
                              timeout=120)
        lines = done.stdout.strip().splitlines()
        return done.returncode, set(json.loads(lines[-1])) if lines else set(), done.stderr

    return run
