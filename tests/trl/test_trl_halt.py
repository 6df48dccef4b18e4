"""Live halt on a real pathology of a tiny run: a learning rate far too high for the model
makes KL to the reference blow up within a few steps (see tiny_trl.KL_BLOWUP_TRAINING)."""
from __future__ import annotations

import warnings

import pytest
from tiny_trl import KL_BLOWUP_TRAINING

from rlprobe import RlprobeWarning
from rlprobe.doctor import ConfigError
from rlprobe.doctor.live import HaltPolicy
from rlprobe.integrations.trl import attach
from rlprobe.storage import RunReader


def test_kl_blowup_meets_the_default_policy_and_halts(trainer_factory, tmp_path):
    trainer = trainer_factory("grpo", **KL_BLOWUP_TRAINING)
    seen = []
    callback = attach(trainer, tmp_path / "run", halt=True, diagnose_every=5, on_finding=seen.append)
    trainer.train()

    step = trainer.state.global_step
    assert step < KL_BLOWUP_TRAINING["max_steps"] and step % 5 == 0
    finding = callback.halted_by
    assert finding is not None and finding.signature_id == "KL_BLOWUP" and finding.severity == "critical"
    assert HaltPolicy().should_halt(finding)
    assert finding in seen and finding in callback.findings
    # The checkpoint of the state at the halt is kept, though save_strategy="no".
    assert (tmp_path / "out-grpo" / f"checkpoint-{step}" / "model.safetensors").exists()

    run = RunReader(tmp_path / "run")
    assert run.manifest["status"] == "halted"
    [halt] = [e for e in run.events() if e["kind"] == "auto_halt"]
    assert halt["step"] == step
    assert halt["data"]["signature_id"] == "KL_BLOWUP" and halt["data"]["severity"] == "critical"
    assert halt["data"]["confidence"] == pytest.approx(finding.confidence)
    assert "KL_BLOWUP" in halt["message"]
    assert [row["step"] for row in run.steps().to_pylist()] == list(range(1, step + 1))


def test_findings_the_policy_rejects_never_halt(trainer_factory, tmp_path):
    """Same run, but the doctor_config switches KL_BLOWUP off and the policy halts only on it;
    a failing on_finding costs one warning."""
    trainer = trainer_factory("grpo", **{**KL_BLOWUP_TRAINING, "max_steps": 30})
    seen = []

    def on_finding(finding):
        seen.append(finding)
        raise RuntimeError("pager is down")

    policy = HaltPolicy(min_severity="info", signatures=frozenset({"KL_BLOWUP"}))
    callback = attach(trainer, tmp_path / "run", halt=policy,
                      on_finding=on_finding, diagnose_every=5, doctor_config={"kl_blowup": {"enabled": False}})
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        trainer.train()
    assert trainer.state.global_step == 30 and callback.halted_by is None
    # Completions keep hitting max_completion_length: TRUNCATION_HIGH (warn) is reported.
    assert seen and "KL_BLOWUP" not in {f.signature_id for f in seen}
    assert seen == callback.findings
    assert len([w for w in caught if issubclass(w.category, RlprobeWarning)
                and "pager is down" in str(w.message)]) == 1
    run = RunReader(tmp_path / "run")
    assert run.manifest["status"] == "finished"
    assert "auto_halt" not in {e["kind"] for e in run.events()}


def test_bad_doctor_config_fails_at_attach_without_leaving_a_run(trainer_factory, tmp_path):
    with pytest.raises(ConfigError, match="no_such_key"):
        attach(trainer_factory("grpo", max_steps=1), tmp_path / "run", halt=True,
               doctor_config={"kl_blowup": {"no_such_key": 1}})
    assert not (tmp_path / "run").exists()
