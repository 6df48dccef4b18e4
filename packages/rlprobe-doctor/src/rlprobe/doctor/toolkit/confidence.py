"""How sure a finding is, and how its shares read."""
from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

import numpy as np

from .calibration import RELIABILITY


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


#: Set (to anything) to print each detector's own confidence, uncalibrated: what ``bench/validate.py
#: --fit`` fits the calibration on.
UNCALIBRATED_ENV = "RLPROBE_UNCALIBRATED"


def calibrated(severity: str, raw: float, table: Mapping[str, Sequence[tuple[float, float]]] | None = None) -> float:
    """``raw`` (a detector's strength of evidence, 0–1) as the share of findings of this severity and
    strength that were right on the labelled corpus (``table``, by default ``calibration.RELIABILITY``,
    fitted on its tune half by ``bench/validate.py --fit``): a finding printed at 80 % is right about
    80 % of the time. Info findings, which no label judges, keep their own."""
    steps = (RELIABILITY if table is None else table).get(severity)
    if not steps or (table is None and os.environ.get(UNCALIBRATED_ENV)) or not np.isfinite(raw):
        return raw
    value = steps[0][1]
    for lower, share in steps:
        if raw >= lower:
            value = share
    return float(min(max(value, 0.0), 1.0))
