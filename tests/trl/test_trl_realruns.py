"""The corpus generator (``make realruns``) still runs end to end, and reproduces its fixtures.

Small scenarios are regenerated from nothing (the tiny instruct model is taught again in a
temporary directory): two that train to the end, one that crashes on NaN weights and one whose
rewards come back 1000x too large in one batch (the `spike=` wrapper). Their
raw logs must date their onsets as the committed fixtures' do (within the scenario's
tolerance: another CPU may round differently, and sampling amplifies it), and their
recordings must hold what TRL logged.
"""
from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest

from rlprobe.storage import RunReader

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "realruns"))
import generate  # noqa: E402
from corpus import FIXTURES, SCENARIOS, load_history, raw_log  # noqa: E402

REGENERATED = ("truncation_budget", "zero_advantage", "nan_weights", "grad_spike_once")


@pytest.fixture(scope="module")
def regenerated(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("realruns")
    assert generate.main(["--out", str(out), "--model-dir", str(out / "model"), "--only", ",".join(REGENERATED)]) == 0
    return out


@pytest.mark.parametrize("name", REGENERATED)
def test_regenerated_scenario_dates_the_fixtures_onsets(regenerated: Path, name: str):
    scenario = next(s for s in SCENARIOS if s.name == name)
    fresh, kept = scenario.onsets(regenerated), scenario.onsets(FIXTURES)
    assert fresh.keys() == kept.keys() and all(step is not None for step in fresh.values()), fresh
    assert all(abs(fresh[key] - kept[key]) <= scenario.tolerance for key in kept), (fresh, kept)
    # The first step samples the taught model before any update: the same model, the same answers.
    first, fixture_first = load_history(name, regenerated)[0], load_history(name, FIXTURES)[0]
    assert first["step"] == fixture_first["step"]
    assert first["completions/mean_length"] == pytest.approx(fixture_first["completions/mean_length"], abs=1.0)


def test_recordings_hold_what_trl_logged(regenerated: Path):
    run = RunReader(regenerated / "truncation_budget" / "run")
    history = load_history("truncation_budget", regenerated)
    steps = run.steps().to_pylist()
    assert [row["step"] for row in steps] == [e["step"] for e in history]
    assert all(row["truncated_frac"] == pytest.approx(e["completions/clipped_ratio"])
               for row, e in zip(steps, history, strict=True))
    assert run.manifest["status"] == "finished"
    # Every completion, in whole groups of num_generations=4.
    samples = run.samples().to_pylist()
    assert len(samples) == 8 * len(steps)
    assert {len([s for s in samples if s["group_id"] == g]) for g in {s["group_id"] for s in samples}} == {4}

    crashed = RunReader(regenerated / "nan_weights" / "run")
    assert crashed.manifest["status"] == "crashed"
    assert any(event["kind"] == "crash" for event in crashed.events())
    raw = raw_log(regenerated / "nan_weights")
    assert any(isinstance(e.get("grad_norm"), float) and math.isnan(e["grad_norm"]) for e in raw)
