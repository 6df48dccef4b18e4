"""Level changes in noisy training curves: the machinery the scalar-dynamics detectors share.

A curve is judged against *its own recent past*, never against the whole run or a fixed
absolute floor: its reference (``Curve.reference``) is the median of a trailing window that ended ``gap`` steps
ago, a change must hold for ``sustain`` consecutive steps (with hysteresis, so noise at
the threshold does not restart the count), and the onset is found by walking back from
the detection to where the curve last sat at its reference (``levels.py`` builds the level-change
detectors from these). All functions are vectorised
over steps (numpy/Polars); arrays are aligned with ``RunView.step`` and NaN means "not
logged at this step".
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, overload
from weakref import WeakKeyDictionary

import numpy as np

from .stats import MAD_SCALE, MEAN_AD_SCALE, as_series, rolling_median, shift
from .stats import sustained_onset as first_sustained  # the detectors' name for it in this layer

if TYPE_CHECKING:
    from .view import RunView

__all__ = ["Curve", "Windows", "centred_median", "finite_median", "first_sustained", "held_extreme", "in_points",
           "logging_stride",
           "hysteresis", "level_noise", "logged", "onset_before", "refine_onset", "rolling_max", "rolling_min"]


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


def in_points(steps: float, stride: float) -> int:
    """A window of ``steps`` as a count of points logged every ``stride`` steps (at least 1)."""
    return max(1, int(round(steps / stride)))


def centred_median(x: np.ndarray, window: int) -> np.ndarray:
    """Centred rolling median: no lag, so it says *when* a change began (used after a
    detection, never to decide one: it looks ahead)."""
    return as_series(x).rolling_median(window, min_samples=max(1, window // 3), center=True).to_numpy()


def rolling_min(x: np.ndarray, window: int) -> np.ndarray:
    """Trailing minimum: the level a curve *held* for ``window`` steps."""
    return as_series(x).rolling_min(window, min_samples=window).to_numpy()


def rolling_max(x: np.ndarray, window: int) -> np.ndarray:
    """Trailing maximum: the level a curve stayed *under* for ``window`` steps."""
    return as_series(x).rolling_max(window, min_samples=window).to_numpy()


def hysteresis(enter: np.ndarray, stay: np.ndarray) -> np.ndarray:
    """True from each step where ``enter`` holds until the first later step where ``stay``
    fails. ``stay`` should be the looser condition (``enter`` implies it)."""
    enter = np.asarray(enter, dtype=bool)
    stay = np.asarray(stay, dtype=bool) | enter
    idx = np.arange(enter.size)
    last_enter = np.maximum.accumulate(np.where(enter, idx, -1))
    last_exit = np.maximum.accumulate(np.where(~stay, idx, -1))
    return (last_enter >= 0) & (last_enter > last_exit)


@overload
def finite_median(x: np.ndarray, default: float) -> float: ...
@overload
def finite_median(x: np.ndarray, default: None = None) -> float | None: ...
def finite_median(x: np.ndarray, default: float | None = None) -> float | None:
    """Median of the finite values of ``x``; ``default`` when there are none."""
    x = np.asarray(x, dtype=float)
    x = x[np.isfinite(x)]
    return float(np.median(x)) if x.size else default


def level_noise(x: np.ndarray, lo: int, hi: int) -> float:
    """Robust standard deviation of the step-to-step noise of ``x`` in ``[lo, hi)``
    (from first differences, so a trend does not count as noise)."""
    seg = x[max(0, lo):max(lo + 2, hi)]
    seg = seg[np.isfinite(seg)]
    if seg.size < 3:
        return 0.0
    dev = np.abs(np.diff(seg) - np.median(np.diff(seg)))
    mad = float(np.median(dev))
    if mad == 0.0:
        # Quantised curves (a rate that is mostly 0, a share of 4 groups) tie more than half
        # their differences and the MAD breaks down to 0; the mean absolute deviation does not.
        return float(MEAN_AD_SCALE * dev.mean() / np.sqrt(2.0))
    return float(MAD_SCALE * mad / np.sqrt(2.0))


def trend_t(x: np.ndarray, y: np.ndarray) -> float:
    """The least-squares slope of ``y`` against ``x`` in standard errors (its t statistic):
    positive for a rise, 0 with fewer than 3 points or no spread in ``x``; ±inf for an exact line."""
    if x.size < 3:
        return 0.0
    dx = x - x.mean()
    sxx = float(dx @ dx)
    if sxx == 0.0:
        return 0.0
    slope = float(dx @ (y - y.mean())) / sxx
    resid = y - y.mean() - slope * dx
    se = float(np.sqrt(float(resid @ resid) / (x.size - 2) / sxx))
    if se > 0:
        return slope / se
    return float(np.sign(slope)) * float("inf") if slope else 0.0


def onset_before(x: np.ndarray, hit: int, baseline: float, band: float, rising: bool, lo: int, window: int) -> int:
    """Walk back from ``hit`` to where the centred ``window``-step median of ``x`` last sat
    within ``band`` of ``baseline`` (on the near side of it); the step after is the onset.
    Returns ``lo`` when it never sat there. Only ``x[lo:hit + window]`` is read."""
    seg = centred_median(x[lo:hit + window], window)[:hit + 1 - lo]
    if rising:
        calm = ~(seg > baseline + band)
    else:
        calm = ~(seg < baseline - band)
    calm &= np.isfinite(seg)
    quiet = np.flatnonzero(calm)
    return min(hit, lo + int(quiet[-1]) + 1) if quiet.size else lo


#: A break is a kink: the curve moves at least this many times faster than it drifted before.
_KINK = 5.0
#: ... and the stretch skipped to reach it carried at most this share of the change.
_DRIFT_SHARE = 0.2


def refine_onset(x: np.ndarray, hit: int, onset: int, rising: bool, lo: int, window: int, span: int) -> int:
    """``onset_before``'s answer moved to the break when it stopped inside a drift: a
    reference taken long before a sharp change misses a slow drift since, and the walk back
    ends where the drift crossed the band. The break is where the steep stretch that makes
    most of the change (up to 80 % of it) begins — slopes of the centred ``window``-point
    median, over 3 points, at least ``_KINK`` times the drift of the ``span`` points before
    ``onset`` (and than noise explains) — kept only when the stretch it skips carried at most
    ``_DRIFT_SHARE`` of the change (an accelerating ramp makes its change all along)."""
    m = centred_median(x[lo:hit + window], window)[:hit + 1 - lo]
    o, h = onset - lo, hit - lo
    if o < 4 or h <= o + 3 or not np.isfinite(m[[o, h]]).all():
        return onset
    sign = 1.0 if rising else -1.0
    change = sign * (m[h] - m[o])
    if change <= 0:
        return onset
    start = max(0, o - span)
    drift = abs(float(m[o] - m[start])) / max(o - start, 1)
    step_noise = level_noise(x, lo + start, onset) / window
    moved = sign * (m[o:h + 1] - m[o])
    most = o + int(np.argmax(moved >= 0.8 * change))
    slope = sign * (m[o + 3:most + 1] - m[o:most - 2]) / 3.0
    calm = np.flatnonzero(~(slope > _KINK * max(drift, step_noise)))
    brk = o + (int(calm[-1]) + 1 if calm.size else 0)
    if brk <= o or sign * (m[brk] - m[o]) > _DRIFT_SHARE * change:
        return onset
    return lo + brk


def held_extreme(level: np.ndarray, start: int, window: int, rising: bool) -> float:
    """The highest (``rising``) or lowest level that ``level`` held for ``window``
    consecutive steps from ``start`` on (its value at ``start`` when none)."""
    seg = level[start:]
    held = rolling_min(seg, window) if rising else rolling_max(seg, window)
    held = held[np.isfinite(held)]
    if not held.size:
        return float(level[start])
    return float(held.max() if rising else held.min())


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
                curve = Curve(name, view.step[keep], values[keep])
            curves[name] = curve
        if curves[name] is not None:
            return curves[name]
    return None
