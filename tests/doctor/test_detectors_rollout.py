"""LOGPROB_MISMATCH: the vLLM sampler drifting from the trained policy, from TRL's
`sampling/*` metrics — found near the onset, silent on a healthy vLLM run and on runs
without vLLM, more confident the larger the mismatch."""
from __future__ import annotations

from functools import cache

import numpy as np
import polars as pl
import pytest

from rlprobe.doctor import RunView, diagnose_view
from rlprobe.doctor.catalog import registry
from rlprobe.doctor.config import resolve_config
from rlprobe.doctor.detectors.rollout import IS_RATIO_MEAN, LOGP_DIFF_MAX, LOGP_DIFF_MEAN
from rlprobe.doctor.synth.frames import synth_view

SID = "LOGPROB_MISMATCH"


@cache
def _synth(pathology: str, n_steps: int, seed: int, onset: int | None = None):
    return synth_view(pathology, n_steps, seed, onset)


def run_detector(view: RunView, **overrides):
    return registry()[SID].fn(view, resolve_config({SID: overrides} if overrides else None)[SID])


def vllm_view(gap: float, n: int = 300, onset: int = 150, seed: int = 0, columns=(LOGP_DIFF_MEAN, IS_RATIO_MEAN),
              config: dict | None = None, reward_falls: bool = False) -> RunView:
    rng = np.random.default_rng(seed)
    diff = 0.012 * np.exp(rng.normal(0, 0.15, n))
    diff[onset:] += gap * np.exp(rng.normal(0, 0.1, n - onset))
    data = {LOGP_DIFF_MEAN: diff, LOGP_DIFF_MAX: diff * 30, IS_RATIO_MEAN: 1 - 2 * diff}
    if reward_falls:  # the harm that makes a strong mismatch critical (facts.severity)
        columns = (*columns, "reward_mean")
        data["reward_mean"] = np.where(np.arange(n) < onset, 0.8, 0.2) + rng.normal(0, 0.02, n)
    frame = pl.DataFrame({"step": np.arange(n), **{k: v for k, v in data.items() if k in columns}})
    return RunView(frame, manifest={"trainer_config": config or {}})


@pytest.mark.parametrize("n_steps", [150, 800])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_found_near_its_onset(seed, n_steps):
    plan, view = _synth("logprob_mismatch", n_steps, seed)
    finding = {f.signature_id: f for f in diagnose_view(view)}[SID]
    assert finding.severity in ("warn", "critical")
    assert abs(finding.first_step - plan.onset) <= max(8, int(0.04 * n_steps))
    assert {e.metric for e in finding.evidence} >= {LOGP_DIFF_MEAN, LOGP_DIFF_MAX, IS_RATIO_MEAN}
    assert "importance-sampling ratio went from" in finding.explanation
    assert any("vllm_importance_sampling_correction" in a for a in finding.suggested_actions)
    assert finding.links_to_samples


@pytest.mark.parametrize("n_steps, seeds", [(100, range(6)), (2000, range(2))])
def test_silent_on_a_healthy_vllm_run(n_steps, seeds):
    for seed in seeds:
        _, view = _synth("logprob_mismatch", n_steps, seed, onset=n_steps)  # the onset never comes
        assert view.has(LOGP_DIFF_MEAN)
        assert run_detector(view) is None, seed


def test_silent_without_vllm_metrics():
    _, view = _synth("healthy", 300, 0)
    assert run_detector(view) is None


def test_confidence_and_severity_grow_with_the_mismatch():
    weak, strong = run_detector(vllm_view(0.06, reward_falls=True)), run_detector(vllm_view(0.6, reward_falls=True))
    assert weak is not None and strong is not None
    assert (weak.severity, strong.severity) == ("warn", "critical")
    # Strong but harmless (nothing shows the reward hurt): a warning, which says why it is not critical.
    unharmed = run_detector(vllm_view(0.6))
    assert unharmed.severity == "warn" and "Warn, not critical" in unharmed.explanation
    assert strong.confidence > weak.confidence
    assert abs(weak.first_step - 150) <= 8
    assert run_detector(vllm_view(0.01)) is None


def test_importance_ratio_alone_is_enough():
    finding = run_detector(vllm_view(0.3, columns=(IS_RATIO_MEAN,)))
    assert finding is not None and finding.evidence[0].metric.endswith(IS_RATIO_MEAN + "|")
    assert run_detector(vllm_view(0.01, columns=(IS_RATIO_MEAN,))) is None


def test_truncated_sampling_is_named_as_a_cause():
    finding = run_detector(vllm_view(0.1, config={"top_p": 0.9, "top_k": 0}))
    assert "top_p=0.9" in finding.explanation and "top_k" not in finding.explanation
