"""The optimiser's own signals: the clipped share of the policy ratio, the gradient norm and,
for PPO, the value loss. Isolated one-step gradient spikes are normal; only repeated spikes
or a sustained level shift are findings."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

import numpy as np
import polars as pl

from ..catalog import detector
from ..facts.extremes import EXTREME_RATIO, extreme_step
from ..facts.groups import CONVERGED_SHARE, every_group_agreed, logged_step_may_have_agreed, samples_with
from ..facts.groups import settled as settled_copies
from ..facts.metrics import ENTROPY_METRICS
from ..facts.opening import collapsed as collapsed_since_opening
from ..facts.progress import reward_progress
from ..facts.run import facts_of
from ..facts.severity import decide
from ..findings import Evidence, Finding
from ..toolkit import (
    MAD_SCALE,
    Curve,
    Windows,
    confidence_from,
    finite_median,
    held_extreme,
    hysteresis,
    in_points,
    logged,
    long_enough,
    onset_before,
    rolling_median,
    rolling_quantile,
    shift,
    smoothed_noise,
    sustained_onset,
)
from ..view import RunView

#: The recording's columns these detectors read; every trainer's spelling of them is read as
#: them (``rlprobe.records.METRIC_ALIASES``: TRL GRPO's ``clip_ratio/region_mean``, TRL PPO's
#: ``policy/clipfrac_avg`` and ``loss/value_avg``, ...).
CLIP_METRICS = ("clip_ratio",)
VALUE_LOSS_METRICS = ("value_loss",)


@detector("CLIP_RATIO_HIGH", defaults={"min_level": 0.05, "rise_factor": 4.0, "high_level": 0.3,
                                       "critical_level": 0.5, "smooth_window": 9, "baseline_window": 100, "gap": 50,
                                       "sustain": 10})
def clip_ratio_high(view: RunView, cfg: Mapping[str, Any]) -> Finding | None:
    """The share of tokens whose probability ratio is clipped jumps up and stays high.

    Meaning: Each update moves the policy much further than the trust region allows, so
    most of the gradient is clipped away and the rest is noisy — usually a too-high
    learning rate or too many updates per batch. (On-policy GRPO with one iteration
    clips nothing; a few per mille with several iterations is normal.)

    Metrics: `clip_ratio` (TRL GRPO's `clip_ratio/region_mean`), or PPO's
    `policy/clipfrac_avg`; samples' `kl`/`advantage` for the linked examples.

    Rule: The smoothed share (trailing median over `smooth_window` steps) is at least
    `high_level`, or at least `min_level` and `rise_factor` × its reference (median of the
    `baseline_window` steps that ended `gap` steps earlier), and stays above 80 % of that
    (hysteresis) for `sustain` steps. The onset is where the centred median last sat at
    the reference. Critical when the level held for `sustain` steps reaches
    `critical_level`.

    Actions: Lower `learning_rate`; fewer updates per batch (`num_iterations`, PPO
    `num_ppo_epochs`); lower `max_grad_norm`; check `epsilon`/`epsilon_high` are not
    unusually small.

    Source: PPO (Schulman et al., 2017) — clipped surrogate objective; TRL GRPO
    documentation (`clip_ratio/*`, `num_iterations`, `epsilon`).

    Keys:
    min_level: a relative rise counts only above this share
    rise_factor: ... and only at this multiple of the reference
    high_level: a share at or above this counts regardless of the reference
    critical_level: critical when the share held for `sustain` steps reaches this
    smooth_window: trailing median window (steps) that de-noises the curve
    baseline_window: steps in the reference window
    gap: steps between the reference window and the present
    sustain: consecutive steps the share must hold
    """
    curve = logged(view, *CLIP_METRICS)
    if curve is None or not long_enough(curve.steps):
        return None
    name, steps, x = curve.name, curve.steps, curve.values
    w = Windows.of(curve, cfg)
    level = curve.smooth(w.smooth)
    ref = curve.reference(w)
    relative = np.maximum(cfg["min_level"], cfg["rise_factor"] * np.nan_to_num(ref, nan=np.inf))
    need = np.minimum(cfg["high_level"], relative)
    state = hysteresis(level >= need, level >= 0.8 * need)
    hit = sustained_onset(state, w.sustain)
    if hit is None:
        return None
    baseline = float(ref[hit]) if np.isfinite(ref[hit]) else float(np.nanmin(level[:hit + 1]))
    lo = max(0, hit - w.gap - w.baseline)
    noise = smoothed_noise(x, lo, max(lo + 3, hit - w.gap), w.smooth)
    onset = onset_before(x, hit, baseline, max(3 * noise, 0.25 * float(need[hit]), 0.005), True, lo, w.smooth)
    observed = held_extreme(level, hit, w.sustain, rising=True)
    first, last = int(steps[onset]), int(steps[-1])
    iterations = (view.manifest.get("trainer_config") or {}).get("num_iterations")
    context = f" with num_iterations={iterations}" if iterations else ""
    judgement = decide(view, "CLIP_RATIO_HIGH", first, strong=observed >= cfg["critical_level"])
    return Finding(
        signature_id="CLIP_RATIO_HIGH",
        severity=judgement.severity,
        confidence=confidence_from(np.log(observed / max(float(need[hit]), 1e-9)) + 0.3, 0.7, floor=0.55),
        first_step=first,
        explanation=(f"The clipped share of the policy ratio rose from {baseline:.2%} to {observed:.1%} starting at "
                     f"step {first}{context}: updates overshoot the trust region, and the clipped tokens "
                     "contribute no gradient." + judgement.why),
        evidence=[Evidence(metric=name, window=(first, last), baseline=baseline, observed=observed,
                           note=f"highest share held for {w.sustain} steps; reference: median of {w.baseline} "
                                f"steps ending {w.gap} steps before")],
        suggested_actions=[
            "Lower `learning_rate`.",
            "Do fewer updates per generation batch (`num_iterations`; PPO `num_ppo_epochs`) and lower `max_grad_norm`.",
            "Check `epsilon`/`epsilon_high`: an unusually small clip range clips almost every token.",
        ],
        links_to_samples=view.top_samples(first, last, "kl" if _has_sample("kl", view) else pl.col("advantage").abs(),
                                          k=5),
    )


#: The noise scale of the log grad norm is also read from this quantile of its absolute
#: deviations, which lies this many σ out for normal noise.
_TAIL_QUANTILE, _TAIL_SIGMAS = 0.9, 1.6449


def _extreme_grad_norm(view: RunView, curve: Curve) -> Finding | None:
    """One gradient-norm step far beyond the run's (``extreme_step``): info, warn when the reward or
    the KL did not come back after it."""
    extreme = extreme_step(view, curve)
    if extreme is None:
        return None
    return Finding(
        signature_id="GRAD_NORM_SPIKE",
        severity=extreme.severity,
        confidence=extreme.confidence,
        first_step=extreme.step,
        explanation=(extreme.told("a gradient norm") + " "
                     + ("Clipping kept the update small; a single batch (a reward computed in the wrong unit, one "
                        "degenerate completion) is the usual cause: read its samples." if extreme.returned else
                        "The step moved the policy: treat it as the start of an instability.")),
        evidence=[extreme.evidence()],
        suggested_actions=[
            f"Read the samples of step {extreme.step}: rewards or advantages far outside their usual range point at "
            "the reward function or the data of that batch.",
            "Keep `max_grad_norm` set (clipping is what bounds such a step).",
        ],
        links_to_samples=view.top_samples(extreme.step, extreme.step, pl.col("advantage").abs()
                                          if "advantage" in view.samples.columns else "reward", k=5),
    )


@detector("GRAD_NORM_SPIKE", defaults={"spike_z": 4.0, "spike_ratio": 3.0, "floor_fraction": 0.5, "min_spikes": 3,
                                       "cluster_window": 100, "burst_gap": 40, "level_ratio": 3.0,
                                       "critical_ratio": 10.0, "spike_window": 50, "smooth_window": 9,
                                       "baseline_window": 100, "gap": 50, "sustain": 10,
                                       "converged_share": CONVERGED_SHARE,
                                       "length_push": 0.5})
def grad_norm_spike(view: RunView, cfg: Mapping[str, Any]) -> Finding | None:
    """The gradient norm spikes repeatedly, or shifts to a much higher level and stays.

    Meaning: The optimisation has become unstable — a few samples or tokens dominate
    updates (huge advantages, off-policy ratios, bf16 overflow), and a loss or KL
    blow-up often follows. A single isolated spike is normal and is not reported, unless it
    is extreme (below).

    Metrics: `grad_norm` (before clipping, as the Trainer logs it); samples' `advantage`
    at the spike steps for the linked examples.

    Rule: A spike is a step whose log grad norm exceeds the median of the previous
    `spike_window` steps by `spike_z` robust standard deviations and by a factor of
    `spike_ratio`. The standard deviation is the larger of the MAD's and the 90th percentile
    of the absolute deviations over 1.645: the same for normal noise, wider for heavy-tailed
    noise (a step's gradient from a handful of completions, where one unusual completion
    dominates a step, makes isolated ×5 steps routine). Reported when `min_spikes` spikes fall
    within `cluster_window` steps
    (onset: the first spike of that burst — walking back, a gap longer than `burst_gap`
    or five times the burst's median spacing ends it), or when the smoothed log grad norm
    (trailing median over `smooth_window`) stays `level_ratio` × above its reference
    (median of the `baseline_window` steps that ended `gap` steps earlier) for `sustain`
    steps (onset: where the centred median left the reference). Critical when the held
    level reaches `critical_ratio` × the reference. Both medians are taken as at least
    `floor_fraction` of the run's typical level so far (its expanding median): when nearly
    every group has zero advantage the gradient shrinks to the KL term's, and the ordinary
    gradient of the odd informative group is not a spike. Steps where every group had
    identical rewards (`frac_reward_zero_std` = 1) are left out altogether: with no advantage
    there is no policy gradient, so their norm is not the same quantity; so are steps whose
    captured samples hold the whole generation batch with every advantage 0 (with
    `scale_rewards="batch"` TRL's share counts only a batch flat as a whole), and logged steps
    whose norm is under 1/`EXTREME_RATIO` of the run's median where the log could end on such a
    step (TRL averages the share over the steps since the last log, at least 1/that many of
    them, but logs the grad norm of the last step alone): the KL term's gradient, near 0 at a
    run's opening, is no reference for a level. Reported as
    info when at least `converged_share` of the completions that repeat another of their group
    since the onset earned the run's top reward: a policy that converged on right answers
    still learns only from the completions it finds unlikely, whose gradients are large. Also
    info: a level shift without a burst of spikes while the advantages rewarded one direction
    of length in every group (|Spearman correlation| of advantage and completion length over
    the captured samples from the onset to `sustain` steps past the confirmation at least
    `length_push`): the groups' gradients share a direction and add up, the push that
    LENGTH_EXPLOSION or LENGTH_COLLAPSE reports. Also info when the per-token entropy's median
    over the episode is at most half its level over the run's first tenth and the reward did not
    rise since the onset: a collapsed policy's differing completions are unlikely ones, whose
    gradients are large; the collapse is ENTROPY_COLLAPSE's finding. Info too, where the samples do
    not show convergence or there are none: a level shift without a burst of spikes in a run whose
    reward rose and kept its rise (the progress state) and held since the onset: the norm moved as
    the run learnt. And info: a
    burst of spikes without a level shift that did not go on (judged at least `cluster_window`
    steps later: since its first spike, no more than `min_spikes` steps per `cluster_window`
    were `spike_ratio` × above the trailing median) and after which the reward held (it is not
    lower by 3× its step noise than at the first spike): an episode of spikes that set the run
    back in nothing is noise; live, it is a warning until the run has shown that.
    Without any of these, or where the episode is one of the info cases above, or in a log too short
    for an episode (fewer than 30 logged norms with a policy gradient), a single logged
    step at `EXTREME_RATIO` (100) × the run's median gradient norm or more, and as far above the
    steps before it, the steps after it back near the median, is reported instead, at info with
    that step's samples (one bad batch; clipping bounds its update); warn when the reward or the
    KL did not come back to its level after it. A level that moved with the run is no such step.

    Actions: Lower `max_grad_norm` (clipping) and `learning_rate`; inspect the linked
    samples at the spike steps (extreme advantages, degenerate text); check for
    bf16/fp16 overflow and the importance-sampling ratio (`num_iterations`, vLLM).

    Source: TRL/Transformers Trainer logging (`grad_norm`); training-instability reports in
    large-model RL (e.g. DAPO, Yu et al., 2025).

    Keys:
    spike_z: robust z-score (MAD units) a step needs to count as a spike
    spike_ratio: ... and the factor above the trailing median
    floor_fraction: the medians are at least this fraction of the run's typical (expanding median) level
    min_spikes: spikes within `cluster_window` steps that make a finding
    cluster_window: window (steps) in which spikes are counted
    burst_gap: spikes further apart than this (steps) belong to different bursts
    level_ratio: a sustained level this many times the reference is a finding
    critical_ratio: critical when the held level reaches this many times the reference
    spike_window: trailing window (steps) of the spike baseline
    smooth_window: trailing median window (steps) for the level
    baseline_window: steps in the level's reference window
    gap: steps between the reference window and the present
    sustain: consecutive steps the level shift must hold
    converged_share: share of the repeated completions at the top reward that makes it convergence (info)
    length_push: correlation of advantage with completion length that makes a smooth level shift a length push (info)
    """
    found = logged(view, "grad_norm")
    if found is None:
        return None
    found = _with_signal(view, found)
    if found.log().size < 30:
        # Too few logged values for a burst or a level; one extreme step needs only the steps around it.
        return _extreme_grad_norm(view, found)
    curve = found.log()
    name, steps, lx = curve.name, curve.steps, curve.values
    # Windows are stated in steps (a run logged every 5 steps holds 50 in 10 values), then fitted to the run.
    window = max(10, min(in_points(cfg["spike_window"], curve.stride), curve.size // 4))
    median = curve.median(window, window // 2)
    # Judged against at least a fraction of the run's typical level so far (its expanding
    # median): when nearly every group has zero advantage the trailing median collapses to the
    # KL term's tiny gradient, and the ordinary gradient of one informative group is no spike.
    floor = rolling_median(lx, lx.size, window // 2) + np.log(cfg["floor_fraction"])
    base = shift(np.fmax(median, floor), 1)
    # The noise's scale read from its tail as well as its body: for normal noise both give σ, but
    # a step whose gradient comes from a handful of completions is heavy-tailed (one unusual
    # completion dominates it), and its isolated ×5 steps are that noise, not instability.
    deviation = np.abs(lx - median)
    body = MAD_SCALE * rolling_median(deviation, window, window // 2)
    tail = rolling_quantile(deviation, _TAIL_QUANTILE, window, window // 2) / _TAIL_SIGMAS
    spread = np.maximum(shift(np.fmax(body, tail), 1), 0.05)
    jump = lx - base
    spike = (jump >= cfg["spike_z"] * spread) & (jump >= np.log(cfg["spike_ratio"]))
    cluster = max(10, min(in_points(cfg["cluster_window"], curve.stride), curve.size // 2))

    def in_steps(points: int) -> int:
        return int(round(points * curve.stride))

    count = pl.Series(spike.astype(np.int32)).rolling_sum(cluster, min_samples=1).to_numpy()
    burst = np.flatnonzero(count >= cfg["min_spikes"])
    burst_onset = _burst_onset(spike, burst, cluster, cfg["min_spikes"], in_points(cfg["burst_gap"], curve.stride))

    w = Windows.of(curve, cfg)
    level = curve.smooth(w.smooth)
    ref = np.fmax(curve.reference(w), shift(floor, w.gap))
    up = level - ref
    state = hysteresis(up >= np.log(cfg["level_ratio"]), up >= np.log(cfg["level_ratio"]) * 0.8)
    hit = sustained_onset(state, w.sustain)
    shift_onset = None
    if hit is not None:
        lo = max(0, hit - w.gap - w.baseline)
        noise = smoothed_noise(lx, lo, max(lo + 3, hit - w.gap), w.smooth)
        shift_onset = onset_before(lx, hit, float(ref[hit]), max(3 * noise, np.log(1.3)), True, lo, w.smooth)
    if burst_onset is None and shift_onset is None:
        return _extreme_grad_norm(view, found)
    onset = min(o for o in (burst_onset, shift_onset) if o is not None)
    first, last = int(steps[onset]), int(steps[-1])
    spikes = np.flatnonzero(spike[onset:]) + onset
    # A rolling sum of an Int32 series is an Int32 series: its max is an int.
    in_cluster = cast(int, pl.Series(spike[onset:].astype(np.int32)).rolling_sum(cluster, min_samples=1).max() or 0)
    spike_factor = float(np.median(np.exp(jump[spikes]))) if spikes.size else 1.0
    baseline = float(np.exp(base[onset])) if np.isfinite(base[onset]) else float(np.exp(np.nanmedian(lx[:onset + 1])))
    held_up = held_extreme(up, hit, w.sustain, rising=True) if hit is not None else 0.0
    level_factor = float(np.exp(max(held_up, 0.0)))
    # The level it held, as logged (``level_factor`` is against the trailing reference, not ``baseline``).
    held_level = float(np.exp(held_extreme(level, hit, w.sustain, rising=True))) if hit is not None else baseline
    parts = []
    if spikes.size >= cfg["min_spikes"]:
        parts.append(f"{spikes.size} spikes since step {first} (up to {in_cluster} within {in_steps(cluster)} steps, "
                     f"typically ×{spike_factor:.0f} the trailing median of {baseline:.3g})")
    if hit is not None:
        parts.append(f"its level rose ×{level_factor:.1f} and stayed there")
    strength = max(0, in_cluster - cfg["min_spikes"] + 1) / 3 + max(0.0, np.log(level_factor / cfg["level_ratio"]) + 0.5
                                                                     if hit is not None else 0.0)
    settled = settled_copies(view, first, last)
    converged = settled is not None and settled.converged(cfg["converged_share"])
    # A level that rose smoothly (no burst of spikes) while every group rewarded the same
    # direction of length: the groups' gradients share a direction and add up.
    push = None
    if hit is not None and spikes.size < cfg["min_spikes"]:
        push_to = int(steps[min(hit + w.sustain, steps.size - 1)])
        push = _length_push(view, first, push_to)
        push = push if push is not None and abs(push) >= cfg["length_push"] else None
    # A burst of spikes (no level shift) that did not go on and set the run back in nothing: since
    # its first spike, no more steps `spike_ratio` × above the trailing median than a burst has
    # spikes (counted by ratio alone: frequent spikes widen the noise estimate), and the reward is
    # where it was or higher. Judged once the run has gone a cluster window past it.
    # A policy whose entropy collapsed samples almost one completion; the few that differ are ones it
    # finds unlikely, and an unlikely completion's log-probability has a large gradient: the norm rises
    # because of the collapse (which ENTROPY_COLLAPSE reports), not because the optimizer is unstable.
    # Only when the reward did not rise since: a policy sharpening as it learns keeps this warning, so
    # an instability in a run that learns is never silenced.
    collapsed = collapsed_since_opening(view, ENTROPY_METRICS, first, last) if not converged and push is None else None
    if collapsed is not None:
        gained = reward_progress(view, first)
        collapsed = None if gained is not None and gained.rose else collapsed
    # Where the samples do not show convergence (or there are none), the reward stands in (as
    # ``converged_by_reward`` does for agreeing groups): a level that rose without a burst of spikes in a run
    # whose reward rose and kept its rise (the progress state), and held since the onset, moved with the
    # learning, as a converging policy's does, and set nothing back.
    learnt = None
    if (not converged and hit is not None and spikes.size < cfg["min_spikes"] and push is None
            and collapsed is None):
        learnt = facts_of(view).progress
        since_onset = reward_progress(view, first)
        learnt = learnt if learnt is not None and learnt.learned and (since_onset is None or since_onset.held) \
            else None
    held = None
    since = curve.size - onset
    if (not converged and push is None and hit is None and since >= cluster
            and np.count_nonzero(jump[onset:] >= np.log(cfg["spike_ratio"])) / since <= cfg["min_spikes"] / cluster):
        held = reward_progress(view, first)
        held = held if held is not None and held.held else None
    if collapsed is not None:
        explanation = (f"The gradient norm grew ({'; '.join(parts) or 'from step ' + str(first)}) while the "
                       f"policy's entropy had collapsed (median {collapsed[1]:.3g} over the episode, from "
                       f"{collapsed[0]:.3g} at the run's start): the completions that still differ from the "
                       "one it samples are ones it finds unlikely, and the gradient of an unlikely completion's "
                       "log-probability is large. The collapse is the finding (ENTROPY_COLLAPSE); the norm is "
                       "its symptom, not optimizer instability.")
    elif held is not None:
        explanation = (f"The gradient norm spiked {spikes.size} times since step {first} (up to {in_cluster} within "
                       f"{in_steps(cluster)} steps, typically ×{spike_factor:.0f} the trailing median of "
                       f"{baseline:.3g}) "
                       f"without its level rising, and the reward held ({held.start:.3g} at the first spike, "
                       f"{held.end:.3g} now{', still rising' if held.climbing else ''}): the spikes set the run back "
                       "in nothing (gradient clipping bounds each update). Spikes in a run that keeps its reward "
                       "are noise; spikes followed by a falling reward or a rising KL would be instability.")
    elif learnt is not None:
        explanation = (f"The gradient norm's level rose ×{level_factor:.1f} from step {first} and stayed there, "
                       f"without a burst of spikes, in a run whose reward rose ({learnt.opening:.3g} to "
                       f"{learnt.end:.3g}) and kept its rise: the norm moved as the run learnt. A policy that "
                       "learns finds the completions that still differ unlikely, and their gradients are large"
                       + ("; without samples that cannot be read directly" if view.samples.is_empty() else "")
                       + ". Watch it: a level that keeps rising while the reward falls would be instability.")
    elif push is not None and not converged:
        way, what = ("longer", "LENGTH_EXPLOSION") if push > 0 else ("shorter", "LENGTH_COLLAPSE")
        explanation = (f"The gradient norm's level rose ×{level_factor:.1f} and stayed there, without a burst of "
                       f"spikes, while the advantages rewarded {way} completions in the captured samples of steps "
                       f"{first}–{push_to} (Spearman correlation {push:+.2f} between advantage and completion "
                       f"length): the groups push the policy the same way, so their gradients add up rather than "
                       f"cancel. That is the length exploitation's push ({what}), not optimizer instability.")
    elif converged and settled is not None:
        explanation = (f"The gradient norm grew ({'; '.join(parts)}) while the policy converged on right answers "
                       f"({settled.at_top:.0%} of the {settled.count} completions that repeat another of their group "
                       f"since step {first} earned the best reward their prompt earned): the steps that still "
                       "carry a signal are the completions it now finds unlikely, and the gradient of an unlikely "
                       "completion's log-probability is large. That is convergence, not instability.")
    else:
        explanation = "The gradient norm became unstable: " + "; ".join(parts) + "."
    benign = converged or push is not None or held is not None or collapsed is not None or learnt is not None
    # A benign episode says the norm's level moved with the run (it learnt, converged, collapsed, or its spikes
    # set nothing back). One step ×EXTREME_RATIO the run's median, back near it at the next steps, is no level
    # of the run: it is one batch (a reward in the wrong unit), the finding that says which samples to read.
    extreme = _extreme_grad_norm(view, found) if benign else None
    if extreme is not None:
        return extreme
    judgement = decide(view, "GRAD_NORM_SPIKE", first, strong=level_factor >= cfg["critical_ratio"],
                       benign=benign)
    return Finding(
        signature_id="GRAD_NORM_SPIKE",
        severity=judgement.severity,
        confidence=confidence_from(strength, 1.5, floor=0.5),
        first_step=first,
        explanation=explanation + judgement.why,
        evidence=[Evidence(metric=name, window=(first, last), baseline=baseline,
                           observed=max(baseline * (spike_factor if spikes.size else 1.0), held_level),
                           note=f"spikes: ≥{cfg['spike_z']:g} MAD and ×{cfg['spike_ratio']:g} above the median of "
                                f"the previous {in_steps(window)} steps")]
        + ([held.evidence(first, last)] if held is not None else []),
        suggested_actions=[
            "Nothing to do: the run set them behind it. Keep gradient clipping (`max_grad_norm`) on.",
            "If spikes come back in bursts with a falling reward or a rising KL, lower `max_grad_norm` and "
            "`learning_rate`, and read the linked samples at the spike steps.",
        ] if held is not None else [
            "Lower `max_grad_norm` (clip harder) and `learning_rate`.",
            "Inspect the linked samples at the spike steps: extreme advantages or degenerate text drive the spikes.",
            "Check for bf16/fp16 overflow and, with `num_iterations` > 1 or vLLM, the importance-sampling ratio.",
        ],
        links_to_samples=_samples_at(view, steps[spikes[:10]] if spikes.size else steps[onset:onset + 1]),
    )



@detector("VALUE_LOSS_DIVERGENCE", defaults={"growth_ratio": 5.0, "min_ratio": 10.0, "critical_ratio": 30.0,
                                             "smooth_window": 9, "baseline_window": 100, "gap": 50, "sustain": 10})
def value_loss_divergence(view: RunView, cfg: Mapping[str, Any]) -> Finding | None:
    """PPO's value loss grows by an order of magnitude and keeps growing (the critic diverges).

    Meaning: The value head no longer tracks the returns, so advantages become noise and
    the policy update follows it; PPO runs that diverge here rarely recover. Applies
    only to runs that log a value loss (PPO and other actor-critic trainers).

    Metrics: `value_loss` (TRL PPO's `loss/value_avg`); `val/clipfrac_avg` for context;
    samples' `advantage` for the linked examples.

    Rule: On a log scale, the smoothed value loss (trailing median over `smooth_window`
    steps) rises `growth_ratio` × above its reference (median of the `baseline_window`
    steps that ended `gap` steps earlier), or `min_ratio` × above the lowest level it had
    reached `gap` steps before, and stays most of the way there (hysteresis) for
    `sustain` steps. The onset is where the centred median left the reference. Critical
    when the level held reaches `critical_ratio` × the reference.

    Actions: Lower the critic's learning rate or `vf_coef`; tighten `cliprange_value`;
    enable `whiten_rewards` or normalise/clip the reward scale; check the reward model's
    outputs for outliers.

    Source: PPO (Schulman et al., 2017); "Implementation Matters in Deep RL" (Engstrom et
    al., 2020) — value clipping and reward scaling; TRL PPO documentation (`loss/value_avg`,
    `val/clipfrac_avg`).

    Keys:
    growth_ratio: value loss this many times its reference is a divergence
    min_ratio: ... or this many times the lowest level it had reached
    critical_ratio: critical when the held level reaches this many times the reference
    smooth_window: trailing median window (steps) that de-noises the curve
    baseline_window: steps in the reference window
    gap: steps between the reference window and the present
    sustain: consecutive steps the growth must hold
    """
    found = logged(view, *VALUE_LOSS_METRICS)
    if found is None or found.log().size < 30:
        return None
    curve = found.log()
    name, steps, lx = curve.name, curve.steps, curve.values
    w = Windows.of(curve, cfg)
    level = curve.smooth(w.smooth)
    ref = curve.reference(w)
    best = shift(np.fmin.accumulate(np.where(np.isfinite(level), level, np.inf)), w.gap)
    above = np.fmax(level - ref, level - best)
    need = np.where(level - ref >= np.log(cfg["growth_ratio"]), np.log(cfg["growth_ratio"]), np.log(cfg["min_ratio"]))
    state = hysteresis(((level - ref) >= np.log(cfg["growth_ratio"])) | ((level - best) >= np.log(cfg["min_ratio"])),
                       above >= 0.6 * need)
    hit = sustained_onset(state, w.sustain)
    if hit is None:
        return None
    baseline_log = float(ref[hit]) if np.isfinite(ref[hit]) else float(best[hit])
    lo = max(0, hit - w.gap - w.baseline)
    noise = smoothed_noise(lx, lo, max(lo + 3, hit - w.gap), w.smooth)
    onset = onset_before(lx, hit, baseline_log, max(3 * noise, np.log(1.3)), True, lo, w.smooth)
    observed = float(np.exp(held_extreme(level, hit, w.sustain, rising=True)))
    baseline = float(np.exp(baseline_log))
    ratio = observed / baseline
    first, last = int(steps[onset]), int(steps[-1])
    evidence = [Evidence(metric=name, window=(first, last), baseline=baseline, observed=observed,
                         note=f"highest level held for {w.sustain} steps; reference: median of {w.baseline} steps "
                              f"ending {w.gap} steps before")]
    if view.has("val/clipfrac_avg"):
        clip = view.series("val/clipfrac_avg")
        before = clip[(view.step < first)][-w.baseline:]
        after = clip[view.step >= first]
        evidence.append(Evidence(metric="val/clipfrac_avg", window=(first, last),
                                 baseline=finite_median(before), observed=finite_median(after[-w.baseline:]),
                                 note="share of value predictions clipped"))
    judgement = decide(view, "VALUE_LOSS_DIVERGENCE", first, strong=ratio >= cfg["critical_ratio"])
    return Finding(
        signature_id="VALUE_LOSS_DIVERGENCE",
        severity=judgement.severity,
        confidence=confidence_from(np.log(ratio / cfg["growth_ratio"]) + 0.5, 1.5, floor=0.55),
        first_step=first,
        explanation=(f"The value loss grew from {baseline:.3g} to {observed:.3g} (×{ratio:.0f}) starting at step "
                     f"{first}: the critic is diverging, so the advantages it produces are noise." + judgement.why),
        evidence=evidence,
        suggested_actions=[
            "Lower the learning rate or `vf_coef`; tighten `cliprange_value`.",
            "Normalise the reward scale (`whiten_rewards=True`, reward clipping) and check the reward model for "
            "outliers.",
            "Inspect the linked samples with the most extreme advantages.",
        ],
        links_to_samples=view.top_samples(first, last, pl.col("advantage").abs(), k=5),
    )


#: Spike positions tried as the end of a burst before giving up (bounds the walk on long runs).
_BURST_TRIES = 200


def _burst_onset(spike: np.ndarray, burst: np.ndarray, cluster: int, min_spikes: int, burst_gap: int) -> int | None:
    """The first spike of the first dense run of at least ``min_spikes`` spikes: from each spike that
    completed ``min_spikes`` within ``cluster`` steps (``burst``), walk back until a gap much longer
    than the burst's own spacing (or than ``burst_gap``) separates it from the healthy background's
    isolated spikes. Spikes that a window counts together but that stand that far apart are the
    background, not a burst, and the next candidate is tried."""
    ends = np.flatnonzero(spike)
    ends = ends[ends >= burst[0]][:_BURST_TRIES] if burst.size else ends[:0]
    for end in (int(e) for e in ends):
        members = np.flatnonzero(spike[:end + 1])
        around = np.flatnonzero(spike[max(0, end - cluster):end + cluster])
        spacing = float(np.median(np.diff(around))) if around.size > 1 else float(cluster)
        loose = np.flatnonzero(np.diff(members) > min(cluster / 2, burst_gap, max(10.0, 5 * spacing)))
        dense = members[loose[-1] + 1:] if loose.size else members
        if dense.size >= min_spikes:
            return int(dense[0]) if loose.size else int(members[max(0, members.size - min_spikes)])
    return None


def _with_signal(view: RunView, grad: Curve) -> Curve:
    """The gradient norm at the steps that had a policy-gradient signal: where every group of
    a logged step had identical rewards (``frac_reward_zero_std`` = 1, or ``reward_std`` = 0 in
    a log without that share: ``every_group_agreed``) the advantages are all
    zero and the gradient is only the KL term's (or 0), a different quantity; next to such
    steps the ordinary gradient of a step with signal would look like a spike. Steps whose
    captured samples hold the whole generation batch with every advantage 0 are silent too:
    with batch-scaled rewards TRL's ``frac_reward_zero_std`` counts only a batch that is flat
    as a whole, while each group that agrees still has zero advantage (and the Trainer logs
    the grad norm of the logging step itself, not a mean over ``logging_steps``)."""
    silent = np.zeros(grad.size, dtype=bool)
    agreed = every_group_agreed(view)
    if agreed is not None:
        silent |= agreed[np.searchsorted(view.step, grad.steps)]
    batch = _generation_batch(view)
    frame = samples_with(view, "advantage") if batch else None
    if frame is not None:
        flat = (frame.group_by("step").agg(n=pl.len(), top=pl.col("advantage").abs().max())
                .filter((pl.col("n") >= batch) & (pl.col("top") <= _NO_ADVANTAGE)))
        silent |= np.isin(grad.steps, flat["step"].to_numpy())
    # TRL logs the share of agreeing groups as a mean over the logging window but the grad norm of the logging
    # step alone: a window whose share is below 1 can still end on a step where every group agreed. Such a
    # step's norm is the KL term's (0 at the run's start, where the policy is its reference), orders of
    # magnitude under the policy gradient's; at a run's opening, where most groups agree, a reference made of
    # them turns the first step with a signal into a "level shift". A step is read as silent when its window
    # could hold one (``logged_step_may_have_agreed``) and its norm is under 1/``EXTREME_RATIO`` of the run's median.
    positive = grad.values[~silent & (grad.values > 0)]
    if positive.size:
        maybe = logged_step_may_have_agreed(view)
        if maybe is not None:
            tiny = grad.values <= float(np.median(positive)) / EXTREME_RATIO
            silent |= tiny & maybe[np.searchsorted(view.step, grad.steps)]
    if not silent.any():
        return grad
    return Curve(grad.name, grad.steps[~silent], grad.values[~silent])


#: |advantage| at or below this is no advantage (TRL's float32 rounding of an equal-reward
#: group's reward − mean, over std + 1e-4, stays near 1e-3).
_NO_ADVANTAGE = 1e-2


def _generation_batch(view: RunView) -> int | None:
    """Completions behind one optimizer step's advantages: per-device batch × gradient
    accumulation × processes (None when the trainer config does not say)."""
    config = view.manifest.get("trainer_config") or {}
    batch = config.get("per_device_train_batch_size")
    if not isinstance(batch, (int, float)) or isinstance(batch, bool) or batch < 1:
        return None
    accumulation = config.get("gradient_accumulation_steps") or 1
    return int(batch * accumulation * (view.manifest.get("world_size") or 1))


def _length_push(view: RunView, first: int, last: int) -> float | None:
    """Spearman correlation between advantage and completion length (characters) over the
    captured samples of steps [first, last] that carry an advantage; None with fewer than 20."""
    frame = samples_with(view, "advantage", "completion")
    if frame is None:
        return None
    window = frame.filter(pl.col("step").is_between(first, last) & (pl.col("advantage").abs() > _NO_ADVANTAGE))
    if window.height < 20:
        return None
    value = window.select(pl.corr(pl.col("advantage"), pl.col("completion").str.len_chars(),
                                  method="spearman")).item()
    return float(value) if value is not None and np.isfinite(value) else None


def _has_sample(column: str, view: RunView) -> bool:
    samples = view.samples
    return not samples.is_empty() and column in samples.columns and samples[column].drop_nulls().len() > 0


def _samples_at(view: RunView, at_steps: np.ndarray, k: int = 5) -> list[str]:
    """The largest-|advantage| samples captured at the given steps (the spike drivers)."""
    if view.samples.is_empty() or "advantage" not in view.samples.columns:
        return []
    chosen = view.samples.filter(pl.col("step").is_in(at_steps.tolist()) & pl.col("advantage").is_not_nan())
    return chosen.sort(pl.col("advantage").abs(), descending=True).head(k)["sample_id"].to_list()
