"""Completion length: an explosion (rambling to the token budget), a collapse (answers with
no reasoning) and truncation (the budget cutting completions off). Slow length growth
over a run is normal in reasoning RL; only fast, large changes are findings."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import polars as pl

from ..catalog import detector
from ..facts.groups import CORRECTNESS
from ..facts.metrics import ENTROPY_METRICS, LENGTH_METRICS
from ..facts.progress import reward_progress
from ..facts.run import facts_of
from ..facts.severity import decide
from ..findings import Evidence, Finding
from ..toolkit import (
    Curve,
    Windows,
    confidence_from,
    ended_for_good,
    episode_median,
    finite_median,
    held_extreme,
    hysteresis,
    logged,
    long_enough,
    onset_before,
    opening_reference,
    percent,
    relative_change,
    rolling_min,
    sustained_onset,
)
from ..view import RunView

_WINDOWS = {"smooth_window": 9, "baseline_window": 100, "gap": 50, "sustain": 10}
#: A mean length at this share of the token budget is at the budget.
_AT_BUDGET = 0.9


@detector("LENGTH_EXPLOSION", defaults={"growth_ratio": 1.8, "exit_ratio": 1.5, "critical_ratio": 4.0,
                                        "min_budget_share": 0.05, "min_tokens": 32.0, **_WINDOWS})
def length_explosion(view: RunView, cfg: Mapping[str, Any]) -> Finding | None:
    """Mean completion length multiplies within a short window and stays up.

    Meaning: The policy rambles — second-guessing, loops, restated reasoning — until the
    token budget stops it. Compute per step balloons, truncated completions earn nothing,
    and a repetition or entropy problem is often underneath. The slow, steady growth of
    reasoning length seen in healthy runs is not this.

    Metrics: `length_mean` (TRL's `completions/mean_length`), `truncated_frac` for context;
    samples' `length` for the linked examples.

    Rule: Smoothed length (trailing median over `smooth_window` steps) divided by its
    reference (median of the `baseline_window` steps that ended `gap` steps earlier)
    reaches `growth_ratio` and stays above `exit_ratio` (hysteresis) for `sustain` steps;
    with the token budget known, reaching 90 % of it at `exit_ratio` × the lowest
    reference of the last `baseline_window` + `gap` steps is enough (the budget caps the
    growth, so the ratio to the recent level understates it). Until the run has the history
    for a trailing reference, its opening level (median of its first 3 logged steps) is the
    reference, so an explosion in a run's first steps is measured from where it started; a
    rise from a collapsed length (half or less of one it held before) is measured against
    that earlier length. The onset is where the centred median last sat at the reference.
    Critical at `critical_ratio` × the reference or when the mean reaches 90 % of the token
    budget — but only at the budget when the reward clearly rose since the onset (by 3× its
    step noise) and no non-correctness component rose in step with the length: longer
    reasoning that buys reward is the R1-style growth, here fast, and is said to be. The
    length must also reach `min_budget_share` of the token budget (`min_tokens` when the
    budget is unknown): a length that went from 2 to 5 tokens has grown ×2.5 and rambles
    nowhere.
    An episode that ended (the smoothed curve back within the noise band of its earlier level,
    out of the episode, for `sustain` steps or more to the run's end) is at most warn and names
    the step it came back: severity says the state at the run's end.

    Actions: Read the linked longest samples; add a length penalty or overlong reward
    shaping (DAPO's soft overlong punishment); set `mask_truncated_completions=True`; use a
    length-normalised loss (`loss_type="dr_grpo"` or `"dapo"`); lower `learning_rate`.

    Source: DAPO (Yu et al., 2025) — overlong reward shaping and masking; "Understanding
    R1-Zero-Like Training" (Dr. GRPO, Liu et al., 2025) — length bias of the GRPO loss.

    Keys:
    growth_ratio: length at or above this multiple of its reference starts an explosion
    exit_ratio: the explosion lasts until length is back below this multiple
    critical_ratio: critical when the held length reaches this multiple
    min_budget_share: ... and the length must reach this share of the token budget
    min_tokens: ... or, with the budget unknown, this many tokens
    smooth_window: trailing median window (steps) that de-noises the curve
    baseline_window: steps in the reference window
    gap: steps between the reference window and the present
    sustain: consecutive steps the growth must hold
    """
    curve = logged(view, *LENGTH_METRICS)
    if curve is None or not long_enough(curve.steps) or curve.values.min() <= 0:
        return None
    name, steps = curve.name, curve.steps
    w = Windows.of(curve, cfg)
    budget = facts_of(view).budget
    enter: float | np.ndarray = cfg["growth_ratio"]
    ref = opening_reference(curve, w)
    if budget is not None:
        # The budget caps the growth, so near it the ratio to the recent level understates how
        # far the length ran: there the reference is the lowest reference of the last
        # baseline + gap steps, and the smaller ratio `exit_ratio` is enough.
        near = curve.smooth(w.smooth) >= _AT_BUDGET * budget
        enter = np.where(near, cfg["exit_ratio"], cfg["growth_ratio"])
        ref = np.where(near, np.fmin(ref, rolling_min(ref, w.baseline + w.gap)), ref)
    floor = cfg["min_budget_share"] * budget if budget is not None else cfg["min_tokens"]
    shift = relative_change(curve, w, enter, cfg["exit_ratio"], rising=True, floor=floor, reference=ref)
    if shift is None:
        return None
    ratio = shift.ratio
    at_budget = budget is not None and shift.observed >= _AT_BUDGET * budget
    first, last = int(steps[shift.onset]), int(steps[-1])
    tail = f" — {shift.observed / budget:.0%} of the {budget}-token budget" if budget else ""
    payer = _paying_component(view, curve, int(steps[max(0, shift.onset - w.baseline)]), last)
    progress = reward_progress(view, first) if payer is None and not at_budget else None
    paid = progress is not None and progress.rose
    if payer is not None:
        tail += (f". Reward component '{payer[0]}' rose with it ({payer[1]:.3g} → {payer[2]:.3g}, correlation "
                 f"{payer[3]:.2f}): it may be paying for length")
    elif paid and progress is not None:
        tail += (f". The reward rose with it ({progress.start:.3g} at the onset, {progress.end:.3g} now) and no "
                 "component pays for length: longer reasoning is buying reward, as in R1-style training, only "
                 "faster. Read the longest samples to be sure, and watch the budget")
    # Running into the budget is strong in itself (the degenerate output the policy then finds); a growth the
    # reward pays for is not.
    judgement = decide(view, "LENGTH_EXPLOSION", first,
                       strong=(ratio >= cfg["critical_ratio"] and not paid) or at_budget, cap=shift.capped("critical"))
    return Finding(
        signature_id="LENGTH_EXPLOSION",
        severity=judgement.severity,
        # Running into the budget is evidence in itself: the ratio is capped there.
        confidence=confidence_from(np.log(ratio / cfg["growth_ratio"]) + (0.5 if at_budget else 0.0), 0.5,
                                   floor=0.55),
        first_step=first,
        explanation=(f"Mean completion length grew from {shift.baseline:.0f} to {shift.observed:.0f} tokens "
                     f"(×{ratio:.1f}) starting at step {first}{tail}." + shift.recovery(steps) + judgement.why),
        evidence=[shift.evidence(name, first, last, rising=True)]
        + ([progress.evidence(first, last)] if paid and progress is not None else []),
        suggested_actions=[
            *([f"Check the '{payer[0]}' reward function: if it pays for length, cap it or lower its "
               "`reward_weights`."] if payer is not None else []),
            "Read the linked longest samples: loops and second-guessing mean the length is not buying accuracy.",
            "Add a length penalty / DAPO-style overlong shaping, or set `mask_truncated_completions=True`.",
            "Use a length-normalised loss (`loss_type=\"dr_grpo\"` or `\"dapo\"`) and lower `learning_rate`.",
        ],
        links_to_samples=view.top_samples(first, last, "length", k=5),
    )


def _paying_component(view: RunView, length: Curve, first: int, last: int) -> tuple[str, float, float, float] | None:
    """The non-correctness reward component that rose most in step with the length over
    [first, last] (correlation at least 0.8): (name, level before, level after, correlation)."""
    keep = (length.steps >= first) & (length.steps <= last)
    at, x = length.steps[keep], length.values[keep]
    if at.size < 20:
        return None
    best = None
    for name in view.components():
        if CORRECTNESS.search(name):
            continue
        y = view.component(name)[np.isin(view.step, at)]
        ok = np.isfinite(y)
        if ok.sum() < 20 or np.std(y[ok]) == 0 or np.std(x[ok]) == 0:
            continue
        r = float(np.corrcoef(x[ok], y[ok])[0, 1])
        head, tail = y[ok][: ok.sum() // 5], y[ok][-(ok.sum() // 5):]
        before, after = float(np.median(head)), float(np.median(tail))
        if r >= 0.8 and after > before and (best is None or r > best[3]):
            best = (name, before, after, r)
    return best


@detector("LENGTH_COLLAPSE", defaults={"drop_ratio": 0.5, "exit_ratio": 0.6, "critical_ratio": 0.2, "empty_length": 2.0,
                                        **_WINDOWS})
def length_collapse(view: RunView, cfg: Mapping[str, Any]) -> Finding | None:
    """Mean completion length falls to a fraction of its recent level and stays there.

    Meaning: The policy has stopped reasoning — bare answers or empty completions,
    often because a length penalty or a per-token loss rewards brevity, or because it found
    that a short degenerate output scores. Accuracy usually follows it down.

    Metrics: `length_mean` (TRL's `completions/mean_length`); samples' `length`.

    Rule: Smoothed length (trailing median over `smooth_window` steps) divided by its
    reference (median of the `baseline_window` steps that ended `gap` steps earlier) falls
    to `drop_ratio` and stays below `exit_ratio` (hysteresis) for `sustain` steps (until the
    run has that much history, its opening level is the reference); a fall from a length that
    had exploded (twice or more one it held before) is measured against that earlier length,
    so the way back from an explosion is not a collapse. The onset is where the
    centred median last sat at the reference. Critical when the held
    length is `critical_ratio` of the reference or less — unless the reward clearly rose since
    the onset (by 3× its step noise) and the held length is above `empty_length` tokens: then
    short answers are what the reward pays for, which is learning when brevity is the goal
    (refusals, terse answers) and a reward paying for it when not; a warning says which to check.
    An episode that ended (the smoothed curve back within the noise band of its earlier level,
    out of the episode, for `sustain` steps or more to the run's end) is at most warn and names
    the step it came back: severity says the state at the run's end.

    Actions: Read the linked shortest samples; check length penalties and the reward for
    empty/short answers; with `loss_type="grpo"` (per-sequence normalisation) short wrong
    answers are penalised less — try `"dr_grpo"` or `"dapo"`; lower `learning_rate`.

    Source: "Understanding R1-Zero-Like Training" (Dr. GRPO, Liu et al., 2025) — the length
    bias of per-sequence loss normalisation; TRL GRPO `loss_type` documentation.

    Keys:
    drop_ratio: length at or below this fraction of its reference starts a collapse
    exit_ratio: the collapse lasts until length is back above this fraction
    critical_ratio: critical when the held length is at or below this fraction
    empty_length: a held length at or below this many tokens is empty answers (critical even when they pay)
    smooth_window: trailing median window (steps) that de-noises the curve
    baseline_window: steps in the reference window
    gap: steps between the reference window and the present
    sustain: consecutive steps the drop must hold
    """
    curve = logged(view, *LENGTH_METRICS)
    if curve is None or not long_enough(curve.steps) or curve.values.min() <= 0:
        return None
    name, steps = curve.name, curve.steps
    w = Windows.of(curve, cfg)
    shift = relative_change(curve, w, cfg["drop_ratio"], cfg["exit_ratio"], rising=False)
    if shift is None:
        return None
    ratio = shift.ratio
    first, last = int(steps[shift.onset]), int(steps[-1])
    progress = reward_progress(view, first)
    pays = progress is not None and progress.rose and shift.observed > cfg["empty_length"]
    verdict = (f" The reward rose as it fell ({progress.start:.3g} at the onset, {progress.end:.3g} now): short "
               "answers are what the reward pays for. If brevity is the goal (refusals, terse answers) that is "
               "learning; if not, the reward pays for saying less — read the shortest samples."
               if pays and progress is not None else
               " The answers are (nearly) empty." if shift.observed <= cfg["empty_length"] else
               " The policy is no longer reasoning.")
    judgement = decide(view, "LENGTH_COLLAPSE", first, strong=ratio <= cfg["critical_ratio"] and not pays,
                       cap=shift.capped("critical"))
    return Finding(
        signature_id="LENGTH_COLLAPSE",
        severity=judgement.severity,
        confidence=confidence_from(np.log(cfg["drop_ratio"] / max(ratio, 1e-6)), 0.7, floor=0.55),
        first_step=first,
        explanation=(f"Mean completion length fell from {shift.baseline:.0f} to {shift.observed:.0f} tokens "
                     f"({percent(ratio)}) starting at step {first}." + verdict + shift.recovery(steps)
                     + judgement.why),
        evidence=[shift.evidence(name, first, last, rising=False)]
        + ([progress.evidence(first, last)] if pays and progress is not None else []),
        suggested_actions=[
            "Read the linked shortest samples; check length penalties and what the reward gives short answers.",
            "With `loss_type=\"grpo\"`, short wrong answers are under-penalised: try `\"dr_grpo\"` or `\"dapo\"`.",
            "Lower `learning_rate`; resume from a checkpoint before the onset if accuracy fell with it.",
        ],
        links_to_samples=view.top_samples(first, last, "length", k=5, descending=False),
    )


@detector("TRUNCATION_HIGH", defaults={"warn_level": 0.25, "critical_level": 0.9, "exit_fraction": 0.8,
                                       "noise_entropy": 2.0, "smooth_window": 9, "baseline_window": 100, "gap": 50,
                                       "sustain": 10})
def truncation_high(view: RunView, cfg: Mapping[str, Any]) -> Finding | None:
    """A large share of completions is cut off by the token budget, for many steps.

    Meaning: Truncated completions rarely reach an answer, so they earn little reward
    (or are masked out entirely with `mask_truncated_completions`); at ≥ 99 % every
    completion is truncated and training does nothing. Either the budget is too small
    for the task or the policy is rambling/looping.

    Metrics: `truncated_frac` (TRL's `completions/clipped_ratio`); samples' `truncated` and
    `length`.

    Rule: The smoothed share (trailing median over `smooth_window` steps) reaches
    `warn_level` and stays above `exit_fraction` × `warn_level` (hysteresis) for `sustain`
    steps. This is an absolute level — the share has a fixed meaning, so the onset is where
    the centred median crossed `warn_level` (a slow rise towards it is not yet the finding).
    Its earlier level (median of the `baseline_window` steps that ended `gap` steps before
    the detection) is quoted as the baseline. Critical when the level held for
    `sustain` steps reaches `critical_level`; info when the episode ended for good (the share back
    under `exit_fraction` × `warn_level`, as long again as it lasted, and not back since; one that left
    and came back lasts to its last exit). The
    explanation names the cause the curves show: lengths that grew into the budget (×1.5 or more),
    or a per-token entropy of
    `noise_entropy` nats or more over the episode — completions that are noise (a fluent
    policy samples well under 1 nat a token) run to any budget.

    Actions: Raise `max_completion_length` if the linked truncated samples are reasoning
    well; otherwise penalise overlong output (DAPO overlong shaping) and set
    `mask_truncated_completions=True` so cut-off text does not teach the policy; look for
    repetition in the samples.

    Source: TRL GRPO documentation (`completions/clipped_ratio`,
    `mask_truncated_completions`); DAPO (Yu et al., 2025) — overlong filtering and shaping.

    Keys:
    warn_level: smoothed truncated share at or above this starts a finding
    critical_level: critical when the share held for `sustain` steps reaches this
    exit_fraction: the finding lasts until the share is below this fraction of warn_level
    noise_entropy: per-token entropy (nats) at or above which the truncated completions are noise
    smooth_window: trailing median window (steps) that de-noises the curve
    baseline_window: steps in the reference window for the onset
    gap: steps between the reference window and the detection
    sustain: consecutive steps the share must hold
    """
    curve = facts_of(view).truncation
    if curve is None or curve.size < 10:
        return None
    name, steps, x = curve.name, curve.steps, curve.values
    w = Windows.of(curve, cfg)
    level = curve.smooth(w.smooth)
    state = hysteresis(level >= cfg["warn_level"], level >= cfg["exit_fraction"] * cfg["warn_level"])
    hit = sustained_onset(state, w.sustain)
    if hit is None:
        return None
    ref = curve.reference(w)
    baseline = float(ref[hit]) if np.isfinite(ref[hit]) else float(np.nanmin(level[:hit + 1]))
    lo = max(0, hit - w.gap - w.baseline)
    # The share has a fixed meaning, so the finding dates from where it reached the level that
    # makes it one (the centred median's crossing of `warn_level`), not from the first step of a
    # slow rise towards it.
    onset = onset_before(x, hit, cfg["warn_level"], 0.0, True, lo, w.smooth)
    observed = held_extreme(level, hit, w.sustain, rising=True)
    if baseline >= cfg["warn_level"] and not (x[:hit + 1] < cfg["exit_fraction"] * cfg["warn_level"]).any():
        onset = 0  # cut off from the run's first step: no rise to date
    from_start = onset == 0 and baseline >= cfg["warn_level"]
    first, last = int(steps[onset]), int(steps[-1])
    budget = facts_of(view).budget
    masked = bool((view.manifest.get("trainer_config") or {}).get("mask_truncated_completions"))
    budget_text = f" at the {budget:g}-token budget" if budget else ""
    grew = _length_growth(view, first, last, w.baseline)
    entropy = episode_median(view, ENTROPY_METRICS, first, last)
    noise = entropy is not None and entropy >= cfg["noise_entropy"]
    cause = (f" Mean length grew from {grew[0]:.0f} to {grew[1]:.0f} tokens meanwhile: the policy is running into "
             "the budget (see LENGTH_EXPLOSION), not the budget being too small." if grew else
             f" Entropy was {entropy:.2g} nats per token meanwhile (a fluent policy samples well under 1): the "
             "completions are noise that runs to any budget — a broken starting model or a destroyed policy, "
             "not a budget too small." if noise else "")
    # An episode that ended for good (recovered vs ongoing, decided once: ``ended_for_good``) harms no more.
    back = ended_for_good(state, hit, w.sustain)
    came_back = "" if back is None else (f" It came back under {cfg['exit_fraction'] * cfg['warn_level']:.0%} at "
                                         f"step {int(steps[back])} and stayed there: an episode that ended.")
    judgement = decide(view, "TRUNCATION_HIGH", first, strong=observed >= cfg["critical_level"], benign=came_back)
    return Finding(
        signature_id="TRUNCATION_HIGH",
        # Completions cut at the budget are degenerate output: the harm is the symptom itself.
        severity=judgement.severity,
        confidence=confidence_from((observed - cfg["warn_level"]) / max(1 - cfg["warn_level"], 1e-6), 0.3,
                                   floor=0.6),
        first_step=first,
        explanation=(f"{observed:.0%} of completions were cut off{budget_text} "
                     + (f"from the first logged step ({first}); " if from_start else
                        f"(up from {baseline:.0%}), starting at step {first}; ")
                     + "truncated completions "
                     + ("are masked out of the loss, so this share of the batch teaches nothing."
                        if masked else "rarely reach an answer and still shape the policy.") + cause
                     + judgement.why),
        evidence=[Evidence(metric=name, window=(first, last), baseline=baseline, observed=observed,
                           note=f"highest share held for {w.sustain} steps (rolling median over {w.smooth})")],
        suggested_actions=[
            "If the linked truncated samples reason well, raise `max_completion_length`.",
            "Otherwise penalise overlong output (DAPO overlong shaping) and set `mask_truncated_completions=True`.",
            "Check the truncated samples for loops or repetition: that is a policy problem, not a budget problem.",
        ],
        links_to_samples=_truncated_samples(view, first, last),
    )


def _length_growth(view: RunView, first: int, last: int, window: int) -> tuple[float, float] | None:
    """(before, after) mean lengths when the length grew ×1.5 or more into a truncation
    episode: the lower median of the two ``window``-step stretches before ``first`` (the
    growth may have begun before the truncation did), and the median of ``first`` to ``last``."""
    curve = logged(view, *LENGTH_METRICS)
    if curve is None:
        return None
    earlier = curve.values[curve.steps < first]
    candidates = (finite_median(earlier[-window:]), finite_median(earlier[-2 * window:-window]))
    medians = [m for m in candidates if m is not None and m > 0]
    after = finite_median(curve.values[(curve.steps >= first) & (curve.steps <= last)])
    if not medians or after is None or after < 1.5 * min(medians):
        return None
    return min(medians), after


def _truncated_samples(view: RunView, first: int, last: int, k: int = 5) -> list[str]:
    window = view.samples_between(first, last)
    if window.is_empty() or "truncated" not in window.columns:
        return []
    cut = window.filter(pl.col("truncated").fill_null(False))
    return cut.sort("length", descending=True, nulls_last=True).head(k)["sample_id"].to_list()
