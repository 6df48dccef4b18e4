"""The reward: a collapse (learning undone), a plateau (the learning signal dried up) and
hacking (a cheap component rises while correctness falls). A rising reward is the healthy
case; every rule here compares the reward with its own recent past."""
from __future__ import annotations

import re
from typing import Any, Mapping

import numpy as np
import polars as pl

from ..catalog import detector
from ..findings import Evidence, Finding
from ..stats import confidence_from, rolling_median, shift
from ..trends import (Windows, centred_median, finite_median, first_sustained, held_extreme, hysteresis,
                      level_noise, logged, onset_before)
from ..view import RunView

#: GRPO/RLOO log ``reward`` (→ reward_mean); TRL's PPO logs the reward model's ``objective/scores``.
REWARD_METRICS = ("reward_mean", "objective/scores", "objective/rlhf_reward")
#: Reward components that measure the task itself rather than its form.
CORRECTNESS = re.compile(r"acc|correct|verif|math|answer|solution|solve|exact|match|pass|test|judge|score|gold",
                         re.IGNORECASE)


def _windows(n: int, cfg: Mapping[str, Any]) -> Windows:
    return Windows.fit(n, cfg["smooth_window"], cfg["baseline_window"], cfg["gap"], cfg["sustain"])


def _smoothed_noise(x: np.ndarray, lo: int, hi: int, window: int) -> float:
    """Noise of a ``window``-step median of ``x`` (≈ 1.25 σ/√window)."""
    return level_noise(x, lo, hi) * 1.25 / np.sqrt(window)


@detector("REWARD_COLLAPSE", defaults={"drop_fraction": 0.3, "critical_fraction": 0.6, "min_z": 5.0,
                                       "smooth_window": 15, "baseline_window": 100, "gap": 50, "sustain": 20})
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
    the centred median last sat at the reference. Critical when the drop held afterwards
    reaches `critical_fraction` of the scale.

    Actions: Compare with the first failing signature (KL, entropy, grad norm) — it is
    usually the cause; lower `learning_rate` and `max_grad_norm`; raise `beta`; check the
    reward functions and the data on the linked lowest-reward samples; resume from a
    checkpoint before the onset.

    Source: Common GRPO/PPO failure reports; TRL GRPO documentation (logged `reward`).

    Keys:
    drop_fraction: drop, as a fraction of the reward's scale, that starts a collapse
    critical_fraction: critical when the held drop reaches this fraction of the scale
    min_z: the drop must also exceed this many noise standard deviations
    smooth_window: trailing median window (steps) that de-noises the curve
    baseline_window: steps in the reference window
    gap: steps between the reference window and the present
    sustain: consecutive steps the drop must hold
    """
    curve = logged(view, *REWARD_METRICS)
    if curve is None or curve.size < 30:
        return None
    name, steps, x = curve.name, curve.steps, curve.values
    w = _windows(curve.size, cfg)
    level = curve.smooth(w.smooth)
    ref = curve.reference(w)
    start_level = float(np.nanmedian(x[:max(3, w.baseline)]))
    scale = np.maximum(np.abs(ref), ref - start_level)
    noise = _smoothed_noise(x, 0, x.size, w.smooth)
    drop = ref - level
    need = np.maximum(cfg["drop_fraction"] * scale, cfg["min_z"] * noise)
    state = hysteresis(drop >= need, drop >= 0.75 * need)
    hit = first_sustained(state, w.sustain)
    if hit is None:
        return None
    baseline = float(ref[hit])
    onset = onset_before(x, hit, baseline, max(3 * noise, 0.05 * float(scale[hit])), False,
                         max(0, hit - w.gap - w.baseline), w.smooth)
    observed = held_extreme(level, hit, w.sustain, rising=False)
    lost = (baseline - observed) / max(float(scale[hit]), 1e-12)
    first, last = int(steps[onset]), int(steps[-1])
    return Finding(
        signature_id="REWARD_COLLAPSE",
        severity="critical" if lost >= cfg["critical_fraction"] else "warn",
        confidence=confidence_from(lost / cfg["drop_fraction"] - 1.0, 1.0, floor=0.55),
        first_step=first,
        explanation=(f"The reward fell from {baseline:.3g} to {observed:.3g} starting at step {first} "
                     f"({lost:.0%} of its scale, {(baseline - observed) / max(noise, 1e-12):.0f}× its noise) and "
                     f"stayed down for at least {w.sustain} steps."),
        evidence=[Evidence(metric=name, window=(first, last), baseline=baseline, observed=observed,
                           note=f"reference: median of {w.baseline} steps ending {w.gap} steps before; observed: "
                                f"lowest level held for {w.sustain} steps; scale {float(scale[hit]):.3g}")],
        suggested_actions=[
            "Look for an earlier KL, entropy or grad-norm finding: it is usually the cause of the collapse.",
            "Lower `learning_rate` and `max_grad_norm`; raise the KL penalty `beta` to anchor the policy.",
            "Check the reward functions and data on the linked lowest-reward samples; resume from a checkpoint "
            "before the onset.",
        ],
        links_to_samples=view.top_samples(first, last, "reward", k=5, descending=False),
    )


@detector("REWARD_PLATEAU", defaults={"flat_fraction": 0.05, "zero_std_level": 0.6, "plateau_window": 150,
                                      "smooth_window": 25, "sustain": 50})
def reward_plateau(view: RunView, cfg: Mapping[str, Any]) -> Finding | None:
    """The reward stops improving because the learning signal has dried up.

    Meaning: Most prompt groups now get identical rewards (all right or all wrong), so
    group-normalised advantages are zero and updates carry no signal: more steps will not
    help. A reward that merely levels off while groups still disagree is the normal end
    of learning and is not reported.

    Metrics: `reward_mean` (TRL's `reward`) and `frac_reward_zero_std` (share of groups with
    identical rewards); samples' `advantage` for the linked examples.

    Rule: Over the last `plateau_window` steps the smoothed reward (trailing median over
    `smooth_window` steps) gained less than `flat_fraction` of its scale (|level|, at
    least the reward's spread), while the smoothed `frac_reward_zero_std` is at or above
    `zero_std_level`; both hold for `sustain` steps. The onset is the later of where the
    reward reached its plateau and where the zero-variance share started climbing.

    Actions: Harder or more varied prompts (filter out prompts every completion solves or
    fails); more completions per prompt (`num_generations`) or a higher `temperature` so
    groups disagree; DAPO-style dynamic sampling; check `scale_rewards` and reward
    granularity (partial credit gives variance).

    Source: TRL GRPO documentation (`frac_reward_zero_std`); DAPO (Yu et al., 2025) —
    dynamic sampling removes groups with zero reward variance.

    Keys:
    flat_fraction: a gain below this fraction of the reward's scale counts as flat
    zero_std_level: smoothed frac_reward_zero_std at or above this means no signal
    plateau_window: steps over which the reward must not have improved
    smooth_window: trailing median window (steps) for both curves
    sustain: consecutive steps both conditions must hold
    """
    curve = logged(view, *REWARD_METRICS)
    if curve is None or curve.size < 60 or not view.has("frac_reward_zero_std"):
        return None
    name, steps, x = curve.name, curve.steps, curve.values
    n = curve.size
    window = max(10, min(cfg["plateau_window"], n // 4))
    smooth = max(3, min(cfg["smooth_window"], n // 10))
    sustain = max(5, min(cfg["sustain"], n // 8))
    zero = view.series("frac_reward_zero_std")[np.isin(view.step, steps)]
    level = curve.smooth(smooth)
    zero_level = rolling_median(zero, smooth, max(1, smooth // 3))
    before = np.full_like(level, np.nan)
    before[window:] = level[:-window]
    spread = np.nanpercentile(level, 90) - np.nanpercentile(level, 10) if np.isfinite(level).any() else 0.0
    scale = np.maximum(np.abs(level), spread)
    flat = (level - before) < cfg["flat_fraction"] * scale
    dry = zero_level >= cfg["zero_std_level"]
    state = hysteresis(flat & dry, flat & (zero_level >= 0.85 * cfg["zero_std_level"]))
    hit = first_sustained(state, sustain)
    if hit is None:
        return None
    plateau = float(np.nanmedian(level[hit:hit + sustain]))
    noise = level_noise(x, max(0, hit - window), hit) * 1.25 / np.sqrt(smooth)
    tol = max(3 * noise, 2 * cfg["flat_fraction"] * float(scale[hit]))
    lo = max(0, hit - 4 * window)
    centred = centred_median(x[lo:hit + smooth], smooth)[:hit + 1 - lo]
    below = np.flatnonzero(centred < plateau - tol)
    reached = lo + int(below[-1]) + 1 if below.size else lo  # where the rising reward arrived at its plateau
    # The zero-variance share before it started climbing: the window before it was last at half the level.
    low = np.flatnonzero(zero_level[:hit + 1] < 0.5 * cfg["zero_std_level"])
    cross = int(low[-1]) if low.size else hit
    zero_ref = finite_median(zero[max(0, cross - window):max(1, cross - smooth)], 0.0)
    zero_noise = level_noise(zero, max(0, cross - window), cross) * 1.25 / np.sqrt(smooth)
    climbing = onset_before(zero, hit, zero_ref, max(3 * zero_noise, 0.05), True, lo, smooth)
    onset = min(hit, max(reached, climbing))
    first, last = int(steps[onset]), int(steps[-1])
    dry_share = finite_median(zero_level[hit:], cfg["zero_std_level"])
    return Finding(
        signature_id="REWARD_PLATEAU",
        severity="warn",
        confidence=confidence_from(2 * (dry_share - cfg["zero_std_level"]) / max(1 - cfg["zero_std_level"], 1e-6),
                                   1.0, floor=0.5, ceiling=0.9),
        first_step=first,
        explanation=(f"The reward has stayed near {plateau:.3g} since step {first} while {dry_share:.0%} of prompt "
                     f"groups get identical rewards (zero advantage), up from {zero_ref:.0%}: the learning "
                     f"signal has dried up."),
        evidence=[Evidence(metric=name, window=(first, last), baseline=float(level[max(0, hit - window)]),
                           observed=plateau, note=f"gain over {window} steps below {cfg['flat_fraction']:.0%} of scale"),
                  Evidence(metric="frac_reward_zero_std", window=(first, last), baseline=zero_ref, observed=dry_share,
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
                                      "smooth_window": 25, "baseline_window": 100, "gap": 50, "sustain": 20})
def reward_hacking(view: RunView, cfg: Mapping[str, Any]) -> Finding | None:
    """A cheap reward component keeps rising while the correctness component falls.

    Meaning: The policy has found a way to earn reward without doing the task — typically
    format gaming (perfect tags, empty or wrong answers). The total reward can look fine.
    Judged from logged means only, this is an early warning: confidence stays modest
    (at most `max_confidence`) until someone reads the linked samples.

    Metrics: Reward components `rewards/<name>/mean` (TRL); a component whose name looks
    like correctness (accuracy, correct, verifier, answer, math, pass, judge, score …) is
    the task; any other (format, tags, length …) is "cheap". Samples' `reward_components`.

    Rule: The correctness component's smoothed mean (trailing median over `smooth_window`
    steps) falls below its reference (median of the `baseline_window` steps that ended `gap`
    steps earlier) by at least `drop_fraction` of that reference and `min_z` noise
    standard deviations, while a cheap component rises above its own reference by at
    least `min_z` noise standard deviations; both hold (with hysteresis) for `sustain`
    steps. Without a correctness-like name, any falling/rising pair counts, at lower
    confidence.

    Actions: Read the linked samples (high cheap reward, zero correctness); lower the cheap
    component's weight (GRPOConfig `reward_weights`) or make it conditional on
    correctness; tighten the format check; add a KL anchor (`beta`).

    Source: TRL GRPO documentation (per-function `rewards/<name>/mean`); reward hacking and
    format gaming reports in GRPO replications (e.g. DeepSeek-R1 format rewards).

    Keys:
    drop_fraction: fall of the correctness component, as a fraction of its reference, that counts
    min_z: both the fall and the rise must exceed this many noise standard deviations
    max_confidence: cap on confidence for this metric-only signal
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
    if n < 60:
        return None
    w = _windows(n, cfg)
    task = [c for c in names if CORRECTNESS.search(c)]
    named = bool(task) and len(task) < len(names)
    truth_candidates = task if named else names
    curves = {}
    for c in names:
        x = view.component(c)
        level = rolling_median(x, w.smooth, max(1, w.smooth // 3))
        ref = shift(rolling_median(x, w.baseline, max(3, w.baseline // 2)), w.gap)
        noise = _smoothed_noise(x, 0, n, w.smooth)
        curves[c] = (x, level, ref, noise)
    best: tuple[int, str, str] | None = None
    for truth in truth_candidates:
        x, level, ref, noise = curves[truth]
        need = np.maximum(cfg["drop_fraction"] * np.abs(ref), cfg["min_z"] * noise)
        falling = hysteresis(ref - level >= need, ref - level >= 0.75 * need)
        for cheap in names:
            if cheap == truth or (named and cheap in task):
                continue
            _, c_level, c_ref, c_noise = curves[cheap]
            rise = c_level - c_ref
            rising = hysteresis(rise >= cfg["min_z"] * c_noise, rise >= 0.75 * cfg["min_z"] * c_noise)
            hit = first_sustained(falling & rising, w.sustain)
            if hit is not None and (best is None or hit < best[0]):
                best = (hit, truth, cheap)
    if best is None:
        return None
    hit, truth, cheap = best
    x, level, ref, noise = curves[truth]
    cx, c_level, c_ref, c_noise = curves[cheap]
    lo = max(0, hit - w.gap - w.baseline)
    fell_from = onset_before(x, hit, float(ref[hit]), max(3 * noise, 0.05 * abs(float(ref[hit]))), False, lo,
                             w.smooth)
    rose_from = onset_before(cx, hit, float(c_ref[hit]), 3 * c_noise, True, lo, w.smooth)
    onset = min(fell_from, rose_from)
    first, last = int(steps[onset]), int(steps[-1])
    t_base, c_base = float(ref[hit]), float(c_ref[hit])
    t_now = held_extreme(level, hit, w.sustain, rising=False)
    c_now = held_extreme(c_level, hit, w.sustain, rising=True)
    fall = (t_base - t_now) / max(abs(t_base), 1e-12)
    links = _gaming_samples(view, first, last, truth, cheap)
    cap = cfg["max_confidence"] * (1.0 if named else 0.75)
    confidence = confidence_from(fall / cfg["drop_fraction"] - 1.0 + (0.5 if links else 0.0), 2.0,
                                 floor=0.3, ceiling=cap)
    return Finding(
        signature_id="REWARD_HACKING",
        severity="warn",
        confidence=min(confidence, cap),
        first_step=first,
        explanation=(f"Reward component '{cheap}' rose from {c_base:.3g} to {c_now:.3g} while '{truth}' fell from "
                     f"{t_base:.3g} to {t_now:.3g} ({fall:.0%}) starting at step {first}: the policy may be earning "
                     f"'{cheap}' reward without solving the task (a metric-only early warning; read the samples)."),
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


def _gaming_samples(view: RunView, first: int, last: int, truth: str, cheap: str, k: int = 5) -> list[str]:
    """Samples after the onset that earned the cheap reward but none of the task reward."""
    window = view.samples_between(first, last)
    if window.is_empty() or "reward_components" not in window.columns:
        return []
    parts = pl.col("reward_components")
    if isinstance(window.schema["reward_components"], pl.List):  # an Arrow map read as key/value structs
        def part(name: str) -> pl.Expr:
            return parts.list.eval(pl.element().filter(pl.element().struct.field("key") == name)
                                   .struct.field("value")).list.first()
    else:
        def part(name: str) -> pl.Expr:
            return parts.map.get(name)
    gamed = window.with_columns(_truth=part(truth), _cheap=part(cheap)).filter(
        (pl.col("_truth") <= 0) & (pl.col("_cheap") > 0))
    return gamed.sort(["_cheap", "reward"], descending=True).head(k)["sample_id"].to_list()
