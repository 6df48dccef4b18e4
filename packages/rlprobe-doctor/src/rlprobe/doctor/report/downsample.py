"""Min/max-per-bucket downsampling: a long series shrunk for display without hiding spikes.

Averaging (or taking every n-th point) would erase exactly what a post-mortem is for: a
one-step grad-norm spike in a 100k-step run. Keeping each bucket's minimum and maximum,
at the steps where they occur and in the order they occur, draws the same envelope as
the full series at any width the chart can show.
"""
from __future__ import annotations

import numpy as np

__all__ = ["minmax_downsample"]


def minmax_downsample(x: np.ndarray, y: np.ndarray, max_points: int) -> tuple[np.ndarray, np.ndarray]:
    """At most ``max_points`` points of ``(x, y)``: the series itself when it is short
    enough, else the minimum and maximum of each of ``max_points // 2`` equal buckets.
    Non-finite ``y`` counts as missing; a bucket with nothing finite yields one NaN
    point so the chart shows a gap there. ``x`` must be increasing. Pure; never raises
    for empty input."""
    x = np.asarray(x)
    y = np.asarray(y, dtype=np.float64)
    n = y.size
    if n <= max_points:
        return x, np.where(np.isfinite(y), y, np.nan)
    width = -(-n // max(1, max_points // 2))
    buckets = -(-n // width)  # so that every bucket holds at least one real point
    padded = np.full(buckets * width, np.nan)
    padded[:n] = y
    grid = padded.reshape(buckets, width)
    finite = np.isfinite(grid)
    lo = np.argmin(np.where(finite, grid, np.inf), axis=1)
    hi = np.argmax(np.where(finite, grid, -np.inf), axis=1)
    first, second = np.minimum(lo, hi), np.maximum(lo, hi)
    empty = ~finite.any(axis=1)
    # A flat or empty bucket needs one point, not two.
    keep_second = (second != first) & ~empty
    base = np.arange(buckets) * width
    index = np.stack([base + first, base + second], axis=1)
    keep = np.stack([np.ones(buckets, dtype=bool), keep_second], axis=1)
    index = index[keep]
    values = np.where(np.repeat(empty, keep.sum(axis=1)), np.nan, padded[index])
    return x[index], np.where(np.isfinite(values), values, np.nan)
