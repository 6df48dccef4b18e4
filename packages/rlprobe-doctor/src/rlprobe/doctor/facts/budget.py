"""The token budget and the share of completions it cuts: from the trainer config and TRL's clipped
share when the run logged them, inferred from lengths pinned at a ceiling when it did not (TRL
before 0.15 logged neither ``completions/clipped_ratio`` nor the maximum length)."""
from __future__ import annotations

import numpy as np

from ..toolkit import Curve, logged
from ..view import RunView

__all__ = ["PINNED_SHARE", "pinned_budget", "token_budget", "truncation"]

#: Logged points whose mean length equals the run's longest mean (to rounding) that make the lengths
#: pinned at a ceiling: a mean that never varies is every completion cut at one length.
PINNED_SHARE = 0.8
#: Logged lengths a run needs before a ceiling is inferred from them.
_MIN_POINTS = 10
#: Last logged points all at the ceiling that make it one, for lengths that grew into it.
_PINNED_TAIL = 5
#: Relative rounding under which a mean length equals the ceiling.
_ROUNDING = 1e-6


def token_budget(view: RunView) -> int | None:
    """The trainer config's completion budget in tokens (`max_completion_length`, PPO's `response_length`)."""
    config = view.manifest.get("trainer_config") or {}
    value = config.get("max_completion_length") or config.get("response_length")
    return int(value) if isinstance(value, (int, float)) and value > 0 else None


def pinned_budget(view: RunView) -> float | None:
    """The ceiling the mean completion length sits at (every completion cut at the budget): on
    `PINNED_SHARE` of its logged points or more (a run dead at its budget), or on each of its last
    `_PINNED_TAIL` logged points and a tenth of the run at least (lengths that grew into the budget and
    stayed there). None when the lengths vary, as they do below a budget: a mean over several
    completions that repeats to rounding, at the longest the run ever had, is a cap."""
    lengths = logged(view, "length_mean")
    if lengths is None or lengths.size < _MIN_POINTS:
        return None
    top = float(lengths.values.max())
    at_top = np.abs(lengths.values - top) <= _ROUNDING * max(1.0, top)
    tail = max(_PINNED_TAIL, lengths.size // 10)
    return top if top > 0 and (at_top.mean() >= PINNED_SHARE or bool(at_top[-tail:].all())) else None


def truncation(view: RunView) -> Curve | None:
    """The share of completions cut by the budget at each logged step: TRL's clipped share when
    logged; else, with the budget known (config) or inferred (``pinned_budget``), 1 where the mean
    length reaches it (every completion cut) and 0 elsewhere, a lower bound; None otherwise."""
    logged_share = logged(view, "truncated_frac")
    if logged_share is not None:
        return logged_share
    lengths = logged(view, "length_mean")
    budget = token_budget(view) or pinned_budget(view)
    if lengths is None or budget is None:
        return None
    cut = (lengths.values >= budget * (1 - _ROUNDING)).astype(float)
    return Curve("length_mean at the token budget (inferred: no clipped share logged)", lengths.steps, cut)
