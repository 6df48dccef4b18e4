"""Policy entropy: a collapse (exploration gone) or an explosion (sampling turned to noise),
each judged against the entropy's own recent level — a decline by a third over a run is
normal, and no absolute entropy value is "too low" for every model and task."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ..catalog import detector
from ..facts.groups import CONVERGED_SHARE, MOSTLY
from ..facts.groups import settled as settled_copies
from ..facts.metrics import ENTROPY_METRICS, LENGTH_METRICS
from ..facts.opening import collapsed
from ..facts.progress import reward_progress
from ..facts.run import converged_by_reward, learned_past_a_blind_share
from ..facts.severity import decide
from ..findings import Finding
from ..toolkit import (
    Windows,
    confidence_from,
    logged,
    long_enough,
    opening_reference,
    percent,
    relative_change,
    rise_reference,
)
from ..view import RunView

_WINDOWS = {"smooth_window": 9, "baseline_window": 100, "gap": 50, "sustain": 10}


#: A mean completion length at or below this many tokens makes the per-token entropy that of one or two
#: decisions (what to say first, whether to stop), not a measure of noise in the text.
_FEW_TOKENS = 3.0


@detector("ENTROPY_COLLAPSE", defaults={"drop_ratio": 0.45, "exit_ratio": 0.55, "critical_ratio": 0.12,
                                        "converged_share": CONVERGED_SHARE, **_WINDOWS})
def entropy_collapse(view: RunView, cfg: Mapping[str, Any]) -> Finding | None:
    """Policy entropy falls to a small fraction of its own recent level and stays there.

    Meaning: The policy has become (nearly) deterministic: every completion of a prompt
    looks the same, groups stop disagreeing, and the reward stops improving — the
    exploration that RL needs is gone. A fast early drop predicts an early reward ceiling.

    Metrics: `entropy_mean` (TRL's `entropy`, PPO's `policy/entropy_avg`); samples' `entropy`
    for the linked examples.

    Rule: Smoothed entropy (trailing median over `smooth_window` steps) divided by its
    reference (median of the `baseline_window` steps that ended `gap` steps earlier) falls
    to `drop_ratio` or below and stays below `exit_ratio` (hysteresis) for `sustain` steps;
    until the run has that much history, its opening level (median of its first 3 logged
    steps) is the reference; a fall from an exploded level (twice or more one the entropy held
    before) is measured against that earlier level, so entropy settling back after an explosion
    is not a collapse. The onset is where the centred median last sat at the reference. Critical
    when the level held afterwards is `critical_ratio` of the reference or less. A gradual decline
    (a third over the run is normal) never comes close to the ratio. It is convergence,
    reported as info, when at least `converged_share` of the completions that repeat another of
    their group since the onset earned the run's top reward (the highest any captured sample
    earned, without scoring nothing on a component the run earns elsewhere): a policy sure of
    right answers has low entropy by design. Without samples, info when the reward's progress says the
    run converged (``converged_by_reward``: the reward rose and kept its rise, and at least half the
    groups, `MOSTLY`, agree and came to as it rose, no component it earned having died): a policy
    converging a prompt at a time; and when the logged share of agreeing groups stays near 0
    (``learned_past_a_blind_share``: at most a tenth) while the reward rose and kept its rise: a
    policy this deterministic repeats its completions, and TRL's float32 comparison of identical
    inexact rewards (1 + 0.2 over six completions) counts none of them as agreeing. Likewise
    info when the reward has clearly risen since the onset (by 3× its step noise) and is still
    climbing over the latter half of the stretch (a trend 3 standard errors above flat): a policy
    learning its task sharpens; at most warn when it rose and then stalled (an exploration ceiling).
    An episode that ended (the smoothed curve back within the noise band of its earlier level,
    out of the episode, for `sustain` steps or more to the run's end) is at most warn and names
    the step it came back: severity says the state at the run's end.

    Actions: Raise `temperature`; use clip-higher (GRPOConfig `epsilon_high`, e.g. 0.28) so
    low-probability tokens can grow; lower `learning_rate`; add a small entropy bonus or KL
    anchor (`beta`); check the linked low-entropy samples for duplicated completions.

    Source: DAPO (Yu et al., 2025) — entropy collapse and clip-higher; "The Entropy Mechanism
    of Reinforcement Learning for Reasoning Language Models" (Cui et al., 2025) — reward
    saturates as entropy is exhausted, R ≈ −a·exp(H) + b.

    Keys:
    drop_ratio: entropy at or below this fraction of its reference starts a collapse
    exit_ratio: the collapse lasts until entropy is back above this fraction
    critical_ratio: critical when the held level is at or below this fraction
    smooth_window: trailing median window (steps) that de-noises the curve
    baseline_window: steps in the reference window
    gap: steps between the reference window and the present
    sustain: consecutive steps the collapse must hold
    converged_share: share of the repeated completions at the top reward that makes it convergence (info)
    """
    curve = logged(view, *ENTROPY_METRICS)
    if curve is None or not long_enough(curve.steps) or curve.values.min() < 0:
        return None
    name, steps = curve.name, curve.steps
    w = Windows.of(curve, cfg)
    shift = relative_change(curve, w, cfg["drop_ratio"], cfg["exit_ratio"], rising=False)
    if shift is None:
        return None
    ratio = shift.ratio
    first, last = int(steps[shift.onset]), int(steps[-1])
    critical = ratio <= cfg["critical_ratio"]
    confidence = confidence_from(np.log(cfg["drop_ratio"] / max(ratio, 1e-6)), 1.0, floor=0.55)
    settled = settled_copies(view, first, last)
    converged = settled is not None and settled.converged(cfg["converged_share"])
    solved = converged_by_reward(view, first, last, share=MOSTLY) if settled is None else None
    blind = learned_past_a_blind_share(view, first, last) if settled is None and solved is None else None
    progress = None if converged or solved or blind else reward_progress(view, first)
    progress = progress if progress is not None and progress.rose else None
    if blind is not None:
        verdict = (f" No samples were captured, and the logged share of agreeing groups stayed near 0, which a policy "
                   "this deterministic contradicts (TRL compares each group's float32 spread with 0: identical rewards "
                   "whose mean is inexact, such as 1 + 0.2 over six completions, keep a tiny one); the reward rose "
                   f"from {blind.opening:.3g} to {blind.end:.3g} and kept its rise: the policy became deterministic "
                   "on prompts it solves. That is convergence, not lost exploration.")
    elif solved is not None:
        verdict = (f" No samples were captured, but the reward rose from {solved.opening:.3g} to {solved.end:.3g} and "
                   "kept its rise while most groups agree: the policy became deterministic on prompts it solves. "
                   "That is convergence, not lost exploration.")
    elif converged and settled is not None:
        verdict = (f" It became deterministic on right answers: {settled.at_top:.0%} of the {settled.count} "
                   f"completions that repeat another of their group since then earned the best reward their "
                   "prompt earned. That is convergence, not lost exploration.")
    elif progress is not None and progress.climbing:
        verdict = (f" The reward kept rising all the while ({progress.start:.3g} at the onset, {progress.end:.3g} "
                   "now, still climbing): the policy is sharpening on what pays, which lowers entropy by design. "
                   "It is not lost exploration while the reward climbs; a reward that stalls with entropy this low "
                   "would be.")
    elif progress is not None:
        verdict = (f" The reward rose ({progress.start:.3g} at the onset, {progress.end:.3g} now) but has stopped "
                   "climbing while entropy stays this low: that is how an exploration ceiling looks.")
    else:
        verdict = " The policy is becoming deterministic."
    # A rise the reward paid for, that stopped climbing, is an exploration ceiling: at most warn.
    judgement = decide(view, "ENTROPY_COLLAPSE", first, strong=critical and progress is None,
                       benign=converged or solved is not None or blind is not None
                       or (progress is not None and progress.climbing),
                       cap=shift.capped("critical"))
    severity = judgement.severity
    return Finding(
        signature_id="ENTROPY_COLLAPSE",
        severity=severity,
        confidence=confidence,
        first_step=first,
        explanation=(f"Entropy fell from {shift.baseline:.3g} to {shift.observed:.3g} ({percent(ratio)} of "
                     + ("the level it held before rising" if shift.recovered_from is not None else "its level") + ") "
                     f"starting at step {first}; it stayed below {cfg['exit_ratio']:.0%} of it for at least "
                     f"{w.sustain} steps." + verdict + shift.recovery(steps) + judgement.why),
        evidence=[shift.evidence(name, first, last, rising=False)]
        + ([progress.evidence(first, last)] if progress is not None else []),
        suggested_actions=[
            "Nothing to do while it holds: a policy sure of what pays has low entropy by design.",
            "If the reward stalls with entropy this low, raise `temperature` or use clip-higher (GRPOConfig "
            "`epsilon_high`, e.g. 0.28) to explore again.",
        ] if severity == "info" else [
            "Raise `temperature` or use clip-higher (GRPOConfig `epsilon_high`, e.g. 0.28) to keep exploring.",
            "Lower `learning_rate`; a KL anchor (`beta` > 0) also slows the collapse.",
            "Check the linked lowest-entropy samples: identical completions within a group mean no learning signal.",
        ],
        links_to_samples=view.top_samples(first, last, "entropy", k=5, descending=False),
    )


@detector("ENTROPY_EXPLOSION", defaults={"rise_ratio": 1.8, "exit_ratio": 1.5, "critical_ratio": 3.0,
                                         "min_run_fraction": 0.5, "min_level": 0.3, **_WINDOWS})
def entropy_explosion(view: RunView, cfg: Mapping[str, Any]) -> Finding | None:
    """Policy entropy climbs to a multiple of its own recent level and stays there.

    Meaning: Sampling is turning into noise — completions drift into gibberish or
    repetition, rewards fall, and a collapse of the run usually follows. Often the
    policy has been pushed off the reference model's support by too large updates.

    Metrics: `entropy_mean` (TRL's `entropy`, PPO's `policy/entropy_avg`); samples' `entropy`
    for the linked examples.

    Rule: Smoothed entropy (trailing median over `smooth_window` steps) divided by its
    reference (median of the `baseline_window` steps that ended `gap` steps earlier) rises
    to `rise_ratio` or more and stays above `exit_ratio` (hysteresis) for `sustain` steps.
    While the smoothed entropy stays above its reference, the rise is measured from the lowest
    reference since it last sat at or below it (over `baseline_window` + `gap` steps at most): a
    rise that takes longer than `gap` steps (letter soup climbing over 20-40 steps) enters the
    trailing window while it goes on, and the ratio to that window would say how fast the entropy
    rose, not how far; a rise to `rise_ratio` × the level it left within `baseline_window` + `gap`
    steps is an explosion however it is spread over them. Entropy that wanders about its level
    sits at or below its reference often, and is judged against the trailing reference as before.
    The onset is where the centred median last sat at the reference. Critical when the
    level held afterwards is `critical_ratio` × the reference or more. The warm-up
    transient and a slow drift (clip-higher runs gain entropy over hundreds of steps, by a
    fraction of its level) stay far below the ratio.
    The level must also reach `min_run_fraction` of the run's early entropy (median of its
    first `baseline_window` steps), and a rise from a collapsed level (half or less of one
    the entropy held before) is measured against that earlier level: entropy recovering to
    where it started is not sampling gone to noise. Until the run has the history for a
    trailing reference, its opening level (median of its first 3 logged steps) is the reference.
    And the level must reach `min_level` nats per token: a policy fine-tuned to near certainty
    (entropy 0.03) that loosens to 0.08 has tripled its entropy yet is far from noise
    (gibberish sits at several nats).
    An episode that ended (the smoothed curve back within the noise band of its earlier level,
    out of the episode, for `sustain` steps or more to the run's end) is at most warn and names
    the step it came back: severity says the state at the run's end. Info when the completions'
    mean length over the episode is at most half its level over the run's first tenth and at
    most 3 tokens: over a token or two, the per-token entropy is that of one decision (what to say
    first, or to stop), and noise would lengthen the text; the shrinking is LENGTH_COLLAPSE's finding.

    Actions: Lower `learning_rate` or `temperature`; tighten the clip range (`epsilon`,
    `epsilon_high`); lower `max_grad_norm`; add or raise the KL penalty (`beta`); roll back
    to a checkpoint before the onset.

    Source: "The Entropy Mechanism of Reinforcement Learning for Reasoning Language
    Models" (Cui et al., 2025); DAPO (Yu et al., 2025) — rising entropy with gibberish
    precedes collapse.

    Keys:
    rise_ratio: entropy at or above this multiple of its reference starts an explosion
    exit_ratio: the explosion lasts until entropy is back below this multiple
    critical_ratio: critical when the held level is at or above this multiple
    min_run_fraction: the level must also reach this fraction of the run's early entropy
    min_level: ... and this absolute entropy (nats per token; sequence entropies are far above it)
    smooth_window: trailing median window (steps) that de-noises the curve
    baseline_window: steps in the reference window
    gap: steps between the reference window and the present
    sustain: consecutive steps the rise must hold
    """
    curve = logged(view, *ENTROPY_METRICS)
    if curve is None or not long_enough(curve.steps) or curve.values.min() <= 0:
        return None
    name, steps = curve.name, curve.steps
    w = Windows.of(curve, cfg)
    early = float(np.median(curve.values[:w.baseline]))
    # Measured from the level the rise left, not from a trailing window the rise has already entered: the
    # ratio says how far the entropy rose within `baseline` + `gap` steps, however slowly it climbed.
    reference = rise_reference(curve.smooth(w.smooth), opening_reference(curve, w), w.baseline + w.gap)
    shift = relative_change(curve, w, cfg["rise_ratio"], cfg["exit_ratio"], rising=True,
                            floor=max(cfg["min_run_fraction"] * early, cfg["min_level"]), reference=reference)
    if shift is None:
        return None
    ratio = shift.ratio
    first, last = int(steps[shift.onset]), int(steps[-1])
    critical = ratio >= cfg["critical_ratio"]
    confidence = confidence_from(np.log(ratio / cfg["rise_ratio"]), 0.5, floor=0.55)
    # Over completions that shrank to a token or two the per-token entropy is that of one decision (what
    # to say first, or to stop): its swings are not noise in the text, and noise would lengthen it.
    shrunk = collapsed(view, LENGTH_METRICS, first, last)
    shrunk = shrunk if shrunk is not None and shrunk[1] <= _FEW_TOKENS else None
    said = (f"Entropy rose from {shift.baseline:.3g} to {shift.observed:.3g} (×{ratio:.1f} "
            + ("the level it held before collapsing" if shift.recovered_from is not None else "its level")
            + f") starting at step {first}, and held above ×{cfg['exit_ratio']:.1f} for at least {w.sustain} steps")
    judgement = decide(view, "ENTROPY_EXPLOSION", first, strong=critical,
                       benign=shrunk is not None, cap=shift.capped("critical"))
    return Finding(
        signature_id="ENTROPY_EXPLOSION",
        severity=judgement.severity,
        confidence=confidence,
        first_step=first,
        explanation=(said + (f", but the completions had shrunk to {shrunk[1]:.3g} tokens (from {shrunk[0]:.3g} at "
                             "the run's start): a per-token entropy over a token or two measures one decision, not "
                             "noise in the text. The shrinking is the finding (LENGTH_COLLAPSE)."
                             if shrunk is not None else ": sampling is turning to noise.")
                     + shift.recovery(steps) + judgement.why),
        evidence=[shift.evidence(name, first, last, rising=True)],
        suggested_actions=[
            "Lower `learning_rate` (or `temperature`) and tighten the clip range (`epsilon`, `epsilon_high`).",
            "Add or raise the KL penalty (`beta`) and lower `max_grad_norm`.",
            "Read the linked highest-entropy samples; if they are gibberish, resume from a checkpoint before "
            "the onset.",
        ],
        links_to_samples=view.top_samples(first, last, "entropy", k=5),
    )
