"""Sampled completions for synthetic runs: prompts, completion text by "mode", rewards
and advantages consistent with the step's logged metrics.

A mode is ``fn(rng, a, b, correct) -> str``: the completion to "What is a + b?", right or
wrong. Pathology modules add their own with ``register_mode``.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from .plan import SynthPlan

#: mode name → fn(rng, a, b, correct) -> completion text. Pathology modules add modes.
ModeFn = Callable[[np.random.Generator, int, int, bool], str]
MODES: dict[str, ModeFn] = {}

_OPENERS = ("Let me work through this.", "First, add the two numbers.", "We need the sum.",
            "Start with the tens, then the ones.", "Adding step by step:", "Consider each digit.",
            "Okay, this is an addition problem.", "Let's break the numbers apart.", "I'll line the digits up.",
            "Think of it as a sum of tens and ones.", "Let me try rounding first.", "Set up the column addition.")
_STEPS = ("{a} plus {b}: the tens give {t}, the ones give {o}.", "Carry where needed: {a} + {b}.",
          "Split {b} into {t2} and {o2}, then add them to {a}.", "{a} + {t2} = {p}, and {p} + {o2} = {s}.",
          "Round {b} up to {r}: {a} + {r} = {ar}, then subtract {d}.", "The ones digits {a1} and {b1} make {o}.",
          "The tens digits make {t}, so we are near {t}.", "Adding {o} to {t} gives {s}.",
          "Write {a} as {a10} + {a1}.", "So far we have {p}; {o2} is still left to add.")
_CHECKS = ("Check: {s} - {b} = {a}.", "Double-check by reversing: {b} + {a} = {s}.", "That looks right.",
           "Estimate: roughly {t} plus a bit, consistent.", "")
_ANSWERS = ("The answer is {s}.", "So the sum is {s}.", "Final answer: {s}.", "Therefore {a} + {b} = {s}.",
            "Answer: {s}")


def register_mode(name: str) -> Callable[[ModeFn], ModeFn]:
    """Register ``fn(rng, a, b, correct) -> str`` as completion mode ``name``."""
    def register(fn: ModeFn) -> ModeFn:
        MODES[name] = fn
        return fn
    return register


def numbers(a: int, b: int, s: int) -> dict[str, int]:
    """The quantities the templates quote for "a + b" answered with ``s``."""
    r = (b // 10 + 1) * 10
    return {"a": a, "b": b, "s": s, "t": (a // 10 + b // 10) * 10, "o": a % 10 + b % 10, "t2": b // 10 * 10,
            "o2": b % 10, "p": a + b // 10 * 10, "r": r, "ar": a + r, "d": r - b, "a1": a % 10, "b1": b % 10,
            "a10": a // 10 * 10}


def answer(rng: np.random.Generator, a: int, b: int, correct: bool) -> int:
    """The sum, or a plausible slip when ``correct`` is False."""
    return a + b if correct else a + b + _SLIPS[int(rng.random() * len(_SLIPS))]


_SLIPS = (-10, -1, 1, 2, 10)


def pick(options: tuple[str, ...], u: float) -> str:
    """The option a uniform draw ``u`` in [0, 1) lands on (one draw per choice is cheap)."""
    return options[int(u * len(options))]


@register_mode("healthy")
def _healthy(rng: np.random.Generator, a: int, b: int, correct: bool) -> str:
    u = rng.random(8).tolist()
    q = numbers(a, b, answer(rng, a, b, correct))
    steps = [pick(_STEPS, v).format(**q) for v in u[3:3 + 1 + int(u[1] * 4)]]
    body = " ".join([pick(_OPENERS, u[0]), *steps, pick(_CHECKS, u[7]).format(**q)]).strip()
    return f"<think>{body}</think> " + pick(_ANSWERS, u[2]).format(**q)


def cut(rng: np.random.Generator, completion: str) -> str:
    """A completion stopped by the token budget: mid-sentence, before any answer."""
    head = completion.split("</think>")[0]
    return head[: max(8, int(len(head) * rng.uniform(0.5, 0.95)))]


def _column(plan: SynthPlan, name: str, steps: np.ndarray, default: float) -> np.ndarray:
    """Metric ``name`` at ``steps``, ``default`` where absent or not finite."""
    series = plan.metrics.get(name)
    if series is None:
        return np.full(steps.size, default)
    values = np.asarray(series, dtype=float)[steps]
    return np.where(np.isfinite(values), values, default)


def _components(plan: SynthPlan) -> list[tuple[str, float]]:
    """(name, weight) of each reward component the run logs, in logging order."""
    names = [k[len("rewards/"):-len("/mean")] for k in plan.metrics if k.startswith("rewards/") and k.endswith("/mean")]
    funcs = list(plan.trainer_config.get("reward_funcs") or names)
    weights = list(plan.trainer_config.get("reward_weights") or [])
    return [(name, float(weights[funcs.index(name)]) if name in funcs and funcs.index(name) < len(weights) else 1.0)
            for name in names]


def _draw(plan: SynthPlan, steps: np.ndarray, rng: np.random.Generator) -> dict[str, Any]:
    """Every number of the samples at ``steps`` at once (arrays of shape steps × samples)."""
    G, P = plan.group_size, plan.prompts_per_step
    n, S = G * P, steps.size
    cap = plan.max_completion_length
    spread = float(plan.hidden.get("length_spread", 0.35))
    ppo = plan.algorithm == "ppo"
    if "length" in plan.hidden:
        length = np.asarray(plan.hidden["length"], dtype=float)[steps]
    else:
        length = _column(plan, "completions/mean_length", steps, 150.0)
    entropy = _column(plan, "policy/entropy_avg" if ppo else "entropy", steps, 0.8)
    kl = _column(plan, "objective/kl" if ppo else "kl", steps, np.nan)
    if ppo:
        kl = kl / np.maximum(length, 1.0)
        clipped = 1.0 - _column(plan, "val/num_eos_tokens", steps, float(n)) / n
    else:
        clipped = _column(plan, "completions/clipped_ratio", steps, 0.0)

    truncated = rng.random((S, n)) < clipped[:, None]
    lengths = np.exp(rng.normal(np.log(np.maximum(length, 1.0)) - spread ** 2 / 2, spread, (n, S)).T)
    lengths = np.where(truncated, cap, np.clip(np.round(lengths), 1, cap - 1)).astype(int)
    sample_entropy = entropy[:, None] * np.exp(rng.normal(0, 0.15, (S, n)))
    out: dict[str, Any] = {
        "truncated": truncated, "length": lengths, "entropy": sample_entropy,
        "logprob": -sample_entropy * rng.uniform(0.7, 1.0, (S, n)),
        "kl": kl[:, None] * np.exp(rng.normal(0, 0.5, (S, n))),
        "prompt": rng.integers(0, 5000, size=(S, P)),
        "components": {},
    }
    if ppo:
        rewards = rng.normal(_column(plan, "objective/scores", steps, 0.0)[:, None], 1.0, (S, n))
        out["correct"] = rewards > np.median(rewards, axis=1, keepdims=True)
        out["advantage"] = _normalised(rewards, n)
    else:
        from .plan import hidden_series

        concentration = hidden_series(plan, "prompt_concentration", 2.0)[steps][:, None]
        format_concentration = hidden_series(plan, "format_concentration", 6.0)[steps][:, None]
        rewards = np.zeros((S, n))
        for i, (name, weight) in enumerate(_components(plan)):
            mean = _column(plan, f"rewards/{name}/mean", steps, 0.5)[:, None]
            # Success rates vary by prompt: correctness with difficulty, the others less so.
            c = concentration if i == 0 else format_concentration
            mu = np.clip(mean, 1e-3, 1 - 1e-3)
            q = np.repeat(rng.beta(mu * c, (1 - mu) * c, (S, P)), G, axis=1)
            binary = (mean >= 0.0) & (mean <= 1.0)
            values = np.where(binary, (rng.random((S, n)) < q) * ~truncated, rng.normal(mean, 0.3, (S, n)))
            out["components"][name] = values
            rewards += weight * values
        first = next(iter(out["components"].values()), None)
        out["correct"] = first > 0 if first is not None else rng.random((S, n)) < 0.5
        out["advantage"] = _normalised(rewards, G)
    out["reward"] = rewards
    return out


def _normalised(rewards: np.ndarray, group: int) -> np.ndarray:
    """TRL GRPO's group-normalised advantages (unbiased std + 1e-4); with ``group`` the
    whole batch, PPO-style whitening."""
    r = rewards.reshape(rewards.shape[0], -1, group)
    std = r.std(axis=2, ddof=1, keepdims=True) if group > 1 else np.zeros_like(r[..., :1])
    return np.asarray(((r - r.mean(axis=2, keepdims=True)) / (std + 1e-4)).reshape(rewards.shape))


#: Steps whose numbers are drawn together (bounds memory on long runs).
_CHUNK = 512


def sample_steps(plan: SynthPlan, steps: np.ndarray | None = None) -> Iterator[tuple[int, list[dict[str, Any]]]]:
    """(step, samples) for each step that captures samples (every ``sample_every``-th
    step not in ``skip_steps``, or ``steps``): ``group_size`` completions for each of
    ``prompts_per_step`` prompts. Rewards follow the step's component means (prompts
    differ in difficulty, so whole groups agree about as often as
    ``frac_reward_zero_std`` says), truncated samples follow
    ``completions/clipped_ratio`` and are cut off, advantages are group-normalised
    (GRPO) or whitened over the batch (PPO). Deterministic for a given plan."""
    if steps is None:
        steps = np.array([s for s in range(0, plan.n_steps, plan.sample_every) if s not in plan.skip_steps], dtype=int)
    rng = np.random.default_rng([plan.seed, 0x5A3])
    G = plan.group_size
    for lo in range(0, steps.size, _CHUNK):
        chunk = steps[lo:lo + _CHUNK]
        draws = _draw(plan, chunk, rng)
        # Python lists: per-sample reads of numpy scalars would dominate the cost.
        lists = {k: draws[k].tolist() for k in ("correct", "truncated", "reward", "advantage", "length", "entropy",
                                                 "logprob", "prompt")}
        kls = draws["kl"].tolist()
        parts = {k: v.tolist() for k, v in draws["components"].items()}
        for row, step in enumerate(chunk.tolist()):
            mode = MODES[plan.mode[step]] if step < len(plan.mode) else MODES["healthy"]
            samples: list[dict[str, Any]] = []
            for i, (ok, cut_off) in enumerate(zip(lists["correct"][row], lists["truncated"][row], strict=False)):
                p, g = divmod(i, G)
                index = lists["prompt"][row][p]
                a, b = 10 + index % 90, 10 + (index * 7) % 90
                completion = mode(rng, a, b, ok)
                kl = kls[row][i]
                samples.append({
                    "sample_id": f"s{step}-p{p}-g{g}",
                    "prompt_id": f"q{index}",
                    "group_id": f"{step}-{p}",
                    "prompt": f"What is {a} + {b}? Think step by step, then give the answer.",
                    "completion": cut(rng, completion) if cut_off else completion,
                    "reward_components": {k: v[row][i] for k, v in parts.items()} or None,
                    "reward": lists["reward"][row][i],
                    "advantage": lists["advantage"][row][i],
                    "length": lists["length"][row][i],
                    "truncated": cut_off,
                    "entropy": lists["entropy"][row][i],
                    "logprob": lists["logprob"][row][i],
                    "kl": None if kl != kl else kl,
                })
            yield step, samples


def samples_for_step(plan: SynthPlan, step: int) -> list[dict[str, Any]]:
    """One step's samples, drawn like ``sample_steps``'s (statistically the same, not the
    same draws)."""
    return next(sample_steps(plan, np.array([step])))[1]
