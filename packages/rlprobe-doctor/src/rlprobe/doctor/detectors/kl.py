"""KL to the reference policy: judged by its level and its growth rate, never by a ratio
to its early value (KL starts near 0 in every run)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from rlprobe.storage import RunStatus

from ..catalog import detector
from ..facts.extremes import extreme_step
from ..facts.metrics import LENGTH_METRICS
from ..facts.progress import reward_progress
from ..facts.run import facts_of
from ..facts.severity import decide
from ..findings import Evidence, Finding
from ..toolkit import (
    Curve,
    confidence_from,
    ended_for_good,
    episode_median,
    held_extreme,
    hysteresis,
    in_points,
    logged,
    logging_stride,
    long_enough,
    onset_before,
    refine_onset,
    smoothed_noise,
    sustained_onset,
)
from ..view import RunView


def _extreme_kl(view: RunView, curve: Curve, min_level: float) -> Finding | None:
    """One KL step far beyond the run's (``extreme_step``) and at ``min_level`` or more: info, warn
    when the reward or the KL itself did not come back after it."""
    extreme = extreme_step(view, curve)
    if extreme is None or extreme.value < min_level:
        return None
    return Finding(
        signature_id="KL_BLOWUP",
        severity=extreme.severity,
        confidence=extreme.confidence,
        first_step=extreme.step,
        explanation=(extreme.told("a KL to the reference") + " One batch of completions far from the reference (a "
                     "degenerate sample, a data glitch) is the usual cause; read its samples."),
        evidence=[extreme.evidence()],
        suggested_actions=[f"Read the highest-KL samples of step {extreme.step}.",
                           "Nothing to change while the KL stays at its level; a second such step would be a pattern."],
        links_to_samples=view.top_samples(extreme.step, extreme.step, "kl", k=5),
    )


#: The KL penalty holds a drift when it costs at least this share of the reward the run gained.
_LEASH_SHARE = 0.25


def _leashed(view: RunView, kl: float, gain: float, first: int) -> bool:
    """Whether the KL penalty is what holds a KL of ``kl`` nats a token: beta (``kl_coefficient``) × ``kl``
    × the completions' mean length from ``first`` (a sequence's penalty) is at least ``_LEASH_SHARE`` of
    the reward ``gain``. A penalty that costs next to nothing (a weak anchor) holds nothing: a KL that
    stopped there stopped for another reason, and the policy is still far from its reference."""
    beta = facts_of(view).kl_coefficient
    if beta is None or gain <= 0:
        return False
    length = episode_median(view, LENGTH_METRICS, first, int(view.step[-1])) or 1.0
    return beta * kl * length >= _LEASH_SHARE * gain


@detector("KL_BLOWUP", defaults={
    "min_level": 0.1,          # per-token KL below this is never a blow-up
    "critical_level": 1.0,     # smoothed KL at or above this is critical on its own
    "growth_factor": 4.0,      # smoothed KL multiplied by this within growth_window ...
    "acceleration": 1.5,       # ... with the latest increase this many times the one before
    "growth_window": 50,
    "sequence_scale": 50.0,    # PPO logs KL summed over a completion: levels × this
    "smooth_window": 9,
    "sustain": 10,             # the condition must hold this many consecutive steps
})
def kl_blowup(view: RunView, cfg: Mapping[str, Any]) -> Finding | None:
    """KL to the reference grows fast and accelerating to a level that matters, or past a critical level.

    Meaning: The policy is running away from the reference model — usually the prelude to
    degenerate text and a reward collapse. KL is 0 at step 0 and a healthy run's KL rises
    and then flattens, so neither a ratio to the start nor a slow drift is a blow-up.

    Metrics: `kl_mean` (TRL's `kl`, logged only when `beta` > 0; PPO's `objective/kl`, a
    per-sequence sum); samples' `kl` for the linked examples. No KL logged is normal.

    Rule: With KL smoothed by a trailing median over `smooth_window` steps, a step is
    "fast" when KL ≥ `min_level`, KL ≥ `growth_factor` × its value `growth_window` steps
    earlier (floored at `min_level`/`growth_factor`), and the increase over the last window
    is at least `acceleration` × the increase over the window before (a concave, flattening
    rise is healthy; a blow-up accelerates). A step is "high" at KL ≥ `critical_level`.
    Either must hold (with hysteresis) for `sustain` steps. The onset is where the centred
    median last sat at the level before the growth — also for a rise to `critical_level`
    that multiplied by `growth_factor` within a window without a measurable acceleration (a
    blow-up in the run's first window has no earlier increase to compare) — and, for a
    steady drift that was never fast, where it crossed `critical_level` — such a drift must hold past
    it (its highest level held for `sustain` steps): a median that one or two spikes lift over it is
    none. For PPO (`algorithm` = ppo) the levels
    are multiplied by `sequence_scale`. Critical when KL reaches `critical_level` (in a run that has
    ended, a steady drift that stopped growing must have stayed past it, until its median fell back under
    0.8 × the level, for `growth_window` steps) or grew 2.5 × `growth_factor` within a window. In a run
    that has ended, a steady drift whose median came back under 0.8 × `critical_level` for good (out of
    it as long again as it lasted, and not past it again) is info: an episode that ended. A rise whose
    held level stayed under `critical_level`, that stopped growing before the run's end
    (its last growth under 0.8 × `growth_factor`) and
    over which the reward rose or held (the progress fact) is info: the policy leaving the
    reference as it learns, not running away from it. So is a steady drift that never grew
    fast and settled past `critical_level` in a run whose reward rose and kept its rise (the
    run's progress state), held there for `growth_window` steps or more, provided the penalty
    costs a quarter of the reward gained or more (beta, from the config or read off GRPO's
    loss / KL, × KL × mean length): the penalty holds the policy where the reward balances it;
    a weak anchor holds nothing. Without a blow-up, a single logged step at
    `EXTREME_RATIO` (100) × the run's median KL or more (and at least `min_level`), as far above the steps before
    it, with the steps after it back near the median, is reported at info with that step's samples; warn when
    the reward or the KL did not come back to its level after it.

    Actions: Raise the KL penalty (`beta`), lower `learning_rate`, lower `max_grad_norm`;
    with several updates per batch lower `num_iterations` or `epsilon`; read the
    highest-KL samples.

    Source: TRL GRPO documentation (`beta` defaults to 0, so `kl` is often absent); "Fine-Tuning
    Language Models from Human Preferences" (Ziegler et al., 2019) and InstructGPT
    (Ouyang et al., 2022) — the KL penalty as a leash on the policy.

    Keys:
    min_level: per-token KL below this is never a blow-up
    critical_level: smoothed KL at or above this is critical on its own
    growth_factor: KL multiplied by this within growth_window counts as fast growth
    acceleration: the latest window's increase must be this many times the previous window's
    growth_window: window (steps) over which growth is measured
    sequence_scale: multiplier for the levels when KL is summed per sequence (PPO)
    smooth_window: trailing median window (steps) that de-noises the curve
    sustain: consecutive steps the condition must hold
    """
    curve = logged(view, "kl_mean")
    if curve is None or not long_enough(curve.steps):
        return None  # TRL GRPO's default beta is 0: no KL logged is normal
    name, steps, kl = curve.name, curve.steps, curve.values
    scale = cfg["sequence_scale"] if view.algorithm == "ppo" else 1.0
    min_level, critical_level = cfg["min_level"] * scale, cfg["critical_level"] * scale
    # Windows are stated in steps; a run logged every k steps holds them in 1/k as many points.
    stride = logging_stride(steps)
    w = max(5, min(in_points(cfg["growth_window"], stride), kl.size // 6))
    sustain = max(3, min(in_points(cfg["sustain"], stride), kl.size // 12))
    smooth = max(3, in_points(cfg["smooth_window"], stride))
    level = curve.smooth(smooth)
    before = np.full_like(level, np.nan)
    before[w:] = level[:-w]
    earlier = np.full_like(level, np.nan)
    earlier[w:] = before[:-w]
    growth = level / np.maximum(before, min_level / cfg["growth_factor"])
    accelerating = (level - before) >= cfg["acceleration"] * np.maximum(before - earlier, 0.0)
    fast = (growth >= cfg["growth_factor"]) & (level >= min_level) & accelerating
    high = level >= critical_level
    state = hysteresis(fast | high, ((growth >= 0.8 * cfg["growth_factor"]) & (level >= min_level)) |
                       (level >= 0.8 * critical_level))
    hit = sustained_onset(state, sustain)
    if hit is None:
        return _extreme_kl(view, curve, min_level)
    episode = state[hit:]
    ends = np.flatnonzero(~episode)
    end = hit + (int(ends[0]) if ends.size else episode.size)
    accelerated = bool(fast[hit:end].any())
    # In a run's first growth window there is no earlier increase to accelerate from, so a
    # blow-up from the start shows only as the critical level: it still grew fast if it
    # multiplied by `growth_factor` within a window on its way there.
    with np.errstate(invalid="ignore"):
        multiplied = bool(((growth[hit:end] >= cfg["growth_factor"]) & (level[hit:end] >= min_level)).any())
    grew_fast = accelerated or multiplied
    lo = max(0, hit - 2 * w)
    # The level just before the growth window: a healthy run's KL drifts up, so an older one is too low.
    before_growth = level[max(lo, hit - w - w // 2):max(lo + 1, hit - w)]
    before_growth = before_growth[np.isfinite(before_growth)]
    baseline = float(np.median(before_growth)) if before_growth.size else float(kl[:hit + 1].min())
    noise = smoothed_noise(kl, lo, max(lo + 3, hit - w), smooth)
    if grew_fast:
        band = max(3 * noise, 0.5 * baseline, 0.05 * min_level)
        onset = onset_before(kl, hit, baseline, band, True, lo, smooth)
        onset = refine_onset(kl, hit, onset, True, lo, smooth, w)
    else:
        # A steady drift past the critical level: it began with the run, so the finding dates
        # from the crossing.
        onset = int(np.flatnonzero(high[:hit + 1])[0]) if high[:hit + 1].any() else hit
    peak = held_extreme(level, hit, sustain, rising=True)
    if not grew_fast and peak < critical_level:
        # Never fast, and never held past the critical level: a spike or two lifted a median over it.
        return _extreme_kl(view, curve, min_level)
    peak_growth = float(np.nanmax(growth[hit:end])) if np.isfinite(growth[hit:end]).any() else 1.0
    still_growing = bool(growth[-1] >= 0.8 * cfg["growth_factor"])  # NaN (no window back yet) is not growing
    # In a run that has ended, a steady drift (never fast) that stopped growing is strong only once it held past
    # the critical level for a growth window: one that crossed it in the run's last few logs never showed it
    # stays there. While the run goes on (or nothing says it ended) it is presumed under way.
    ended = view.manifest.get("status") not in (None, RunStatus.RUNNING)
    stayed = int(steps[end - 1]) - int(steps[onset])  # from the crossing to where the episode's level fell back
    held = grew_fast or still_growing or not ended or stayed >= cfg["growth_window"]
    # ... and one that came back under the level (its hysteresis) for good is over (recovered vs ongoing,
    # decided as for every episode: ``ended_for_good``).
    receded = not grew_fast and ended and ended_for_good(state, hit, sustain) is not None
    critical = (peak >= critical_level and held) or peak_growth >= 2.5 * cfg["growth_factor"]
    confidence = confidence_from(np.log(max(peak, 1e-12) / min_level) + np.log(peak_growth / cfg["growth_factor"] + 1),
                                 2.0, floor=0.55)
    first, last = int(steps[onset]), int(steps[-1])
    unit = " nats/sequence" if scale != 1.0 else ""
    # The price of learning: a rise that stayed under the critical level and stopped growing before the
    # run's end, while the reward rose or held since, is the policy leaving the reference as it learns. So
    # is a steady drift that never grew fast and settled past it in a run whose reward rose and kept its
    # rise (the run's progress state: the drift began with the run): the KL penalty holds the policy where
    # the reward it earns balances the penalty.
    paid_by: Evidence | None = None
    if not still_growing and peak < critical_level:
        progress = reward_progress(view, first)
        if progress is not None and progress.held:
            paid_by = progress.evidence(first, last)
            paid_text = f"{'rose' if progress.rose else 'held'} ({progress.start:.3g} to {progress.end:.3g})"
    elif not still_growing and not grew_fast and last - first >= cfg["growth_window"]:
        # Settled means held past the critical level for a growth window: a KL that crossed it a few
        # steps ago (a live run, a blow-up under way) has shown nothing yet.
        run = facts_of(view).progress
        if run is not None and run.learned and _leashed(view, peak / scale, run.end - run.opening, first):
            paid_by = run.evidence(first, last)
            paid_text = f"rose over the run ({run.opening:.3g} to {run.end:.3g}) and kept its rise"
    paid = paid_by is not None
    evidence = [Evidence(metric=name, window=(first, last), baseline=baseline, observed=peak,
                         note=f"rolling median over {smooth} logged steps; highest level held for "
                              f"{sustain} logged steps after the onset")]
    if paid_by is not None:
        evidence.append(paid_by)
    back = (f" It came back under {0.8 * critical_level:.3g}{unit} at step {int(steps[end])} and stayed there: an "
            "episode that ended, not a policy running away." if receded and not paid else "")
    judgement = decide(view, "KL_BLOWUP", first, strong=critical, benign=paid or back)
    return Finding(
        signature_id="KL_BLOWUP",
        severity=judgement.severity,
        confidence=confidence,
        first_step=first,
        explanation=(f"KL to the reference rose from {baseline:.3g} to {peak:.3g}{unit} from step {first} and stopped "
                     f"growing {'under' if peak < critical_level else 'in a steady drift past'} the critical level "
                     f"{critical_level:.3g}{unit}, while the reward {paid_text}: the policy "
                     "leaving the reference as it learns, not running away from it. Watch it: a KL that grows "
                     "again, or a reward that falls, would be a blow-up."
                     if paid else
                     f"KL to the reference rose from {baseline:.3g} to {peak:.3g}{unit} starting at step {first}; "
                     f"it grew up to ×{peak_growth:.3g} within {w} logged steps, "
                     + ("accelerating." if accelerated else f"past the critical level {critical_level:.3g}{unit}.")
                     if grew_fast else
                     f"KL to the reference drifted past the critical level {critical_level:.3g}{unit} at step {first} "
                     f"and reached {peak:.3g} (it grew at most ×{peak_growth:.3g} within {w} logged steps: a steady "
                     "drift, not an accelerating blow-up" + (")." if back else ", but the policy is now far from the "
                                                             "reference)."))
        + judgement.why,
        evidence=evidence,
        suggested_actions=[
            "Raise the KL penalty (GRPOConfig/RLOOConfig `beta`, PPO `kl_coef`) or lower `learning_rate`.",
            "Lower `max_grad_norm` and, with several updates per generation, `num_iterations` or `epsilon`.",
            "Inspect the highest-KL samples: degenerate text here usually means the policy left the reference's "
            "support.",
        ],
        links_to_samples=view.top_samples(first, last, "kl", k=5),
    )
