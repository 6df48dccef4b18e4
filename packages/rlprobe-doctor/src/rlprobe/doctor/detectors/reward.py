"""The reward: a collapse (learning undone), a plateau (the learning signal dried up) and
hacking (a cheap component rises while correctness falls). A rising reward is the healthy
case; every rule here compares the reward with its own recent past."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import polars as pl

from ..catalog import detector
from ..facts.groups import (
    CORRECTNESS,
    component,
    flat_groups,
    group_size,
    latter_half,
    samples_with,
    zero_std_metric,
)
from ..facts.metrics import REWARD_METRICS
from ..facts.run import budget_capped, converged_by_reward, facts_of, solved_by_level
from ..facts.severity import agreement_by_chance, decide, logged_agreement
from ..findings import Evidence, Finding
from ..toolkit import (
    Curve,
    Windows,
    centred_median,
    confidence_from,
    fall_reference,
    finite_median,
    held_extreme,
    hysteresis,
    in_points,
    level_change,
    level_noise,
    logged,
    long_enough,
    onset_before,
    opening_reference,
    refine_onset,
    rolling_mean,
    rolling_median,
    rolling_trend_t,
    shift,
    smoothed_noise,
    sustained_onset,
    trend_t,
    with_opening,
)
from ..view import RunView

#: Changes smaller than this are no change at all (flat curves have zero noise).
_TINY = 1e-9
#: A reward whose trend over a plateau window stands fewer standard errors than this above flat has not risen
#: (chosen on the tune half: at 2, a healthy run sampled at 0.6 read as flat).
_FLAT_T = 1.0
#: ... and one whose trend over the whole plateau stands this many above flat is still rising (the tune half's
#: gap: plateaus 0.77, a healthy run learning unevenly 2.46).
_RISING_T = 1.5
#: Optimizer steps on each side of a step change (``sudden_fall``).
_STEP_SPAN = 5
#: Share of a fall between two adjacent ``_STEP_SPAN`` medians that makes it a step change.
STEP_SHARE = 0.6
#: ... provided that jump also stands this many of its noise standard deviations out.
_STEP_Z = 4.0


def sudden_fall(x: np.ndarray, steps: np.ndarray, lo: int, hi: int, fall: float, share: float = STEP_SHARE) -> bool:
    """Whether at least ``share`` of a fall of size ``fall`` happened at once, by a jump that
    noise cannot explain: between the medians of the ``_STEP_SPAN`` steps before and after
    a boundary in ``[lo, hi]``. Logged every k-th step, each side is at least one logged
    value and the logged value that straddles the boundary is skipped."""
    stride = float(np.median(np.diff(steps))) if steps.size > 1 else 1.0
    k = max(1, int(round(_STEP_SPAN / stride)))
    skip = 0 if stride <= 1 else 1
    m = rolling_median(x, k, k)
    p = np.arange(max(lo, k), min(hi, x.size - k - skip) + 1)
    if not p.size or fall <= 0:
        return False
    jumps = m[p - 1] - m[p + skip + k - 1]
    jumps = jumps[np.isfinite(jumps)]
    if not jumps.size:
        return False
    # Noise where the fall happened: a rate's noise depends on its level, and the flat curve
    # after a fall to 0 has none.
    jump_noise = level_noise(x, max(0, lo - 10 * k), hi) * (1.25 if k > 1 else 1.0) * np.sqrt(2.0 / k)
    return bool(jumps.max() >= max(share * fall, _STEP_Z * jump_noise))


@detector("REWARD_COLLAPSE", defaults={"drop_fraction": 0.3, "critical_fraction": 0.6, "min_z": 5.0,
                                       "best_z": 4.0, "smooth_window": 15, "baseline_window": 100, "gap": 50,
                                       "sustain": 20})
def reward_collapse(view: RunView, cfg: Mapping[str, Any]) -> Finding | None:
    """The reward falls well below its own recent level and stays down.

    Meaning: What the run had learnt is being undone — typically after an instability
    (KL or entropy blow-up, a learning-rate spike) or a broken reward/data pipeline.

    Metrics: `reward_mean` (TRL's `reward`; for PPO `objective/scores`); samples' `reward`.

    Rule: The smoothed reward (trailing median over `smooth_window` steps) falls below its
    reference (median of the `baseline_window` steps that ended `gap` steps earlier) by at
    least `drop_fraction` of the reward's scale — the larger of |reference| and the gain
    since the run's start — and by at least `min_z` times the noise of the smoothed curve,
    and stays at least ¾ as far down (hysteresis) for `sustain` steps. The onset is where
    the centred median last sat at the reference. A trailing reference follows a slow, noisy
    fall down (a few noisy logged values, each the mean of a handful of completions), so the
    run's end is also held against its best: the mean of its last tenth below the best mean
    a tenth of the run held earlier by `drop_fraction` of the scale and by `best_z` standard
    errors of the two means (the step noise from first differences, not a robust one: a
    quantised reward's spread is all of it), the tenth's mean `drop_fraction` of the scale down
    for `sustain` steps to the end; the onset is then where the centred median last sat at that
    best level. Critical when the drop held afterwards
    reaches `critical_fraction` of the scale.
    An episode that ended (the smoothed curve back within the noise band of its earlier level,
    out of the episode, for `sustain` steps or more to the run's end) is at most warn and names
    the step it came back: severity says the state at the run's end.

    Actions: Compare with the first failing signature (KL, entropy, grad norm) — it is
    usually the cause; lower `learning_rate` and `max_grad_norm`; raise `beta`; check the
    reward functions and the data on the linked lowest-reward samples; resume from a
    checkpoint before the onset.

    Source: Common GRPO/PPO failure reports; TRL GRPO documentation (logged `reward`).

    Keys:
    drop_fraction: drop, as a fraction of the reward's scale, that starts a collapse
    critical_fraction: critical when the held drop reaches this fraction of the scale
    min_z: the drop must also exceed this many noise standard deviations
    best_z: a fall of the last tenth's mean from the best tenth's must exceed this many standard errors
    smooth_window: trailing median window (steps) that de-noises the curve
    baseline_window: steps in the reference window
    gap: steps between the reference window and the present
    sustain: consecutive steps the drop must hold
    """
    curve = logged(view, *REWARD_METRICS)
    if curve is None or not long_enough(curve.steps, 30):
        return None
    name, steps, x = curve.name, curve.steps, curve.values
    w = Windows.of(curve, cfg)
    ref = opening_reference(curve, w)
    start_level = float(np.nanmedian(x[:max(3, w.baseline)]))
    scale = np.maximum(np.abs(ref), ref - start_level)
    noise = smoothed_noise(x, 0, x.size, w.smooth)
    # A reward at 0 from the start has neither scale nor noise: a fall must still be a fall.
    need = np.maximum(np.maximum(cfg["drop_fraction"] * scale, cfg["min_z"] * noise), _TINY)
    change = level_change(curve, w, ref - need, ref - 0.75 * need, False, ref,
                          band_floor=np.maximum(3 * noise, 0.05 * scale), refine=False)
    if change is not None:
        hit, onset, baseline, observed = change.hit, change.onset, change.baseline, change.observed
        held, reference = float(scale[hit]), (
            f"median of {w.baseline} steps ending {w.gap} steps before; observed: lowest level held for {w.sustain} "
            "steps")
    else:
        fell = _fall_from_best(curve, w, cfg["drop_fraction"], cfg["best_z"], start_level)
        if fell is None:
            return None
        hit, onset, baseline, observed, held, noise = fell
        reference = f"mean of the best {_tenth(x.size)} logged values before the fall; observed: of the last as many"
    lost = (baseline - observed) / max(held, 1e-12)
    first, last = int(steps[onset]), int(steps[-1])
    sudden = ""
    if sudden_fall(x, steps, max(0, onset - w.smooth), hit + w.sustain, baseline - observed):
        sudden = (f" Most of the drop came within about {2 * _STEP_SPAN} steps, faster than training normally "
                  "moves a policy: unless another finding (non-finite values, a learning-rate jump) explains it, "
                  "the reward functions or the data changed there.")
    return Finding(
        signature_id="REWARD_COLLAPSE",
        # A reward that fell is the objective's harm itself; once it came back, the episode is over.
        # The fall from the best is measured at the run's end: it is ongoing, its ceiling not lowered.
        severity=decide(view, "REWARD_COLLAPSE", first, strong=lost >= cfg["critical_fraction"],
                        cap=change.capped("critical") if change is not None else "critical").severity,
        confidence=confidence_from(lost / cfg["drop_fraction"] - 1.0, 1.0, floor=0.55),
        first_step=first,
        explanation=(f"The reward fell from {baseline:.3g} to {observed:.3g} starting at step {first} "
                     f"({lost:.0%} of its scale, {(baseline - observed) / max(noise, 1e-12):.0f}× its noise) and "
                     f"stayed down for at least {w.sustain} steps.{sudden}"
                     + (change.recovery(steps) if change is not None else "")),
        evidence=[Evidence(metric=name, window=(first, last), baseline=baseline, observed=observed,
                           note=f"reference: {reference}; scale {held:.3g}")],
        suggested_actions=[
            "Look for an earlier KL, entropy or grad-norm finding: it is usually the cause of the collapse.",
            "Lower `learning_rate` and `max_grad_norm`; raise the KL penalty `beta` to anchor the policy.",
            "Check the reward functions and data on the linked lowest-reward samples; resume from a checkpoint "
            "before the onset.",
        ],
        links_to_samples=view.top_samples(first, last, "reward", k=5, descending=False),
    )


def _tenth(n: int) -> int:
    """Logged values in a tenth of a run of ``n`` (3 at least): the span the best and the last level are means over."""
    return max(3, n // 10)


def _fall_from_best(curve: Curve, w: Windows, drop_fraction: float, z: float,
                    start_level: float) -> tuple[int, int, float, float, float, float] | None:
    """``(hit, onset, best, end, scale, noise of a tenth's mean)`` when the run ends fallen from its best:
    the mean of its last tenth below the best mean a tenth held before it by ``drop_fraction`` of the
    scale (the larger of |best| and the gain from ``start_level``) and by ``z`` standard errors of the
    two means, and down by that fraction since ``hit`` (``w.sustain`` logged values at least). None
    otherwise."""
    x = curve.values
    k = _tenth(x.size)
    means = rolling_mean(x, k, k)
    if x.size < 3 * k or not np.isfinite(means[-1]):
        return None
    before = means[:x.size - k]
    if not np.isfinite(before).any():
        return None
    best_at = int(np.nanargmax(before))
    best, end = float(before[best_at]), float(np.nanmean(x[-k:]))
    scale = max(abs(best), best - start_level)
    step_noise = float(np.std(np.diff(x[np.isfinite(x)]))) / np.sqrt(2.0)
    need = max(drop_fraction * scale, z * step_noise * np.sqrt(2.0 / k), _TINY)
    if best - end < need:
        return None
    # Down from ``hit`` on: the tenth's mean a fraction of the scale under the best to the end (the end's
    # distance from the best, measured above, is what makes the fall more than noise).
    with np.errstate(invalid="ignore"):
        down = np.flip(np.cumprod(np.flip(means <= best - max(drop_fraction * scale, _TINY)))).astype(bool)
    hits = np.flatnonzero(down & (np.arange(x.size) > best_at))
    if not hits.size or x.size - int(hits[0]) < w.sustain:
        return None
    hit = int(hits[0])
    lo = max(0, best_at - k + 1)
    band = max(4.0 * smoothed_noise(x, lo, hit, w.smooth), 0.05 * abs(best))
    return hit, onset_before(x, hit, best, band, False, lo, w.smooth), best, end, scale, step_noise / np.sqrt(k)


#: Share of a plateau's agreeing groups at their prompt's best that makes it convergence, not a signal dried up
#: short of the goal. Lower than ``CONVERGED_SHARE`` (whether copies are right answers): a run that solved two
#: thirds of its prompts and cannot learn the rest has converged on what it can learn. Chosen on the corpus's
#: tune half: real plateaus hold at most 0.50 of their agreeing groups solved (drawn ones 0.63), runs labelled
#: healthy that converged on most of their prompts 0.68 and more.
PLATEAU_CONVERGED = 0.65


@detector("REWARD_PLATEAU", defaults={"flat_fraction": 0.05, "zero_std_level": 0.6, "plateau_window": 150,
                                      "smooth_window": 25, "sustain": 50, "converged_share": PLATEAU_CONVERGED,
                                      "lr_stop_fraction": 0.01, "lr_stop_share": 0.1})
def reward_plateau(view: RunView, cfg: Mapping[str, Any]) -> Finding | None:
    """The reward stops improving because the learning signal has dried up.

    Meaning: Most prompt groups now get identical rewards (all right or all wrong), so
    group-normalised advantages are zero and updates carry no signal: more steps will not
    help. A reward that merely levels off while groups still disagree is the normal end
    of learning and is not reported, nor is a plateau at the top reward (every group solved:
    the run has converged, which ZERO_ADVANTAGE_GROUPS reports as info; or every group games
    a cheap reward, which REWARD_HACKING reports), nor a reward that ends below where it opened
    (it collapsed: REWARD_COLLAPSE), nor groups that agree because the token budget cuts their
    completions (TRUNCATION_HIGH). The signal is just as
    dry when the learning rate has reached zero long before the run ends (a scheduler
    whose horizon is shorter than the run): updates then change nothing.

    Metrics: `reward_mean` (TRL's `reward`) and `frac_reward_zero_std` (share of groups with
    identical rewards), or `learning_rate`; samples' `reward` and `advantage` for the
    linked examples.

    Rule: Over the last `plateau_window` steps the smoothed reward (trailing median over
    `smooth_window` steps) gained less than `flat_fraction` of its scale (|level|, at
    least the reward's spread) — or its logged values show no rise their own noise would not
    give (their trend over the window under one standard error above flat: a noisy reward's
    smoothed level wanders further than a plateau gains) — while the smoothed `frac_reward_zero_std` is at or above
    `zero_std_level`, more than a pass/fail reward paying at random at its rate makes groups agree
    (two completions agree half the time: ``agreement_by_chance``, from the pooled pass rate); both
    hold for `sustain` steps, and fewer than `converged_share` of
    the captured zero-variance groups earned their prompt's best reward (without samples: the
    groups did not come to agree as the reward rose and kept its rise, or they agree where the
    reward's level puts fewer than `converged_share` of them at the top of its logged range:
    half the prompts solved holds the reward half-way up). The windows are steps
    (at most a quarter, a tenth and an eighth of the run), counted in logged values by the
    logging stride; with few groups a logged value the reward's level is a trailing mean over
    as many values as hold about 20 groups (a quantised reward's median holds while its mean
    rises). A plateau that ended before the run did (the groups disagree again, or the reward
    moved) is none, and so is one over which the reward still rises (its trend from the onset
    to the run's end 1.5 standard errors above flat or more: slow, noisy learning); a later stretch,
    after the reward left that one, is still searched: a reward that rose to a level it then held.
    The onset is the later of where the reward reached its plateau and where the zero-variance
    share started climbing. Or:
    `learning_rate` has stayed at or below `lr_stop_fraction` of its peak from some step
    to the last, for at least `plateau_window` steps and `lr_stop_share` of the run (the
    decay to zero that linear and cosine schedules end with is shorter); the onset is the
    step it got there.

    Actions: Harder or more varied prompts (filter out prompts every completion solves or
    fails); more completions per prompt (`num_generations`) or a higher `temperature` so
    groups disagree; DAPO-style dynamic sampling; check `scale_rewards` and reward
    granularity (partial credit gives variance). For a learning rate at zero: check
    `lr_scheduler_type`, `max_steps`/`num_train_epochs` and a resumed scheduler's state.

    Source: TRL GRPO documentation (`frac_reward_zero_std`); DAPO (Yu et al., 2025) —
    dynamic sampling removes groups with zero reward variance; Transformers' learning-rate
    schedulers (decay to zero over the scheduled steps).

    Keys:
    flat_fraction: a gain below this fraction of the reward's scale counts as flat
    zero_std_level: smoothed frac_reward_zero_std at or above this means no signal
    plateau_window: steps over which the reward must not have improved
    smooth_window: trailing median window (steps) for both curves
    sustain: consecutive steps both conditions must hold
    converged_share: share of zero-variance groups at their prompt's best reward that makes a plateau convergence
    lr_stop_fraction: a learning rate at or below this fraction of its peak has stopped learning
    lr_stop_share: share of the run the stopped learning rate must last
    """
    curve = logged(view, *REWARD_METRICS)
    if curve is None or not long_enough(curve.steps, 60):
        return None
    zero_std = facts_of(view).zero_std
    found = _dry_plateau(view, cfg, curve, *zero_std) if zero_std is not None else None
    return found or _learning_stopped(view, cfg, curve)


def _learning_stopped(view: RunView, cfg: Mapping[str, Any], curve: Curve) -> Finding | None:
    """The learning rate sat at (near) zero from some step to the end, for a long stretch."""
    lr = logged(view, "learning_rate")
    if lr is None or lr.size < 20:
        return None
    peak = np.fmax.accumulate(lr.values)
    stopped = (peak > 0) & (lr.values <= cfg["lr_stop_fraction"] * peak)
    if not stopped[-1]:
        return None
    moving = np.flatnonzero(~stopped)
    start = int(moving[-1]) + 1 if moving.size else 0
    first, last = int(lr.steps[start]), int(lr.steps[-1])
    length, total = last - first + 1, last - int(lr.steps[0]) + 1
    share = length / max(total, 1)
    if length < cfg["plateau_window"] or share < cfg["lr_stop_share"]:
        return None
    after = curve.values[curve.steps >= first]
    before = curve.values[curve.steps < first]
    plateau = finite_median(after, float("nan"))
    previous = finite_median(before[-cfg["plateau_window"]:], float("nan"))
    top = float(peak[-1])
    return Finding(
        signature_id="REWARD_PLATEAU",
        severity="warn",
        confidence=confidence_from(share / cfg["lr_stop_share"] - 1.0, 2.0, floor=0.6, ceiling=0.95),
        first_step=first,
        explanation=(f"The learning rate fell to {float(lr.values[start]):.3g} (≤{cfg['lr_stop_fraction']:.0%} of its "
                     f"peak {top:.3g}) at step {first} and stayed there for the last {length} steps ({share:.0%} of "
                     f"the run): updates no longer change the policy, and the reward has stayed near {plateau:.3g} "
                     f"since (it was {previous:.3g} before)."),
        evidence=[Evidence(metric=lr.name, window=(first, last), baseline=top, observed=float(lr.values[-1]),
                           note="baseline: the peak learning rate; observed: the last one"),
                  Evidence(metric=curve.name, window=(first, last), baseline=previous, observed=plateau,
                           note=f"medians of the {cfg['plateau_window']} steps before and of the steps since")],
        suggested_actions=[
            "Check the scheduler's horizon: `lr_scheduler_type`, `max_steps` / `num_train_epochs` and `warmup_steps` "
            "should schedule the steps the run actually takes.",
            "A resumed run restores the old scheduler state: pass the new schedule or reset it.",
            "Stop the run if the reward is where you want it: the remaining steps change nothing.",
        ],
        links_to_samples=view.top_samples(first, last, "reward", k=5, descending=False),
    )


def _dry_plateau(view: RunView, cfg: Mapping[str, Any], curve: Curve, zero_std: np.ndarray,
                 averaged: int) -> Finding | None:
    """A flat reward while most groups have identical rewards (``zero_std``: their share, per step of
    the run, a mean over ``averaged`` logged values when each holds few groups), short of convergence."""
    name, steps, x = curve.name, curve.steps, curve.values
    n = curve.size
    # Windows in steps, fitted to the run's span (a quarter, a tenth, an eighth), then in logged points.
    span = n * curve.stride
    window = max(5, in_points(min(cfg["plateau_window"], span // 4), curve.stride))
    smooth = max(3, in_points(min(cfg["smooth_window"], span // 10), curve.stride))
    sustain = max(3, in_points(min(cfg["sustain"], span // 8), curve.stride))
    zero = zero_std[np.isin(view.step, steps)]
    # With few groups a logged value the reward is quantised as the share is (two completions average to
    # 0.2, 0.7 or 1.2): its median holds at one of those while its mean rises, so its level is the mean
    # over as many logged values as the share's.
    level = curve.smooth(smooth) if averaged <= 1 else rolling_mean(x, max(smooth, averaged), max(1, smooth // 3))
    zero_level = rolling_median(zero, smooth, max(1, smooth // 3))
    before = np.full_like(level, np.nan)
    before[window:] = level[:-window]
    spread = np.nanpercentile(level, 90) - np.nanpercentile(level, 10) if np.isfinite(level).any() else 0.0
    scale = np.maximum(np.abs(level), spread)
    # Flat: the level gained little over the window, or the logged values over it show no rise beyond what
    # their own noise gives (a noisy reward's smoothed level wanders further than a plateau gains).
    with np.errstate(invalid="ignore"):
        flat = ((level - before) < cfg["flat_fraction"] * scale) | (rolling_trend_t(x, window) < _FLAT_T)
    dry = zero_level >= cfg["zero_std_level"]
    state = hysteresis(flat & dry, flat & (zero_level >= 0.85 * cfg["zero_std_level"]))
    if not state[-sustain:].any():
        return None  # none, or it ended: the reward moved again or the groups disagree again since
    start = 0
    while True:
        found = sustained_onset(state[start:], sustain)
        if found is None:
            return None
        hit = start + found
        plateau = float(np.nanmedian(level[hit:hit + sustain]))
        noise = smoothed_noise(x, max(0, hit - window), hit, smooth)
        tol = max(3 * noise, 2 * cfg["flat_fraction"] * float(scale[hit]))
        lo = max(0, hit - 4 * window)
        centred = centred_median(x[lo:hit + smooth], smooth)[:hit + 1 - lo]
        below = np.flatnonzero(centred < plateau - tol)
        reached = lo + int(below[-1]) + 1 if below.size else lo  # where the rising reward arrived at its plateau
        # The zero-variance share before it started climbing: the window before it was last at half the level.
        low = np.flatnonzero(zero_level[:hit + 1] < 0.5 * cfg["zero_std_level"])
        cross = int(low[-1]) if low.size else hit
        zero_ref = finite_median(zero[max(0, cross - window):max(1, cross - smooth)], 0.0)
        zero_noise = smoothed_noise(zero, max(0, cross - window), cross, smooth)
        climbing = onset_before(zero, hit, zero_ref, max(3 * zero_noise, 0.05), True, lo, smooth)
        climbing = refine_onset(zero, hit, climbing, True, lo, smooth, window)
        onset = min(hit, max(reached, climbing))
        if trend_t(steps[onset:].astype(float), x[onset:]) < _RISING_T:
            break
        # Over the rest of the run the reward still rises beyond its noise from there: slow learning, not a
        # plateau. A later stretch may still be one: the reward rose to a level it then held.
        out = np.flatnonzero(~state[hit:])
        if not out.size:
            return None
        start = hit + int(out[0])
    first, last = int(steps[onset]), int(steps[-1])
    agreeing = logged_agreement(view)
    chance = None if agreeing is None else agreement_by_chance(
        view, agreeing[0], view.step, first, last, per_step=agreeing[1], groups_per_value=agreeing[2],
        completions=group_size(view, samples_with(view, "group_id")), by_prompt=False)
    if chance is not None and chance.explains:
        return None  # groups agree no more often than a pass/fail reward paying at random at its rate makes them
    groups = flat_groups(view, *latter_half(first, last))
    at_top = solved_by_level(view, first, last) if groups is None else None
    if groups is None and converged_by_reward(view, first, last, cfg["zero_std_level"]) is not None \
            and (at_top is None or at_top >= cfg["converged_share"]):
        # Without samples, groups that came to agree as the reward rose and kept its rise, at a level near the
        # top the reward reached: solved. Agreeing at half its range, half of them fail: a plateau.
        return None
    if groups is not None and groups.solved >= cfg["converged_share"]:
        # A plateau at the top reward: every group solved (the run converged) or gaming a cheap
        # reward (REWARD_HACKING's business). Neither is a signal that dried up short of the goal.
        return None
    if budget_capped(view, groups, first, last) is not None:
        return None  # groups agree because the budget cuts their completions: TRUNCATION_HIGH's business
    progress = facts_of(view).progress
    if progress is not None and progress.fell:
        return None  # a reward that ends below where it opened collapsed: REWARD_COLLAPSE's business
    dry_share = finite_median(zero_level[hit:], cfg["zero_std_level"])
    return Finding(
        signature_id="REWARD_PLATEAU",
        severity="warn",
        confidence=confidence_from(2 * (dry_share - cfg["zero_std_level"]) / max(1 - cfg["zero_std_level"], 1e-6),
                                   1.0, floor=0.5, ceiling=0.9),
        first_step=first,
        explanation=(f"The reward has stayed near {plateau:.3g} since step {first} while {dry_share:.0%} of prompt "
                     f"groups get identical rewards (zero advantage)"
                     + (f", up from {zero_ref:.0%}: the learning signal has dried up." if dry_share - zero_ref >= 0.05
                        else ", as many as before it: the learning signal is too thin to move it.")),
        evidence=[Evidence(metric=name, window=(first, last), baseline=float(level[max(0, hit - window)]),
                           observed=plateau,
                           note=f"gain over {window} steps below {cfg['flat_fraction']:.0%} of scale"),
                  Evidence(metric=zero_std_metric(view), window=(first, last), baseline=zero_ref, observed=dry_share,
                           note=f"rolling median over {smooth} steps")],
        suggested_actions=[
            "Filter out prompts that every completion solves (or fails); use harder or more varied prompts.",
            "Raise `num_generations` or `temperature` so completions of a prompt disagree; consider DAPO-style "
            "dynamic sampling.",
            "Give partial credit in the reward functions (and check `scale_rewards`) so groups have variance.",
        ],
        links_to_samples=view.top_samples(first, last, pl.col("advantage").abs(), k=5, descending=False),
    )


@detector("REWARD_HACKING", defaults={"drop_fraction": 0.15, "min_z": 4.0, "max_confidence": 0.6,
                                      "confirm_share": 0.5, "confirmed_confidence": 0.9, "critical_fall": 0.5,
                                      "step_share": STEP_SHARE, "trade_correlation": -0.3, "smooth_window": 25,
                                      "baseline_window": 100,
                                      "gap": 50, "sustain": 20})
def reward_hacking(view: RunView, cfg: Mapping[str, Any]) -> Finding | None:
    """A cheap reward component keeps rising while the correctness component falls.

    Meaning: The policy has found a way to earn reward without doing the task — typically
    format gaming (perfect tags, empty or wrong answers). The total reward can look fine.
    Judged from logged means only, this is an early warning: confidence stays modest
    (at most `max_confidence`) unless the captured samples confirm it.

    Metrics: Reward components `rewards/<name>/mean` (TRL); a component whose name looks
    like correctness (accuracy, correct, verifier, answer, math, pass, judge, score …) is
    the task; any other (format, tags, length …) is "cheap". Samples' `reward_components`.

    Rule: The correctness component's smoothed mean (trailing median over `smooth_window`
    steps) falls below its reference (median of the `baseline_window` steps that ended `gap`
    steps earlier) by at least `drop_fraction` of that reference and `min_z` noise standard
    deviations, while a cheap component rises above its own reference by at least `min_z`
    noise standard deviations; both hold (with hysteresis) for `sustain` steps. Without a
    correctness-like name, any falling/rising pair counts, at lower confidence; with one, a
    finding the samples do not confirm says that the task's component was chosen by its name
    alone (a last resort: the data did not show it). A fall that
    happens mostly at once (at least `step_share` of it between the medians of the 5 steps
    before and after some step, beyond what noise explains) is not learnt behaviour but a
    changed grader or data, and is left to REWARD_COLLAPSE — unless the captured samples since
    the fall show the policy trading one component for the other (the two components'
    Spearman correlation over the samples at or below `trade_correlation`: the completions
    that earn more of the cheap one score less on the task, whereas a grader change rescores
    the same completions), or, without samples, the cheap component's smoothed mean rose by
    `min_z` of its noise over the very stretch the task's fell (a grader change rescores the
    task alone; at a high learning rate a policy can trade within a log or two). Until the
    trailing reference has the history it needs, each component's opening level (median of its
    first `smooth_window` logged values) is its reference, so a hack in a short run's first steps
    is measured from where the policy started. Where the fall and the
    rise never hold together against these trailing references (a fall that outlasts `gap` steps is taken
    into its own reference), the correctness component's fall is measured instead from the highest
    reference it had since its level last sat above it (over `baseline_window` + `gap` steps at most):
    this decides only that it fell beside the rise, not where. The onset is the earlier
    of where the correctness component left its reference and where the cheap one did (each where it
    last sat within 3 noise deviations of it, the noise measured up to the detection, not over a gamed
    stretch pinned at its floor or ceiling). Confirmed when at least
    `confirm_share` of the captured samples since the detection earn the cheap component
    while scoring nothing on the correctness one: confidence may then reach
    `confirmed_confidence`, and the finding is critical once correctness fell by
    `critical_fall` of its reference.

    Actions: Read the linked samples (high cheap reward, zero correctness); lower the cheap
    component's weight (GRPOConfig `reward_weights`) or make it conditional on
    correctness; tighten the format check; add a KL anchor (`beta`).

    Source: TRL GRPO documentation (per-function `rewards/<name>/mean`); reward hacking and
    format gaming reports in GRPO replications (e.g. DeepSeek-R1 format rewards).

    Keys:
    drop_fraction: fall of the correctness component, as a fraction of its reference, that counts
    min_z: both the fall and the rise must exceed this many noise standard deviations
    max_confidence: cap on confidence for this metric-only signal
    confirm_share: share of recent captured samples that must show the gaming to confirm it
    confirmed_confidence: cap on confidence once the samples confirm it
    critical_fall: a confirmed fall of correctness by this fraction of its reference is critical
    step_share: share of the fall within about 10 steps that marks a grader or data change
    trade_correlation: sample correlation of the two components at or below which a sudden fall is learnt gaming
    smooth_window: trailing median window (steps) that de-noises each component
    baseline_window: steps in the reference window
    gap: steps between the reference window and the present
    sustain: consecutive steps the divergence must hold
    """
    names = view.components()
    if len(names) < 2:
        return None
    steps = view.step
    n = steps.size
    if not long_enough(steps, 60):
        return None
    w = Windows.of(Curve("steps", steps, np.zeros(n)), cfg)
    task = [c for c in names if CORRECTNESS.search(c)]
    named = bool(task) and len(task) < len(names)
    truth_candidates = task if named else names
    curves = {}
    for c in names:
        x = view.component(c)
        level = rolling_median(x, w.smooth, max(1, w.smooth // 3))
        ref = with_opening(x, shift(rolling_median(x, w.baseline, max(3, w.baseline // 2)), w.gap), w.smooth)
        noise = smoothed_noise(x, 0, n, w.smooth)
        curves[c] = (x, level, ref, noise)
    def first_pair(held: bool) -> tuple[int, str, str] | None:
        best: tuple[int, str, str] | None = None
        for truth in truth_candidates:
            x, level, ref, noise = curves[truth]
            if held:
                ref = fall_reference(level, ref, w.baseline + w.gap)
            # A fall must be a fall: a component flat at 0 (no noise, no level) never "falls by 0".
            need = np.maximum(np.maximum(cfg["drop_fraction"] * np.abs(ref), cfg["min_z"] * noise), _TINY)
            falling = hysteresis(ref - level >= need, ref - level >= 0.75 * need)
            for cheap in names:
                if cheap == truth or (named and cheap in task):
                    continue
                _, c_level, c_ref, c_noise = curves[cheap]
                rise = c_level - c_ref
                c_need = max(cfg["min_z"] * c_noise, _TINY)
                rising = hysteresis(rise >= c_need, rise >= 0.75 * c_need)
                hit = sustained_onset(falling & rising, w.sustain)
                if hit is not None and (best is None or hit < best[0]):
                    best = (hit, truth, cheap)
        return best

    # A fall and a rise seen together against the trailing references date the hack. Where they never overlap
    # there, the task component's fall is measured from the level it held before the fall began
    # (``fall_reference``): a trailing reference takes in a fall that lasts longer than ``gap`` steps, so a task
    # score that fell before (or while) the cheap component rose is never seen beside the rise. Only the
    # detection uses it; the onset is still walked back from the trailing reference.
    best = first_pair(False) or first_pair(True)
    if best is None:
        return None
    hit, truth, cheap = best
    x, level, ref, _ = curves[truth]
    cx, c_level, c_ref, _ = curves[cheap]
    lo = max(0, hit - w.gap - w.baseline)
    # Each component left its reference where it last sat within 3 of its noise deviations of it: that noise
    # measured over the stretch the walk back reads, up to the detection (over the whole run, a gamed
    # stretch pinned at 0 or 1 shrinks it to nothing and dates the onset at the first wobble).
    noise_before = smoothed_noise(x, lo, hit, w.smooth)
    fell_from = onset_before(x, hit, float(ref[hit]),
                             max(3 * noise_before, 0.05 * abs(float(ref[hit]))), False, lo, w.smooth)
    t_base, c_base = float(ref[hit]), float(c_ref[hit])
    t_now = held_extreme(level, hit, w.sustain, rising=False)
    trade = _trade(view, int(steps[max(lo, fell_from - w.smooth)]), int(steps[-1]), truth, cheap)
    # Without samples to show the trade, the logged means can: a grader change rescores the task alone, while a
    # policy trading one component for the other raises the cheap one over the very stretch the task fell.
    start, end = max(lo, fell_from - w.smooth), min(hit + w.sustain, n - 1)
    together = trade is None and c_level[end] - c_level[start] >= max(cfg["min_z"] * curves[cheap][3], _TINY)
    if sudden_fall(x, steps, max(lo, fell_from - w.smooth), hit + w.sustain, t_base - t_now, cfg["step_share"]) \
            and not (trade is not None and trade <= cfg["trade_correlation"]) and not together:
        # Most of the fall happened within a few logged steps: faster than training moves a
        # policy, so the reward or the data changed (a grader or label bug), not the policy's
        # behaviour — unless the samples show the policy trading one component for the other.
        # REWARD_COLLAPSE reports the drop itself.
        return None
    rose_from = onset_before(cx, hit, float(c_ref[hit]), 3 * smoothed_noise(cx, lo, hit, w.smooth), True, lo, w.smooth)
    first, last = int(steps[min(fell_from, rose_from)]), int(steps[-1])
    c_now = held_extreme(c_level, hit, w.sustain, rising=True)
    fall = (t_base - t_now) / max(abs(t_base), 1e-12)
    links, gamed = _gaming_samples(view, first, int(steps[hit]), last, truth, cheap)
    confirmed = gamed >= cfg["confirm_share"]
    cap = (cfg["confirmed_confidence"] if confirmed else cfg["max_confidence"]) * (1.0 if named else 0.75)
    confidence = confidence_from(fall / cfg["drop_fraction"] - 1.0 + (0.5 if links else 0.0), 2.0,
                                 floor=0.3, ceiling=cap)
    if confirmed:
        verdict = (f"the policy is earning '{cheap}' reward without solving the task: {gamed:.0%} of the captured "
                   f"samples since step {int(steps[hit])} earn it while scoring nothing on '{truth}'.")
    else:
        verdict = (f"the policy may be earning '{cheap}' reward without solving the task (a metric-only early "
                   f"warning; read the samples).")
        if named:
            # The data has not shown which component measures the task; the name is a last resort.
            verdict += (f" '{truth}' was taken for the task's own measure from its name alone: no captured sample "
                        "shows it yet.")
    return Finding(
        signature_id="REWARD_HACKING",
        # The task's own measure fell while the reward paid: the objective's harm, confirmed by the samples.
        severity=decide(view, "REWARD_HACKING", first, strong=confirmed and fall >= cfg["critical_fall"]).severity,
        confidence=min(confidence, cap),
        first_step=first,
        explanation=(f"Reward component '{cheap}' rose from {c_base:.3g} to {c_now:.3g} while '{truth}' fell from "
                     f"{t_base:.3g} to {t_now:.3g} ({fall:.0%}) starting at step {first}: " + verdict),
        evidence=[Evidence(metric=f"rewards/{truth}/mean", window=(first, last), baseline=t_base, observed=t_now,
                           note="correctness component; lowest level held for the sustain window"),
                  Evidence(metric=f"rewards/{cheap}/mean", window=(first, last), baseline=c_base, observed=c_now,
                           note="cheap component; highest level held for the sustain window")],
        suggested_actions=[
            f"Read the linked samples: high '{cheap}' reward with zero '{truth}' is gaming.",
            f"Lower the weight of '{cheap}' (GRPOConfig `reward_weights`) or grant it only with a correct answer.",
            "Tighten the format check and add a KL anchor (`beta` > 0) to slow the drift.",
        ],
        links_to_samples=links,
    )



def _trade(view: RunView, first: int, last: int, truth: str, cheap: str) -> float | None:
    """Spearman correlation of the two components over the captured samples of steps
    [first, last]: strongly negative when the completions that earn more of the cheap one
    score less on the task — the policy trading one for the other, as a grader change (which
    rescores the same completions) does not. None without samples scored on both."""
    window = view.samples_between(first, last)
    if window.is_empty() or "reward_components" not in window.columns:
        return None
    scored = window.select(t=component(window, truth), c=component(window, cheap)).drop_nulls()
    if scored.height < 10 or scored["t"].n_unique() < 2 or scored["c"].n_unique() < 2:
        return None
    value = scored.select(pl.corr("t", "c", method="spearman")).item()
    return float(value) if value is not None and np.isfinite(value) else None


def _gaming_samples(view: RunView, first: int, since: int, last: int, truth: str, cheap: str,
                    k: int = 5) -> tuple[list[str], float]:
    """Samples after the onset that earned the cheap reward but none of the task reward, and
    the share of such samples among those scored on both from step ``since`` on."""
    window = view.samples_between(first, last)
    if window.is_empty() or "reward_components" not in window.columns:
        return [], 0.0
    scored = window.with_columns(_truth=component(window, truth), _cheap=component(window, cheap)).filter(
        pl.col("_truth").is_not_null() & pl.col("_cheap").is_not_null())
    gamed = (pl.col("_truth") <= 0) & (pl.col("_cheap") > 0)
    recent = scored.filter(pl.col("step") >= since)
    share = float(recent.select(gamed.mean()).item() or 0.0) if recent.height else 0.0
    links = scored.filter(gamed).sort(["_cheap", "reward"], descending=True).head(k)["sample_id"].to_list()
    return links, share
