"""Rollout-engine pathologies: the vLLM sampler drifts away from the policy being trained."""
from __future__ import annotations

import numpy as np

from .plan import SynthPlan, pathology, wobble


def vllm_metrics(plan: SynthPlan) -> None:
    """Log TRL's vLLM importance-sampling metrics at healthy levels (about 0.01 nats per
    token of numerical mismatch, ratios close to 1) and configure the run to use vLLM."""
    rng, n = plan.rng, plan.n_steps
    plan.trainer_config.update({"use_vllm": True, "vllm_mode": "colocate", "vllm_importance_sampling_correction": True,
                                "vllm_importance_sampling_mode": "sequence_mask",
                                "vllm_importance_sampling_clip_max": 3.0, "top_p": 1.0, "top_k": 0})
    base = rng.uniform(0.006, 0.02) * np.exp(rng.normal(0, 0.12, n) + wobble(rng, n, 0.08, 0.02 * n + 3))
    m = plan.metrics
    m["sampling/sampling_logp_difference/mean"] = base
    m["sampling/sampling_logp_difference/max"] = base * rng.uniform(15, 40) * np.exp(rng.normal(0, 0.3, n))
    m["sampling/importance_sampling_ratio/min"] = np.clip(1 - 8 * base * np.exp(rng.normal(0, 0.3, n)), 0, 1)
    m["sampling/importance_sampling_ratio/mean"] = 1 - 1.5 * base * np.exp(rng.normal(0, 0.3, n))
    m["sampling/importance_sampling_ratio/max"] = 1 + 15 * base * np.exp(rng.normal(0, 0.3, n))


@pathology("logprob_mismatch")
def logprob_mismatch(plan: SynthPlan) -> None:
    """A vLLM run whose sampler stops receiving the trainer's weights at the onset: the
    per-token log-prob difference climbs from ~0.01 to 0.1–0.5 nats and keeps growing, and
    sequence-level masking drops more and more of each batch (mean IS ratio falls, min hits 0)."""
    vllm_metrics(plan)
    rng, m = plan.rng, plan.metrics
    ramp = plan.ramp(plan.span(0.05, lo=5, hi=80))
    tail = max(1, plan.n_steps - plan.onset)
    gap = rng.uniform(0.1, 0.35) * ramp * (1 + plan.after() / tail) * np.exp(rng.normal(0, 0.1, plan.n_steps))
    m["sampling/sampling_logp_difference/mean"] = m["sampling/sampling_logp_difference/mean"] + gap
    m["sampling/sampling_logp_difference/max"] = m["sampling/sampling_logp_difference/max"] + 25 * gap
    masked = np.clip(gap * 2.0, 0, 0.9)  # share of sequences whose ratio leaves [0, 3] and is masked to 0
    m["sampling/importance_sampling_ratio/mean"] = m["sampling/importance_sampling_ratio/mean"] * (1 - masked)
    key = "sampling/importance_sampling_ratio/min"
    m[key] = np.where(masked > 0.02, 0.0, m[key])
    m["sampling/importance_sampling_ratio/max"] = np.minimum(3.0, m["sampling/importance_sampling_ratio/max"]
                                                             * (1 + 20 * gap))
