"""Robust statistics the detectors share: trailing median/MAD, sustained onsets.

All functions take and return numpy float arrays aligned with ``RunView.step``; NaN means
"not logged at this step" and is skipped by the rolling windows.
"""
from __future__ import annotations

import numpy as np
import numpy.typing as npt
import polars as pl

#: MAD → standard deviation for normally distributed noise.
MAD_SCALE = 1.4826
#: Mean absolute deviation → standard deviation for normally distributed noise (√(π/2)).
MEAN_AD_SCALE = 1.2533


def rolling_median(x: np.ndarray, window: int, min_periods: int | None = None) -> np.ndarray:
    """Trailing median over the last ``window`` logged values (current one included)."""
    return as_series(x).rolling_median(window, min_samples=min_periods or max(1, window // 2)).to_numpy()


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


def sustained_onset(mask: np.ndarray, sustain: int) -> int | None:
    """Index where the first run of at least ``sustain`` consecutive True values starts (NaN
    comparisons are False), or None."""
    m = np.asarray(mask, dtype=bool)
    if m.size == 0:
        return None
    if sustain <= 1:
        hits = np.flatnonzero(m)
        return int(hits[0]) if hits.size else None
    idx = np.arange(m.size)
    run_start = np.maximum.accumulate(np.where(~m, idx + 1, 0))  # start of the run of Trues ending here
    long_enough = np.flatnonzero(m & (idx - run_start + 1 >= sustain))
    return int(run_start[long_enough[0]]) if long_enough.size else None


def weighted_sustained_onset(mask: np.ndarray, weight: np.ndarray, sustain: float) -> int | None:
    """Index where the first run of consecutive True values starts whose ``weight`` summed over the
    run reaches ``sustain`` (weights of 1 make it ``sustained_onset``), or None."""
    m = np.asarray(mask, dtype=bool)
    if m.size == 0:
        return None
    idx = np.arange(m.size)
    run_start = np.maximum.accumulate(np.where(~m, idx + 1, 0))
    total = np.concatenate(([0.0], np.cumsum(np.where(m, np.nan_to_num(weight), 0.0))))
    within = total[idx + 1] - total[np.minimum(run_start, m.size)]
    long_enough = np.flatnonzero(m & (within >= sustain - 1e-9))
    return int(run_start[long_enough[0]]) if long_enough.size else None


def fraction_true(mask: np.ndarray) -> float:
    m = np.asarray(mask, dtype=bool)
    return float(m.mean()) if m.size else 0.0


def finite(x: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    return x[np.isfinite(x)]


def confidence_from(excess: float, scale: float, floor: float = 0.5, ceiling: float = 0.99) -> float:
    """Map how far evidence exceeds its threshold (``excess`` ≥ 0, in units of ``scale``)
    onto [floor, ceiling), growing monotonically with the evidence."""
    if not np.isfinite(excess) or excess <= 0:
        return floor
    return float(floor + (ceiling - floor) * (1.0 - np.exp(-excess / max(scale, 1e-12))))



def percent(share: float) -> str:
    """``share`` as a percentage, with significant digits when whole percents would round
    a non-zero share to "0%" (a collapse to 0.3 % of a level must not read 0 %)."""
    if np.isfinite(share) and 0 < abs(share) < 0.005:
        return f"{share * 100:.1g}%"
    return f"{share:.0%}"
