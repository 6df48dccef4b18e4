"""The corpus generator (``make realruns``) still runs end to end, and reproduces its fixtures.

Two small scenarios are regenerated from nothing (the tiny instruct model is taught again
in a temporary directory): one that trains to the end, one that crashes on NaN weights.
Their raw logs must date the same onsets as the committed fixtures', and their recordings
must hold what TRL logged.
"""
from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import pytest

from rlprobe.storage import RunReader

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "realruns"))
import generate  # noqa: E402
from corpus import FIXTURES, SCENARIOS, load_history  # noqa: E402

REGENERATED = ("truncation_budget", "nan_weights")


@pytest.fixture(scope="module")
def regenerated(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("realruns")
    assert generate.main(["--out", str(out), "--model-dir", str(out / "model"), "--only", ",".join(REGENERATED)]) == 0
    return out


@pytest.mark.parametrize("name", REGENERATED)
def test_regenerated_scenario_matches_its_fixture(regenerated: Path, name: str):
    scenario = next(s for s in SCENARIOS if s.name == name)
    assert scenario.onsets(regenerated) == scenario.onsets(FIXTURES)
    fresh, kept = load_history(name, regenerated), load_history(name, FIXTURES)
    assert [e["step"] for e in fresh] == [e["step"] for e in kept]
    for a, b in zip(fresh, kept):
        for key in ("reward", "completions/mean_length", "entropy"):
            x, y = a.get(key), b.get(key)
            assert (x is None) == (y is None) and (x is None or math.isclose(x, y, rel_tol=0.05, abs_tol=1e-3)), \
                (name, a["step"], key, x, y)


def test_recordings_hold_what_trl_logged(regenerated: Path):
    run = RunReader(regenerated / "truncation_budget" / "run")
    history = load_history("truncation_budget", regenerated)
    steps = run.steps().to_pylist()
    assert [row["step"] for row in steps] == [e["step"] for e in history]
    assert all(row["truncated_frac"] == pytest.approx(e["completions/clipped_ratio"]) for row, e in zip(steps, history))
    assert run.manifest["status"] == "finished"
    # Whole groups (the TRL default is overridden by the generator's keep-everything policy).
    samples = run.samples().to_pylist()
    assert len(samples) == 8 * len(steps)

    crashed = RunReader(regenerated / "nan_weights" / "run")
    assert crashed.manifest["status"] == "crashed"
    assert any(event["kind"] == "crash" for event in crashed.events())
    raw = json.loads((regenerated / "nan_weights" / "log_history.json").read_text())
    assert any(isinstance(e.get("grad_norm"), float) and math.isnan(e["grad_norm"]) for e in raw)
