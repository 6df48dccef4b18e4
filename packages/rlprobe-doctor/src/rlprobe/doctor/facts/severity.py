"""The severity policy, decided once for every detector: a symptom's severity comes from the harm
the run shows, never from a level of the detector's own statistic alone.

A detector measures its symptom (onset, magnitude, evidence) and states what it knows of it:

- ``strong``: whether the symptom reached the magnitude its docstring calls critical;
- ``benign``: why what it saw is not harm, when it knows (converged, paid for, recovered, brief);
- ``missing``: what the log lacks to tell, when it lacks it ("cannot tell" instead of a guess);
- ``chance``: for a share, what the statistic's own noise gives (``agreement_by_chance``);
- ``cap``: a lower ceiling, where the cause ranks elsewhere or the episode ended.

``POLICY`` says, once for every signature, the harms that make its symptom urgent (a collapsed
entropy matters when the reward stopped improving; a KL blow-up when the reward did not pay for the
drift), or the harm the symptom itself is (a reward that collapsed, completions cut at the budget,
values that are not finite).

``decide`` then says: info when it cannot tell, when the symptom is benign or when it is what the
statistic's own noise produces by chance (``Chance``); critical only when the symptom is strong
and the run shows, from the onset to its end, one of the harms the symptom answers to (harm that
lasted: each harm is read as the state at the run's end, or over the whole episode); warn
otherwise. docs/detectors.md ("How severity is decided") is this module as a table.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum

import numpy as np
import polars as pl

from ..findings import SEVERITIES, Severity
from ..toolkit import logged
from ..view import RunView
from .budget import truncation
from .groups import (
    best_reward,
    every_group_agreed,
    grid_of,
    group_keys,
    groups_per_value,
    samples_with,
    zero_std_metric,
)
from .metrics import ENTROPY_METRICS, LENGTH_METRICS, REWARD_METRICS
from .progress import reward_progress
from .run import facts_of, given_up_component

__all__ = ["POLICY", "Chance", "Harm", "Judgement", "Rule", "agreement_by_chance", "decide", "gradient_kept",
           "harm_seen"]


class Harm(Enum):
    """What a run shows that makes a symptom urgent."""

    OBJECTIVE = "reward that stopped improving or fell"
    GRADIENT = "loss of the gradient while the reward is short of its best"
    DEGENERATE = "degenerate output (completions cut at the budget, empty, or noise)"
    NONFINITE = "non-finite values"
    DRIFT = "drift from the reference that the reward did not pay for"
    BROKEN = "update computed wrong"
    STOPPED = "stop of the run"


#: A reward within this share of its range (from its floor to its best: ``_short_of_best``) of the best
#: is at its best: a run sitting there has solved what it can, and a flat reward is not harm.
AT_BEST = 0.2
#: Logged values of an episode at or beyond which a harm read over the episode counts as held
#: (fewer say too little to call it lasting).
_HELD_POINTS = 3
#: Share of an episode's logged steps with no gradient (norm 0, or every group agreeing) that is
#: "the gradient is gone".
_NO_GRADIENT = 0.5
#: A run that learned still has its gradient while the share of steps (or groups) giving one is above
#: this part of its opening fifth's share: the episode is the level it learned at, not a loss.
_LOST = 0.5
#: Share of an episode's logged steps at one reward value that makes the reward constant.
_CONSTANT = 0.8
#: Share of completions cut at the budget, or lengths at most this many tokens, over an episode
#: that make the output degenerate.
_CUT = 0.5
_EMPTY_TOKENS = 2.0
#: Captured samples since an onset that can say what its prompts could earn.
_MIN_SAMPLES = 20
#: Groups (or logged steps) a share must count before chance can be told from it.
MIN_TRIALS = 10
#: Per-token entropy (nats) at or above which a policy samples noise, not text.
NOISE_ENTROPY = 2.0
#: The family-wise false-alarm rate of the chance test over the whole run: an episode stands out
#: when so unlikely by chance that scanning every episode-long window of the run would find one
#: this extreme this rarely.
CHANCE_ALPHA = 0.01


@dataclass(frozen=True)
class Seen:
    """One harm the run shows since an onset, with the numbers that say so."""

    harm: Harm
    said: str


def _reward_range(view: RunView) -> tuple[float, float] | None:
    """(floor, best): what the reward can be read against. A reward that stays within [0, 1] is a
    rate or a normalised score, whose best is 1; any other is read against the highest level a
    tenth-of-the-run median of it held (the progress fact's peak; its highest logged value for a run
    too short for that), and against 0 as its floor when it never goes negative."""
    curve = logged(view, *REWARD_METRICS)
    if curve is None or curve.size == 0:
        return None
    low, high = float(np.min(curve.values)), float(np.max(curve.values))
    floor = min(low, 0.0) if low >= 0 else low
    if low >= 0 and high <= 1:
        return floor, 1.0
    state = facts_of(view).progress
    return floor, (state.peak if state is not None else high)


def _latest(steps: np.ndarray, first: int) -> int:
    """The first step of where the run is now, seen from ``first``: the last quarter of the steps
    since it (severity says the state at the run's end, not the average over the episode)."""
    since = steps[steps >= first]
    return int(since[-max(3, since.size // 4)]) if since.size else first


def _short_of_prompts_best(view: RunView, first: int) -> tuple[float, float] | None | bool:
    """From the captured samples of the latest stretch since ``first`` (``_latest``): (their mean reward,
    the mean of their prompts' best, ``groups.best_reward``) when short of it by more than ``AT_BEST``
    of the range from the run's lowest sample reward; None when at it; False when the samples cannot
    say (too few)."""
    frame = samples_with(view, "reward")
    if frame is None:
        return False
    frame = frame.with_columns(_best=best_reward(frame, view)).filter(pl.col("reward").is_finite())
    since = frame.filter(pl.col("step") >= _latest(np.unique(frame["step"].to_numpy()), first))
    if since.height < _MIN_SAMPLES:
        return False
    level, best = float(since["reward"].mean()), float(since["_best"].mean())  # type: ignore[arg-type]
    floor = min(float(frame["reward"].min()), 0.0)  # type: ignore[arg-type]
    return (level, best) if best - level > AT_BEST * max(best - floor, 1e-12) else None


def _short_of_best(view: RunView, first: int) -> tuple[float, float] | None:
    """(level now, best) when the reward's latest level since ``first`` (``_latest``) sits short of
    its best by more than ``AT_BEST`` of its range: against its prompts' best where samples say it (a prompt's best is
    what it can earn), else against ``_reward_range``; None when it is at its best or there is no
    reward."""
    from_samples = _short_of_prompts_best(view, first)
    if from_samples is not False:
        return from_samples  # type: ignore[return-value]
    curve, span = logged(view, *REWARD_METRICS), _reward_range(view)
    if curve is None or span is None:
        return None
    since = curve.values[curve.steps >= _latest(curve.steps, first)]
    if since.size == 0:
        return None
    level = float(np.median(since))
    floor, best = span
    return (level, best) if best - level > AT_BEST * max(best - floor, 1e-12) else None


def _objective(view: RunView, first: int) -> Seen | None:
    """The reward fell since ``first`` (and did not come back), or the run never improved it and it
    sits short of its best: the objective stopped improving. A reward that rose and kept its rise,
    or that sits at its best, is no harm."""
    since = reward_progress(view, first)
    if since is not None and not since.held:
        return Seen(Harm.OBJECTIVE, f"the reward fell from {since.start:.3g} at step {first} to {since.end:.3g}")
    end = int(view.step[-1]) if view.n_steps else first
    dead = given_up_component(view, first, end)
    if dead is not None:
        return Seen(Harm.OBJECTIVE, f"the reward component '{dead[0]}', which the run earned (a level of "
                                    f"{dead[1]:.3g}), fell to {dead[2]:.3g}: the policy gave up part of its task")
    state = facts_of(view).progress
    short = _short_of_best(view, first)
    if state is not None and state.fell and short is not None:
        return Seen(Harm.OBJECTIVE, f"the reward fell from {state.opening:.3g} over the run's first tenth to "
                                    f"{state.end:.3g} over its last")
    if state is not None and state.state in ("flat", "regressed") and short is not None:
        how = "never clearly rose" if state.state == "flat" else f"gave back its rise (highest level {state.peak:.3g})"
        return Seen(Harm.OBJECTIVE, f"the reward {how} and sits at {short[0]:.3g}, short of its best "
                                    f"({short[1]:.3g})")
    return None


def _constant_reward(view: RunView, first: int, last: int) -> float | None:
    """The value the reward held at ``_CONSTANT`` of the episode's logged steps or more: a reward
    that does not vary (a grader answering one score) teaches nothing, wherever that score lies."""
    curve = logged(view, *REWARD_METRICS)
    if curve is None:
        return None
    inside = curve.values[(curve.steps >= first) & (curve.steps <= last)]
    if inside.size < _HELD_POINTS:
        return None
    values, counts = np.unique(np.round(inside, 9), return_counts=True)
    return float(values[np.argmax(counts)]) if counts.max() >= _CONSTANT * inside.size else None


def _no_gradient_share(view: RunView, inside: np.ndarray) -> float | None:
    """The share of the logged steps in ``inside`` that gave no gradient: the larger of the steps with a
    norm of 0 or every group agreeing and the mean share of agreeing groups; None with none logged."""
    if not inside.any():
        return None
    none = np.zeros(int(inside.sum()), dtype=bool)
    if view.has("grad_norm"):
        norm = view.series("grad_norm")[inside]
        none |= np.isfinite(norm) & (np.abs(norm) <= 1e-12)
    agreed = every_group_agreed(view)
    if agreed is not None:
        none |= agreed[inside]
    zero = facts_of(view).zero_std
    agreeing = zero[0][inside] if zero is not None else np.array([])
    agreeing = agreeing[np.isfinite(agreeing)]
    return max(float(none.mean()), float(agreeing.mean()) if agreeing.size else 0.0)


def gradient_kept(view: RunView, first: int, last: int) -> str | None:
    """Why steps ``first``–``last`` lost no gradient the run needed, or None: the run learned its reward
    (``RunProgress.learned``) from an opening fifth that gave as much gradient as the episode still gives
    (the share of steps or groups giving one is above ``_LOST`` of the opening's; an episode there from
    the start is its own opening): the episode is the level the run learned at, not a loss."""
    state = facts_of(view).progress
    if state is None or not state.learned or not view.n_steps:
        return None
    early = _no_gradient_share(view, view.step <= view.step[0] + (view.step[-1] - view.step[0]) / 5)
    share = _no_gradient_share(view, (view.step >= first) & (view.step <= last))
    if early is None or share is None or 1 - share <= _LOST * (1 - early):
        return None
    return (f" The run learned with as little: {early:.0%} of its opening fifth's groups (or logged steps) gave "
            f"no gradient against {share:.0%} over steps {first}–{last}, and the reward rose from {state.opening:.3g} "
            f"to {state.end:.3g} and kept it. That is the level this run learns at, not a lost gradient.")


def _gradient(view: RunView, first: int, last: int) -> Seen | None:
    """Most of the episode gave no gradient (most groups agreeing, or most logged steps with a norm
    of 0 or every group agreeing) while the reward sits short of its best, or holds one value
    throughout: nothing can improve it. Not while the gradient is kept (``gradient_kept``)."""
    short, constant = _short_of_best(view, first), _constant_reward(view, first, last)
    if short is None and constant is None:
        return None
    inside = (view.step >= first) & (view.step <= last)
    if int(inside.sum()) < _HELD_POINTS:
        return None
    share = _no_gradient_share(view, inside)
    if share is None or share < _NO_GRADIENT or (constant is None and gradient_kept(view, first, last)):
        return None
    where = (f"the reward at {short[0]:.3g}, short of its best ({short[1]:.3g})" if short is not None
             else f"the reward at {constant:.3g} at nearly every logged step: it does not vary, so it teaches nothing")
    return Seen(Harm.GRADIENT, f"{share:.0%} of the groups (or logged steps) of steps {first}–{last} gave no "
                               f"gradient, with {where}")


def _degenerate(view: RunView, first: int, last: int) -> Seen | None:
    """Most completions of the episode were cut at the budget, or were empty, or the policy sampled
    noise (a per-token entropy of ``NOISE_ENTROPY`` nats or more: a fluent policy samples well under 1)."""
    cut = truncation(view)
    if cut is not None:
        inside = cut.values[(cut.steps >= first) & (cut.steps <= last)]
        if inside.size >= _HELD_POINTS and float(np.median(inside)) >= _CUT:
            return Seen(Harm.DEGENERATE, f"{float(np.median(inside)):.0%} of completions were cut at the token "
                                         f"budget over steps {first}–{last}")
    lengths = logged(view, *LENGTH_METRICS)
    if lengths is not None:
        inside = lengths.values[(lengths.steps >= first) & (lengths.steps <= last)]
        if inside.size >= _HELD_POINTS and float(np.median(inside)) <= _EMPTY_TOKENS:
            return Seen(Harm.DEGENERATE, f"completions were {float(np.median(inside)):.2g} tokens long over steps "
                                         f"{first}–{last}: next to empty")
    entropy = logged(view, *ENTROPY_METRICS)
    if entropy is not None:
        inside = entropy.values[(entropy.steps >= first) & (entropy.steps <= last)]
        if inside.size >= _HELD_POINTS and float(np.median(inside)) >= NOISE_ENTROPY:
            return Seen(Harm.DEGENERATE, f"the policy sampled noise: {float(np.median(inside)):.2g} nats a token "
                                         f"over steps {first}–{last}")
    return None


def _drift(view: RunView, first: int) -> Seen | None:
    """The reward has not shown that it paid for the policy leaving its reference since ``first``: it
    did not rise, or too little has been logged since to say it did (a blow-up under way, live, is
    presumed harm until the reward shows otherwise)."""
    since = reward_progress(view, first)
    if since is not None and since.rose:
        return None
    said = (f"the reward went from {since.start:.3g} to {since.end:.3g} since step {first}, not paying for it"
            if since is not None else f"nothing logged since step {first} shows the reward paying for it")
    return Seen(Harm.DRIFT, f"the policy left its reference and {said}")


def _nonfinite(view: RunView, first: int, last: int) -> Seen | None:
    inside = (view.step >= first) & (view.step <= last)
    for name in ("loss", "grad_norm", *REWARD_METRICS, "kl_mean"):
        if view.has(name):
            values = view.series(name)[inside]
            bad = int((~np.isfinite(values)).sum())
            if bad and (bad >= 2 or not math.isfinite(float(view.series(name)[-1]))):
                return Seen(Harm.NONFINITE, f"`{name}` was not finite at {bad} logged steps")
    return None


def harm_seen(view: RunView, harms: tuple[Harm, ...], first: int, last: int | None = None) -> Seen | None:
    """The first of ``harms`` the run shows from ``first`` to ``last`` (its end by default)."""
    end = int(view.step[-1]) if view.n_steps else first
    last = end if last is None else last
    for harm in harms:
        seen = (_objective(view, first) if harm is Harm.OBJECTIVE
                else _gradient(view, first, last) if harm is Harm.GRADIENT
                else _degenerate(view, first, last) if harm is Harm.DEGENERATE
                else _drift(view, first) if harm is Harm.DRIFT
                else _nonfinite(view, first, last) if harm is Harm.NONFINITE
                else None)
        if seen is not None:
            return seen
    return None


# -- chance -----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Chance:
    """What a share of agreeing groups would be by chance alone, from its own sample size: with a
    two-valued reward of mean p, a group of G completions agrees with probability p^G + (1−p)^G."""

    expected: float
    """The share expected by chance (of groups, or of steps where every group agreed)."""
    observed: float
    """The share over the episode (a plain mean of the logged values, not a smoothed peak)."""
    trials: int
    """Groups (or steps) behind ``observed``."""
    completions: int
    """G: completions a group (2 when the log does not say: the most chance-prone case)."""
    assumed: bool
    """Whether G was assumed rather than read from the config or the samples."""
    windows: int
    """Episode-long windows in the run: the number of places an extreme this large could be found."""
    reward: float = 0.5
    """p: the pass rate over the episode (the reward's mean, a pass/fail score's)."""
    unit: str = "groups"
    """What ``trials`` counts: ``groups``, or ``logged steps`` for a share of steps where every group agreed."""
    per_prompt: bool = False
    """Whether ``expected`` reads each prompt's own pass rate (``_prompts_chance``) rather than the pooled one."""

    @property
    def tail(self) -> float:
        """P(a share at least ``observed`` over ``trials``) by chance (binomial upper tail)."""
        k = math.ceil(self.observed * self.trials - 1e-9)
        return _binomial_tail(k, self.trials, self.expected)

    @property
    def stands_out(self) -> bool:
        return self.tail * max(self.windows, 1) < CHANCE_ALPHA

    @property
    def explains(self) -> bool:
        """Chance alone accounts for the episode: the pass rate is where groups still teach (within
        ``AT_BEST`` of neither end: near 0 or 1 every group agrees, and that is no noise but a state,
        stuck or solved, that the harm policy judges), and the episode's share is no further above
        chance than the run's own noise reaches."""
        return AT_BEST <= self.reward <= 1 - AT_BEST and not self.stands_out

    def said(self) -> str:
        g = f"{self.completions} completions a group" + (" (assumed: the log does not say)" if self.assumed else "")
        rates = " and each prompt's own pass rate" if self.per_prompt else ""
        return f"expected by chance with {g}{rates}: {self.expected:.0%}"


def _binomial_tail(k: int, n: int, p: float) -> float:
    """P(X ≥ k) for X ~ Binomial(n, p), summed in log space (n up to tens of thousands)."""
    if k <= 0:
        return 1.0
    if k > n or p <= 0:
        return 0.0 if p < 1 else 1.0
    if p >= 1:
        return 1.0
    logs = [math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) + i * math.log(p)
            + (n - i) * math.log1p(-p) for i in range(k, n + 1)]
    top = max(logs)
    return min(1.0, math.exp(top) * sum(math.exp(v - top) for v in logs))


def logged_agreement(view: RunView) -> tuple[np.ndarray, bool, float | None] | None:
    """The run's logged share of agreeing groups as ``agreement_by_chance`` reads it: (the share per step as
    logged, whether it says if every group of a logged step agreed (read off ``reward_std``) rather than a
    share of groups, the groups behind one logged value: the config's, else the logged shares' grid). None
    when the run logs no such share (``facts.zero_std``)."""
    zero_std = facts_of(view).zero_std
    if zero_std is None:
        return None
    share, averaged = zero_std
    per_step = not zero_std_metric(view).startswith("frac")
    raw = share if averaged == 1 else view.series("frac_reward_zero_std")
    return raw, per_step, groups_per_value(view) or (None if per_step else grid_of(raw))


def agreement_by_chance(view: RunView, share: np.ndarray, steps: np.ndarray, first: int, last: int, *,
                        completions: int | None, groups_per_value: float | None, per_step: bool,
                        by_prompt: bool = True) -> Chance | None:
    """The chance of the share of agreeing groups over steps ``first``–``last``, for a two-valued
    reward (one whose logged means lie in [0, 1] on a grid of 1/n, n ≤ 64: a pass/fail score); None
    for any other reward, where ties are no matter of chance. ``per_step``: the share is whether
    every group of a logged step agreed (``reward_std`` == 0), so chance is q^groups a step.
    ``by_prompt``: from each captured prompt's own pass rate where samples allow (whether groups agree
    more than their prompts' difficulty makes them); else from the pooled pass rate (whether they agree
    more than a reward paying at random at that rate makes them)."""
    curve = logged(view, *REWARD_METRICS)
    if curve is None or not _two_valued(curve.values):
        return None
    inside = (steps >= first) & (steps <= last)
    values = share[inside]
    values = values[np.isfinite(values)]
    rewards = curve.values[(curve.steps >= first) & (curve.steps <= last)]
    if values.size < _HELD_POINTS or rewards.size == 0:
        return None
    p = float(np.clip(np.mean(rewards), 0.0, 1.0))
    g = completions if completions and completions >= 2 else 2
    q = p ** g + (1 - p) ** g
    own = None if per_step or not by_prompt else _prompts_chance(view, first, last, p)
    q, prompts = (own, True) if own is not None else (q, False)
    per_value = groups_per_value if groups_per_value and groups_per_value >= 1 else 1.0
    # Every group of a step agreeing is q to the power of the groups a step (one, the most
    # chance-prone, when the config does not say); a share of groups counts each group once.
    trials = values.size if per_step else max(values.size, round(values.size * per_value))
    expected = q ** per_value if per_step else q
    windows = max(1, int(np.isfinite(share).sum() // max(values.size, 1)))
    return Chance(expected=float(expected), observed=float(np.mean(values)), trials=int(trials), completions=g,
                  assumed=not completions, windows=windows, reward=p,
                  unit="logged steps" if per_step else "groups", per_prompt=prompts)


def _prompts_chance(view: RunView, first: int, last: int, pooled: float) -> float | None:
    """The chance a captured group of steps ``first``–``last`` agrees, from its own prompt's pass rate:
    the mean over groups of p^n + (1−p)^n, p the pass rate of the prompt's *other* captured samples
    of the episode (left out, the group would explain itself), the pooled rate where the prompt has
    none. Prompts differ in difficulty, and a prompt passed 90 % of the time agrees far more often
    than the pooled rate says. None without samples that have prompts and groups."""
    frame = samples_with(view, "reward", "prompt", "group_id")
    if frame is None:
        return None
    frame = frame.filter(pl.col("step").is_between(first, last) & pl.col("reward").is_finite())
    if frame.height < _MIN_SAMPLES:
        return None
    low, high = float(frame["reward"].min()), float(frame["reward"].max())  # type: ignore[arg-type]
    if high - low <= 1e-12:
        return None
    passed = ((pl.col("reward") - low) / (high - low)).alias("_p")
    groups = (frame.with_columns(passed).group_by(group_keys(frame)).agg(pl.col("prompt").first(), n=pl.len(),
                                                                       s=pl.col("_p").sum())
              .filter(pl.col("n") >= 2))
    if groups.is_empty():
        return None
    others = pl.col("n_all") - pl.col("n")
    rate = pl.when(others > 0).then((pl.col("s_all") - pl.col("s")) / others).otherwise(pooled)
    q = (groups.with_columns(n_all=pl.col("n").sum().over("prompt"), s_all=pl.col("s").sum().over("prompt"))
         .with_columns(_r=rate).select((pl.col("_r") ** pl.col("n") + (1 - pl.col("_r")) ** pl.col("n")).mean()))
    return float(q.item())


def _two_valued(rewards: np.ndarray) -> bool:
    """A logged reward that can be a pass/fail score's mean: within [0, 1], on a grid of 1/n (n ≤ 64)."""
    finite = rewards[np.isfinite(rewards)]
    if finite.size == 0 or finite.min() < -1e-9 or finite.max() > 1 + 1e-9:
        return False
    return any(bool(np.all(np.abs(finite * n - np.round(finite * n)) < 1e-4)) for n in range(1, 65))


# -- the decision ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Rule:
    """What makes a signature critical: a strong symptom and one of the harms it ``answers_to`` seen
    in the run, or the ``inherent`` harm it is; ``ceiling`` for a signature that is never critical."""

    answers_to: tuple[Harm, ...] = ()
    inherent: Harm | None = None
    ceiling: Severity = "critical"


_O, _G, _D, _N = Harm.OBJECTIVE, Harm.GRADIENT, Harm.DEGENERATE, Harm.NONFINITE

#: The policy, one row a signature (docs/detectors.md renders it as a table).
POLICY: dict[str, Rule] = {
    "KL_BLOWUP": Rule((Harm.DRIFT, _O)),
    "ENTROPY_COLLAPSE": Rule((_O, _G)),
    "ENTROPY_EXPLOSION": Rule((_O, _D)),
    "LENGTH_EXPLOSION": Rule((_D, _O)),
    "LENGTH_COLLAPSE": Rule((_O, _D)),
    "CLIP_RATIO_HIGH": Rule((_O, Harm.DRIFT)),
    "GRAD_NORM_SPIKE": Rule((_O, _N)),
    "VALUE_LOSS_DIVERGENCE": Rule((_O, _N)),
    "LOGPROB_MISMATCH": Rule((_O, _D)),
    "ZERO_ADVANTAGE_GROUPS": Rule((_O, _G)),
    "GROUP_MODE_COLLAPSE": Rule((_O, _G)),
    "TRUNCATION_HIGH": Rule(inherent=_D),
    "REPETITIVE_COMPLETIONS": Rule(inherent=_D),
    "NONFINITE_VALUES": Rule(inherent=_N),
    "REWARD_COLLAPSE": Rule(inherent=_O),
    "REWARD_HACKING": Rule(inherent=_O),
    "ADVANTAGE_OUTLIERS": Rule(inherent=Harm.BROKEN),
    "RUN_STALLED": Rule(inherent=Harm.STOPPED),
    "REWARD_PLATEAU": Rule(ceiling="warn"),
    "RECORDING_GAPS": Rule(ceiling="warn"),
    "RUN_FROZEN": Rule(ceiling="warn"),
    "NO_REWARD_METRIC": Rule(ceiling="warn"),
    "TOO_SHORT_TO_JUDGE": Rule(ceiling="info"),
}


@dataclass(frozen=True)
class Judgement:
    """A severity and the one sentence that says why (empty when the detector's own words do)."""

    severity: Severity
    why: str = ""


def _lower(a: Severity, b: Severity) -> Severity:
    return a if SEVERITIES.index(a) <= SEVERITIES.index(b) else b


def decide(view: RunView, signature: str, first: int | None, *, strong: bool, benign: bool | str = False,
           missing: str | None = None, chance: Chance | None = None, cap: Severity = "critical",
           last: int | None = None) -> Judgement:
    """The one severity policy (the module docstring says it in words; ``POLICY`` says, per
    signature, which harms make it critical)."""
    rule = POLICY[signature]
    answers_to, inherent, cap = rule.answers_to, rule.inherent, _lower(cap, rule.ceiling)
    if missing:
        return Judgement("info", f" Cannot tell how much this matters: {missing}.")
    if benign:  # True: the detector's own words say why
        return Judgement("info", benign if isinstance(benign, str) else "")
    if chance is not None and chance.trials < MIN_TRIALS:
        return Judgement("info", f" Cannot tell this from chance: the share counts only {chance.trials} "
                                 f"{chance.unit} ({chance.said()}).")
    if chance is not None and chance.explains:
        return Judgement("info", f" That is no more than chance: {chance.said()} (observed {chance.observed:.0%} over "
                                 f"{chance.trials} {chance.unit}).")
    if not strong:
        return Judgement(_lower("warn", cap))
    if inherent is not None:
        return Judgement(_lower("critical", cap))
    seen = harm_seen(view, answers_to, first, last) if first is not None else None
    if seen is None:
        unread = (" (it logs no reward, so whether the reward suffered cannot be told)"
                  if Harm.OBJECTIVE in answers_to and logged(view, *REWARD_METRICS) is None else "")
        return Judgement(_lower("warn", cap), " Warn, not critical: since then the run shows no "
                                              f"{' and no '.join(h.value for h in answers_to)}{unread}.")
    return Judgement(_lower("critical", cap), f" Critical: {seen.said}.")
