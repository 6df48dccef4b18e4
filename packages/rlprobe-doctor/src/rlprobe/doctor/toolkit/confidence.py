"""How sure a finding is, and how its shares read."""
from __future__ import annotations

import numpy as np


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
