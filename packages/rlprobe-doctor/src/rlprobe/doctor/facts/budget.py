"""The token budget and the share of completions it cuts: from the trainer config and TRL's clipped
share when the run logged them; without the config, the longest completion of the steps the budget
cut (TRL 0.15 and later log ``completions/max_length`` beside the clipped share), else inferred from
lengths pinned at a ceiling (TRL before 0.15 logged neither)."""
from __future__ import annotations

import numpy as np

from ..toolkit import Curve, logged
from ..view import RunView

__all__ = ["PINNED_SHARE", "budget_of", "clipped_budget", "pinned_budget", "token_budget", "truncation"]

#: Logged points whose mean length equals the run's longest mean (to rounding) that make the lengths
#: pinned at a ceiling: a mean that never varies is every completion cut at one length.
PINNED_SHARE = 0.8
#: Logged lengths a run needs before a ceiling is inferred from them.
_MIN_POINTS = 10
#: Last logged points all at the ceiling that make it one, for lengths that grew into it.
_PINNED_TAIL = 5
#: Share of the last quarter's logged means at the longest one, and how far under it (relative) the
#: others may sit, that make the longest a ceiling the lengths are pressed against.
_PRESSED_AT_TOP = 0.5
_PRESSED_BAND = 0.1
#: Relative rounding under which a mean length equals the ceiling.
_ROUNDING = 1e-6


def token_budget(view: RunView) -> int | None:
    """The trainer config's completion budget in tokens (`max_completion_length`, PPO's `response_length`)."""
    config = view.manifest.get("trainer_config") or {}
    value = config.get("max_completion_length") or config.get("response_length")
    return int(value) if isinstance(value, (int, float)) and value > 0 else None


def clipped_budget(view: RunView) -> float | None:
    """The budget a run without its config shows where it cut completions: the longest completion
    (``length_max``) of the logged steps whose clipped share is above 0 — a cut completion is as long
    as the budget, and a logged value that averages steps is at most that. None unless both are logged
    and some step was cut."""
    longest, cut = logged(view, "length_max"), logged(view, "truncated_frac")
    if longest is None or cut is None:
        return None
    at_cut = longest.values[np.isin(longest.steps, cut.steps[cut.values > 0])]
    at_cut = at_cut[np.isfinite(at_cut) & (at_cut > 0)]
    return float(at_cut.max()) if at_cut.size else None


def budget_of(view: RunView) -> float | None:
    """The completion budget in tokens: the trainer config's, else the one the clipped steps show
    (``clipped_budget``), else the ceiling the mean lengths are pinned at (``pinned_budget``)."""
    return token_budget(view) or clipped_budget(view) or pinned_budget(view)


def pinned_budget(view: RunView) -> float | None:
    """The ceiling the mean completion length sits at (every completion cut at the budget): on
    `PINNED_SHARE` of its logged points or more (a run dead at its budget), or on each of its last
    `_PINNED_TAIL` logged points and a tenth of the run at least (lengths that grew into the budget and
    stayed there), or on `_PRESSED_AT_TOP` of its last quarter with the rest within `_PRESSED_BAND`
    under it (pressed against the budget: a mean sits under it whenever one completion ends short).
    None when the lengths vary, as they do below a budget: a mean over several completions that
    repeats to rounding, at the longest the run ever had, is a cap."""
    lengths = logged(view, "length_mean")
    if lengths is None or lengths.size < _MIN_POINTS:
        return None
    top = float(lengths.values.max())
    at_top = np.abs(lengths.values - top) <= _ROUNDING * max(1.0, top)
    tail = max(_PINNED_TAIL, lengths.size // 10)
    # A mean over several completions sits a little under the budget whenever one of them ends short of
    # it: a ceiling is also the top repeated on most of the last quarter, with the rest just under it.
    quarter = slice(-max(_PINNED_TAIL, lengths.size // 4), None)
    pressed = (at_top[quarter].mean() >= _PRESSED_AT_TOP
               and float(lengths.values[quarter].min()) >= (1 - _PRESSED_BAND) * top)
    return top if top > 0 and (at_top.mean() >= PINNED_SHARE or bool(at_top[-tail:].all()) or pressed) else None


def truncation(view: RunView) -> Curve | None:
    """The share of completions cut by the budget at each logged step: TRL's clipped share when
    logged; else, with the budget known (config) or inferred (``pinned_budget``), 1 where the mean
    length reaches it (every completion cut) and 0 elsewhere, a lower bound; None otherwise."""
    logged_share = logged(view, "truncated_frac")
    if logged_share is not None:
        return logged_share
    lengths = logged(view, "length_mean")
    budget = budget_of(view)
    if lengths is None or budget is None:
        return None
    cut = (lengths.values >= budget * (1 - _ROUNDING)).astype(float)
    return Curve("length_mean at the token budget (inferred: no clipped share logged)", lengths.steps, cut)
