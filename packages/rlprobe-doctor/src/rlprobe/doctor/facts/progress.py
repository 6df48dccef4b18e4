"""How the reward moved since a step: the progress fact that tells sharpening from collapse.

A run learning its task sharpens its policy: entropy and lengths may fall a long way while the
reward rises, and its gradient may spike without setting it back. Detectors that see such a fall
ask here whether the reward paid for it.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..findings import Evidence
from ..toolkit import level_noise, logged, long_enough, smoothed_noise, trend_t
from ..view import RunView
from .metrics import REWARD_METRICS

__all__ = ["Progress", "RunProgress", "reward_progress", "run_progress"]

#: Changes smaller than this are no change at all (flat curves have zero noise).
_TINY = 1e-9
#: A move of the reward since a step counts when it is this many of the reward's step noise.
_PROGRESS_Z = 3.0
#: The reward is still climbing when its trend over the latter half stands this many standard
#: errors above flat.
_CLIMB_T = 3.0
#: Logged points after the step the progress is measured from.
_PROGRESS_POINTS = 10


@dataclass(frozen=True)
class Progress:
    """How the reward moved from a step to the run's end (``reward_progress``)."""

    metric: str
    start: float
    """The reward's level at the step (median of the 9 logged values around it)."""
    end: float
    """Its level now (median of the last quarter since the step)."""
    noise: float
    """Its step-to-step noise since the step (robust standard deviation)."""
    climbing: bool
    """Whether it is rising over the latter half of the stretch (an OLS trend `_CLIMB_T`
    standard errors above flat)."""

    @property
    def rose(self) -> bool:
        """Clearly higher now (by `_PROGRESS_Z` of its noise)."""
        return self.end - self.start >= max(_PROGRESS_Z * self.noise, _TINY)

    @property
    def held(self) -> bool:
        """Not clearly lower now."""
        return self.start - self.end < max(_PROGRESS_Z * self.noise, _TINY)

    def evidence(self, first: int, last: int) -> Evidence:
        return Evidence(metric=self.metric, window=(first, last), baseline=self.start, observed=self.end,
                        note="baseline: median of the 9 logged values around the onset; observed: of the last "
                             "quarter since; " + ("still rising over the latter half" if self.climbing
                                                  else "not rising over the latter half"))


def reward_progress(view: RunView, first: int) -> Progress | None:
    """How the reward moved from step ``first`` to the run's end; None without a reward curve
    or with fewer than `_PROGRESS_POINTS` logged since ``first``. A run learning its task
    sharpens its policy: entropy and lengths may fall a long way while the reward rises, and
    its gradient may spike without setting it back."""
    curve = logged(view, *REWARD_METRICS)
    if curve is None:
        return None
    at = int(np.searchsorted(curve.steps, first))
    since, steps = curve.values[at:], curve.steps[at:]
    if since.size < _PROGRESS_POINTS:
        return None
    half = since.size // 2
    return Progress(curve.name, start=float(np.median(curve.values[max(0, at - 4):at + 5])),
                    end=float(np.median(since[-max(3, since.size // 4):])),
                    noise=level_noise(curve.values, at, curve.size),
                    climbing=trend_t(steps[half:], since[half:]) >= _CLIMB_T)


@dataclass(frozen=True)
class RunProgress:
    """Where the run's reward went over the whole run: the progress state every detector that asks
    "converged or stuck?" reads the same way."""

    metric: str
    state: str
    """``learning`` (rose and still climbing), ``converged`` (rose and holds its highest level),
    ``regressed`` (rose, then fell back from its highest level), or ``flat`` (never clearly rose)."""
    opening: float
    """Median of the first tenth of the run (at least 3 logged values)."""
    peak: float
    """The highest level a tenth-of-the-run median held."""
    end: float
    """Median of the last tenth."""
    margin: float = 0.0
    """The smallest move that counts (`_PROGRESS_Z` times the noise of a tenth-of-the-run median)."""

    @property
    def fell(self) -> bool:
        """The reward ends clearly below where it opened: whatever it does now, it got worse."""
        return self.opening - self.end >= self.margin

    @property
    def learned(self) -> bool:
        """The reward rose and has not given it back: what solved prompts look like."""
        return self.state in ("learning", "converged")

    def evidence(self, first: int, last: int) -> Evidence:
        return Evidence(metric=self.metric, window=(first, last), baseline=self.opening, observed=self.end,
                        note=f"baseline: median of the run's first tenth; observed: of its last tenth; highest level "
                             f"held {self.peak:.3g}; state: {self.state}")


def run_progress(view: RunView) -> RunProgress | None:
    """The reward's progress state over the run; None without a reward curve long enough to judge
    (``long_enough``). A move counts when it is `_PROGRESS_Z` times the noise of a tenth-of-the-run
    median; the reward gave back its rise when it fell that far and a quarter of the rise below its
    highest level."""
    curve = logged(view, *REWARD_METRICS)
    if curve is None or not long_enough(curve.steps):
        return None
    values, k = curve.values, max(3, curve.size // 10)
    opening, end = float(np.median(values[:k])), float(np.median(values[-k:]))
    held = curve.smooth(k)[k:]
    peak = float(np.nanmax(held)) if np.isfinite(held).any() else end
    margin = max(_PROGRESS_Z * smoothed_noise(values, 0, curve.size, k), _TINY)
    rose = end - opening >= margin
    gave_back = peak - end >= margin and peak - end >= 0.25 * (peak - opening)
    half = curve.size // 2
    climbing = trend_t(curve.steps[half:], values[half:]) >= _CLIMB_T
    state = ("regressed" if peak - opening >= margin and gave_back else "flat" if not rose
             else "learning" if climbing else "converged")
    return RunProgress(curve.name, state, opening, peak, end, margin)
