"""Sample-level signatures: groups that give no learning signal, looping text, groups whose
completions are all the same, and advantages a group-normalised estimator cannot produce.

Per-sample work is Polars expressions over the samples table (group-bys on the group, an
exploded word table for n-grams), bounded to at most ``max_samples_per_step`` samples of
at most ``max_steps`` evenly spaced sample steps, so a 100k-step run costs what a 2k-step
one does.
"""
from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, cast

import numpy as np
import polars as pl

from ..catalog import detector
from ..facts.groups import (
    CONVERGED_SHARE,
    MOSTLY,
    ZERO_STD,
    FlatGroups,
    flat_groups,
    group_keys,
    group_size,
    groups_per_value,
    latter_half,
    samples_with,
    zero_std_metric,
)
from ..facts.groups import settled as settled_copies
from ..facts.metrics import ENTROPY_METRICS
from ..facts.progress import RunProgress, reward_progress
from ..facts.run import budget_capped, converged_by_reward, facts_of
from ..facts.severity import agreement_by_chance, decide, gradient_kept, logged_agreement
from ..findings import Evidence, Finding
from ..toolkit import (
    Excursion,
    confidence_from,
    episode_median,
    find_excursion,
    in_points,
    logging_stride,
    rolling_median,
    shift,
    smooth,
    sustained_onset,
)
from ..view import RunView


def _bounded(frame: pl.DataFrame, per_step: int, max_steps: int) -> pl.DataFrame:
    """At most ``per_step`` samples of each step, from at most ``max_steps`` evenly spaced steps
    (the steps chosen first: every step keeps a sample, and counting within the steps kept is cheaper)."""
    steps = frame["step"].unique().sort()
    if steps.len() > max_steps:
        keep = steps.gather(np.unique(np.linspace(0, steps.len() - 1, max_steps).astype(np.int64)))
        frame = frame.filter(pl.col("step").is_in(keep.implode()))
    return frame.filter(pl.int_range(pl.len()).over("step") < per_step)


def _per_step(frame: pl.DataFrame, value: pl.Expr) -> tuple[np.ndarray, np.ndarray]:
    """(steps, value) with one row per step, steps ascending."""
    out = frame.group_by("step").agg(value.alias("v")).sort("step")
    return out["step"].to_numpy(), out["v"].cast(pl.Float64).fill_null(np.nan).to_numpy()


#: Sums of squares below this (per sample) are zero: a group with no reward spread, or no advantages.
_MISFIT_FLOOR = 1e-12


def _window(steps: np.ndarray, exc: Excursion) -> tuple[int, int]:
    return int(steps[exc.onset]), int(steps[exc.end])


# -- ZERO_ADVANTAGE_GROUPS -----------------------------------------------------------------

@detector("ZERO_ADVANTAGE_GROUPS", defaults={
    "warn_level": 0.8,
    "critical_level": 0.9,
    "smooth_window": 9,
    "sustain": 15,
    "min_group_samples": 4,
    "converged_share": CONVERGED_SHARE,
    "abrupt_fraction": 0.4,
    "noise_entropy": 2.0,
})
def zero_advantage_groups(view: RunView, cfg: Mapping[str, Any]) -> Finding | None:
    """Most groups have identical rewards, so their advantages are zero and they teach nothing.

    Meaning: A group whose completions all earn the same reward has zero reward standard
    deviation, hence zero group-normalised advantage and no policy gradient. A share that
    rises slowly as accuracy saturates is normal; most groups giving no signal for a long
    stretch means the run is spending its compute on prompts that are all solved, all
    failed, or scored by a reward that does not vary.

    Metrics: `frac_reward_zero_std` (TRL GRPO/RLOO); steps with `reward_std` == 0 where it is not
    logged (TRL 0.14) or counts a KL-shaped reward (RLOO with `beta` > 0 subtracts the KL before its
    group statistics); without either, the share of captured groups (at least `min_group_samples`
    samples) whose rewards are all equal.

    Rule: The trailing median of the share is at least `warn_level` for `sustain`
    consecutive steps; critical when the median over the episode reaches `critical_level`.
    The onset is walked back to where the share left its early level (to the first step
    when it was that high from the start). An episode that ended for good (the run went on
    for at least as long again, and `sustain` steps, with the share below the level) while
    the reward rose since it ended is info: the groups agreed until the policy found what pays,
    and it is learning again. It is convergence, reported as info, when at
    least `converged_share` of the captured zero-variance groups were solved (every
    completion earned the run's top reward, and not through a cheap component while a
    correctness component — or, without one so named, a component the run earns elsewhere —
    scored nothing), they were not cut off by the token budget, and
    either the share climbed gradually, over more than `abrupt_fraction` of the steps run
    until it was confirmed, as learning raises it, or at least `converged_share` of the solved
    groups are one completion repeated (the policy settled on a right answer; prompts that any
    answer solves give distinct right completions). Without samples — or when half or more of
    them were solved, on the same climb, short of `converged_share` (prompts learnt one by one
    leave the episode's latter half short of it while the run solves its data) — it is
    convergence when the reward's progress says so: the reward rose and kept its rise, most groups
    agree where the share held (not over the climb to it: prompts learnt one by one), they began to
    agree before it finished rising, and no component the run earned has died. Info too
    when the run learned its reward from an opening fifth whose groups agreed nearly as often
    (``severity.gradient_kept``: the share of groups that still disagree is more than half the
    opening's): that is the level the run learns at, not a lost gradient.
    Otherwise a quick climb means something
    changed (the data, the reward, a policy turned greedy). With few groups a logged value the
    share is quantised (one or two groups a step give only 0, ½, 1, and a median of those jumps
    in one step or reads 100 %), so the share is first a centred mean over enough logged steps
    to hold about 20 groups: groups per logged value = per-device batch × gradient accumulation
    × processes / `num_generations` × `logging_steps`, or, without the config (a console log),
    n when every logged value is a multiple of 1/n (n ≤ 8). The climb is timed on that mean.
    When most zero-variance groups had every completion truncated (or, without samples,
    90 % of completions were), the budget caps the reward: that is said, never "too easy".
    At most warn when the groups earn the top reward while scoring nothing on a correctness
    component: that is reward hacking's symptom, and REWARD_HACKING reports the cause.
    Groups that fail together while the per-token entropy over the episode is `noise_entropy`
    nats or more are a policy emitting noise, never "prompts too hard".

    Actions: Filter out prompts the model always solves or always fails (DAPO-style dynamic
    sampling), raise `num_generations` and `temperature` so groups disagree more often, and
    check that the reward function actually varies.

    Source: TRL's `frac_reward_zero_std` definition (groups with zero reward std give zero
    advantage); DAPO (dynamic sampling of groups with non-zero variance).

    Keys:
    warn_level: share of zero-variance groups that warns once sustained
    critical_level: share over the episode that makes it critical
    smooth_window: steps in the trailing median
    sustain: consecutive steps the smoothed share must stay above warn_level
    min_group_samples: captured samples a group needs to be judged from samples
    converged_share: share of solved groups (and of those that are one completion repeated) making it convergence
    abrupt_fraction: a climb within this fraction of the steps run until it was confirmed is not convergence
    noise_entropy: per-token entropy (nats) at or above which failing groups are a policy emitting noise
    """
    averaged, per_group, per_step = 1, groups_per_value(view), False
    zero_std, agreeing = facts_of(view).zero_std, logged_agreement(view)
    if zero_std is not None and agreeing is not None:
        (share, averaged), steps = zero_std, view.step
        metric = zero_std_metric(view)
        raw, per_step, per_group = agreeing
    else:
        frame = samples_with(view, "group_id", "reward")
        if frame is None:
            return None
        sampled = frame.group_by(group_keys(frame)).agg(n=pl.len(), sd=pl.col("reward").std().fill_null(0.0))
        sampled = sampled.filter(pl.col("n") >= cfg["min_group_samples"])
        if sampled.is_empty():
            return None
        steps, share = _per_step(sampled, (pl.col("sd").abs() <= ZERO_STD).mean())
        metric = "samples: share of groups with equal rewards"
        raw, per_group = share, float(sampled.height) / max(steps.size, 1)
    # Windows are stated in steps: a run logged every 7 steps holds 15 steps in 2 logged values (3 at least).
    stride = logging_stride(steps)
    sustain, smoothing = (max(3, in_points(cfg[key], stride)) for key in ("sustain", "smooth_window"))
    exc = find_excursion(share, level=cfg["warn_level"], sustain=sustain, smooth_window=smoothing)
    if exc is None:
        return None
    first, last = _window(steps, exc)
    span = 1.0 - cfg["warn_level"]
    confidence = confidence_from((exc.observed - cfg["warn_level"]) / max(span, 1e-9)
                                 + 0.25 * math.log2(max(exc.duration, 1) / sustain + 1), 1.0, floor=0.55)
    groups = flat_groups(view, *latter_half(first, last))
    from_start = exc.onset == 0 and exc.baseline >= cfg["warn_level"]
    window = max(smoothing, averaged)
    climb = None if from_start else _climb(steps, share, exc, window)
    rise = climb[1] - climb[0] if climb is not None else 0
    gradual = climb is not None and rise > cfg["abrupt_fraction"] * max(int(steps[exc.hit]), 1)
    capped = budget_capped(view, groups, first, last)
    # The policy settled on its answers: the solved groups are one right completion, repeated.
    settled = groups is not None and not from_start and groups.identical >= cfg["converged_share"]
    converged = (groups is not None and groups.converged(cfg["converged_share"]) and groups.gamed < 0.5
                 and (gradual or settled) and capped is None)
    gamed = groups is not None and groups.solved >= 0.7 and groups.gamed >= 0.5
    # Without samples, or with samples that show most groups solved but fall short of convergence's
    # share (prompts still being learnt one by one), the reward says whether groups agree because
    # they are solved: it rose as the share did and has not given the rise back (the run's progress state).
    mostly_solved = (groups is not None and groups.solved >= MOSTLY and groups.gamed < 0.5 and (gradual or settled)
                     and not converged)
    # An episode that ended for good, the run going on at least as long again with its groups disagreeing,
    # and a reward that rose since: the groups agreed until the policy found what pays (or moved past it).
    since = reward_progress(view, int(steps[exc.end])) if exc.over(steps.size, sustain) and not converged else None
    # Rose: clearly higher now, or still climbing above where it was (a pass rate over a few groups a step
    # is noisy, and a steady climb says more than its end point).
    recovered = since if since is not None and (since.rose or (since.climbing and since.end > since.start)) else None
    # Whether most groups agree is asked of the stretch where the share held (what the finding reports), not
    # of the climb to it: groups learnt one by one agree more as the run goes on.
    held = int(steps[exc.hit])
    learned = (converged_by_reward(view, held, last) if (groups is None or mostly_solved) and not from_start
               and capped is None and recovered is None else None)
    converged = converged or learned is not None
    # With few completions a group, groups agree by chance: an episode no more agreeing than a pass/fail
    # reward's own noise makes them is no finding above info.
    chance = agreement_by_chance(view, raw, steps, first, last, per_step=per_step, groups_per_value=per_group,
                                 completions=group_size(view, samples_with(view, "group_id")))
    # Groups that agree because every completion games a cheap reward are REWARD_HACKING's
    # symptom: at most warn, so that the cause ranks first.
    # Groups that agree no more than they did while the run learned its reward are its level, not a loss.
    kept = None if converged or recovered is not None else gradient_kept(view, first, last)
    judgement = decide(view, "ZERO_ADVANTAGE_GROUPS", first, strong=exc.observed >= cfg["critical_level"],
                       benign=converged or recovered is not None or kept or False,
                       chance=chance, cap="warn" if gamed else "critical")
    if from_start:
        head = (f"From the first logged step ({first}), {exc.observed:.0%} of groups (median over steps "
                f"{held}–{last}) had identical rewards within the group")
    else:
        head = (f"From step {first}, {exc.observed:.0%} of groups (median over steps {held}–{last}) had identical "
                f"rewards within the group, up from {exc.baseline:.0%} early in the run")
    budget = facts_of(view).budget
    entropy = episode_median(view, ENTROPY_METRICS, first, last)
    noise = entropy if entropy is not None and entropy >= cfg["noise_entropy"] else None
    return Finding(
        signature_id="ZERO_ADVANTAGE_GROUPS",
        severity=judgement.severity,
        confidence=confidence,
        first_step=first,
        explanation=(head + ": their advantages are zero and they contribute no gradient."
                     + (f" The episode ended at step {last}: the groups have disagreed since, and the reward rose "
                        f"from {recovered.start:.3g} to {recovered.end:.3g}, so the policy is learning again; it is "
                        "not rated as ongoing." if recovered is not None else
                        _learned(learned, groups) if learned is not None else
                        _zero_std_cause(groups, converged, climb if gradual else None, from_start, capped, budget,
                                        noise)) + judgement.why),
        evidence=[Evidence(metric=metric, window=(first, last), baseline=exc.baseline, observed=exc.observed,
                           note=f"median share{_averaged(averaged)}; baseline = first fifth of the run; peak "
                                f"{exc.peak:.0%} ({cfg['smooth_window']}-step trailing median)"
                                + (f"; {chance.said()}" if chance is not None else ""))],
        suggested_actions=[
            f"Fix the reward gaming first (see REWARD_HACKING): make '{groups.truth}' a condition of the other "
            "rewards, or lower their `reward_weights`." if gamed and groups is not None else
            "Raise `max_completion_length` (or shorten what the task asks for): completions cut at the budget all "
            "earn the same reward." if capped is not None else
            "Filter prompts the model always solves or always fails (DAPO-style dynamic sampling / online "
            "difficulty filtering) or move to harder data.",
            "Raise `num_generations` (GRPOConfig) and `temperature` so completions of a prompt disagree more often.",
            "Check the reward functions return varied values: a constant reward makes every group zero-variance.",
        ],
        links_to_samples=groups.links if groups is not None else [],
    )


def _learned(progress: RunProgress, groups: FlatGroups | None) -> str:
    said = (f" {groups.solved:.0%} of the captured zero-variance groups were solved, and the reward says the run "
            "converged" if groups is not None else " No samples were captured, but the reward says why")
    return (f"{said}: it rose from {progress.opening:.3g} to "
            f"{progress.end:.3g} (highest level held {progress.peak:.3g}) and has not given the rise back, so most "
            "groups agree because most prompts are solved. The data no longer teaches the policy: stop here, or "
            "move to harder prompts.")


def _averaged(points: int) -> str:
    return f" of a mean over {points} logged steps (few groups a step)" if points > 1 else ""


def _climb(steps: np.ndarray, share: np.ndarray, exc: Excursion, window: int) -> tuple[int, int] | None:
    """(first, last) step of the share's climb from its early level to the episode's."""
    return _rise_between(steps, share, exc.baseline, exc.observed, exc.hit, window)


def _rise_between(steps: np.ndarray, x: np.ndarray, baseline: float, target: float, hit: int,
                  window: int) -> tuple[int, int] | None:
    """(first, last) step of a climb of ``x`` from ``baseline`` to ``target``: where a centred
    ``window``-point mean last sat within 10 % of the rise above the baseline, and
    where it first got within 10 % of the target (by ``hit`` + ``window``). None when it did
    not rise."""
    rise = target - baseline
    if not rise > 0:
        return None
    mean = (pl.Series(x, dtype=pl.Float64).fill_nan(None)
            .rolling_mean(window, center=True, min_samples=1).fill_null(np.nan).to_numpy())
    upto = min(x.size, hit + window)
    top = np.flatnonzero(mean[:upto] >= baseline + 0.9 * rise)
    reached = int(top[0]) if top.size else hit
    low = np.flatnonzero(mean[:reached] <= baseline + 0.1 * rise)
    start = int(low[-1]) + 1 if low.size else 0
    return int(steps[min(start, reached)]), int(steps[reached])


def _zero_std_cause(groups: FlatGroups | None, converged: bool, climb: tuple[int, int] | None, from_start: bool,
                    capped: float | None, budget: float | None, noise: float | None = None) -> str:
    """What the captured zero-variance groups (and the truncated share, and an entropy of
    ``noise`` nats a token) say about why they agree."""
    noisy = (f" Entropy was {noise:.2g} nats per token meanwhile (a fluent policy samples well under 1): the policy "
             "emits noise (see ENTROPY_EXPLOSION), so nothing it writes scores — not prompts too hard."
             if noise is not None else "")
    if capped is not None:
        at = f"the {budget:g}-token budget" if budget else "the token budget"
        whose = "of these groups had every captured completion" if groups is not None else "of completions were"
        return (f" {capped:.0%} {whose} cut off at {at}: the budget caps the reward, so the completions of a prompt "
                "all earn the same (see TRUNCATION_HIGH), whatever the prompt's difficulty.")
    if groups is None:
        return noisy
    if converged:
        how = (f"the share climbed gradually (over {climb[1] - climb[0]} steps, from step {climb[0]} to {climb[1]}) "
               "as the reward did" if climb is not None else
               f"{groups.identical:.0%} of the solved groups were one completion repeated: the policy settled on "
               "a right answer")
        return (f" In the captured samples {groups.solved:.0%} of these groups were solved by every completion, "
                f"and {how}: the run has converged on its prompts, which no longer teach it anything. Stop here, "
                "or move to harder prompts.")
    if groups.solved >= 0.7 and groups.gamed >= 0.5:
        return (f" In the captured samples {groups.solved:.0%} of these groups earned the top reward, but "
                f"{groups.gamed:.0%} of those scored nothing on '{groups.truth}': the top reward is being earned "
                "without solving the task (reward hacking is the cause).")
    if groups.solved >= 0.7:
        if from_start:
            return (f" In the captured samples {groups.solved:.0%} of these groups earned the top reward from the "
                    "first step: the prompts are too easy for this model, or the reward too easy to earn.")
        pace = (f"within {climb[1] - climb[0]} steps (steps {climb[0]}–{climb[1]})" if climb is not None
                and climb[1] > climb[0] else "at once")
        return (f" In the captured samples {groups.solved:.0%} of these groups earned the top reward: for the policy "
                f"these prompts are now too easy. The share rose "
                f"{pace}, faster than learning raises it: something changed there — the data, the reward, or the "
                "policy itself (an entropy collapse makes every completion of a prompt the same).")
    if groups.failed >= 0.7:
        return (f" In the captured samples {groups.failed:.0%} of these groups earned the lowest reward"
                + (f".{noisy}" if noisy else ": the prompts are too hard or the reward never fires."))
    return (f" In the captured samples {groups.solved:.0%} of these groups earned the top reward and "
            f"{groups.failed:.0%} the lowest.")


# -- REPETITIVE_COMPLETIONS ----------------------------------------------------------------

@detector("REPETITIVE_COMPLETIONS", defaults={
    "ngram": 4,
    "repetitive_text": 0.5,
    "warn_share": 0.2,
    "critical_share": 0.5,
    "min_rise": 0.15,
    "smooth_window": 7,
    "sustain": 6,
    "max_words": 200,
    "max_samples_per_step": 8,
    "max_steps": 1000,
})
def repetitive_completions(view: RunView, cfg: Mapping[str, Any]) -> Finding | None:
    """A rising share of completions loop: the same word n-grams over and over.

    Meaning: Degenerate repetition ("let me check again. let me check again. ...") is how a
    policy that has drifted off the reference's support, or one rewarded for length, usually
    shows in its text; it typically precedes a reward collapse.

    Metrics: The captured samples' `completion` text. A completion's repetition is the share
    of its word `ngram`-grams (lower-cased, last `max_words` words) that repeat an earlier one;
    a completion too short for them (3 words to 2 × `ngram`) loops in words ("juice juice
    juice"), and its repetition is the share of its words that repeat one. It counts as
    repetitive at `repetitive_text` or more.

    Rule: Per sample step, the share of repetitive completions; its trailing median must be
    at least `warn_share` and at least `min_rise` above the first fifth of the run for
    `sustain` consecutive sample steps. Critical when the median share over the episode
    reaches `critical_share`. Needs samples; silent without them.

    Actions: Set `repetition_penalty` (GRPOConfig, e.g. 1.05–1.1) for generation, cap
    `max_completion_length` with `mask_truncated_completions=True` so loops that run to the cap
    get no gradient, add an n-gram repetition penalty to the reward, and lower `learning_rate`
    or raise `beta` if KL is climbing too.

    Source: DAPO (overlong filtering / length shaping against degenerate long outputs);
    n-gram repetition is the usual degeneration measure (Holtzman et al., "The Curious Case
    of Neural Text Degeneration").

    Keys:
    ngram: words per n-gram
    repetitive_text: repeated n-gram share at which one completion counts as repetitive
    warn_share: share of repetitive completions per step that warns once sustained
    critical_share: share over the episode that makes it critical
    min_rise: how far the share must rise above the run's early level
    smooth_window: sample steps in the trailing median
    sustain: consecutive sample steps the condition must hold
    max_words: only the last this-many words of each completion are scored
    max_samples_per_step: samples scored per step, at most
    max_steps: sample steps scored, at most (evenly spaced)
    """
    frame = samples_with(view, "completion", "sample_id")
    if frame is None:
        return None
    # Only the columns it reads are carried through the choice of samples (not every sample's prompt).
    scored = _repetition(_bounded(frame.select("step", "sample_id", "completion"), cfg["max_samples_per_step"],
                                  cfg["max_steps"]), cfg["ngram"], cfg["max_words"])
    if scored.is_empty():
        return None
    steps, share = _per_step(scored, (pl.col("repetition") >= cfg["repetitive_text"]).mean())
    exc = find_excursion(share, level=cfg["warn_share"], min_rise=cfg["min_rise"], sustain=cfg["sustain"],
                         smooth_window=cfg["smooth_window"])
    if exc is None:
        return None
    first, last = _window(steps, exc)
    in_window = scored.filter(pl.col("step").is_between(first, last))
    mean_rep = cast(float, in_window["repetition"].mean())  # a float column, and the window is not empty
    critical = exc.observed >= cfg["critical_share"]
    confidence = confidence_from((exc.observed - cfg["warn_share"]) / max(cfg["warn_share"], 1e-9)
                                 + (exc.observed - exc.baseline) / max(cfg["min_rise"], 1e-9) * 0.25, 1.5, floor=0.55)
    return Finding(
        signature_id="REPETITIVE_COMPLETIONS",
        # Looping text is degenerate output: the harm is the symptom itself.
        severity=decide(view, "REPETITIVE_COMPLETIONS", first, strong=critical).severity,
        confidence=confidence,
        first_step=first,
        explanation=(f"From step {first}, {exc.observed:.0%} of sampled completions per step were repetitive "
                     f"(≥{cfg['repetitive_text']:.0%} of their {cfg['ngram']}-grams repeated), up from "
                     f"{exc.baseline:.0%} early in the run; over steps {first}–{last} the average completion "
                     f"repeated {mean_rep:.0%} of its {cfg['ngram']}-grams."),
        evidence=[Evidence(metric=f"samples: share of completions with repeated {cfg['ngram']}-grams",
                           window=(first, last), baseline=exc.baseline, observed=exc.observed,
                           note=f"median per-step share; peak {exc.peak:.0%} "
                                f"({cfg['smooth_window']}-sample-step trailing median)")],
        suggested_actions=[
            "Set `repetition_penalty` in GRPOConfig (e.g. 1.05–1.1) for generation.",
            "Cap `max_completion_length` and set `mask_truncated_completions=True` so loops that run to the cap get "
            "no gradient; consider an n-gram repetition penalty in the reward.",
            "If KL or entropy moved with it, lower `learning_rate` or raise `beta`; read the linked samples first.",
        ],
        links_to_samples=in_window.sort("repetition", descending=True).head(5)["sample_id"].to_list(),
    )


#: Odd 64-bit multipliers that fold an n-gram's word hashes into one (wrapping arithmetic).
_GRAM_MIX = (0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9, 0x27D4EB2F165667C5)
#: Words a completion too short for n-grams needs before its repeated words are scored: two words
#: that agree ("red red") are an answer said twice, three the same are a loop.
_SHORT_WORDS = 3


def _repetition(frame: pl.DataFrame, n: int, max_words: int) -> pl.DataFrame:
    """``step, sample_id, repetition``: share of each completion's word n-grams that repeat
    an earlier one; a completion with fewer than ``2n`` words, too short for n-grams, scores the
    share of its words that repeat one (with `_SHORT_WORDS` words at least; shorter ones are left out)."""
    # Splitting on spaces (newlines and tabs made spaces) is several times cheaper than a
    # word regex; the empty words that runs of spaces leave behind are dropped after exploding.
    tokens = pl.col("completion").str.to_lowercase().str.replace_all(r"[\n\t\r]", " ").str.split(" ")
    texts = frame.select("step", "sample_id", tokens.list.tail(max_words).alias("w")).with_row_index("_row")
    words = (texts.select("_row", "w").explode("w").filter(pl.col("w") != "")
             .with_columns(pl.col("w").hash()))
    # An n-gram is its n consecutive word hashes, all of one completion, folded into one number:
    # a polynomial in them (a struct of n columns hashed costs ~20 MB more at 8000 completions).
    gram = pl.col("w")
    for k in range(1, n):
        gram = gram * pl.lit(_GRAM_MIX[k % len(_GRAM_MIX)], pl.UInt64) + pl.col("w").shift(-k)
    grams = words.select("_row", gram=gram, whole=pl.col("_row").shift(-(n - 1)) == pl.col("_row")
                         ).filter(pl.col("whole"))
    per_text = (grams.group_by("_row").agg(total=pl.len(), distinct=pl.col("gram").n_unique())
                .filter(pl.col("total") >= n + 1))
    # A completion too short for n-grams loops in words ("juice juice juice"): it is scored on them.
    short = (words.group_by("_row").agg(total=pl.len(), distinct=pl.col("w").n_unique())
             .filter((pl.col("total") >= _SHORT_WORDS) & (pl.col("total") < 2 * n)))
    return (pl.concat([per_text, short]).join(texts.select("_row", "step", "sample_id"), on="_row")
            .select("step", "sample_id", repetition=1.0 - pl.col("distinct") / pl.col("total")))


# -- GROUP_MODE_COLLAPSE -------------------------------------------------------------------

@detector("GROUP_MODE_COLLAPSE", defaults={
    "warn_share": 0.5,
    "critical_share": 0.75,
    "min_rise": 0.3,
    "smooth_window": 7,
    "sustain": 6,
    "max_samples_per_step": 64,
    "max_steps": 2000,
    "converged_share": CONVERGED_SHARE,
})
def group_mode_collapse(view: RunView, cfg: Mapping[str, Any]) -> Finding | None:
    """Completions within a group have become copies of each other: exploration is gone.

    Meaning: GRPO learns from differences between a prompt's completions. When the policy
    emits the same text for most of a group, rewards agree, advantages vanish and pass@k
    narrows to pass@1 — the textual face of entropy collapse.

    Metrics: The captured samples' `completion` and `group_id`. A group's duplicate share is
    (n − distinct)/(n − 1) over its captured completions (lower-cased, whitespace collapsed):
    0 when all differ, 1 when all are the same.

    Rule: Per sample step, the mean duplicate share of groups with at least two captured
    completions; its trailing median must be at least `warn_share` and at least `min_rise`
    above the first fifth of the run (short-answer tasks repeat by nature) for `sustain`
    consecutive sample steps. Critical when the median over the episode reaches
    `critical_share`. It is convergence, reported as info, when at least `converged_share` of
    the copies from the onset to the run's end earned the run's top reward (the highest any
    captured sample earned) without scoring nothing on a component the run earns elsewhere:
    a policy that solved its prompts repeats its right answer; and, as for agreeing groups, when
    at least half of them did (`MOSTLY`: prompts learnt one by one) and the reward's progress says the
    rest are being learnt (``converged_by_reward``: it rose and kept its rise, at least half the groups
    agree — their rewards, or their text, which a KL penalty in the reward cannot keep apart — and began
    to before it finished rising, no earned component died). Also info: an episode whose own median
    share stayed under `warn_share` (a trailing median's crossing, ended or not), and one that ended for
    good (the run went on out of it for `sustain` sample steps and as long again as it lasted, and it
    did not come back: exploration came back) after which the reward held (not lower by 3× its step
    noise): the copies cost the run nothing. Copies from
    the first sample steps (no rise: a low temperature, a short-answer task) are a finding only
    as a stuck policy: at most warn, when the copies are not convergence, the reward is not
    climbing and the episode lasts. Needs samples with group ids; silent without them.

    Actions: Raise `temperature` (and keep `top_p` at 1.0), raise `epsilon_high` (DAPO
    clip-higher) to let unlikely tokens grow, raise `beta` or lower `learning_rate`.

    Source: DAPO (clip-higher against entropy collapse); "The Entropy Mechanism of
    Reinforcement Learning for Reasoning Language Models".

    Keys:
    warn_share: mean within-group duplicate share that warns once sustained
    critical_share: share over the episode that makes it critical
    min_rise: how far the share must rise above the run's early level
    smooth_window: sample steps in the trailing median
    sustain: consecutive sample steps the condition must hold
    max_samples_per_step: samples compared per step, at most
    max_steps: sample steps compared, at most (evenly spaced)
    converged_share: share of the copies at the top reward that makes it convergence (info)
    """
    frame = samples_with(view, "completion", "group_id", "sample_id")
    if frame is None:
        return None
    keys = group_keys(frame)
    frame = _bounded(frame.select(*keys, "completion", "sample_id"), cfg["max_samples_per_step"], cfg["max_steps"])
    text = pl.col("completion").str.strip_chars().hash()
    groups = (frame.with_columns(_text=text)
              .group_by(keys).agg(n=pl.len(), distinct=pl.col("_text").n_unique(),
                                  ids=pl.col("sample_id"))
              .filter(pl.col("n") >= 2)
              .with_columns(dup=(pl.col("n") - pl.col("distinct")) / (pl.col("n") - 1)))
    if groups.is_empty():
        return None
    steps, share = _per_step(groups, pl.col("dup").mean())
    exc = find_excursion(share, level=cfg["warn_share"], min_rise=cfg["min_rise"], sustain=cfg["sustain"],
                         smooth_window=cfg["smooth_window"])
    # Copies from the first sample steps (a low temperature, a short-answer task) show no rise; they
    # are the finding only as a stuck policy (below): not converged on right answers, the reward not climbing.
    from_start = False
    if exc is None:
        exc = find_excursion(share, level=cfg["warn_share"], sustain=cfg["sustain"], smooth_window=cfg["smooth_window"])
        if exc is None or exc.baseline < cfg["warn_share"]:
            return None
        from_start = True
    first, last = _window(steps, exc)
    in_window = groups.filter(pl.col("step").is_between(first, last))
    identical = cast(float, (in_window["distinct"] == 1).mean())  # the window is not empty
    critical = exc.observed >= cfg["critical_share"]
    confidence = confidence_from((exc.observed - cfg["warn_share"]) / (1 - cfg["warn_share"] + 1e-9)
                                 + (exc.observed - exc.baseline) / max(cfg["min_rise"], 1e-9) * 0.25, 1.0, floor=0.55)
    # The group keys break ties, so that the same run links the same groups every time.
    worst = in_window.sort(["dup", "n", *keys], descending=[True, True] + [False] * len(keys)).head(3)
    settled = settled_copies(view, first, int(steps[-1]))
    converged = settled is not None and settled.converged(cfg["converged_share"])
    # Most copies right but short of convergence's share (prompts learnt one by one): the reward's progress
    # says whether the rest are being learnt, as it does for agreeing groups (``converged_by_reward``): groups
    # whose rewards agree, or groups of one text (a KL penalty in the reward keeps their rewards apart).
    learnt = (None if converged or from_start or settled is None or not settled.converged(MOSTLY)
              else converged_by_reward(view, first, int(steps[-1]), share=MOSTLY)
              or converged_by_reward(view, first, int(steps[-1]), share=MOSTLY, agreeing=identical))
    converged = converged or learnt is not None
    progress = None if converged else reward_progress(view, first)
    sharpening = progress is not None and progress.rose and progress.climbing
    # An episode whose own median share never reached the warn level (a trailing median's crossing) is told,
    # not rated, whether or not it came back later; so is an episode that ended for good after which the
    # reward held: the copies cost the run nothing.
    ended = exc.over(steps.size, cfg["sustain"])
    after = reward_progress(view, last) if ended and exc.observed >= cfg["warn_share"] else None
    weak = exc.observed < cfg["warn_share"]
    brief = weak or (ended and after is not None and after.held)
    if from_start and (converged or sharpening or brief or settled is None):
        return None  # copies by the task's nature: short answers repeat, and these are right or still improving
    if learnt is not None and settled is not None:
        verdict = (f" Since step {first}, {settled.at_top:.0%} of the {settled.count} copies earned the best reward "
                   f"their prompt earned, and the reward rose over the run ({learnt.opening:.3g} to {learnt.end:.3g}) "
                   "and kept its rise: the policy is converging on right answers, a prompt at a time.")
    elif converged and settled is not None:
        verdict = (f" Since step {first}, {settled.at_top:.0%} of the {settled.count} copies earned the best reward "
                   "their prompt earned: the policy has converged on right answers, which is what solving a prompt "
                   "looks like; the prompts no longer teach it anything.")
    elif sharpening and progress is not None:
        verdict = (f" The reward kept rising all the while ({progress.start:.3g} at the onset, {progress.end:.3g} now, "
                   "still climbing): the policy is sharpening on what pays, and a prompt's completions agree more as "
                   "it learns. Not lost exploration while the reward climbs; copies with a stalled reward would be.")
    elif brief:
        verdict = (f" The episode was weak: its copies' median share ({exc.observed:.0%}) stayed under "
                   f"{cfg['warn_share']:.0%}, a trailing median's crossing rather than copies that took hold"
                   + (f"; it ended at step {last}, {int(steps[-1]) - last} steps before the run did: exploration "
                      "came back." if ended else ".") if weak or after is None else
                   f" The episode ended at step {last}, {int(steps[-1]) - last} steps before the run did, and the "
                   f"reward held since ({after.start:.3g} then, {after.end:.3g} now): exploration came back and the "
                   "copies cost the run nothing.")
    elif from_start and settled is not None:
        verdict = (f" They were copies from the first sample steps, and they are a stuck policy: only "
                   f"{settled.at_top:.0%} of the {settled.count} copies since step {first} earned the best reward "
                   "their prompt earned, and the reward is not climbing — the groups agree on answers worse than ones "
                   "the run has found, so they cannot learn better ones.")
    else:
        verdict = ""
    rise = "there from the start" if from_start else f"up from {exc.baseline:.0%} early in the run"
    judgement = decide(view, "GROUP_MODE_COLLAPSE", first, strong=critical and not from_start,
                       benign=converged or sharpening or brief)
    return Finding(
        signature_id="GROUP_MODE_COLLAPSE",
        severity=judgement.severity,
        confidence=confidence,
        first_step=first,
        explanation=(f"From step {first}, completions within a group were {'often' if weak else 'mostly'} copies "
                     "of each other: mean "
                     f"duplicate share {exc.observed:.0%} (0% = all distinct, 100% = all identical), {rise}; "
                     f"{identical:.0%} of groups in steps {first}–{last} were entirely identical." + verdict
                     + judgement.why),
        evidence=[Evidence(metric="samples: within-group duplicate share", window=(first, last),
                           baseline=exc.baseline, observed=exc.observed,
                           note=f"(n − distinct)/(n − 1) per group, mean per step; peak {exc.peak:.0%}")],
        suggested_actions=[
            "Raise `temperature` (GRPOConfig) and keep `top_p=1.0` so a prompt's completions can differ.",
            "Raise `epsilon_high` (DAPO clip-higher, e.g. 0.28) so low-probability tokens can still gain mass.",
            "Raise `beta` or lower `learning_rate` to keep the policy near the reference's diversity.",
        ],
        links_to_samples=[sid for ids in worst["ids"].to_list() for sid in ids[:2]][:6],
    )


# -- ADVANTAGE_OUTLIERS --------------------------------------------------------------------

@detector("ADVANTAGE_OUTLIERS", defaults={
    "tolerance": 0.02,
    "misfit": 0.05,
    "min_violating_steps": 3,
    "violation_window": 10,
    "growth_factor": 4.0,
    "baseline_window": 50,
    "smooth_window": 5,
    "sustain": 5,
})
def advantage_outliers(view: RunView, cfg: Mapping[str, Any]) -> Finding | None:
    """Advantages that group normalisation cannot produce, or a sudden heavy tail in them.

    Meaning: With rewards normalised within a group of G (TRL's `scale_rewards="group"`,
    unbiased std), no advantage can exceed (G−1)/√G in magnitude, and in every group-relative
    estimator (GRPO with any `scale_rewards`, RLOO) a group's advantages are a positive
    multiple of its rewards minus their mean. Advantages that break either rule mean the
    advantage computation is broken (wrong group size or reshape, a batch-level mean, a
    stale or wrong normaliser, a mixed-up batch), and a handful of samples then dominate
    the update. Where neither applies (PPO, unknown G), a per-step largest |advantage| that
    jumps far above its own recent history signals the same failure.

    Metrics: The captured samples' `advantage`, `reward` and `group_id`; G from the trainer
    config's `num_generations`, else from the sample groups when they are complete.

    Rule: Critical when, in at least `min_violating_steps` sample steps within
    `violation_window` consecutive sample steps, an |advantage| exceeds (G−1)/√G × (1 +
    `tolerance`) (where that bound applies), or a complete group's advantages miss their
    best fit c·(reward − group mean), c ≥ 0, by a relative residual above `misfit`
    (group-relative algorithms; only groups captured whole count, which the Recorder's
    default top/bottom selection rarely leaves; a group with equal rewards fits while its
    advantages stay within float32 rounding, G × 2⁻²³ × |reward| / 1e-4 with TRL's std
    epsilon; RLOO with `beta` > 0 or `normalize_advantages` is not checked, since TRL builds
    its advantages from the reward minus each completion's own KL, or re-centres them over
    the batch); the onset is the first such step. Elsewhere
    — the trailing median of the per-step largest non-zero |advantage| stays at least
    `growth_factor` times the median of the preceding `baseline_window` sample steps for
    `sustain` steps (warn); only groups whose rewards differ count (a group that agrees on its
    reward has advantages of a KL penalty's alone, where RLOO puts it in the reward: they say
    nothing of the reward's scale). Needs samples; silent without them.

    Actions: Check the advantage code (group size used in the reshape vs `num_generations`,
    the std used as normaliser, `scale_rewards`), clip advantages, and inspect the linked
    samples with the largest |advantage|.

    Source: The group-normalisation bound |A| ≤ (G−1)/√G (one outlier in a group of G with
    Bessel-corrected std); TRL GRPOTrainer's and RLOOTrainer's advantage computations.

    Keys:
    tolerance: relative slack on the (G−1)/√G bound before a value counts as a violation
    misfit: relative residual of a complete group's advantages against c·(reward − group mean) that counts
    min_violating_steps: sample steps with a violation needed within violation_window
    violation_window: sample steps over which violations are counted
    growth_factor: jump of the per-step largest |advantage| over its recent median that counts as a heavy tail
    baseline_window: sample steps in that recent median
    smooth_window: sample steps in the trailing median of the per-step largest |advantage|
    sustain: consecutive sample steps the jump must hold
    """
    frame = samples_with(view, "advantage", "sample_id")
    if frame is None:
        return None
    frame = frame.filter(pl.col("advantage").is_finite()).with_columns(_abs=pl.col("advantage").abs())
    if frame.is_empty():
        return None
    size = group_size(view, frame)
    bound = _advantage_bound(view, size)
    candidates = [_bound_violations(view, frame, bound, size, cfg) if bound is not None else None,
                  _misfit_groups(view, frame, size, cfg)]
    found = [f for f in candidates if f is not None]
    if found:
        return min(found, key=lambda f: f.first_step if f.first_step is not None else math.inf)
    return _heavy_tail(view, frame, cfg) if bound is None else None


def _advantage_bound(view: RunView, group_size: int | None) -> float | None:
    """(G−1)/√G when advantages are group-normalised (TRL GRPO defaults), else None."""
    if group_size is None or group_size < 2:
        return None
    config = view.manifest.get("trainer_config") or {}
    if view.algorithm and view.algorithm not in ("grpo", "dapo", "dr_grpo", "gspo"):
        return None
    scale = config.get("scale_rewards", "group")
    if scale not in (True, "group", None):
        return None
    if config.get("multi_objective_aggregation", "sum_then_normalize") not in ("sum_then_normalize", None):
        return None
    return (group_size - 1) / math.sqrt(group_size)


def _group_relative(view: RunView) -> bool:
    """Whether advantages are group-relative in the recorded rewards (GRPO/RLOO family, one
    summed reward), so each complete group's advantages are a positive multiple of its rewards
    minus their mean. Not RLOO with a KL penalty: TRL's RLOOTrainer subtracts ``beta`` × each
    completion's own sequence KL from its reward before the leave-one-out baseline, so equal
    recorded rewards get unequal advantages; nor RLOO's ``normalize_advantages``, which
    re-centres them over the whole batch."""
    config = view.manifest.get("trainer_config") or {}
    if view.algorithm and view.algorithm not in ("grpo", "dapo", "dr_grpo", "gspo", "rloo"):
        return False
    if view.algorithm == "rloo" and (config.get("beta") or config.get("normalize_advantages")):
        return False
    return config.get("multi_objective_aggregation", "sum_then_normalize") in ("sum_then_normalize", None)


#: float32's relative rounding (2⁻²³) and the 1e-4 TRL adds to the std it divides by: a group
#: whose rewards are all equal has reward − mean of a few float32 ulps, not 0, and so
#: advantages of up to G ulps / 1e-4 (about -1.5e-4 for rewards of 0.2), not exactly 0.
_FLOAT32_EPS, _STD_EPS = 2.0 ** -23, 1e-4


def _misfit_groups(view: RunView, frame: pl.DataFrame, group_size: int | None,
                   cfg: Mapping[str, Any]) -> Finding | None:
    """Complete groups whose advantages are not c·(reward − group mean) for any c ≥ 0: the
    advantages were computed over some other set of samples (a wrong group size or reshape,
    a batch-level mean). Every TRL `scale_rewards` choice keeps this shape, and so does RLOO."""
    if group_size is None or "reward" not in frame.columns or "group_id" not in frame.columns \
            or not _group_relative(view):
        return None
    keys = group_keys(frame)
    a, centred = pl.col("advantage"), pl.col("_centred")
    scored = frame.filter(pl.col("reward").is_finite() & pl.col("group_id").is_not_null())
    # Each reward minus its group's mean, once a row, and the products summed in a group's own order (a
    # list's sum): a sum of an expression over the group's mean inside the aggregation is evaluated group
    # by group, several times slower.
    groups = (scored.with_columns(_centred=pl.col("reward") - pl.col("reward").mean().over(keys))
              .group_by(keys).agg(n=pl.len(), ad=a * centred, dd=centred * centred, aa=(a * a).sum(),
                                  top=a.abs().max(), size=pl.col("reward").abs().max())
              .filter(pl.col("n") == group_size)
              .with_columns(pl.col("ad").list.sum(), pl.col("dd").list.sum()))
    if groups.is_empty():
        return None
    scale = pl.when(pl.col("dd") > _MISFIT_FLOOR).then(pl.max_horizontal(pl.col("ad") / pl.col("dd"), 0.0)) \
        .otherwise(0.0)
    residual = pl.col("aa") - 2 * scale * pl.col("ad") + scale * scale * pl.col("dd")
    # Equal rewards: the advantages are float32 rounding of reward − mean over std + 1e-4 at most.
    rounding = pl.col("n") * _FLOAT32_EPS * pl.max_horizontal(pl.col("size"), 1.0) / _STD_EPS
    noise = (pl.col("dd") <= _MISFIT_FLOOR) & (pl.col("top") <= rounding)
    groups = groups.with_columns(misfit=pl.when((pl.col("aa") > _MISFIT_FLOOR * pl.col("n")) & ~noise)
                                 .then((pl.max_horizontal(residual, 0.0) / pl.col("aa")).sqrt()).otherwise(0.0))
    per_step = (groups.group_by("step").agg(bad=(pl.col("misfit") > cfg["misfit"]).sum(), n=pl.len())
                .sort("step"))
    steps = per_step["step"].to_numpy()
    flagged = per_step["bad"].to_numpy() > 0
    window = int(cfg["violation_window"])
    counts = np.convolve(flagged.astype(float), np.ones(window), mode="full")[: flagged.size]
    hit = sustained_onset(counts >= cfg["min_violating_steps"], 1)
    if hit is None:
        return None
    onset = int(np.flatnonzero(flagged[max(0, hit - window + 1): hit + 1])[0]) + max(0, hit - window + 1)
    first, last = int(steps[onset]), int(steps[-1])
    after = groups.filter(pl.col("step") >= first)
    bad = after.filter(pl.col("misfit") > cfg["misfit"])
    share = bad.height / max(after.height, 1)
    example = bad.sort(["step", "misfit", *keys], descending=[False, True] + [False] * len(keys)).row(0, named=True)
    members = scored.filter(pl.all_horizontal(pl.col(k).eq_missing(example[k]) for k in keys))
    shown = ", ".join(f"{r:.3g}→{adv:+.2f}" for r, adv in zip(members["reward"], members["advantage"], strict=False))
    misfit = cast(float, bad["misfit"].median())  # a float column, and bad is not empty
    ids = (frame.filter(pl.col("step") == example["step"]).join(bad.select(keys), on=keys)
           .sort([pl.col("advantage").abs(), pl.col("sample_id")], descending=[True, False])
           .head(5)["sample_id"].to_list())
    return Finding(
        signature_id="ADVANTAGE_OUTLIERS",
        # Advantages no estimator produces: every update since is computed wrong.
        severity=decide(view, "ADVANTAGE_OUTLIERS", first, strong=True).severity,
        confidence=confidence_from(share * 4 + misfit, 1.0, floor=0.6),
        first_step=first,
        explanation=(f"From step {first}, in {bad.height} of {after.height} complete groups ({share:.0%}) the "
                     f"advantages were not the group's rewards minus their mean, scaled (they fit that shape "
                     f"with a median residual of {misfit:.0%}); e.g. at step {example['step']} (reward→advantage) "
                     f"{shown}. The advantages were computed over the wrong samples: a group size or reshape "
                     f"other than G={group_size}, or a batch-level mean."),
        evidence=[Evidence(metric="samples: advantage vs reward − group mean", window=(first, last), baseline=0.0,
                           observed=misfit, note="relative residual of the best fit advantage = c·(reward − "
                                                 "group mean), c ≥ 0; median over the misfit groups")],
        suggested_actions=[
            "Check the advantage code: rewards must be reshaped into groups of `num_generations` consecutive "
            "completions of one prompt, and the mean (and std) taken within each group.",
            "Check that prompts are repeated `num_generations` times in a row (the sampler) and that "
            "`per_device_train_batch_size` × processes is a multiple of `num_generations`.",
            "Inspect the linked samples: their advantages disagree with their own group's rewards.",
        ],
        links_to_samples=ids,
    )


def _bound_violations(view: RunView, frame: pl.DataFrame, bound: float, group_size: int | None,
                      cfg: Mapping[str, Any]) -> Finding | None:
    limit = bound * (1.0 + cfg["tolerance"])
    per_step = (frame.group_by("step").agg(bad=(pl.col("_abs") > limit).sum(), n=pl.len(), top=pl.col("_abs").max())
                .sort("step"))
    steps = per_step["step"].to_numpy()
    flagged = per_step["bad"].to_numpy() > 0
    window = int(cfg["violation_window"])
    counts = np.convolve(flagged.astype(float), np.ones(window), mode="full")[: flagged.size]
    hit = sustained_onset(counts >= cfg["min_violating_steps"], 1)
    if hit is None:
        return None
    onset = int(np.flatnonzero(flagged[max(0, hit - window + 1): hit + 1])[0]) + max(0, hit - window + 1)
    first, last = int(steps[onset]), int(steps[-1])
    after = per_step.filter(pl.col("step") >= first)
    n_bad, n_all = int(after["bad"].sum()), int(after["n"].sum())
    bad_steps = int((after["bad"] > 0).sum())
    largest = cast(float, after["top"].max())  # a float column, and after is not empty
    confidence = confidence_from(math.log(largest / limit) + math.log1p(bad_steps / cfg["min_violating_steps"]) * 0.5,
                                 1.0, floor=0.6)
    return Finding(
        signature_id="ADVANTAGE_OUTLIERS",
        severity=decide(view, "ADVANTAGE_OUTLIERS", first, strong=True).severity,
        confidence=confidence,
        first_step=first,
        explanation=(f"From step {first}, {n_bad} of {n_all} captured samples ({n_bad / max(n_all, 1):.1%}, in "
                     f"{bad_steps} steps) had |advantage| above {bound:.3g}, the most group normalisation over "
                     f"G={group_size} can produce ((G−1)/√G); the largest was {largest:.3g} "
                     f"(×{largest / bound:.1f} the bound). The advantage computation is broken."),
        evidence=[Evidence(metric="samples: |advantage|", window=(first, last), baseline=bound, observed=largest,
                           note=f"baseline = (G−1)/√G bound for G={group_size}; observed = largest |advantage|")],
        suggested_actions=[
            "Check the advantage code: the group reshape must use `num_generations` and the normaliser the "
            "group's own std (`scale_rewards=\"group\"`).",
            "Inspect the linked samples with the largest |advantage|: they dominate each update they are in.",
            "Until fixed, clip advantages to ±(G−1)/√G or lower `learning_rate`/`max_grad_norm` to limit the damage.",
        ],
        links_to_samples=view.top_samples(first, last, pl.col("advantage").abs(), k=5),
    )


def _heavy_tail(view: RunView, frame: pl.DataFrame, cfg: Mapping[str, Any]) -> Finding | None:
    # Groups with equal rewards have all-zero advantages (or, with a KL penalty in the reward, as RLOO's,
    # advantages of the KL term alone): they say nothing about the reward's scale.
    informative = pl.col("_abs") > 0
    if "reward" in frame.columns and "group_id" in frame.columns:
        informative &= pl.col("reward").std().over(group_keys(frame)).fill_null(0.0) > ZERO_STD
    steps, top = _per_step(frame.filter(informative), pl.col("_abs").max())
    if steps.size < cfg["sustain"] + cfg["smooth_window"]:
        return None
    level = smooth(top, cfg["smooth_window"])
    history = shift(rolling_median(top, cfg["baseline_window"], max(3, cfg["baseline_window"] // 5)),
                    cfg["smooth_window"])
    with np.errstate(invalid="ignore", divide="ignore"):
        ratio = level / np.maximum(history, 1e-12)
    hit = sustained_onset(ratio >= cfg["growth_factor"], cfg["sustain"])
    if hit is None or not history[hit] > 0:
        return None
    baseline = float(history[hit])
    # The jump began after the last step whose largest |advantage| was still under half of it.
    quiet = np.flatnonzero(top[:hit] < cfg["growth_factor"] * baseline * 0.5)
    onset = int(quiet[-1]) + 1 if quiet.size else 0
    first, last = int(steps[onset]), int(steps[-1])
    observed = float(np.nanmedian(top[hit:hit + 4 * cfg["sustain"]]))
    growth = observed / max(baseline, 1e-12)
    confidence = confidence_from(math.log(growth / cfg["growth_factor"]) + 0.3, 1.0, floor=0.5, ceiling=0.9)
    return Finding(
        signature_id="ADVANTAGE_OUTLIERS",
        severity="warn",
        confidence=confidence,
        first_step=first,
        explanation=(f"From step {first}, the largest |advantage| per step rose to {observed:.3g}, ×{growth:.1f} its "
                     f"recent level of {baseline:.3g} (advantages are not group-normalised here, so no hard bound "
                     "applies): "
                     f"a few samples now dominate each update."),
        evidence=[Evidence(metric="samples: largest |advantage| per step", window=(first, last),
                           baseline=baseline, observed=observed,
                           note=f"baseline = median of the preceding {cfg['baseline_window']} sample steps")],
        suggested_actions=[
            "Check the reward scale and the advantage normaliser (`scale_rewards`); a reward that jumped in scale "
            "passes straight into un-normalised advantages.",
            "Clip advantages or rewards, and inspect the linked samples with the largest |advantage|.",
        ],
        links_to_samples=view.top_samples(first, last, pl.col("advantage").abs(), k=5),
    )
