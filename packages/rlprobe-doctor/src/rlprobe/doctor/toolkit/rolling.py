"""Rolling statistics over a curve: trailing and centred medians, robust noise, trends.

All functions take and return numpy float arrays aligned with a curve's steps; NaN means
"not logged at this step" and is skipped by the rolling windows.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import cast, overload

import numpy as np
import numpy.typing as npt
import polars as pl

#: MAD → standard deviation for normally distributed noise.
MAD_SCALE = 1.4826

#: Mean absolute deviation → standard deviation for normally distributed noise (√(π/2)).
MEAN_AD_SCALE = 1.2533


def rolling_median(x: np.ndarray, window: int, min_periods: int | None = None) -> np.ndarray:
    """Trailing median over the last ``window`` logged values (current one included)."""
    return _trailing(x, lambda s: s.rolling_median(window, min_samples=min_periods or max(1, window // 2)))


def rolling_mean(x: np.ndarray, window: int, min_periods: int | None = None) -> np.ndarray:
    """Trailing mean over the last ``window`` logged values: the level of a quantised series (a
    reward averaged over two completions moves in jumps, and its median can hold while its mean rises)."""
    return _trailing(x, lambda s: s.rolling_mean(window, min_samples=min_periods or max(1, window // 2)))


def rolling_quantile(x: np.ndarray, quantile: float, window: int, min_periods: int | None = None) -> np.ndarray:
    """Trailing ``quantile`` (linear interpolation) over the last ``window`` logged values."""
    return _trailing(x, lambda s: s.rolling_quantile(quantile, window_size=window,
                                                     min_samples=min_periods or max(1, window // 2)))


def _trailing(x: np.ndarray, window: Callable[[pl.Series], pl.Series]) -> np.ndarray:
    """``window``, a trailing rolling statistic of Polars (median, quantile, min, max, mean), over
    ``x`` with NaN skipped. NaN only at the start (a curve delayed by ``shift``, or the output of
    another trailing window) is cut off rather than masked: no trailing window before the first
    value holds one, and Polars' kernels are several times slower on a series with a null mask
    (the same values either way: an order statistic of the same values)."""
    series = pl.Series(x, dtype=pl.Float64)
    nan = series.is_nan()
    if not nan.any():
        return window(series).to_numpy()
    start = cast(int, nan.arg_min())  # the first value that is not NaN (0 when every value is NaN)
    if start == 0 or nan.slice(start).any():
        return window(series.fill_nan(None)).to_numpy()
    out = np.full(series.len(), np.nan)
    out[start:] = window(series.slice(start)).to_numpy()
    return out


def as_series(x: np.ndarray) -> pl.Series:
    """``x`` as a Float64 Series whose NaN are nulls, which rolling windows skip (and
    ``to_numpy`` turns back into NaN). A series with no NaN is left without a null mask:
    Polars' rolling kernels are slower on one."""
    s = pl.Series(x, dtype=pl.Float64)
    return s.fill_nan(None) if s.is_nan().any() else s


def rolling_mad(x: np.ndarray, window: int, min_periods: int | None = None) -> np.ndarray:
    """Trailing median absolute deviation (scaled to a standard deviation)."""
    med = rolling_median(x, window, min_periods)
    dev = np.abs(x - med)
    return MAD_SCALE * rolling_median(dev, window, min_periods)


def shift(x: np.ndarray, k: int) -> npt.NDArray[np.float64]:
    """``x`` delayed by ``k`` positions (NaN-filled), so a baseline excludes the present."""
    out = np.full_like(x, np.nan, dtype=float)
    if k < len(x):
        out[k:] = x[: len(x) - k]
    return out


def robust_z(x: npt.NDArray[np.float64], window: int, gap: int = 1, floor: float = 1e-12) -> npt.NDArray[np.float64]:
    """How many robust standard deviations each point sits above the median of the
    ``window`` points that ended ``gap`` steps earlier."""
    med = shift(rolling_median(x, window), gap)
    mad = shift(rolling_mad(x, window), gap)
    return (x - med) / np.maximum(mad, floor)


def smooth(x: np.ndarray, window: int) -> np.ndarray:
    """Centred-free (trailing) rolling median, the detectors' default de-noiser."""
    return rolling_median(x, window, max(1, window // 3))


def centred_median(x: np.ndarray, window: int, min_samples: int | None = None) -> np.ndarray:
    """Rolling median centred on each point (NaN skipped; ``min_samples`` values needed, a third of
    the window by default): no lag, so it says *when* a change began (used after a detection,
    never to decide one: it looks ahead)."""
    return as_series(x).rolling_median(window, min_samples=min_samples or max(1, window // 3), center=True).to_numpy()


def rolling_min(x: np.ndarray, window: int) -> np.ndarray:
    """Trailing minimum: the level a curve *held* for ``window`` steps."""
    return _trailing(x, lambda s: s.rolling_min(window, min_samples=window))


def rolling_max(x: np.ndarray, window: int) -> np.ndarray:
    """Trailing maximum: the level a curve stayed *under* for ``window`` steps."""
    return _trailing(x, lambda s: s.rolling_max(window, min_samples=window))


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



def smoothed_noise(x: np.ndarray, lo: int, hi: int, window: int) -> float:
    """Noise of a trailing ``window``-point median of ``x`` in ``[lo, hi)``: the step noise
    (``level_noise``) × 1.25 / √window, as a median of normal noise shrinks it."""
    return float(level_noise(x, lo, hi) * 1.25 / np.sqrt(window))

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


def rolling_trend_t(y: np.ndarray, window: int) -> np.ndarray:
    """``trend_t`` of each trailing ``window`` of ``y`` against its index (NaN before a full window and for a
    window holding a value that is not finite, which costs only the windows holding it; ±inf for an exact
    line, as ``trend_t``), in one pass of cumulative sums (runs of 100k steps)."""
    y = np.asarray(y, dtype=float)
    n, w = y.size, int(window)
    out = np.full(n, np.nan)
    if w < 3 or n < w:
        return out
    bad = ~np.isfinite(y)
    y = np.where(bad, 0.0, y)

    def total(v: np.ndarray) -> np.ndarray:
        c: np.ndarray = np.concatenate([[0.0], np.cumsum(v)])
        sums: np.ndarray = c[w:] - c[:-w]
        return sums

    i = np.arange(n, dtype=float)
    sy, syy, siy = total(y), total(y * y), total(i * y)
    start = np.arange(n - w + 1, dtype=float)
    sxx = w * (w * w - 1) / 12.0
    sxy = siy - start * sy - (w - 1) / 2.0 * sy
    slope = sxy / sxx
    se = np.sqrt(np.maximum(syy - sy * sy / w - slope * sxy, 0.0) / (w - 2) / sxx)
    with np.errstate(divide="ignore", invalid="ignore"):
        out[w - 1:] = np.where(total(bad.astype(float)) > 0, np.nan,
                               np.where(se > 0, slope / se, np.sign(slope) * np.inf))
    return out


def fraction_true(mask: np.ndarray) -> float:
    m = np.asarray(mask, dtype=bool)
    return float(m.mean()) if m.size else 0.0


def finite(x: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    return x[np.isfinite(x)]
