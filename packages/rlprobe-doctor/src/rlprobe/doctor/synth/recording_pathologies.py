"""Recording-level pathologies: a run whose numbers turn to NaN, and a recording with holes."""
from __future__ import annotations

from typing import Any

from rlprobe.records import EventKind

from .plan import SynthPlan, pathology


@pathology("nonfinite_values")
def nonfinite_values(plan: SynthPlan) -> None:
    """The run diverges at the onset: the gradient norm overflows to inf, and from the next
    step on loss, grad norm and entropy are NaN, as are the samples' log-probs and entropies
    (NaN weights)."""
    nan, inf = float("nan"), float("inf")
    plan.overrides.setdefault(plan.onset, {}).update({"grad_norm": inf})
    for step in range(plan.onset + 1, plan.n_steps):
        plan.overrides.setdefault(step, {}).update({"loss": nan, "grad_norm": nan, "entropy": nan})
    first_nan = plan.onset + 1

    def poison(step: int, samples: list[dict[str, Any]]) -> list[dict[str, Any]]:
        if step >= first_nan:
            for sample in samples:
                sample["logprob"] = nan
                sample["entropy"] = nan
        return samples

    plan.sample_edits.append(poison)


@pathology("recording_gaps")
def recording_gaps(plan: SynthPlan) -> None:
    """From the onset the recorder's queue overflows in bursts: every few percent of the run
    a stretch of steps (1–2 % of the run each) is dropped with a ``queue_overflow`` event,
    and one step logs a reward that is not a number (a ``bad_record`` event)."""
    rng, n = plan.rng, plan.n_steps
    burst = max(2, int(round(0.015 * n)))
    every = max(burst + 3, int(round(0.06 * n)))
    dropped = 0
    queue = 8192
    step = plan.onset
    while step < n - 1:
        length = min(n - 1 - step, max(2, int(burst * rng.uniform(0.7, 1.3))))
        plan.skip_steps.update(range(step, step + length))
        dropped += length * (1 + plan.group_size * plan.prompts_per_step)
        plan.events.append((step, EventKind.QUEUE_OVERFLOW, f"queue full ({queue}); dropping records",
                            {"dropped_total": dropped, "queue_size": queue}))
        step += length + int(every * rng.uniform(0.7, 1.3))
    bad_at = int(min(n - 1, plan.onset + every // 2))
    while bad_at in plan.skip_steps and bad_at < n - 1:
        bad_at += 1
    # Logged through the real cleaning path, which turns it into a ``bad_record`` event.
    plan.overrides.setdefault(bad_at, {})["reward"] = "n/a"  # type: ignore[assignment]
