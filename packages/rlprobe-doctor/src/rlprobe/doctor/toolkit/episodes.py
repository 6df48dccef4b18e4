"""Episodes: a condition entered, sustained, left, and where it began.

- ``sustained_onset`` / ``weighted_sustained_onset``: where the first run of consecutive steps
  that holds a condition long enough (or with enough weight) starts;
- ``hysteresis``: enter on one condition, stay until a looser one fails;
- ``onset_before`` (the one onset walk-back) and ``refine_onset``: from where a change was
  confirmed back to where it began;
- ``held_extreme``: the most extreme level held for a while;
- ``find_excursion``: a sustained rise of a share above a level, from its enter to its exit.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .rolling import MAD_SCALE, centred_median, level_noise, rolling_max, rolling_min, smooth


def sustained_onset(mask: np.ndarray, sustain: int) -> int | None:
    """Index where the first run of at least ``sustain`` consecutive True values starts (NaN
    comparisons are False), or None."""
    m = np.asarray(mask, dtype=bool)
    if not m.any():  # the common case on a healthy curve: no work over the whole run
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
    if not m.any():
        return None
    idx = np.arange(m.size)
    run_start = np.maximum.accumulate(np.where(~m, idx + 1, 0))
    total = np.concatenate(([0.0], np.cumsum(np.where(m, np.nan_to_num(weight), 0.0))))
    within = total[idx + 1] - total[np.minimum(run_start, m.size)]
    long_enough = np.flatnonzero(m & (within >= sustain - 1e-9))
    return int(run_start[long_enough[0]]) if long_enough.size else None


def hysteresis(enter: np.ndarray, stay: np.ndarray) -> np.ndarray:
    """True from each step where ``enter`` holds until the first later step where ``stay``
    fails. ``stay`` should be the looser condition (``enter`` implies it)."""
    enter = np.asarray(enter, dtype=bool)
    stay = np.asarray(stay, dtype=bool) | enter
    if not enter.any():  # never entered (the common case on a healthy curve)
        return np.zeros(stay.shape, dtype=bool)
    idx = np.arange(enter.size)
    last_enter = np.maximum.accumulate(np.where(enter, idx, -1))
    last_exit = np.maximum.accumulate(np.where(~stay, idx, -1))
    return (last_enter >= 0) & (last_enter > last_exit)


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
    recurs: bool = False
    """Whether the condition held again, for ``sustain`` points, after ``end``: the episode came back."""

    @property
    def duration(self) -> int:
        return self.end - self.hit + 1

    def over(self, size: int, sustain: int) -> bool:
        """Whether the episode ended for good in a series of ``size`` points: the series went on,
        out of it, for at least ``sustain`` points and as long again as the episode lasted, and it did
        not come back (recovered vs ongoing for a share that entered and left a level, decided once)."""
        return not self.recurs and size - 1 - self.end >= max(self.duration, sustain)


def ended_for_good(state: np.ndarray, hit: int, sustain: int) -> int | None:
    """The first point out of the episode of ``state`` that starts at ``hit``, when it ended for good
    (``Excursion.over``: the series went on out of it for at least ``sustain`` points and as long again as it
    lasted, and it did not come back for ``sustain`` points); None while it goes on. An episode that left and
    came back (for ``sustain`` points) lasts to its last exit: a share that dipped under its level and
    returned, then left it for good, ended there."""
    state = np.asarray(state, dtype=bool)
    end = hit
    while True:
        out = np.flatnonzero(~state[end:])
        if not out.size:
            return None
        end += int(out[0])
        back = sustained_onset(state[end:], sustain)
        if back is None:
            break
        end += back
    episode = Excursion(onset=hit, hit=hit, end=end - 1, baseline=np.nan, noise=np.nan, observed=np.nan,
                        peak=np.nan)
    return end if episode.over(len(state), sustain) else None


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
    window = max(3, smooth_window // 2 * 2 + 1)
    onset = onset_before(x, hit, baseline, max(2.0 * noise, 0.15 * (observed - baseline)), True, 0, window)
    if baseline >= level:
        # In the condition from the run's start: no rise to walk back along; the episode
        # began where the level last held from (the first point, usually).
        onset = onset_before(x, hit, level, -1e-12, True, 0, window)
    recurs = end + 1 < n and sustained_onset(cond[end + 1:], sustain) is not None
    return Excursion(onset=onset, hit=hit, end=end, baseline=baseline, noise=noise, observed=observed, peak=peak,
                     recurs=recurs)

