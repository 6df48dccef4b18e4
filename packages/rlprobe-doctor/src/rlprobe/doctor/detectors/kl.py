"""KL to the reference policy: judged by its level and its growth rate, never by a ratio
to its early value (KL starts near 0 in every run)."""
from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from ..catalog import detector
from ..findings import Evidence, Finding
from ..stats import confidence_from, smooth, sustained_onset
from ..view import RunView


@detector("KL_BLOWUP", defaults={
    "min_level": 0.05,        # per-token KL below this is never a blow-up
    "critical_level": 1.0,    # smoothed KL at or above this is critical on its own
    "growth_factor": 4.0,     # smoothed KL multiplied by this within growth_window ...
    "growth_window": 50,      # ... steps
    "smooth_window": 9,
    "sustain": 10,            # the condition must hold this many consecutive steps
})
def kl_blowup(view: RunView, cfg: Mapping[str, Any]) -> Finding | None:
    """KL to the reference grows fast (multiplies within a short window) to a level that matters."""
    if not view.has("kl_mean"):
        return None  # TRL GRPO's default beta is 0: no KL logged is normal
    kl = view.series("kl_mean")
    level = smooth(kl, cfg["smooth_window"])
    w = cfg["growth_window"]
    before = np.full_like(level, np.nan)
    before[w:] = level[:-w]
    growth = level / np.maximum(before, cfg["min_level"] / cfg["growth_factor"])
    fast = (growth >= cfg["growth_factor"]) & (level >= cfg["min_level"])
    high = level >= cfg["critical_level"]
    hit = sustained_onset(fast | high, cfg["sustain"])
    if hit is None:
        return None
    steps = view.step
    base_lo = max(0, hit - 2 * w)
    baseline = float(np.nanmedian(level[base_lo:max(base_lo + 1, hit - w)]))
    onset = _growth_start(kl, level, hit, w, baseline)
    peak = float(np.nanmax(level[hit:]))
    peak_growth = float(np.nanmax(growth[hit:])) if np.isfinite(growth[hit:]).any() else 1.0
    critical = peak >= cfg["critical_level"] or peak_growth >= 2.5 * cfg["growth_factor"]
    confidence = confidence_from(np.log(max(peak, 1e-12) / cfg["min_level"]) + np.log(peak_growth / cfg["growth_factor"] + 1), 2.0, floor=0.55)
    first, last = int(steps[onset]), int(steps[-1])
    return Finding(
        signature_id="KL_BLOWUP",
        severity="critical" if critical else "warn",
        confidence=confidence,
        first_step=first,
        explanation=(f"KL to the reference rose from {baseline:.3g} to {peak:.3g} (×{peak / max(baseline, 1e-12):.1f}) "
                     f"starting at step {first}; it grew ×{peak_growth:.1f} within {w} steps."),
        evidence=[Evidence(metric="kl_mean", window=(first, last), baseline=baseline, observed=peak,
                           note=f"rolling median over {cfg['smooth_window']} steps; peak after onset")],
        suggested_actions=[
            "Raise the KL penalty (GRPOConfig/RLOOConfig `beta`) or lower `learning_rate`.",
            "Lower `max_grad_norm` and, with several updates per generation, `num_iterations` or `epsilon`.",
            "Inspect the highest-KL samples: degenerate text here usually means the policy left the reference's support.",
        ],
        links_to_samples=view.top_samples(first, last, "kl", k=5),
    )


def _growth_start(raw: np.ndarray, level: np.ndarray, hit: int, window: int, baseline: float) -> int:
    """Walk back from the detection to where the smoothed KL last sat near its baseline."""
    lo = max(0, hit - 2 * window)
    noise = float(np.nanmedian(np.abs(raw[lo:hit + 1] - baseline))) if hit > lo else 0.0
    ceiling = baseline + 3.0 * max(noise, 1e-3 * max(baseline, 1e-9)) + 1e-12
    i = hit
    while i > lo and (not np.isfinite(level[i - 1]) or level[i - 1] > ceiling):
        i -= 1
    return i
