"""Real CPU training with GRPOTrainer and RLOOTrainer, read back from disk."""
from __future__ import annotations

import math

import pytest
from tiny_trl import PROMPTS

from rlprobe import SamplingConfig
from rlprobe.integrations.trl import RlprobeCallback, attach
from rlprobe.storage import RunReader

KEEP_ALL = SamplingConfig(top_k=1000, bottom_k=0, random_k=0)


def logged_train_steps(trainer) -> dict[int, dict]:
    """The trainer's own per-step log history (what TRL reported), keyed by step."""
    return {entry["step"]: entry for entry in trainer.state.log_history if "loss" in entry}


@pytest.mark.parametrize("algorithm", ["grpo", "rloo"])
def test_records_steps_samples_and_manifest(trainer_factory, tmp_path, algorithm):
    trainer = trainer_factory(algorithm, beta=0.1, max_steps=12)
    callback = attach(trainer, tmp_path / "run", sampling=KEEP_ALL)
    assert isinstance(callback, RlprobeCallback)
    assert callback in trainer.callback_handler.callbacks
    trainer.train()

    run = RunReader(tmp_path / "run")
    manifest = run.manifest
    assert manifest["algorithm"] == algorithm
    assert manifest["status"] == "finished"
    assert manifest["model_name"] == trainer.model.name_or_path
    assert manifest["world_size"] == 1 and manifest["recorded_ranks"] == [0]
    config = manifest["trainer_config"]
    assert config["num_generations"] == 4 and config["beta"] == 0.1 and config["max_steps"] == 12

    # Steps: one row per optimizer step, TRL's names mapped onto the typed columns.
    steps = run.steps().to_pylist()
    assert [row["step"] for row in steps] == list(range(1, 13))
    history = logged_train_steps(trainer)
    for row in steps:
        logged = history[row["step"]]
        for trl_key, column in [("reward", "reward_mean"), ("reward_std", "reward_std"), ("kl", "kl_mean"),
                                ("entropy", "entropy_mean"), ("loss", "loss"), ("grad_norm", "grad_norm"),
                                ("learning_rate", "learning_rate"), ("completions/mean_length", "length_mean"),
                                ("completions/clipped_ratio", "truncated_frac"),
                                ("frac_reward_zero_std", "frac_reward_zero_std"),
                                ("clip_ratio/region_mean", "clip_ratio"),
                                ("rewards/reward_vowels/mean", "rewards/reward_vowels/mean"),
                                ("step_time", "step_time")]:
            assert row[column] == pytest.approx(logged[trl_key]), (trl_key, row["step"])
    # The end-of-training summary is an event, not a second row for the last step.
    events = run.events()
    kinds = [event["kind"] for event in events]
    assert kinds.count("train_summary") == 1
    assert "shim_unavailable" not in kinds and "auto_halt" not in kinds

    # Samples: every completion of every generation, once, with its forensics.
    samples = run.samples().to_pylist()
    assert len(samples) == 12 * 4
    assert len({s["sample_id"] for s in samples}) == len(samples)
    by_step: dict[int, list[dict]] = {}
    for sample in samples:
        by_step.setdefault(sample["step"], []).append(sample)
    assert sorted(by_step) == list(range(1, 13))
    for step, group in by_step.items():
        assert {s["prompt"] for s in group} <= set(PROMPTS)
        # num_generations=4 completions of one prompt form one group.
        assert len({s["group_id"] for s in group}) == 1 and len({s["prompt_id"] for s in group}) == 1
        mean_reward = sum(s["reward"] for s in group) / len(group)
        assert mean_reward == pytest.approx(history[step]["reward"], abs=1e-5)
        for sample in group:
            components = dict(sample["reward_components"])
            assert set(components) == {"reward_vowels", "reward_short"}
            assert sample["reward"] == pytest.approx(sum(components.values()), abs=1e-6)
            assert math.isfinite(sample["advantage"])
            assert isinstance(sample["completion"], str)


def test_generation_reused_across_steps_is_logged_once(trainer_factory, tmp_path):
    # steps_per_generation=2: each generation (8 completions, 2 prompts) feeds two optimizer steps.
    trainer = trainer_factory("grpo", steps_per_generation=2, max_steps=8)
    attach(trainer, tmp_path / "run", sampling=KEEP_ALL)
    trainer.train()
    samples = RunReader(tmp_path / "run").samples().to_pylist()
    assert sorted({s["step"] for s in samples}) == [1, 3, 5, 7]
    assert len(samples) == 4 * 8
    assert len({s["sample_id"] for s in samples}) == len(samples)
    assert len({s["group_id"] for s in samples}) == 4 * 2


def test_sampling_policy_applies(trainer_factory, tmp_path):
    trainer = trainer_factory("grpo", per_device_train_batch_size=8, max_steps=4)
    attach(trainer, tmp_path / "run", sampling=SamplingConfig(top_k=1, bottom_k=1, random_k=1))
    trainer.train()
    samples = RunReader(tmp_path / "run").samples().to_pylist()
    assert [len([s for s in samples if s["step"] == step]) for step in range(1, 5)] == [3, 3, 3, 3]


def test_evaluation_is_an_event_and_never_a_sample(trainer_factory, tmp_path):
    trainer = trainer_factory("grpo", max_steps=6, eval_prompts=["moon", "sun", "abc", "zebra"],
                              eval_strategy="steps", eval_steps=3, per_device_eval_batch_size=4)
    attach(trainer, tmp_path / "run", sampling=KEEP_ALL)
    trainer.train()
    run = RunReader(tmp_path / "run")
    evaluations = [e for e in run.events() if e["kind"] == "evaluation"]
    assert [e["step"] for e in evaluations] == [3, 6]
    assert "eval_reward" in evaluations[0]["data"]["metrics"]
    assert [row["step"] for row in run.steps().to_pylist()] == list(range(1, 7))
    samples = run.samples().to_pylist()
    assert len(samples) == 6 * 4 and sorted({s["step"] for s in samples}) == list(range(1, 7))


def test_recorder_kwargs_override_what_is_read_off_the_trainer(trainer_factory, tmp_path):
    trainer = trainer_factory("grpo", max_steps=2)
    callback = attach(trainer, tmp_path / "run", algorithm="dr-grpo", model_name="tiny", run_id="r1",
                      capture_env=False)
    trainer.train()
    manifest = RunReader(tmp_path / "run").manifest
    assert (manifest["algorithm"], manifest["model_name"], manifest["run_id"]) == ("dr-grpo", "tiny", "r1")
    assert callback.halted_by is None and callback.findings == []


def test_last_logging_window_cut_short_by_max_steps_is_still_a_row(trainer_factory, tmp_path):
    # logging_steps=5, max_steps=7: TRL folds steps 6-7's metrics into its end-of-training summary.
    # include_num_input_tokens_seen adds train_* speed metrics to every step log as well.
    trainer = trainer_factory("grpo", logging_steps=5, max_steps=7, include_num_input_tokens_seen=True)
    attach(trainer, tmp_path / "run")
    trainer.train()
    run = RunReader(tmp_path / "run")
    rows = run.steps().to_pylist()
    assert [row["step"] for row in rows] == [5, 7]
    assert rows[0]["train_tokens_per_second"] is not None
    assert rows[1]["reward_mean"] is not None and rows[1]["loss"] is None
    assert rows[1]["train_tokens_per_second"] is None  # the summary's speed metrics describe the run
    [summary] = [e for e in run.events() if e["kind"] == "train_summary"]
    assert summary["step"] == 7 and {"train_runtime", "train_loss"} <= set(summary["data"])
    # Samples do not depend on logging: every generation is captured.
    assert sorted({s["step"] for s in run.samples().to_pylist()}) == list(range(1, 8))
