"""diff_runs: config delta, divergence points, prompt gaps, alignment of unequal runs."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from rlprobe import Recorder
from rlprobe.doctor import RunDiff, RunView, UnusableInput, diff_runs
from rlprobe.doctor.diff import config_delta, flatten_config, prompt_gaps, step_noise
from rlprobe.doctor.synth.plan import build_plan
from rlprobe.doctor.synth.text import samples_for_step

N_STEPS, ONSET = 120, 70


def write_plan(path: Path, plan, n_steps: int, extra: dict[str, float] | None = None) -> Path:
    """Log a synth plan's metrics and samples for its first ``n_steps`` steps, as ``generate`` does."""
    with Recorder(path, algorithm="grpo", run_id=path.name, trainer_config=plan.trainer_config,
                  capture_env=False, install_handlers=False) as rec:
        for step in range(n_steps):
            values = {k: float(v[step]) for k, v in plan.metrics.items() if np.isfinite(v[step])}
            rec.log_step(step, **values, **(extra or {}))
            rec.log_samples(step, samples_for_step(plan, step), select=False)
    return path


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A: a healthy synth run. B: the same run with a higher learning rate in its config,
    its reward shifted up by 0.5 from step 70, an extra metric, and 10 steps fewer."""
    root = tmp_path_factory.mktemp("diff")
    plan = build_plan("healthy", N_STEPS, seed=3)
    plan.trainer_config = {**plan.trainer_config, "learning_rate": 1e-6}
    a = write_plan(root / "a", plan, N_STEPS)
    plan = build_plan("healthy", N_STEPS, seed=3)
    plan.trainer_config = {**plan.trainer_config, "learning_rate": 5e-6, "new_knob": {"depth": 2}}
    plan.metrics["reward"][ONSET:] += 0.5
    b = write_plan(root / "b", plan, N_STEPS - 10, extra={"custom/only_b": 1.0})
    return a, b


def test_a_known_config_change_and_divergence_are_both_found(pair):
    a, b = pair
    d = diff_runs(a, b)
    assert d.differs
    assert d.config.changed == {"learning_rate": (1e-6, 5e-6)}
    assert d.config.added == {"new_knob.depth": 2} and d.config.removed == {}
    assert [(v.metric, v.step) for v in d.divergences] == [("reward_mean", ONSET)]
    hit = d.divergences[0]
    assert hit.delta == pytest.approx(0.5) and hit.z > 4


def test_runs_of_different_length_and_metrics_align_on_step(pair):
    a, b = pair
    d = diff_runs(a, b)
    assert d.common_steps == (0, N_STEPS - 11) and d.n_common_steps == N_STEPS - 10
    assert d.steps_only_in_a == [(N_STEPS - 10, N_STEPS - 1)] and d.steps_only_in_b == []
    assert d.metrics_only_in_b == ["custom/only_b"] and d.metrics_only_in_a == []
    flipped = diff_runs(b, a)
    assert flipped.steps_only_in_b == [(N_STEPS - 10, N_STEPS - 1)]
    assert flipped.config.removed == {"new_knob.depth": 2}
    assert flipped.divergences[0].delta == pytest.approx(-0.5)


def test_a_stricter_sustain_or_threshold_moves_or_drops_the_divergence(pair):
    a, b = pair
    assert diff_runs(a, b, z_thresh=1000.0).divergences == []
    assert diff_runs(a, b, sustain=N_STEPS).divergences == []


def test_a_run_diffed_with_itself_finds_nothing(synth_run):
    run = synth_run("healthy", 400, 0)
    d = diff_runs(run, run)
    assert not d.differs
    assert d.config.empty and not d.divergences and not d.prompt_gaps
    assert d.n_common_steps == 400 and d.steps_only_in_a == d.steps_only_in_b == []


def test_two_recordings_of_the_same_run_diff_to_nothing(tmp_path):
    from rlprobe.doctor.synth import generate

    generate(tmp_path / "one", "healthy", n_steps=60, seed=5)
    generate(tmp_path / "two", "healthy", n_steps=60, seed=5)
    assert not diff_runs(tmp_path / "one", RunView.load(tmp_path / "two")).differs


def test_the_diff_is_json_and_round_trips(pair):
    d = diff_runs(*pair)
    payload = json.loads(d.model_dump_json())
    assert payload["differs"] is True
    assert payload["config"]["changed"]["learning_rate"] == [1e-6, 5e-6]
    payload.pop("differs")
    assert RunDiff.model_validate(payload) == d


@pytest.mark.parametrize("kwargs, message", [
    ({"z_thresh": 0}, "z_thresh must be"),
    ({"z_thresh": float("nan")}, "z_thresh must be"),
    ({"sustain": 0}, "sustain must be"),
])
def test_bad_thresholds_are_unusable(pair, kwargs, message):
    with pytest.raises(UnusableInput, match=message):
        diff_runs(*pair, **kwargs)


def test_a_missing_run_is_unusable(pair, tmp_path):
    with pytest.raises(UnusableInput, match="no rlprobe recording"):
        diff_runs(pair[0], tmp_path / "nothing")


# -- the pieces ------------------------------------------------------------------------------


def test_config_is_flattened_and_compared_key_by_key():
    a = {"lr": 1e-6, "opt": {"betas": [0.9, 0.99], "eps": 1e-8}, "flag": 1, "gone": "x", "empty": {}}
    b = {"lr": 1e-6, "opt": {"betas": [0.9, 0.95], "eps": 1e-8, "new": 3}, "flag": True, "empty": {}}
    assert flatten_config(a) == {"lr": 1e-6, "opt.betas": [0.9, 0.99], "opt.eps": 1e-8, "flag": 1, "gone": "x",
                                 "empty": {}}
    delta = config_delta(a, b)
    assert delta.added == {"opt.new": 3}
    assert delta.removed == {"gone": "x"}
    assert delta.changed == {"opt.betas": ([0.9, 0.99], [0.9, 0.95]), "flag": (1, True)}


def test_step_noise_sees_through_a_trend_and_a_few_spikes():
    rng = np.random.default_rng(0)
    x = np.linspace(0, 50, 4000) + rng.normal(0, 1.0, 4000)
    x[::400] += 100.0
    x[7] = np.nan
    noise = step_noise(x)
    assert np.isnan(noise[7]) and np.isfinite(np.delete(noise, 7)).all()
    assert np.median(np.delete(noise, 7)) == pytest.approx(1.0, rel=0.1)
    assert noise[401] == pytest.approx(1.0, rel=0.35)  # just after a spike
    assert step_noise(np.array([1.0, np.nan])).tolist()[0] == 0.0
    short = step_noise(np.cumsum(rng.normal(0, 1.0, 12)))  # too short for a trailing estimate
    assert np.all(short == short[0]) and 0.3 < short[0] < 3


def test_step_noise_is_trailing_so_a_run_going_wild_is_judged_by_its_calm_past():
    rng = np.random.default_rng(1)
    x = np.concatenate([rng.normal(0, 0.1, 300), rng.normal(0, 10.0, 300)])
    noise = step_noise(x)
    assert noise[:300] == pytest.approx(np.full(300, 0.1), rel=0.5)
    assert noise[300] < 0.2 and noise[-1] > 5


def test_a_blowup_diverges_from_its_healthy_twin_at_the_onset(synth_run):
    onset = build_plan("kl_blowup", 400, seed=1).onset
    d = diff_runs(synth_run("healthy", 400, 1), synth_run("kl_blowup", 400, 1))
    kl = [v for v in d.divergences if v.metric == "kl_mean"]
    assert kl and onset <= kl[0].step <= onset + 5
    assert d.divergences[0].metric == "kl_mean"


def _view(prompts: list[str], rewards: list[float]) -> RunView:
    samples = pl.DataFrame({"step": list(range(len(prompts))), "prompt_id": prompts,
                            "prompt": [f"text of {p}" for p in prompts], "reward": rewards})
    return RunView(pl.DataFrame({"step": [0]}), samples)


def test_prompt_gaps_cover_prompts_in_both_runs_largest_first():
    a = _view(["p1", "p1", "p2", "p4"], [0.0, 1.0, 1.0, 0.5])
    b = _view(["p1", "p1", "p3", "p4", "p4"], [1.0, 1.0, 0.0, 0.5, 0.5])
    gaps = prompt_gaps(a, b)
    assert [(g.prompt_id, g.n_a, g.n_b, g.reward_a, g.reward_b, g.gap) for g in gaps] == [
        ("p1", 2, 2, 0.5, 1.0, 0.5)]
    assert gaps[0].prompt == "text of p1"


def test_runs_without_a_common_step_compare_nothing_but_say_so():
    a = RunView(pl.DataFrame({"step": [0, 1, 2], "loss": [1.0, 2.0, 3.0]}))
    b = RunView(pl.DataFrame({"step": [5, 6, 8], "loss": [1.0, 2.0, 3.0]}))
    d = diff_runs(a, b)
    assert d.common_steps is None and d.n_common_steps == 0 and d.divergences == []
    assert d.steps_only_in_a == [(0, 2)] and d.steps_only_in_b == [(5, 6), (8, 8)]
    assert d.differs
