"""Recording-level detectors: NONFINITE_VALUES and RECORDING_GAPS — found on their synthetic
pathologies at the onset, silent on healthy recordings, graded by how sustained or how large
the damage is, and working with samples or metrics missing."""
from __future__ import annotations

import contextlib
from functools import cache

import numpy as np
import polars as pl
import pytest

from rlprobe import Recorder
from rlprobe.doctor import RunView, diagnose, diagnose_view
from rlprobe.doctor.catalog import registry
from rlprobe.doctor.config import resolve_config
from rlprobe.doctor.synth.frames import plan_view, synth_view
from rlprobe.doctor.synth.plan import build_plan

MINE = ("NONFINITE_VALUES", "RECORDING_GAPS")


@cache
def _synth(pathology: str, n_steps: int, seed: int):
    return synth_view(pathology, n_steps, seed)


def run_detector(sid: str, view: RunView, **overrides):
    cfg = resolve_config({sid: overrides} if overrides else None)[sid]
    return registry()[sid].fn(view, cfg)


def steps_view(n: int = 200, manifest: dict | None = None, events: list | None = None, **columns) -> RunView:
    frame = pl.DataFrame({"step": np.arange(n, dtype=np.int64), **columns}, nan_to_null=False)
    return RunView(frame, None, events or [], manifest or {"status": "finished", "counts": {}})


def with_nan(values: np.ndarray, at: list[int], value: float = float("nan")) -> np.ndarray:
    out = values.copy()
    out[at] = value
    return out


# -- the pathologies --------------------------------------------------------------------------

@pytest.mark.parametrize("n_steps", [150, 800])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_nonfinite_pathology_is_critical_from_its_onset(seed, n_steps):
    plan, view = _synth("nonfinite_values", n_steps, seed)
    found = {f.signature_id: f for f in diagnose_view(view)}
    finding = found["NONFINITE_VALUES"]
    assert finding.severity == "critical"
    assert finding.first_step == plan.onset
    assert {"loss", "grad_norm"} <= {e.metric for e in finding.evidence}
    assert finding.links_to_samples and all(s.startswith(f"s{plan.onset + 1}-") for s in finding.links_to_samples)
    assert "max_grad_norm" in " ".join(finding.suggested_actions)


@pytest.mark.parametrize("n_steps", [150, 800])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_recording_gaps_pathology_is_found_at_its_onset(seed, n_steps):
    plan, view = _synth("recording_gaps", n_steps, seed)
    finding = {f.signature_id: f for f in diagnose_view(view)}["RECORDING_GAPS"]
    assert finding.severity == "warn"
    assert finding.first_step == plan.onset
    missing = len([s for s in plan.skip_steps if s < n_steps])
    assert f"{missing} of {n_steps} expected steps" in finding.explanation
    assert "queue overflowed" in finding.explanation and "rejected" in finding.explanation
    assert any("queue_size" in a for a in finding.suggested_actions)


@pytest.mark.parametrize("n_steps, seeds", [(100, range(6)), (1500, range(3))])
def test_silent_on_healthy_runs(n_steps, seeds):
    for seed in seeds:
        _, view = _synth("healthy", n_steps, seed)
        assert not [f for f in diagnose_view(view) if f.signature_id in MINE], seed


def test_through_the_recorder_nan_is_data_and_bad_values_become_events(synth_run):
    run = synth_run("nonfinite_values", 120, 0)
    found = {f.signature_id: f for f in diagnose(run)}
    assert found["NONFINITE_VALUES"].severity == "critical"
    gaps = {f.signature_id: f for f in diagnose(synth_run("recording_gaps", 120, 0))}["RECORDING_GAPS"]
    assert "rejected" in gaps.explanation and gaps.severity == "warn"


# -- NONFINITE_VALUES grading -----------------------------------------------------------------

def test_one_nan_loss_is_news_but_not_critical():
    loss = np.random.default_rng(0).normal(0, 0.01, 200)
    finding = run_detector("NONFINITE_VALUES", steps_view(loss=with_nan(loss, [120])))
    assert finding.severity == "warn" and finding.first_step == 120


def test_isolated_inf_grad_norm_is_loss_scaling_noise():
    grad = np.random.default_rng(0).uniform(0.2, 0.5, 400)
    finding = run_detector("NONFINITE_VALUES", steps_view(400, grad_norm=with_nan(grad, [50, 300], float("inf"))))
    assert finding.severity == "info"
    frequent = run_detector("NONFINITE_VALUES", steps_view(400, grad_norm=with_nan(grad, list(range(5, 400, 40)))))
    assert frequent.severity == "warn"


def test_nan_per_function_rewards_are_routine():
    """TRL logs rewards/<fn>/mean as NaN in steps where that function scored nothing."""
    mean = with_nan(np.full(300, 0.5), list(range(0, 300, 2)))
    finding = run_detector("NONFINITE_VALUES", steps_view(300, **{"rewards/math/mean": mean}))
    assert finding.severity == "info"


def test_nonfinite_confidence_grows_with_how_sustained_it_is():
    loss = np.random.default_rng(0).normal(0, 0.01, 300)
    short = run_detector("NONFINITE_VALUES", steps_view(300, loss=with_nan(loss, list(range(100, 104)))))
    long = run_detector("NONFINITE_VALUES", steps_view(300, loss=with_nan(loss, list(range(100, 300)))))
    assert short.severity == long.severity == "critical"
    assert long.confidence > short.confidence
    one = run_detector("NONFINITE_VALUES", steps_view(300, loss=with_nan(loss, [100])))
    two = run_detector("NONFINITE_VALUES", steps_view(300, loss=with_nan(loss, [100, 200])))
    assert two.confidence > one.confidence


def test_a_step_that_did_not_log_a_metric_is_not_nan():
    loss = np.random.default_rng(0).normal(0, 0.01, 200)
    frame = pl.DataFrame({"step": np.arange(200), "loss": loss}).with_columns(
        pl.when(pl.col("step") % 2 == 0).then(None).otherwise(pl.col("loss")).alias("loss"))
    assert run_detector("NONFINITE_VALUES", RunView(frame)) is None


def test_nonfinite_samples_without_metrics():
    plan = build_plan("nonfinite_values", 200, 1)
    view = plan_view(plan)
    samples_only = RunView(pl.DataFrame({"step": pl.Series([], dtype=pl.Int64)}), view.samples, [], {})
    finding = run_detector("NONFINITE_VALUES", samples_only)
    assert finding.severity == "warn" and finding.first_step == plan.onset + 1
    assert "logprob" in finding.explanation
    # NaN rewards are how TRL scores unscorable completions: not a finding on their own.
    nan_rewards = view.samples.filter(pl.col("step") < plan.onset).with_columns(reward=float("nan"))
    assert run_detector("NONFINITE_VALUES", RunView(view.steps.head(plan.onset), nan_rewards)) is None


# -- RECORDING_GAPS grading -------------------------------------------------------------------

def test_strided_logging_is_not_a_gap():
    frame = pl.DataFrame({"step": np.arange(0, 2000, 10), "loss": np.zeros(200)})
    assert run_detector("RECORDING_GAPS", RunView(frame, manifest={"status": "finished"})) is None
    holed = frame.filter(~pl.col("step").is_between(500, 590))
    finding = run_detector("RECORDING_GAPS", RunView(holed, manifest={"status": "finished"}))
    assert finding.first_step == 500 and "10 of 200 expected steps" in finding.explanation


def test_gap_confidence_and_severity_grow_with_the_missing_share():
    def holed(missing: int) -> RunView:
        frame = pl.DataFrame({"step": np.arange(1000), "loss": np.zeros(1000)})
        return RunView(frame.filter(~pl.col("step").is_between(400, 400 + missing - 1)),
                       manifest={"status": "finished"})

    small, medium, large = (run_detector("RECORDING_GAPS", holed(m)) for m in (5, 60, 150))
    assert small.severity == "info" and medium.severity == large.severity == "warn"
    assert small.confidence < medium.confidence < large.confidence


def test_drops_crashes_and_terminations():
    loss = np.zeros(100)
    dropped = run_detector("RECORDING_GAPS", steps_view(100, manifest={"status": "finished", "counts": {"dropped": 37}},
                                                        loss=loss))
    assert dropped.severity == "warn" and "dropped 37 records" in dropped.explanation
    crash = [{"kind": "crash", "step": 99, "message": "RuntimeError: CUDA out of memory", "data": {}}]
    crashed = run_detector("RECORDING_GAPS", steps_view(100, {"status": "crashed"}, crash, loss=loss))
    assert crashed.severity == "warn" and "CUDA out of memory" in crashed.explanation and crashed.first_step == 99
    terminated = run_detector("RECORDING_GAPS", steps_view(100, {"status": "terminated"}, loss=loss))
    assert terminated.severity == "info"
    assert run_detector("RECORDING_GAPS", steps_view(100, loss=loss)) is None


def test_real_recorder_overflow_is_reported(tmp_path):
    with Recorder(tmp_path / "run", capture_env=False, install_handlers=False, queue_size=4,
                  flush_interval_s=60.0) as rec:
        step = 0
        while rec.dropped == 0 and step < 100_000:  # a 4-slot queue overflows within a few calls
            rec.log_step(step, loss=0.0)
            step += 1
    assert rec.dropped > 0
    finding = run_detector("RECORDING_GAPS", RunView.load(tmp_path / "run"))
    assert finding is not None and finding.severity == "warn"
    assert f"dropped {rec.dropped} records" in finding.explanation


def test_gaps_without_steps_or_samples():
    empty = RunView(pl.DataFrame({"step": pl.Series([], dtype=pl.Int64)}), manifest={"status": "crashed"})
    finding = run_detector("RECORDING_GAPS", empty)
    assert finding is not None and finding.severity == "warn"
    assert run_detector("NONFINITE_VALUES", empty) is None


# -- a crash that a later session resumed from ------------------------------------------------

def _session(run, steps, crash: bool) -> None:
    with contextlib.suppress(RuntimeError):
        with Recorder(run, capture_env=False, install_handlers=False) as rec:
            for step in steps:
                rec.log_step(step, reward=0.5, kl=0.01)
            if crash:
                raise RuntimeError("CUDA error: an illegal memory access was encountered")


def test_a_crash_that_a_later_session_resumed_from_is_no_gap(tmp_path):
    run = tmp_path / "run"
    _session(run, range(1, 41), crash=True)
    assert "RECORDING_GAPS" in {f.signature_id for f in diagnose(run)}
    _session(run, range(31, 81), crash=False)
    assert "RECORDING_GAPS" not in {f.signature_id for f in diagnose(run)}


def test_a_crash_of_the_latest_session_is_a_gap(tmp_path):
    run = tmp_path / "run"
    _session(run, range(1, 41), crash=False)
    _session(run, range(31, 61), crash=True)
    [gaps] = [f for f in diagnose(run) if f.signature_id == "RECORDING_GAPS"]
    assert gaps.severity == "warn" and "crashed at step" in gaps.explanation
