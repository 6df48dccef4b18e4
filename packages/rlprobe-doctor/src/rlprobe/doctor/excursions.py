"""Sustained excursions of a series above a level: where one began, what it rose from, how
high it went. Shared by the detectors whose signature is "this quantity sat too high for
too long" (zero-advantage share, repetition, logprob mismatch, ...).

A point is never enough: the trailing median must hold the condition for ``sustain``
consecutive points, and the onset is then walked back to where a centred median last sat
near the baseline, so ``onset`` is where the rise began rather than where it was noticed.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .stats import MAD_SCALE, as_series, smooth, sustained_onset

__all__ = ["Excursion", "find_excursion", "centred_median"]


@dataclass(frozen=True)
class Excursion:
    """Indices into the series handed to ``find_excursion``."""

    onset: int
    """Where the rise began (walked back from ``hit``)."""
    hit: int
    """First point of the first run of ``sustain`` points that met the condition."""
    end: int
    """Last point of that episode (inclusive): where the smoothed level fell back below
    half-way between baseline and level, or the end of the series."""
    baseline: float
    """Median of the series before the episode (its first ``baseline_frac``)."""
    noise: float
    """Robust standard deviation of the baseline region."""
    observed: float
    """Median of the raw series over [hit, end]."""
    peak: float
    """Highest smoothed level over [hit, end]."""

    @property
    def duration(self) -> int:
        return self.end - self.hit + 1


def centred_median(x: np.ndarray, window: int) -> np.ndarray:
    """Rolling median centred on each point (NaN skipped): locates an onset without the
    lag of a trailing window."""
    return as_series(x).rolling_median(window, center=True, min_samples=1).to_numpy()


def find_excursion(x: np.ndarray, *, level: float, sustain: int, smooth_window: int,
                   min_rise: float = 0.0, min_ratio: float = 0.0, baseline_frac: float = 0.2) -> Excursion | None:
    """The first episode where the trailing median of ``x`` is at least ``level``, at least
    ``min_rise`` above the baseline and at least ``min_ratio`` times it, for ``sustain``
    consecutive points; None when there is none. NaN means "not measured" and never meets
    the condition. The baseline is the median of the first ``baseline_frac`` of the series
    (at least ``sustain`` points), so a run that is bad from its first step shows no rise;
    its onset is where the level has held from (its first point, when it held all along)."""
    x = np.asarray(x, dtype=float)
    n = x.size
    if n < sustain or not np.isfinite(x).any():
        return None
    head = x[: max(sustain, int(n * baseline_frac))]
    head = head[np.isfinite(head)]
    baseline = float(np.median(head)) if head.size else 0.0
    noise = float(MAD_SCALE * np.median(np.abs(head - baseline))) if head.size else 0.0
    lvl = smooth(x, smooth_window)
    with np.errstate(invalid="ignore"):
        cond = (lvl >= level) & (lvl >= baseline * min_ratio)
        if min_rise > 0:  # with none asked, a level past `level` from the start need not also beat its own median
            cond &= lvl >= baseline + min_rise
    hit = sustained_onset(cond, sustain)
    if hit is None:
        return None
    # Hysteresis: the episode lasts until the level falls back half-way to the baseline.
    floor = baseline + 0.5 * (max(level, baseline + min_rise) - baseline)
    if baseline >= level and min_rise <= 0:
        floor = level  # in the condition from the start: it lasts while it stays there
    with np.errstate(invalid="ignore"):
        below = ~(lvl[hit:] >= floor)
    below[: sustain] = False
    end = hit + int(np.argmax(below)) - 1 if below.any() else n - 1
    observed = float(np.nanmedian(x[hit:end + 1]))
    peak = float(np.nanmax(lvl[hit:end + 1]))
    onset = _walk_back(x, hit, baseline, max(2.0 * noise, 0.15 * (observed - baseline)), smooth_window)
    if baseline >= level:
        # In the condition from the run's start: no rise to walk back along; the episode
        # began where the level last held from (the first point, usually).
        onset = _walk_back(x, hit, level, -1e-12, smooth_window)
    return Excursion(onset=onset, hit=hit, end=end, baseline=baseline, noise=noise, observed=observed, peak=peak)


def _walk_back(x: np.ndarray, hit: int, baseline: float, margin: float, window: int) -> int:
    """From ``hit``, step back while a centred median still sits above baseline + margin."""
    centred = centred_median(x, max(3, window // 2 * 2 + 1))
    above = centred[:hit] > baseline + margin  # NaN compares False: a gap ends the walk
    if not above.size or not above[-1]:
        return hit
    quiet = np.flatnonzero(~above)
    return int(quiet[-1]) + 1 if quiet.size else 0
