"""Curves: a metric as the run logged it, its logging stride, and windows stated in steps.

A curve is judged against *its own recent past*, never against the whole run or a fixed
absolute floor: its reference (``Curve.reference``) is the median of a trailing window that
ended ``gap`` steps ago. Every window a detector states is in steps and becomes logged points
by the curve's stride (``Windows.of``), so a run logged every 10 steps is judged as one logged
every step. Rolling medians are computed once per curve and shared.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

import numpy as np

from .rolling import finite_median, rolling_median, shift

if TYPE_CHECKING:
    from ..view import RunView


@dataclass(frozen=True)
class Windows:
    """Detector windows (in steps) fitted to a run of ``n`` steps: a short run gets
    shorter windows so that a pathology in its second half can still be seen."""

    smooth: int
    baseline: int
    gap: int
    sustain: int

    @classmethod
    def fit(cls, n: int, smooth: int, baseline: int, gap: int, sustain: int) -> Windows:
        """Windows of ``n`` logged points, each given in points."""
        return cls(smooth=max(3, min(smooth, n // 10 or 1)), baseline=max(5, min(baseline, n // 6)),
                   gap=max(3, min(gap, n // 10)), sustain=max(3, min(sustain, n // 12)))

    @classmethod
    def of(cls, curve: Curve, cfg: Mapping[str, Any]) -> Windows:
        """The windows a detector's config states in steps (``smooth_window``, ``baseline_window``,
        ``gap``, ``sustain``), as logged points of ``curve``: a run logged every 10 steps holds a
        100-step baseline in 10 points. Then fitted to the curve's length (``fit``)."""
        return cls.fit(curve.size, *(in_points(cfg[key], curve.stride)
                                     for key in ("smooth_window", "baseline_window", "gap", "sustain")))


def logging_stride(steps: np.ndarray) -> float:
    """Steps per logged point: the median spacing of ``steps`` (1 for fewer than two)."""
    return max(1.0, float(np.median(np.diff(steps)))) if steps.size > 1 else 1.0


#: Steps of evidence a curve needs before it is judged at all (medians of fewer mean little). A
#: logged value averages the steps since the one before (TRL averages between logs), so a run logged
#: every 5 steps holds 60 steps of evidence in 12 values, as much as one logged every step holds in 60.
MIN_STEPS = 20
#: Logged values a curve needs whatever its stride, so that its windows (a reference, a gap, a
#: sustain) have a shape.
MIN_LOGGED = 10


def long_enough(steps: np.ndarray, min_steps: int = MIN_STEPS) -> bool:
    """Whether a curve logged at ``steps`` can be judged by a detector that needs ``min_steps`` steps of
    training: at least ``MIN_LOGGED`` logged values spanning ``min_steps`` steps and ``MIN_STEPS`` at
    least (a run logged every 5 steps holds 60 steps in 12 values). Every detector's "too short to
    judge", decided once, in steps."""
    return steps.size >= MIN_LOGGED and steps.size * logging_stride(steps) >= max(MIN_STEPS, min_steps)


def in_points(steps: float, stride: float) -> int:
    """A window of ``steps`` as a count of points logged every ``stride`` steps (at least 1)."""
    return max(1, int(round(steps / stride)))


class Curve:
    """A metric as the run logged it: ``steps`` and ``values`` where it has a finite value
    (a metric logged every k-th step becomes a dense curve; non-finite values are
    NONFINITE_VALUES' business). Rolling medians are computed once and shared by every
    detector that asks for them."""

    __slots__ = ("name", "steps", "values", "_medians", "_log", "_stride")

    def __init__(self, name: str, steps: np.ndarray, values: np.ndarray) -> None:
        self.name, self.steps, self.values = name, steps, values
        self._medians: dict[tuple[int, int], np.ndarray] = {}
        self._log: Curve | None = None
        self._stride: float | None = None

    @property
    def size(self) -> int:
        return int(self.values.size)

    @property
    def stride(self) -> float:
        """Steps per logged point of this curve (``logging_stride``; computed once)."""
        if self._stride is None:
            self._stride = logging_stride(self.steps)
        return self._stride

    def median(self, window: int, min_periods: int | None = None) -> np.ndarray:
        """Trailing rolling median (read-only: it is shared)."""
        key = (window, min_periods or max(1, window // 2))
        out = self._medians.get(key)
        if out is None:
            out = rolling_median(self.values, window, key[1])
            out.flags.writeable = False
            self._medians[key] = out
        return out

    def smooth(self, window: int) -> np.ndarray:
        """The detectors' de-noised level: a trailing median that needs a third of its window."""
        return self.median(window, max(1, window // 3))

    def reference(self, windows: Windows) -> np.ndarray:
        """The curve's recent level at each step: the median of the ``baseline`` steps
        that ended ``gap`` steps earlier (NaN until enough history exists)."""
        return shift(self.median(windows.baseline, max(3, windows.baseline // 2)), windows.gap)

    def log(self) -> Curve:
        """The natural log of the curve's positive values (growth by factors becomes steps)."""
        if self._log is None:
            keep = self.values > 0
            self._log = Curve(self.name, self.steps[keep], np.log(self.values[keep]))
        return self._log


_CURVES: WeakKeyDictionary[RunView, tuple[object, dict[str, Curve | None]]] = WeakKeyDictionary()


def episode_median(view: RunView, names: tuple[str, ...], first: int, last: int) -> float | None:
    """The median of the first of ``names`` the run logs, over steps ``first`` to ``last``
    (None when none is logged or it has no finite value there)."""
    curve = logged(view, *names)
    if curve is None:
        return None
    return finite_median(curve.values[(curve.steps >= first) & (curve.steps <= last)])


def logged(view: RunView, *names: str) -> Curve | None:
    """The first of ``names`` the run logs, as a ``Curve`` (cached on the view until its
    steps change, so detectors reading the same metric share its rolling medians); None
    when none is logged."""
    frame, curves = _CURVES.get(view, (None, {}))
    if frame is not view.steps:
        curves = {}
        _CURVES[view] = (view.steps, curves)
    for name in names:
        if name not in curves:
            curve = None
            if view.has(name):
                values = view.series(name)
                keep = np.isfinite(values)
                # A metric logged at every step is the view's own arrays (read-only), not a copy of them.
                curve = (Curve(name, view.step, values) if keep.all()
                         else Curve(name, view.step[keep], values[keep]))
            curves[name] = curve
        if curves[name] is not None:
            return curves[name]
    return None
