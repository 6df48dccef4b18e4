"""The canonical metric table knows verl's, OpenRLHF's and TRL PPO's names: a run recorded
with the manual Recorder under their native names is diagnosed like the same run under
TRL's names, and old-vs-new-policy KLs are never taken for the KL to the reference."""
from __future__ import annotations

import pytest

from rlprobe import Recorder
from rlprobe.doctor import RunView, diagnose
from rlprobe.doctor.synth import generate
from rlprobe.records import METRIC_ALIASES, NOT_REFERENCE_KL, PER_SEQUENCE_SUMS, canonical_metric
from rlprobe.storage import RunReader

TRL = {"reward_mean": "reward", "kl_mean": "kl", "entropy_mean": "entropy", "policy_loss": "loss",
       "value_loss": "vf_loss", "grad_norm": "grad_norm", "learning_rate": "learning_rate",
       "clip_ratio": "clip_ratio/region_mean", "length_mean": "completions/mean_length",
       "length_max": "completions/max_length", "length_min": "completions/min_length"}
VERL = {"reward_mean": "critic/score/mean", "kl_mean": "actor/kl_loss", "entropy_mean": "actor/entropy",
        "policy_loss": "actor/pg_loss", "value_loss": "critic/vf_loss", "grad_norm": "actor/grad_norm",
        "learning_rate": "actor/lr", "clip_ratio": "actor/pg_clipfrac", "length_mean": "response_length/mean",
        "length_max": "response_length/max", "length_min": "response_length/min"}
OPENRLHF = {"reward_mean": "reward", "kl_mean": "kl", "entropy_mean": "entropy_loss", "policy_loss": "policy_loss",
            "value_loss": "critic_loss", "grad_norm": "actor_grad_norm", "learning_rate": "actor_lr",
            "clip_ratio": "ppo_clip_ratio", "length_mean": "response_length"}
#: Fields one of the frameworks lacks are left out of every copy, so the copies hold the same curves.
SHARED = set(TRL) & set(VERL) & set(OPENRLHF)


def _rerecord(source, target, names: dict[str, str], algorithm: str, extra=None) -> None:
    rows = RunReader(source).steps().to_pylist()
    with Recorder(target, algorithm=algorithm, capture_env=False, install_handlers=False) as rec:
        for row in rows:
            metrics = {names[f]: row[f] for f in SHARED if row.get(f) is not None}
            metrics.update(extra(row["step"]) if extra else {})
            rec.log_step(row["step"], **metrics)


def test_every_native_name_maps_to_its_field():
    for names in (VERL, OPENRLHF):
        for field, name in names.items():
            assert canonical_metric(name) == field, name
    assert canonical_metric("objective/kl") == "kl_mean" and "objective/kl" in PER_SEQUENCE_SUMS
    assert canonical_metric("policy/entropy_avg") == "entropy_mean"  # per token, not the per-sequence sum
    assert not NOT_REFERENCE_KL & set(METRIC_ALIASES)


@pytest.mark.parametrize("pathology, algorithm", [
    ("kl_blowup", "grpo"), ("entropy_collapse", "grpo"), ("length_explosion", "grpo"),
    ("grad_norm_spike", "grpo"), ("clip_ratio_high", "grpo"), ("value_loss_divergence", "ppo"), ("healthy", "grpo"),
])
def test_verl_and_openrlhf_names_are_diagnosed_like_trl_names(tmp_path, pathology, algorithm):
    source = tmp_path / "synth"
    generate(source, pathology, n_steps=300, seed=3)
    runs = {}
    for label, names in (("trl", TRL), ("verl", VERL), ("openrlhf", OPENRLHF)):
        _rerecord(source, tmp_path / label, names, algorithm)
        runs[label] = [(f.signature_id, f.severity, f.first_step) for f in diagnose(tmp_path / label)]
    assert runs["verl"] == runs["trl"] and runs["openrlhf"] == runs["trl"]
    if pathology != "healthy":
        assert pathology.upper() in {s for s, _, _ in runs["trl"]}


def test_old_vs_new_policy_kl_is_not_the_reference_kl(tmp_path):
    source = tmp_path / "synth"
    generate(source, "healthy", n_steps=300, seed=3)
    exploding = lambda step: {"actor/ppo_kl": 1e-4 * 1.03 ** step, "ppo_kl": 1e-4 * 1.03 ** step,  # noqa: E731
                              "policy/approxkl_avg": 1e-4 * 1.03 ** step}
    _rerecord(source, tmp_path / "verl", VERL, "ppo", exploding)
    view = RunView.load(tmp_path / "verl")
    assert {"actor/ppo_kl", "ppo_kl", "policy/approxkl_avg"} <= set(view.metric_names())
    assert "KL_BLOWUP" not in {f.signature_id for f in diagnose(tmp_path / "verl")}
