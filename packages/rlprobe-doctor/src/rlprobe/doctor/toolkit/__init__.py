"""The doctor's statistics toolkit: every detector and fact reads its curves through these.

- ``rolling``: trailing and centred medians, robust noise (MAD), trends;
- ``curves``: a metric as logged (``Curve``, ``logged``), its stride, windows stated in steps;
- ``episodes``: entering, sustaining and leaving a condition, and the one onset walk-back;
- ``levels``: a level change against a curve's reference or its opening level, recovered or ongoing;
- ``confidence``: how sure a finding is, and what its printed confidence means (``calibration``).

Detectors import from here (``from ..toolkit import ...``) and from ``facts``, never from each other.
"""
from __future__ import annotations

from .confidence import calibrated, confidence_from, percent
from .curves import (
    MIN_LOGGED,
    MIN_STEPS,
    Curve,
    Windows,
    episode_median,
    in_points,
    logged,
    logging_stride,
    long_enough,
)
from .episodes import (
    Excursion,
    ended_for_good,
    find_excursion,
    held_extreme,
    hysteresis,
    onset_before,
    refine_onset,
    sustained_onset,
    weighted_sustained_onset,
)
from .levels import (
    COLLAPSED,
    DEPTH_CREDIT,
    LevelChange,
    changed_at_first_update,
    fall_reference,
    level_change,
    opening_reference,
    relative_change,
    rise_reference,
    with_opening,
)
from .rolling import (
    MAD_SCALE,
    MEAN_AD_SCALE,
    as_series,
    centred_median,
    finite,
    finite_median,
    fraction_true,
    level_noise,
    robust_z,
    rolling_mad,
    rolling_max,
    rolling_mean,
    rolling_median,
    rolling_min,
    rolling_quantile,
    rolling_trend_t,
    shift,
    smooth,
    smoothed_noise,
    trend_t,
)

__all__ = [
    "COLLAPSED", "DEPTH_CREDIT", "MAD_SCALE", "MEAN_AD_SCALE", "MIN_LOGGED", "MIN_STEPS",
    "Curve", "Excursion", "LevelChange", "Windows",
    "as_series", "calibrated", "centred_median", "changed_at_first_update", "confidence_from", "episode_median",
    "ended_for_good", "fall_reference", "find_excursion",
    "finite", "finite_median", "fraction_true", "held_extreme", "hysteresis", "in_points", "level_change",
    "level_noise", "logged", "logging_stride", "long_enough", "onset_before", "opening_reference", "percent",
    "refine_onset", "relative_change", "rise_reference", "robust_z", "rolling_mad", "rolling_max", "rolling_mean",
    "rolling_median", "rolling_min", "rolling_quantile", "rolling_trend_t", "shift", "smooth", "smoothed_noise",
    "sustained_onset", "trend_t", "weighted_sustained_onset", "with_opening",
]
