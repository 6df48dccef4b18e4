"""Level changes: a curve leaves its own recent level and holds the new one.

The one shape behind ENTROPY_COLLAPSE / ENTROPY_EXPLOSION, LENGTH_EXPLOSION / LENGTH_COLLAPSE
and REWARD_COLLAPSE: a smoothed curve crosses an entry level set from its reference (the
median of a trailing window that ended ``gap`` steps ago), stays past a looser exit level
(hysteresis) for ``sustain`` steps — each step weighed by how far past the entry level it is
(``DEPTH_CREDIT``: depth × duration is the evidence) — and the onset is walked back to where the
curve last sat at the reference. A fix here lands in every one of those detectors.

Two facts of real runs are built in:

- **The opening level is a reference too.** A trailing reference needs ``gap`` plus half a
  ``baseline`` of history, so a change in a short run's first steps (a length explosion by
  step 10) would only be measured against a window that already holds it. Until the trailing
  reference exists, the run's opening level (the median of its first logged points: the
  policy as it started) stands in.
- **A change at the first update is a change.** When the curve leaves its first logged value
  at the second and holds the new level, far out of its noise, to the run's end, the first
  value alone is the opening level (the median of three would already hold the change).
- **Returning is not a change.** A rise measured from a collapsed level (a curve at half or
  less of a level it held before, or of its opening level) is judged against that earlier
  level: entropy that recovers after a collapse to where it started has not exploded, and a
  length that collapsed and wobbles back up a little has not exploded either. Likewise a fall
  from an exploded level (twice or more one it held before, or its opening level) is judged
  against that earlier level, so a finding's opposite does not fire on the way back.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

from ..findings import Evidence, Severity
from .curves import Curve, Windows, long_enough
from .episodes import held_extreme, hysteresis, onset_before, refine_onset, weighted_sustained_onset
from .rolling import level_noise, rolling_min, smoothed_noise

__all__ = ["LevelChange", "changed_at_first_update", "fall_reference", "level_change", "opening_reference",
           "relative_change", "rise_reference", "with_opening"]

#: A level change this many times as far past its entry level as entering needs counts each step as
#: this many: evidence is depth × duration, so a short deep fall is confirmed as a long shallow one is.
DEPTH_CREDIT = 2.0
#: Logged points whose median is the run's opening level.
OPENING_POINTS = 3
#: A level at or below this share of one it held before has collapsed (a rise from it is judged
#: against the earlier level, so a recovery is not an explosion).
COLLAPSED = 0.5


@dataclass(frozen=True)
class LevelChange:
    """A sustained change of a curve's level; indices into the curve."""

    hit: int
    """Where the change was first confirmed to hold."""
    onset: int
    """Where it began (walked back from ``hit``)."""
    baseline: float
    """The reference level just before the change."""
    observed: float
    """The most extreme level held for ``sustain`` steps after the onset."""
    windows: Windows
    recovered_from: float | None = None
    """For a rise judged against the higher level the curve held before a collapse (a fall
    against the lower level held before a rise): that level."""
    back_at: int | None = None
    """Where the episode ended for good: from this index to the run's end (at least ``sustain``
    logged points) the smoothed curve stayed back at ``baseline`` (within its noise band, or beyond it on
    the side the change left from: a fall that comes back higher has recovered). None while
    it is still going at the end of the run."""

    def recovery(self, steps: np.ndarray) -> str:
        """The sentence that says the episode ended (empty while it goes on)."""
        if self.back_at is None:
            return ""
        return (f" It came back to its level ({self.baseline:.3g}) or beyond from step {int(steps[self.back_at])} and "
                "held it to the run's end: the episode is over, so it is not rated as ongoing.")

    def capped(self, severity: Severity) -> Severity:
        """``severity``, at most warn once the episode is over: severity says the state at the run's end."""
        return "warn" if self.back_at is not None and severity == "critical" else severity

    @property
    def ratio(self) -> float:
        return self.observed / self.baseline if self.baseline else float("inf")

    def evidence(self, metric: str, first: int, last: int, rising: bool, extra: str = "") -> Evidence:
        w = self.windows
        returned = "the collapse it rose from" if rising else "the rise it fell from"
        reference = (f"the level held before {returned}" if self.recovered_from is not None else
                     f"median of {w.baseline} steps ending {w.gap} steps before (the run's opening level before "
                     "that exists)")
        return Evidence(metric=metric, window=(first, last), baseline=self.baseline, observed=self.observed,
                        note=f"reference: {reference}; observed: {'highest' if rising else 'lowest'} level held for "
                             f"{w.sustain} steps{extra}")


def opening_reference(curve: Curve, windows: Windows) -> np.ndarray:
    """``curve.reference(windows)`` with the run's opening level (median of its first
    ``OPENING_POINTS`` logged values) wherever the trailing window has too little history.
    When the run changed at its first update (``changed_at_first_update``), the opening level
    is the first logged value alone, from the second value on."""
    ref = np.array(curve.reference(windows), dtype=float)
    opening = _opening(curve)
    return ref if opening is None else with_opening(curve.values, ref, opening[1])


def rise_reference(level: np.ndarray, reference: np.ndarray, window: int) -> np.ndarray:
    """Per point, the reference a rise is measured from: the lowest ``reference`` since the smoothed
    ``level`` last sat at or below it, over ``window`` points at most. A trailing reference (the median
    of a window that ended ``gap`` points ago) takes in a rise that lasts longer than ``gap`` points while
    it goes on, and then measures how fast the level climbs, not how far; while the level has stayed
    above its reference the whole way, the reference as the rise left it is the level before the rise.
    A level that wanders about its reference sits at or below it often, and keeps its reference."""
    with np.errstate(invalid="ignore"):
        rising = level > reference  # NaN (no level or no reference yet) starts afresh
    return _held(reference, rising, window, highest=False)


def fall_reference(level: np.ndarray, reference: np.ndarray, window: int) -> np.ndarray:
    """Per point, the reference a fall is measured from: the highest ``reference`` since the smoothed
    ``level`` last sat above it, over ``window`` points at most (``rise_reference``'s mirror). A trailing
    reference takes in a fall that lasts longer than ``gap`` points, and a level that fell to its floor
    is soon joined there by its trailing reference: a level that sits *at* its reference after falling
    below it has not come back, so a tie continues the stretch it is in (a curve flat from the start is
    never below its reference and keeps its own). A level that wanders about its reference sits above it
    often, and keeps its reference."""
    with np.errstate(invalid="ignore"):
        side = np.where(level < reference, 1.0, np.where(level > reference, 0.0, np.nan))
    # A tie (or no level or reference yet) keeps the side the level was on; none yet is "not below".
    filled = pl.Series(side).fill_nan(None).forward_fill().fill_null(0.0).to_numpy()
    return _held(reference, filled > 0.5, window, highest=True)


def _held(reference: np.ndarray, away: np.ndarray, window: int, highest: bool) -> np.ndarray:
    """``reference`` held at its highest (or lowest) over each stretch of points ``away`` from it, over
    ``window`` points at most: the reference as the excursion left it."""
    frame = pl.DataFrame({"reference": reference, "excursion": np.cumsum(~away)}).with_columns(
        pl.col("reference").fill_nan(None))
    column = pl.col("reference")
    rolled = column.rolling_max(window, min_samples=1) if highest else column.rolling_min(window, min_samples=1)
    held = frame.select(rolled.over("excursion")).to_series().to_numpy().astype(float)
    out: np.ndarray = np.fmax(reference, held) if highest else np.fmin(reference, held)
    return out


def with_opening(x: np.ndarray, ref: np.ndarray, points: int) -> np.ndarray:
    """``ref`` with the run's opening level (median of the first ``points`` logged values of ``x``; NaN
    is "not logged") where the trailing window has too little history, from the ``points``-th logged
    value on; ``ref`` itself when ``x`` has no more than ``points`` logged values."""
    logged_at = np.flatnonzero(np.isfinite(x))
    if logged_at.size <= points:
        return ref
    out = np.array(ref, dtype=float)
    early = np.isnan(out)
    early[:logged_at[points - 1] + 1] = False
    out[early] = float(np.median(x[logged_at[:points]]))
    return out


def _opening(curve: Curve) -> tuple[float, int] | None:
    """The run's opening level and the logged points it is the median of (the first value
    alone when the run changed at its first update); None for a curve too short to have one."""
    if curve.size <= OPENING_POINTS:
        return None
    points = 1 if changed_at_first_update(curve) else OPENING_POINTS
    return float(np.median(curve.values[:points])), points


#: A change at the first update must be this many times the noise of the level held after it.
FIRST_UPDATE_Z = 10.0


def changed_at_first_update(curve: Curve) -> bool:
    """Whether the curve left its first logged value (the policy before any update) at the
    second and held the new level to the run's end: every later value lies beyond the midpoint
    between the first value and the median of the rest, and the jump is at least
    ``FIRST_UPDATE_Z`` times the step-to-step noise of the rest. One opening point is little
    evidence, so the change must hold for the whole run (``long_enough``) and
    stand far out of its noise — as when one update at a learning rate of 1e6 leaves a uniform
    policy whose entropy sits at ln(vocabulary) and whose reward sits at 0 from then on."""
    x = curve.values
    if not long_enough(curve.steps):
        return False
    first, rest = float(x[0]), x[1:]
    level = float(np.median(rest))
    jump = level - first
    if jump == 0:
        return False
    mid = first + 0.5 * jump
    held = bool((rest > mid).all()) if jump > 0 else bool((rest < mid).all())
    return held and abs(jump) >= FIRST_UPDATE_Z * level_noise(rest, 0, rest.size)


def level_change(curve: Curve, windows: Windows, enter: np.ndarray, stay: np.ndarray, rising: bool,
                 reference: np.ndarray, band_floor: float | np.ndarray = 0.0, refine: bool = True,
                 recovered_from: np.ndarray | None = None) -> LevelChange | None:
    """The first sustained change of ``curve`` past the level ``enter`` (an array aligned with
    the curve: above it when ``rising``, below otherwise), held while the smoothed level stays
    past ``stay`` (the looser level) for ``windows.sustain`` steps. The onset is walked back to
    where the centred median last sat within the noise (at least ``band_floor``, a number or
    an array aligned with the curve, and 5 % of the baseline) of ``reference``, and moved to the break when
    it stopped inside a drift
    (``refine``). ``recovered_from`` marks, per step, the pre-collapse level a rise was judged
    against (NaN where it was not). ``back_at`` is where the smoothed curve came back within that
    band, or beyond it on the far side, for good (recovered and ongoing are decided here, once, for every
    level detector)."""
    level = curve.smooth(windows.smooth)
    with np.errstate(invalid="ignore"):
        if rising:
            state = hysteresis(level >= enter, level >= stay)
        else:
            state = hysteresis(level <= enter, level <= stay)
    # Depth counts as duration: a step past ``enter`` by k times the entry distance counts as k steps
    # (1 at most ``DEPTH_CREDIT``), so a fall far out of the noise confirms in a fraction of ``sustain``.
    with np.errstate(invalid="ignore", divide="ignore"):
        depth = np.abs(level - reference) / np.abs(np.asarray(enter, dtype=float) - reference)
    hit = weighted_sustained_onset(state, np.clip(np.nan_to_num(depth, nan=1.0), 1.0, DEPTH_CREDIT), windows.sustain)
    if hit is None:
        return None
    x = curve.values
    baseline = float(reference[hit]) if np.isfinite(reference[hit]) else float(np.nanmedian(x[:hit + 1]))
    lo = max(0, hit - windows.gap - windows.baseline)
    noise = smoothed_noise(x, lo, max(lo + 3, hit - windows.gap), windows.smooth)
    floor = float(band_floor[hit]) if isinstance(band_floor, np.ndarray) else float(band_floor)
    band = max(4.0 * noise, 0.05 * abs(baseline), floor)
    onset = onset_before(x, hit, baseline, band, rising, lo, windows.smooth)
    if refine:
        onset = refine_onset(x, hit, onset, rising, lo, windows.smooth, windows.gap)
    prior = None
    if recovered_from is not None and np.isfinite(recovered_from[hit]):
        prior = float(recovered_from[hit])
    # Back: out of the episode (no longer past ``stay`` as it stood when the change was confirmed; a
    # trailing reference later absorbs the new level) and back to the level before it, within its noise
    # band or beyond it on the far side (a reward that comes back higher than it fell from has recovered).
    exit_level = float(np.asarray(stay, dtype=float).reshape(-1)[hit]) if np.ndim(stay) else float(stay)
    with np.errstate(invalid="ignore"):
        past = (level >= exit_level) if rising else (level <= exit_level)
        if not np.isfinite(band):
            near = np.ones(level.size, dtype=bool)
        else:
            near = (level <= baseline + band) if rising else (level >= baseline - band)
    away = past | ~near
    away[:hit + 1] = True
    last_away = int(np.flatnonzero(away | ~np.isfinite(level))[-1])
    back_at = last_away + 1 if level.size - (last_away + 1) >= windows.sustain else None
    return LevelChange(hit=hit, onset=onset, baseline=baseline,
                       observed=held_extreme(level, hit, windows.sustain, rising), windows=windows,
                       recovered_from=prior, back_at=back_at)


def relative_change(curve: Curve, windows: Windows, enter: float | np.ndarray, stay: float, rising: bool,
                    floor: float | None = None, reference: np.ndarray | None = None) -> LevelChange | None:
    """The first sustained change of a positive curve to ``enter``× its reference (rising) or
    ``enter``× (falling, ``enter`` < 1), held until it crosses back past ``stay``×. ``enter``
    may vary by step. With ``floor``, a rise counts only once the level itself reaches it.
    ``reference`` replaces the default (``opening_reference``). A rise from a collapsed level
    is judged against the higher level held before the collapse (or the opening level); a fall
    after an explosion (a rise to twice the reference, held) against the level before it."""
    ref = opening_reference(curve, windows) if reference is None else np.asarray(reference, dtype=float)
    with np.errstate(invalid="ignore"):
        ref = np.where(ref > 0, ref, np.nan)  # a ratio to a level of 0 means nothing
    if rising:
        before = _held_before(curve, windows)
        with np.errstate(invalid="ignore"):
            returning = ref <= COLLAPSED * before
        recovered = np.where(returning, before, np.nan)
        ref = np.where(returning, before, ref)
    else:
        recovered = _after_explosion(curve, windows, ref)
        ref = np.where(np.isfinite(recovered), recovered, ref)
    enter_level = np.asarray(enter, dtype=float) * ref
    stay_level = stay * ref
    if rising and floor is not None:
        enter_level = np.maximum(enter_level, floor)  # NaN (no reference yet) stays NaN
        stay_level = np.maximum(stay_level, floor)
    return level_change(curve, windows, enter_level, stay_level, rising, ref, recovered_from=recovered)


def _after_explosion(curve: Curve, windows: Windows, ref: np.ndarray) -> np.ndarray:
    """Per step, the level an explosion (a rise to twice the reference, held above 1.5× for
    ``sustain`` steps) left, from its onset until the trailing reference has forgotten it
    (``gap`` + ``baseline`` steps after the level came back under 1.5× that level): a fall in
    that stretch is the way back, judged against that level. NaN elsewhere."""
    out = np.full(curve.size, np.nan)
    stay = 0.5 * (1 + 1 / COLLAPSED)
    explosion = level_change(curve, windows, ref / COLLAPSED, ref * stay, True, ref)
    if explosion is None:
        return out
    level = curve.smooth(windows.smooth)[explosion.hit:]
    with np.errstate(invalid="ignore"):
        ended = np.flatnonzero(~(level >= stay * explosion.baseline))
    end = explosion.hit + int(ended[0]) if ended.size else curve.size
    out[explosion.onset:end + windows.gap + windows.baseline] = explosion.baseline
    return out


def _held_before(curve: Curve, windows: Windows) -> np.ndarray:
    """Per step, the level a rise would return to: the highest level held for ``sustain``
    steps up to ``gap`` steps earlier, or the opening level if higher; NaN where there is no
    such history yet."""
    level = curve.smooth(windows.smooth)
    held = rolling_min(level, windows.sustain)
    before = np.full_like(held, np.nan)
    if windows.gap < held.size:
        before[windows.gap:] = np.fmax.accumulate(np.nan_to_num(held, nan=-np.inf))[:held.size - windows.gap]
    before[~np.isfinite(before)] = np.nan
    opening = _opening(curve)
    if opening is not None:
        opening_level, points = opening
        before[points:] = np.fmax(before[points:], opening_level)  # fmax: NaN yields to the opening level
    return before
