"""``RunFacts``: the facts about a whole run that several detectors read, each computed once per view
(on first use, and again only when the view's steps change)."""
from __future__ import annotations

from functools import cached_property
from weakref import WeakKeyDictionary

import numpy as np

from ..toolkit import MIN_LOGGED, Curve, logged, logging_stride, long_enough, rolling_median
from ..view import RunView
from .budget import budget_of, truncation
from .groups import CONVERGED_SHARE, FlatGroups, has_zero_std_share, zero_std_share
from .metrics import REWARD_METRICS
from .progress import RunProgress, run_progress

__all__ = ["RunFacts", "budget_capped", "converged_by_reward", "facts_of", "given_up_component",
           "learned_past_a_blind_share", "solved_by_level"]


class RunFacts:
    """What the run is, as every detector should read it: its logging stride, its token budget and
    truncated share, its zero-variance groups and its reward's progress state."""

    def __init__(self, view: RunView) -> None:
        self.view = view

    @cached_property
    def stride(self) -> float:
        """Steps per logged row (TRL's ``logging_steps``, as the steps show it)."""
        return logging_stride(self.view.step)

    @cached_property
    def budget(self) -> float | None:
        """The completion budget in tokens (``budget.budget_of``): the trainer config's, else the one the
        clipped steps show, else the ceiling lengths are pinned at."""
        return budget_of(self.view)

    @cached_property
    def truncation(self) -> Curve | None:
        """The share of completions the budget cuts (``budget.truncation``)."""
        return truncation(self.view)

    @cached_property
    def zero_std(self) -> tuple[np.ndarray, int] | None:
        """The share of zero-variance groups and the logged points averaged for it (``groups.zero_std_share``);
        None when the run logs neither ``frac_reward_zero_std`` nor ``reward_std``."""
        return zero_std_share(self.view) if has_zero_std_share(self.view) else None

    @cached_property
    def progress(self) -> RunProgress | None:
        """The reward's progress state over the run (``progress.run_progress``)."""
        return run_progress(self.view)

    @cached_property
    def kl_coefficient(self) -> float | None:
        """The KL penalty's coefficient (``beta``): the trainer config's, else read off GRPO's log, whose
        loss is beta × the logged KL (the advantage-weighted term averages zero over a batch whose
        advantages are centred): the median ratio over the logged steps whose KL is at least
        ``_KL_READABLE``, when there are ``MIN_LOGGED`` of them. None when neither says."""
        beta = (self.view.manifest.get("trainer_config") or {}).get("beta")
        if isinstance(beta, (int, float)):
            return float(beta)
        if self.view.algorithm not in ("grpo", "") or not (self.view.has("loss") and self.view.has("kl_mean")):
            return None
        loss, kl = self.view.series("loss"), self.view.series("kl_mean")
        readable = np.isfinite(loss) & np.isfinite(kl) & (kl >= _KL_READABLE)
        if int(readable.sum()) < MIN_LOGGED:
            return None
        return max(0.0, float(np.median(loss[readable] / kl[readable])))


#: Changes smaller than this are no change at all.
_TINY = 1e-9
#: A logged KL (nats per token) from which GRPO's loss reads as beta × KL: below it the loss's
#: advantage-weighted noise outweighs the penalty term.
_KL_READABLE = 0.1

_FACTS: WeakKeyDictionary[RunView, tuple[object, RunFacts]] = WeakKeyDictionary()


def facts_of(view: RunView) -> RunFacts:
    """The view's ``RunFacts``, computed once and shared by every detector until its steps change."""
    frame, facts = _FACTS.get(view, (None, None))
    if frame is not view.steps or facts is None:
        facts = RunFacts(view)
        _FACTS[view] = (view.steps, facts)
    return facts


#: A reward component whose late mean is at most this share of the highest level it held earlier
#: has been given up (the task's component of a policy that settled on a cheap answer).
_GIVEN_UP = 0.1




def _finished_rising(values: np.ndarray, k: int) -> int | None:
    """The index where the trailing ``k``-point median of the reward ``values`` first reached 90 % of
    its rise (read from the ``k``-th point on); None with no rise."""
    reward = rolling_median(values, k, max(1, k // 3))[k:]
    if not np.isfinite(reward).any():
        return None
    low = float(np.nanmin(reward))
    rise = float(np.nanmax(reward)) - low
    return k + int(np.argmax(reward >= low + 0.9 * rise)) if rise > _TINY else None


def _moved_together(view: RunView, share: np.ndarray) -> bool:
    """Whether the zero-variance share began to climb before the reward had finished rising: solved
    prompts make groups agree while the reward still rises; a signal that dried up makes them agree
    only after the reward stopped. Both as trailing medians over a tenth of the run (the share as a
    trailing mean: quantised, its median jumps); the reward finished at 90 % of its rise
    (``_finished_rising``), the share began at 10 % of its climb."""
    curve = logged(view, *REWARD_METRICS)
    if curve is None:
        return False
    at = np.searchsorted(view.step, curve.steps)
    both = np.isfinite(share[at])
    n = int(both.sum())
    if not long_enough(curve.steps[both]):
        return False
    k = max(3, n // 10)
    finished = _finished_rising(curve.values[both], k)
    agree = np.convolve(share[at][both], np.ones(k) / k, mode="full")[:n]
    low_z = float(np.min(agree[k:]))
    climb = float(np.max(agree[k:])) - low_z
    if finished is None or not climb > _TINY:
        return False
    began = k + int(np.argmax(agree[k:] >= low_z + 0.1 * climb))
    return began < finished


def _rise_finished(view: RunView) -> int | None:
    """The step where the reward finished rising over the whole run (``_finished_rising``); None without a
    reward long enough to judge or with no rise."""
    curve = logged(view, *REWARD_METRICS)
    if curve is None or not long_enough(curve.steps):
        return None
    at = _finished_rising(curve.values, max(3, curve.size // 10))
    return None if at is None else int(curve.steps[at])


def converged_by_reward(view: RunView, first: int, last: int, share: float = CONVERGED_SHARE,
                        agreeing: float | None = None) -> RunProgress | None:
    """Without samples, whether groups that agree over steps [first, last] are solved: the run's
    reward rose and kept its rise (``run_progress``), at least ``share`` of the groups agree there
    (``CONVERGED_SHARE``: most; a detector that calls fewer agreeing groups a finding asks of those),
    they began to agree before the reward finished rising (``_moved_together``), and no reward
    component the run earned before has fallen to nothing (a policy that settled on one cheap answer
    keeps a steady total while its task component dies). ``agreeing``: the share of agreeing groups
    the caller counted itself from ``first`` on, groups of identical completions (whose rewards a
    per-sample KL penalty in the reward keeps apart); it stands for the zero-variance share, and
    they must have begun before the reward finished rising (``_rise_finished``). The progress when
    so, else None."""
    facts = facts_of(view)
    progress = facts.progress
    if progress is None or not progress.learned:
        return None
    if agreeing is not None:
        finished = _rise_finished(view)
        if agreeing < share or finished is None or first >= finished:
            return None  # copies that came after the reward stopped rising: exploration lost, not prompts solved
        return None if given_up_component(view, first, last) is not None else progress
    if facts.zero_std is None:
        return None
    agree = facts.zero_std[0]
    inside = agree[(view.step >= first) & (view.step <= last)]
    inside = inside[np.isfinite(inside)]
    if not inside.size or float(np.median(inside)) < share:
        return None
    if not _moved_together(view, agree):
        return None  # groups came to agree while the reward stood still: a signal that dried up
    return None if given_up_component(view, first, last) is not None else progress


#: The quantiles of the logged reward taken for its lowest and highest level: a single extreme value (one
#: batch's unit bug) is neither.
_RANGE_QUANTILES = (5.0, 95.0)


def solved_by_level(view: RunView, first: int, last: int) -> float | None:
    """Without samples, the share of the groups agreeing over steps [first, last] that sit at the reward's top,
    read from where the reward's level stands between the lowest and the highest level it logged: a group of
    identical rewards is at the top (solved) or lower (failed or partly right), and those that still disagree
    give about half the range on average. The level is the median over the latter half of [first, last], the
    range the logged values' `_RANGE_QUANTILES` (the highest level logged is at most the top, so the estimate
    errs towards solved). A run that learned half its prompts and cannot learn the rest agrees on them all at
    half the range; one that converged agrees near its top. None without a reward curve or a zero-variance
    share, or with no range."""
    curve = logged(view, *REWARD_METRICS)
    facts = facts_of(view)
    if curve is None or facts.zero_std is None:
        return None
    values = curve.values[np.isfinite(curve.values)]
    late = curve.values[(curve.steps >= first + (last - first) // 2) & (curve.steps <= last)]
    late = late[np.isfinite(late)]
    agree = facts.zero_std[0][(view.step >= first) & (view.step <= last)]
    agree = agree[np.isfinite(agree)]
    if not values.size or not late.size or not agree.size:
        return None
    low, high = np.percentile(values, _RANGE_QUANTILES)
    share = float(np.median(agree))
    if high - low <= 0 or share <= 0:
        return None
    place = (float(np.median(late)) - low) / (high - low)
    return float(np.clip((place - 0.5 * (1.0 - share)) / share, 0.0, 1.0))


#: A logged share of agreeing groups whose median over a near-deterministic policy's stretch is at or below this
#: counts none of them (``learned_past_a_blind_share``).
_BLIND_SHARE = 0.1


def learned_past_a_blind_share(view: RunView, first: int, last: int) -> RunProgress | None:
    """Without samples, for a policy that became near-deterministic over steps [first, last] (its entropy
    collapsed): the run's progress when its reward rose and kept its rise and no component it earned died
    (``given_up_component``) while the logged share of agreeing groups stayed at `_BLIND_SHARE` or below.
    Such a policy repeats its completions within a group, so a share near 0 there does not count the groups
    that agree: TRL compares each group's float32 spread with 0, and identical rewards whose mean is inexact
    (1 + 0.2 over groups of 6) keep a spread of about 1e-7. The reward's progress decides; a reward that never
    rose (a coin that pays whatever is said) is no convergence. None otherwise."""
    facts = facts_of(view)
    progress = facts.progress
    if facts.zero_std is None or progress is None or not progress.learned:
        return None
    share = facts.zero_std[0][(view.step >= first) & (view.step <= last)]
    share = share[np.isfinite(share)]
    if not share.size or float(np.median(share)) > _BLIND_SHARE:
        return None
    return None if given_up_component(view, first, last) is not None else progress


def given_up_component(view: RunView, first: int, last: int) -> tuple[str, float, float] | None:
    """(name, highest level held, level now) of a reward component the run earned before and whose
    median over the latter half of [first, last] fell to ``_GIVEN_UP`` of that level or less: a policy
    that settled on one cheap answer keeps a steady total while its task component dies. None when no
    component did."""
    late = view.step >= first + (last - first) // 2
    for name in view.components():
        values = view.component(name)
        held = logged(view, f"rewards/{name}/mean")
        if held is None or not long_enough(held.steps):
            continue
        # A mean, not a median: a component earned now and then (a sparse 0/1 rate) has a median of 0.
        k = max(3, held.size // 10)
        best = float(np.convolve(held.values, np.ones(k) / k, mode="valid").max())
        now = values[late & np.isfinite(values)]
        if best > _TINY and now.size and float(np.median(now)) <= _GIVEN_UP * best:
            return name, best, float(np.median(now))
    return None


#: Share of the captured zero-variance groups all cut off by the budget that says the budget caps them.
_CAPPED_GROUPS = 0.7
#: Without samples: the median truncated share of completions over the episode that says so (a group
#: agrees by the cut only when all its completions are cut, so the completions' share must be higher).
_CAPPED_COMPLETIONS = 0.9


def budget_capped(view: RunView, groups: FlatGroups | None, first: int, last: int) -> float | None:
    """The share of zero-variance groups whose completions were all cut off by the token budget
    over steps [first, last] (from the samples; without them, or when they do not say which were
    cut, the truncated share of completions, ``RunFacts.truncation``), when most were; else None.
    Such groups agree because the budget caps their reward, not because the prompts are solved
    or the signal dried up short of the goal."""
    samples = view.samples
    if groups is not None and "truncated" in samples.columns and samples["truncated"].null_count() < samples.height:
        return groups.truncated if groups.truncated >= _CAPPED_GROUPS else None
    curve = facts_of(view).truncation
    if curve is None:
        return None
    cut = curve.values[(curve.steps >= first) & (curve.steps <= last)]
    share = float(np.median(cut)) if cut.size else 0.0
    return share if share >= _CAPPED_COMPLETIONS else None
