"""A crash inside ``trainer.train()`` that the caller catches (a notebook, a sweep) is
recorded at once — crash event with the traceback, flushed, status "crashed" — and the
exception reaches the caller unchanged (issue 10, item 8)."""
from __future__ import annotations

from typing import Any

import pytest

from rlprobe.integrations.trl import attach
from rlprobe.storage import RunReader

CRASH_AFTER = 3


class RewardServerDied(Exception):
    pass


def _trainer_whose_reward_fails(trainer_factory, error: BaseException) -> Any:
    holder: dict[str, Any] = {}

    def flaky_reward(completions: list[str], **kwargs: Any) -> list[float]:
        if holder["trainer"].state.global_step >= CRASH_AFTER:
            raise error
        return [0.5 + 0.1 * (i % 2) for i in range(len(completions))]

    trainer = trainer_factory("grpo", reward_funcs=[flaky_reward], max_steps=8)
    holder["trainer"] = trainer
    return trainer


def test_a_caught_crash_is_recorded_at_once_and_propagates_unchanged(trainer_factory, tmp_path) -> None:
    error = RewardServerDied("reward server died")
    trainer = _trainer_whose_reward_fails(trainer_factory, error)
    attach(trainer, tmp_path / "run")

    with pytest.raises(RewardServerDied) as caught:
        trainer.train()
    assert caught.value is error

    # Read now, with the interpreter (and its exit handlers) still alive.
    run = RunReader(tmp_path / "run")
    assert run.manifest["status"] == "crashed" and run.manifest["closed_at"] is not None
    [crash] = [e for e in run.events() if e["kind"] == "crash"]
    assert crash["message"] == "RewardServerDied: reward server died"
    assert crash["step"] == CRASH_AFTER, "the crash is placed after the last step the trainer completed"
    assert "flaky_reward" in crash["data"]["traceback"] and "RewardServerDied" in crash["data"]["traceback"]
    assert [row["step"] for row in run.steps().to_pylist()] == list(range(1, CRASH_AFTER + 1)), \
        "every step logged before the crash is on disk"
    assert run.manifest["counts"]["steps"] == CRASH_AFTER
    assert [e["kind"] for e in run.events()][-2:] == ["crash", "run_end"]


def test_an_interrupted_train_is_recorded_as_terminated(trainer_factory, tmp_path) -> None:
    trainer = _trainer_whose_reward_fails(trainer_factory, KeyboardInterrupt())
    attach(trainer, tmp_path / "run")
    with pytest.raises(KeyboardInterrupt):
        trainer.train()
    run = RunReader(tmp_path / "run")
    assert run.manifest["status"] == "terminated" and run.manifest["closed_at"] is not None
    assert not [e for e in run.events() if e["kind"] == "crash"]
    assert [row["step"] for row in run.steps().to_pylist()] == list(range(1, CRASH_AFTER + 1))


def test_a_train_that_ends_well_is_unchanged(trainer_factory, tmp_path) -> None:
    trainer = trainer_factory("grpo", max_steps=2)
    attach(trainer, tmp_path / "run")
    output = trainer.train()
    assert output.global_step == 2
    assert RunReader(tmp_path / "run").manifest["status"] == "finished"


def test_a_crashed_run_resumed_from_a_checkpoint_reads_each_step_once(trainer_factory, tmp_path) -> None:
    trainer = _trainer_whose_reward_fails(trainer_factory, RewardServerDied("reward server died"))
    trainer.args.save_strategy, trainer.args.save_steps = "steps", 2
    attach(trainer, tmp_path / "run")
    with pytest.raises(RewardServerDied):
        trainer.train()
    checkpoint = trainer.args.output_dir + "/checkpoint-2"

    resumed = trainer_factory("grpo", max_steps=6)
    attach(resumed, tmp_path / "run")
    resumed.train(resume_from_checkpoint=checkpoint)

    run = RunReader(tmp_path / "run")
    assert [row["step"] for row in run.steps().to_pylist()] == list(range(1, 7))
    steps_of_samples = run.samples().column("step").to_pylist()
    assert sorted(set(steps_of_samples)) == list(range(1, 7))
    per_step = {step: steps_of_samples.count(step) for step in set(steps_of_samples)}
    assert len(set(per_step.values())) == 1, f"every step's samples once, not twice: {per_step}"
    [event] = [e for e in run.events() if e["kind"] == "run_resumed"]
    assert event["step"] == 3 and event["data"]["prior_status"] == "crashed"
    assert event["data"]["superseded_steps"] == CRASH_AFTER - 2
    assert run.manifest["status"] == "finished" and run.manifest["counts"]["steps"] == 6
