"""The synthetic runs: the in-memory view matches the recording the real Recorder writes,
healthy runs look like real ones, and the dynamics pathologies change the run only from
their onset on, with text that shows them."""
from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from click.testing import CliRunner
from polars.testing import assert_frame_equal

from rlprobe.doctor import diagnose
from rlprobe.doctor.cli import main
from rlprobe.doctor.errors import UnusableInput
from rlprobe.doctor.synth import pathologies
from rlprobe.doctor.synth.frames import plan_view, synth_view
from rlprobe.doctor.synth.plan import build_plan, generate, healthy_plan
from rlprobe.doctor.view import RunView

DYNAMICS = ("kl_blowup", "entropy_collapse", "entropy_explosion", "reward_hacking", "reward_collapse",
            "reward_plateau", "length_explosion", "length_collapse", "truncation_high", "clip_ratio_high",
            "grad_norm_spike", "value_loss_divergence")


@pytest.mark.parametrize("name", ["healthy", "truncation_high", "value_loss_divergence", "recording_gaps"])
def test_in_memory_view_equals_the_recording(name: str, tmp_path):
    plan = build_plan(name, 160, 3)
    memory = plan_view(plan, name)
    generate(tmp_path / "run", name, n_steps=160, seed=3)
    disk = RunView.load(tmp_path / "run")
    shared = [c for c in disk.steps.columns if c not in ("time", "rank")]
    assert_frame_equal(memory.steps.select(shared), disk.steps.select(shared))
    assert_frame_equal(memory.samples, disk.samples.select(memory.samples.columns))
    kinds = [e["kind"] for e in memory.events]
    assert kinds == [e["kind"] for e in disk.events]
    assert memory.algorithm == disk.algorithm and memory.manifest["trainer_config"] == disk.manifest["trainer_config"]


def test_every_dynamics_signature_has_a_pathology():
    assert set(DYNAMICS) <= set(pathologies())


@pytest.mark.parametrize("name", DYNAMICS)
def test_pathology_leaves_the_run_before_its_onset_alone(name: str):
    plan = build_plan(name, 400, 5)
    healthy = healthy_plan(400, 5, algorithm=plan.algorithm)
    touched = {"kl", "clip_ratio/region_mean", "clip_ratio/low_mean", "clip_ratio/high_mean"}  # may be created whole
    for key, series in healthy.metrics.items():
        if key in plan.metrics and key not in touched:
            np.testing.assert_array_equal(plan.metrics[key][:plan.onset], series[:plan.onset], err_msg=key)
    assert plan.mode[:plan.onset] == healthy.mode[:plan.onset]
    changed = [k for k in plan.metrics if k not in healthy.metrics
               or not np.array_equal(plan.metrics[k][plan.onset:], healthy.metrics[k][plan.onset:], equal_nan=True)]
    assert changed, f"{name} changed nothing"


def completions(view: RunView, first: int, last: int) -> list[str]:
    return view.samples_between(first, last)["completion"].to_list()


def test_textual_pathologies_show_in_the_completions():
    plan, view = synth_view("entropy_explosion", 400, 1)
    late = completions(view, plan.onset + plan.span(), 399)
    assert late and sum("The answer is" in c for c in late) < 0.1 * len(late)  # gibberish, no answers
    assert sum("The answer is" in c or "answer" in c.lower() for c in completions(view, 0, plan.onset - 1)) > 0

    plan, view = synth_view("truncation_high", 400, 1)
    cut = view.samples.filter(pl.col("truncated") & (pl.col("step") >= plan.onset))
    assert cut.height > 100 and not any("</think>" in c for c in cut["completion"].to_list())
    assert (cut["length"] == plan.max_completion_length).all()

    plan, view = synth_view("length_explosion", 400, 1)
    before = np.mean([len(c) for c in completions(view, 0, plan.onset - 1)])
    assert np.mean([len(c) for c in completions(view, plan.onset + plan.span(), 399)]) > 2 * before

    plan, view = synth_view("length_collapse", 400, 1)
    assert all(len(c) < 8 for c in completions(view, plan.onset + plan.span(), 399))


def test_entropy_collapse_makes_groups_identical_and_hacking_games_the_format():
    plan, view = synth_view("entropy_collapse", 400, 2)
    late = view.samples.filter((pl.col("step") >= plan.onset + plan.span()) & ~pl.col("truncated"))
    distinct = late.group_by("group_id").agg(pl.col("completion").n_unique().alias("n"))["n"]
    assert distinct.max() <= 2  # one text for right answers, one for wrong
    plan, view = synth_view("reward_hacking", 400, 2)
    m = view.series
    window = slice(plan.onset - 60, plan.onset), slice(399 - 60, 399)
    assert np.median(m("rewards/format/mean")[window[1]]) > np.median(m("rewards/format/mean")[window[0]])
    assert np.median(m("rewards/accuracy/mean")[window[1]]) < 0.8 * np.median(m("rewards/accuracy/mean")[window[0]])


@pytest.mark.parametrize("seed", range(6))
def test_healthy_runs_look_like_real_ones(seed: int):
    plan, view = synth_view("healthy", 600, seed)
    reward, entropy = view.series("reward_mean"), view.series("entropy_mean")
    head, tail = slice(20, 80), slice(-60, None)
    assert np.median(reward[tail]) > np.median(reward[head])  # learning
    assert 0.6 <= np.median(entropy[tail]) / np.median(entropy[head]) <= 1.25
    assert np.nanmax(view.series("grad_norm")) > 2.5 * np.nanmedian(view.series("grad_norm"))  # a spike somewhere
    assert np.std(np.diff(reward)) > 0.01  # batch noise
    # Samples agree with the logged metrics: group agreement ≈ frac_reward_zero_std, truncation ≈ clipped_ratio.
    groups = view.samples.group_by("group_id").agg(pl.col("reward").n_unique().alias("n"))
    share = (groups["n"] == 1).mean()
    assert abs(share - np.mean(view.series("frac_reward_zero_std"))) < 0.1
    assert abs(view.samples["truncated"].mean() - np.mean(view.series("truncated_frac"))) < 0.03
    assert view.samples["completion"].n_unique() > 0.95 * view.samples.height  # sampled text is diverse


def test_healthy_runs_vary_in_kl_and_algorithm():
    with_kl = [healthy_plan(200, seed).trainer_config["beta"] > 0 for seed in range(12)]
    assert any(with_kl) and not all(with_kl)  # TRL's default beta = 0 logs no KL
    ppo = plan_view(healthy_plan(200, 0, algorithm="ppo"))
    assert ppo.algorithm == "ppo" and ppo.has("value_loss") and ppo.has("kl_mean")
    assert ppo.has("reward_mean")  # objective/scores


def test_unknown_pathology_and_short_run_are_one_line_errors():
    with pytest.raises(UnusableInput, match="valid: healthy, .*kl_blowup"):
        build_plan("kl_blowupp", 200, 0)
    with pytest.raises(UnusableInput, match="at least 50"):
        build_plan("kl_blowup", 20, 0)


def test_synth_then_doctor_through_the_cli(tmp_path):
    run = tmp_path / "run"
    result = CliRunner().invoke(main, ["synth", str(run), "--pathology", "entropy_collapse", "--n-steps", "300",
                                       "--seed", "4"])
    assert result.exit_code == 0, result.output
    assert "onset at step 135" in result.output
    found = {f.signature_id: f for f in diagnose(run)}
    assert "ENTROPY_COLLAPSE" in found and abs(found["ENTROPY_COLLAPSE"].first_step - 135) <= 20
    assert found["ENTROPY_COLLAPSE"].links_to_samples
    doctor = CliRunner().invoke(main, ["doctor", str(run)])
    # The synthetic collapse leaves the reward where it was: a symptom without harm, so a warning (exit 0).
    assert doctor.exit_code == 0 and "WARN ENTROPY_COLLAPSE" in doctor.output
    assert "Warn, not critical" in doctor.output
    kl = tmp_path / "kl"
    CliRunner().invoke(main, ["synth", str(kl), "--pathology", "kl_blowup", "--n-steps", "600", "--seed", "1"])
    blowup = CliRunner().invoke(main, ["doctor", str(kl)])
    assert blowup.exit_code == 1 and "CRITICAL KL_BLOWUP" in blowup.output and "not paying for it" in blowup.output
