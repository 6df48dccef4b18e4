"""When something is missing or broken, scalars still get recorded and training never notices."""
from __future__ import annotations

import sys
import warnings
from collections import deque

import pytest
from tiny_trl import load_tokenizer
from trl import GRPOTrainer

from rlprobe import RlprobeWarning
from rlprobe.integrations.trl import attach, compat
from rlprobe.integrations.trl.compat import algorithm_of
from rlprobe.storage import RunReader


def shim_events(run):
    return [e for e in run.events() if e["kind"] == "shim_unavailable"]


def test_trainer_without_the_buffer_costs_one_event_and_scalars_carry_on(tiny_model_dir, tmp_path):
    from datasets import Dataset
    from trl import SFTConfig, SFTTrainer

    args = SFTConfig(output_dir=str(tmp_path / "out"), max_steps=3, logging_steps=1, per_device_train_batch_size=2,
                     max_length=16, bf16=False, use_cpu=True, report_to="none", save_strategy="no",
                     disable_tqdm=True, activation_checkpointing=False)
    trainer = SFTTrainer(model=str(tiny_model_dir), args=args, processing_class=load_tokenizer(tiny_model_dir),
                         train_dataset=Dataset.from_dict({"text": ["hello world", "the cat sat"] * 4}))
    attach(trainer, tmp_path / "run")
    trainer.train()
    run = RunReader(tmp_path / "run")
    assert run.manifest["algorithm"] == "sft"
    [event] = shim_events(run)
    assert "trainer._logs" in event["message"] and event["data"]["trainer"] == "SFTTrainer"
    steps = run.steps().to_pylist()
    assert [row["step"] for row in steps] == [1, 2, 3] and all(row["loss"] is not None for row in steps)
    assert run.samples().num_rows == 0


def test_buffer_changing_shape_mid_run_costs_one_event(trainer_factory, tmp_path):
    trainer = trainer_factory("grpo", max_steps=6)
    attach(trainer, tmp_path / "run")

    from transformers import TrainerCallback

    class Sabotage(TrainerCallback):
        def on_step_begin(self, args, state, control, **kwargs):
            if state.global_step == 3:  # from step 4 on, the advantages column no longer matches
                trainer._logs["advantages"] = deque([0.0])

    trainer.add_callback(Sabotage())
    trainer.train()
    run = RunReader(tmp_path / "run")
    [event] = shim_events(run)
    assert event["step"] == 4 and "disagree" in event["message"]
    assert sorted({s["step"] for s in run.samples().to_pylist()}) == [1, 2, 3]
    assert [row["step"] for row in run.steps().to_pylist()] == list(range(1, 7))


def test_unsupported_trl_warns_once_and_records_scalars(trainer_factory, tmp_path, monkeypatch):
    monkeypatch.setattr(compat.metadata, "version", lambda name: "1.9.0")
    monkeypatch.setattr(compat, "_warned_version", False)
    trainer = trainer_factory("grpo", max_steps=3)
    with pytest.warns(RlprobeWarning, match=r"trl>=1.7,<1.8.*1\.9\.0") as caught:
        attach(trainer, tmp_path / "a")
        attach(trainer_factory("rloo", max_steps=1), tmp_path / "b")
    assert len([w for w in caught if issubclass(w.category, RlprobeWarning)]) == 1
    trainer.train()
    assert [row["step"] for row in RunReader(tmp_path / "a").steps().to_pylist()] == [1, 2, 3]


def test_a_failing_hook_warns_once_and_training_finishes(trainer_factory, tmp_path):
    trainer = trainer_factory("grpo", max_steps=5)
    callback = attach(trainer, tmp_path / "run")

    def broken(*args, **kwargs):
        raise OSError("disk on fire")

    callback.recorder.log_step = broken
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        trainer.train()
    ours = [w for w in caught if issubclass(w.category, RlprobeWarning)]
    assert len(ours) == 1 and "on_log failed" in str(ours[0].message) and "disk on fire" in str(ours[0].message)
    assert trainer.state.global_step == 5
    run = RunReader(tmp_path / "run")
    assert run.manifest["status"] == "finished"
    assert sorted({s["step"] for s in run.samples().to_pylist()}) == [1, 2, 3, 4, 5]


def test_halt_without_the_doctor_fails_at_attach_with_one_line(trainer_factory, tmp_path, monkeypatch):
    for name in [m for m in sys.modules if m == "rlprobe.doctor" or m.startswith("rlprobe.doctor.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "rlprobe.doctor", None)  # makes the import fail like a missing package
    trainer = trainer_factory("grpo", max_steps=1)
    for kwargs in ({"halt": True}, {"on_finding": print}):
        with pytest.raises(ImportError) as info:
            attach(trainer, tmp_path / "run", **kwargs)
        message = str(info.value)
        assert "\n" not in message and "rlprobe-doctor" in message and "rlprobe-trl[live]" in message
    assert not (tmp_path / "run").exists()
    assert not any(type(cb).__name__ == "RlprobeCallback" for cb in trainer.callback_handler.callbacks)


@pytest.mark.parametrize("kwargs, error", [
    ({"diagnose_every": 0}, ValueError),
    ({"on_finding": "not callable"}, TypeError),
    ({"doctor_config": ["kl"]}, TypeError),
    ({"halt": "yes"}, TypeError),
    ({"no_such_recorder_option": 1}, TypeError),
])
def test_bad_arguments_fail_at_attach(trainer_factory, tmp_path, kwargs, error):
    with pytest.raises(error):
        attach(trainer_factory("grpo", max_steps=1), tmp_path / "run", **kwargs)


def test_algorithm_names():
    class MyGRPO(GRPOTrainer):
        pass

    class PPOTrainer:
        pass

    class Custom:
        pass

    assert algorithm_of(object.__new__(MyGRPO)) == "grpo"
    assert algorithm_of(PPOTrainer()) == "ppo"
    assert algorithm_of(Custom()) == "custom"
