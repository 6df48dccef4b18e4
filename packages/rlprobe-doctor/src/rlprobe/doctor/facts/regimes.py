"""Reward regimes: the steps where the grader itself changed, read from the captured samples.

A reward function maps a prompt and a completion to a score. When the completions a policy repeats
score one way before a step and another way after it, the grader changed there — a reward service
swapped, rescaled or broken — not the policy: the same text of the same prompt earns something
else. What a prompt "can earn" (its best reward, the run's top) is then read within the regime a
sample belongs to: a score on another scale says nothing of what the current grader pays.

A policy that changes (a learning rate that destroys it, a collapse) writes other texts; the texts it
still repeats keep their scores, so it opens no regime. A stochastic grader (a coin, a sampled judge)
scores repeats differently all the time and is not read at all.
"""
from __future__ import annotations

from weakref import WeakKeyDictionary

import numpy as np
import polars as pl

from ..view import RunView

__all__ = ["informative", "regime_changes", "regime_of"]

#: Two scores of one text this close are the same score.
_SAME = 1e-6
#: Share of a run's repeated texts (the same prompt and completion at two captured steps) that must keep
#: their score for the grader to read as deterministic: below it a changed score is the grader's noise.
_DETERMINISTIC = 0.9
#: The repeats straddling a step whose scores changed there and held must be this many times as many as
#: the run's share of such changes predicts, for it to be a change of grader...
_ABOVE_BACKGROUND = 5.0
#: ... and how many of them at least.
_MIN_FLIPS = 3
#: Sample steps a regime must last: one batch scored ×1000 by a unit bug is a spike, not a regime.
_MIN_REGIME = 10

_CACHE: WeakKeyDictionary[RunView, tuple[object, tuple[int, ...], tuple[int, ...]]] = WeakKeyDictionary()


def _regimes(view: RunView) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(changes, blind regimes) of the view's samples, computed once per view (``regime_changes``,
    ``informative``)."""
    samples = view.samples
    cached = _CACHE.get(view)
    if cached is not None and cached[0] is samples:
        return cached[1], cached[2]
    changes = _changes(samples)
    blind: tuple[int, ...] = ()
    if changes:
        regime = _index(changes)
        spread = samples.filter(pl.col("reward").is_finite()).group_by(regime.alias("_regime")).agg(
            spread=pl.col("reward").max() - pl.col("reward").min())
        blind = tuple(spread.filter(pl.col("spread") <= _SAME)["_regime"].to_list())
    _CACHE[view] = (samples, changes, blind)
    return changes, blind


def regime_changes(view: RunView) -> tuple[int, ...]:
    """The steps (ascending) from which the grader scored repeated texts differently, each regime
    lasting ``_MIN_REGIME`` sample steps or more; empty without samples holding prompts, completions
    and rewards, for a stochastic grader, or when the grader never changed."""
    return _regimes(view)[0]


def regime_of(view: RunView) -> pl.Expr:
    """Per sample, the index of its reward regime (0 before the first change)."""
    return _index(regime_changes(view))


def informative(view: RunView) -> pl.Expr:
    """Per sample, whether its score says anything of its answer: False in a regime whose grader paid
    every captured sample one score (a service that answers 0, a constant) after or before a change of
    grader — there right and wrong earn alike, so no sample there is solved, stuck or failed."""
    changes, blind = _regimes(view)
    return ~_index(changes).is_in(list(blind)) if blind else pl.lit(True)


def _index(changes: tuple[int, ...]) -> pl.Expr:
    if not changes:
        return pl.lit(0, dtype=pl.Int64)
    return pl.sum_horizontal([(pl.col("step") >= change).cast(pl.Int64) for change in changes])


def _changes(samples: pl.DataFrame) -> tuple[int, ...]:
    if samples.is_empty() or any(c not in samples.columns for c in ("prompt", "completion", "reward")):
        return ()
    texts = (samples.drop_nulls(["prompt", "completion", "reward"])
             .filter(pl.col("reward").is_finite())
             .select("step", pl.col("prompt").hash().alias("_prompt"),
                     pl.col("completion").str.strip_chars().hash().alias("_text"), "reward")
             .unique(["step", "_prompt", "_text"], keep="first"))
    keys = ["_prompt", "_text"]
    texts = texts.filter(pl.struct(keys).is_duplicated()).sort("step")  # only texts seen at two steps or more
    repeats = (texts.with_columns(_before=pl.col("step").shift(1).over(keys),
                                  _was=pl.col("reward").shift(1).over(keys),
                                  _earlier=pl.col("reward").shift(2).over(keys),
                                  _next=pl.col("reward").shift(-1).over(keys))
               .drop_nulls("_before")
               .with_columns(_flip=_differs(pl.col("reward"), pl.col("_was"))))
    if repeats.height < _MIN_FLIPS or float(repeats["_flip"].to_numpy().mean()) > 1 - _DETERMINISTIC:
        return ()
    # A change of grader moves a score that the text had held and that it keeps: a score paid once (a
    # batch scored ×1000) and gone at the next repeat is a spike, and so is the return from it.
    repeats = repeats.with_columns(_flip=pl.col("_flip")
                                   & ~_differs(pl.col("_next"), pl.col("reward")).fill_null(False)
                                   & ~_differs(pl.col("_earlier"), pl.col("_was")).fill_null(False))
    before, after = repeats["_before"].to_numpy(), repeats["step"].to_numpy()
    flip = repeats["_flip"].to_numpy()
    if not flip.any():
        return ()
    # Each repeat straddles the steps (before, after]. A change of grader at s changes the scores of many
    # repeats straddling s (not all: a service answering 0 keeps 0 at 0), far more often than anywhere else.
    candidates = np.unique(after[flip])
    flip_before, flip_after = before[flip], after[flip]
    straddling = _covering(before, after, candidates)
    flipped = _covering(flip_before, flip_after, candidates)
    expected = straddling * float(flip.mean())  # as many as the run's rate anywhere would change
    qualifies = (flipped >= _MIN_FLIPS) & (flipped >= _ABOVE_BACKGROUND * expected)
    # How far a changed repeat that straddles a candidate reaches: neighbouring candidates that one such
    # repeat straddles both read the same change; the most changed of them dates it.
    order = np.argsort(flip_before, kind="stable")
    reach = np.maximum.accumulate(flip_after[order])
    reaches = reach[np.maximum(np.searchsorted(flip_before[order], candidates, side="left") - 1, 0)]
    kept: list[int] = []  # indices into candidates
    for i in np.flatnonzero(qualifies):
        if kept and reaches[kept[-1]] >= candidates[i]:
            if flipped[i] > flipped[kept[-1]]:
                kept[-1] = int(i)
            continue
        kept.append(int(i))
    changes = [int(candidates[i]) for i in kept]
    return _lasting(changes, int(samples["step"].to_numpy().max()))


def _differs(a: pl.Expr, b: pl.Expr) -> pl.Expr:
    return (a - b).abs() > _SAME * pl.max_horizontal(pl.lit(1.0), b.abs())


def _covering(before: np.ndarray, after: np.ndarray, at: np.ndarray) -> np.ndarray:
    """How many of the intervals (before, after] contain each step of ``at``."""
    return (np.searchsorted(np.sort(before), at, side="left")
            - np.searchsorted(np.sort(after), at, side="left"))


def _lasting(changes: list[int], last: int) -> tuple[int, ...]:
    """The changes whose regime lasts ``_MIN_REGIME`` sample steps or more; a short regime is dropped
    with the change that opened it and the one that closed it (the grader came back)."""
    kept: list[int] = []
    i = 0
    while i < len(changes):
        end = changes[i + 1] if i + 1 < len(changes) else last + 1
        if end - changes[i] < _MIN_REGIME:
            i += 2  # the short regime goes, and with it the change that ended it
            continue
        kept.append(changes[i])
        i += 1
    return tuple(kept)
