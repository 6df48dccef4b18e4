"""Sample-level pathologies: groups with no learning signal, looping completions, groups of
copies, and broken advantages. Each shows in the sampled completions (or their advantages)
from the onset on, and the logged metrics agree with what the samples show."""
from __future__ import annotations

from typing import Any

import numpy as np

from . import text
from .plan import SynthPlan, pathology, refresh_rewards, set_lengths

_OPENERS = ("Let me work through this.", "Adding step by step:", "We need the sum.")
_LOOPS = ("Wait, let me add {a} and {b} again.", "Let me recompute the tens: {t}.", "Hmm, {a} plus {b}, so {s}.",
          "Let me double-check the ones digits.", "So the sum is {s}, let me verify.")


@text.register_mode("repetitive")
def _repetitive(rng: np.random.Generator, a: int, b: int, correct: bool) -> str:
    """Three in four completions loop on one sentence 6–20 times; the rest are healthy."""
    if rng.random() >= 0.75:
        return text.MODES["healthy"](rng, a, b, correct)
    q = text.numbers(a, b, text.answer(rng, a, b, correct))
    loop = text.pick(_LOOPS, rng.random()).format(**q)
    body = " ".join([text.pick(_OPENERS, rng.random()), *([loop] * int(6 + rng.random() * 15))])
    return f"<think>{body}</think> The answer is {q['s']}."


@text.register_mode("group_copies")
def _collapsed(rng: np.random.Generator, a: int, b: int, correct: bool) -> str:
    """Most completions of a prompt are one fixed text (one for right, one for wrong)."""
    if rng.random() >= 0.85:
        return text.MODES["healthy"](rng, a, b, correct)
    q = text.numbers(a, b, a + b if correct else a + b + 10)
    return (f"<think>Adding step by step: {a} plus {b}: the tens give {q['t']}, the ones give {q['o']}."
            f"</think> The answer is {q['s']}.")


@pathology("zero_advantage_groups")
def zero_advantage_groups(plan: SynthPlan) -> None:
    """The prompts become too easy: from the onset accuracy and format saturate near 100 %,
    so about nine groups in ten earn identical rewards (``frac_reward_zero_std`` ≈ 0.9) and
    give no gradient, while the mean reward looks better than ever."""
    rng, m = plan.rng, plan.metrics
    ramp = plan.ramp(plan.span(0.04, lo=5, hi=60))
    for name, top in (("rewards/accuracy/mean", rng.uniform(0.985, 0.997)),
                      ("rewards/format/mean", rng.uniform(0.992, 0.999))):
        series = m[name]
        series[plan.onset:] = (series + (top - series) * ramp)[plan.onset:]
    refresh_rewards(plan)


@pathology("repetitive_completions")
def repetitive_completions(plan: SynthPlan) -> None:
    """From the onset (over a short ramp) three in four sampled completions loop on one
    sentence; the loops make completions about 15 % longer."""
    ramp = plan.ramp(plan.span(0.03, lo=4, hi=50))
    draws = plan.rng.random(plan.n_steps)
    for step in range(plan.onset, plan.n_steps):
        if draws[step] < ramp[step] or ramp[step] >= 1.0:
            plan.mode[step] = "repetitive"
    set_lengths(plan, plan.metrics["completions/mean_length"] * (1 + 0.15 * ramp))


@pathology("group_mode_collapse")
def group_mode_collapse(plan: SynthPlan) -> None:
    """From the onset (over a short ramp) most completions of a prompt are the same text:
    one fixed wording for a right answer, one for a wrong one. Rewards are unchanged, so
    the texts agree with them."""
    ramp = plan.ramp(plan.span(0.03, lo=4, hi=50))
    draws = plan.rng.random(plan.n_steps)
    for step in range(plan.onset, plan.n_steps):
        if draws[step] < ramp[step] or ramp[step] >= 1.0:
            plan.mode[step] = "group_copies"


@pathology("advantage_outliers")
def advantage_outliers(plan: SynthPlan) -> None:
    """An advantage-normalisation bug from the onset: in a growing share of groups (up to
    60 %) the advantages are divided by a far too small std, inflating them ×3–×20 past the
    (G−1)/√G bound group normalisation allows."""
    ramp = plan.ramp(plan.span(0.03, lo=4, hi=50))
    seed = plan.seed

    def inflate(step: int, samples: list[dict[str, Any]]) -> list[dict[str, Any]]:
        if ramp[step] <= 0:
            return samples
        rng = np.random.default_rng([seed, step, 0xADF])
        factors: dict[Any, float] = {}
        for sample in samples:
            group = sample.get("group_id")
            if group not in factors:
                hit = rng.random() < 0.6 * ramp[step]
                factors[group] = float(np.exp(rng.normal(np.log(6.0), 0.5))) if hit else 1.0
            if sample.get("advantage") is not None:
                sample["advantage"] = sample["advantage"] * factors[group]
        return samples

    plan.sample_edits.append(inflate)
