"""Sampled completions for synthetic runs: prompts, completion text by "mode", rewards
and group-normalised advantages consistent with the step's metrics."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

import numpy as np

if TYPE_CHECKING:
    from .plan import SynthPlan

#: mode name → fn(rng, a, b, correct) -> completion text. Pathology modules add modes.
ModeFn = Callable[[np.random.Generator, int, int, bool], str]
MODES: dict[str, ModeFn] = {}

_OPENERS = ["Let me work through this.", "First, add the two numbers.", "We need the sum.",
            "Start with the tens, then the ones.", "Adding step by step:", "Consider each digit."]
_MIDDLES = ["{a} plus {b}: the tens give {t}, the ones give {o}.", "Carry where needed: {a} + {b}.",
            "Split {b} into {t2} and {o2}, then add them to {a}.", "Check: {s} - {b} = {a}."]


def register_mode(name: str) -> Callable[[ModeFn], ModeFn]:
    def register(fn: ModeFn) -> ModeFn:
        MODES[name] = fn
        return fn
    return register


@register_mode("healthy")
def _healthy(rng: np.random.Generator, a: int, b: int, correct: bool) -> str:
    s = a + b if correct else a + b + int(rng.choice([-10, -1, 1, 2, 10]))
    parts = [str(rng.choice(_OPENERS))]
    for _ in range(int(rng.integers(1, 4))):
        parts.append(str(rng.choice(_MIDDLES)).format(a=a, b=b, s=a + b, t=(a // 10 + b // 10) * 10,
                                                       o=a % 10 + b % 10, t2=b // 10 * 10, o2=b % 10))
    return "<think>" + " ".join(parts) + f"</think> The answer is {s}."


def samples_for_step(plan: "SynthPlan", step: int) -> list[dict[str, Any]]:
    """``group_size`` completions for each of ``prompts_per_step`` prompts; per-sample
    rewards match the step's accuracy/format means, advantages are group-normalised."""
    rng = np.random.default_rng([plan.seed, step])
    metrics = plan.metrics
    accuracy = float(np.nan_to_num(metrics.get("rewards/accuracy/mean", np.full(plan.n_steps, 0.5))[step], nan=0.5))
    fmt = float(np.nan_to_num(metrics.get("rewards/format/mean", np.full(plan.n_steps, 0.8))[step], nan=0.8))
    length = float(np.nan_to_num(metrics.get("completions/mean_length", np.full(plan.n_steps, 150.0))[step], nan=150.0))
    clipped = float(np.nan_to_num(metrics.get("completions/clipped_ratio", np.zeros(plan.n_steps))[step], nan=0.0))
    entropy = float(np.nan_to_num(metrics.get("entropy", np.full(plan.n_steps, 0.8))[step], nan=0.8))
    kl_series = metrics.get("kl")
    kl = float(kl_series[step]) if kl_series is not None and np.isfinite(kl_series[step]) else None
    mode = MODES[plan.mode[step]] if step < len(plan.mode) else MODES["healthy"]
    samples: list[dict[str, Any]] = []
    for p in range(plan.prompts_per_step):
        prompt_index = int(rng.integers(0, 500))
        a, b = 10 + prompt_index % 90, 10 + (prompt_index * 7) % 90
        prompt = f"What is {a} + {b}? Think step by step, then give the answer."
        group = []
        for g in range(plan.group_size):
            correct = bool(rng.random() < accuracy)
            formatted = bool(rng.random() < fmt)
            completion = mode(rng, a, b, correct)
            n_tokens = max(1, int(rng.normal(length, 0.25 * length)))
            truncated = bool(rng.random() < clipped)
            group.append({
                "sample_id": f"s{step}-p{p}-g{g}",
                "prompt_id": f"q{prompt_index}",
                "group_id": f"{step}-{p}",
                "prompt": prompt,
                "completion": completion,
                "reward_components": {"accuracy": float(correct), "format": float(formatted)},
                "reward": float(correct) + 0.2 * float(formatted),
                "length": n_tokens,
                "truncated": truncated,
                "entropy": float(entropy * np.exp(rng.normal(0, 0.1))),
                "logprob": float(-entropy * np.exp(rng.normal(0, 0.1)) * 0.6),
                "kl": None if kl is None else float(kl * np.exp(rng.normal(0, 0.3))),
            })
        rewards = np.array([s["reward"] for s in group])
        std = rewards.std()
        for s, r in zip(group, rewards):
            s["advantage"] = float((r - rewards.mean()) / (std + 1e-4))
        samples.extend(group)
    return samples
