"""One chart per metric: the downsampled series and the findings to mark on it.

The charts are drawn in the browser by uPlot (vendored from the npm package ``uplot``,
MIT, under ``assets/uplot``). Why uPlot: about 50 KB minified with no dependencies, so
inlining it keeps the report one small file; it draws to canvas and stays fast with
thousands of points across dozens of charts, where an SVG per point would not; and it
sets every label with ``textContent``, so untrusted metric names cannot become markup.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np
import polars as pl

from rlprobe.records import STEP_FIELDS, canonical_metric

from ..findings import Finding
from ..view import RunView
from .downsample import minmax_downsample

__all__ = ["MAX_POINTS", "MIN_POINTS", "POINT_BUDGET", "build_charts", "metric_order", "points_per_chart"]

#: Points per chart after downsampling: twice a wide chart's pixel width, plenty to see every spike.
MAX_POINTS = 2000
#: Points across all charts, shared out when a run logs many metrics: what keeps the
#: report of a long run with a hundred metrics a few MB (about 14 bytes a point).
POINT_BUDGET = 200_000
#: ... but never fewer than this per chart: min/max buckets still show every spike.
MIN_POINTS = 500
_SIGNIFICANT = 6


def metric_order(view: RunView) -> list[str]:
    """Known fields in their record order, then reward components, then other extras by name."""
    names = view.metric_names()
    known = [n for n in STEP_FIELDS if n in names]
    components = sorted(n for n in names if n.startswith("rewards/") and n.endswith("/mean"))
    extras = sorted(n for n in names if n not in known and n not in components)
    return known + components + extras


def build_charts(view: RunView, findings: list[Finding]) -> list[dict[str, Any]]:
    """For each metric: its id, name, kind, display points, summary numbers and marks.

    A finding is marked on every chart at its onset; on the charts of the metrics in its
    evidence the mark is emphasised and its evidence window shaded."""
    steps = view.step
    names = metric_order(view)
    budget = points_per_chart(len(names))
    # One pass over the steps table for every metric: values (NaN where not logged) and
    # where a value was logged, which tells a logged NaN/inf from a step that skipped it.
    columns = view.steps.select(
        [pl.col(n).cast(pl.Float64).fill_null(float("nan")).alias(f"v{i}") for i, n in enumerate(names)]
        + [pl.col(n).is_not_null().alias(f"l{i}") for i, n in enumerate(names)])
    charts = []
    for index, name in enumerate(names):
        values = columns[f"v{index}"].to_numpy()
        finite = np.isfinite(values)
        x, y = minmax_downsample(steps, values, budget)
        nonfinite = columns[f"l{index}"].to_numpy() & ~finite
        charts.append({
            "id": f"chart-{index}",
            "name": name,
            "kind": _kind(name),
            "x": x.tolist(),
            "y": _rounded(y),
            "points": int(finite.sum()),
            "last": float(values[finite][-1]) if finite.any() else None,
            "min": float(values[finite].min()) if finite.any() else None,
            "max": float(values[finite].max()) if finite.any() else None,
            "nonfinite": int(nonfinite.sum()),
            "first_nonfinite": int(steps[nonfinite][0]) if nonfinite.any() else None,
            "downsampled": int(x.size) < int(steps.size),
            "marks": _marks(name, findings),
        })
    return charts


def points_per_chart(n_charts: int) -> int:
    """Display points each chart gets when ``n_charts`` share the report."""
    return max(MIN_POINTS, min(MAX_POINTS, POINT_BUDGET // max(1, n_charts)))


def _kind(name: str) -> str:
    if name in STEP_FIELDS:
        return "known"
    if name.startswith("rewards/") and name.endswith("/mean"):
        return "reward component"
    return "extra"


def _marks(name: str, findings: list[Finding]) -> list[dict[str, Any]]:
    marks = []
    for finding in findings:
        if finding.first_step is None:
            continue
        own = [e for e in finding.evidence if canonical_metric(e.metric) == name]
        marks.append({
            "step": finding.first_step,
            "severity": finding.severity,
            "label": finding.signature_id,
            "primary": bool(own),
            "window": list(own[0].window) if own else None,
        })
    return marks


def _rounded(y: np.ndarray) -> list[float | None]:
    """Six significant digits (what a chart can show) keep the embedded JSON small; NaN
    becomes null, a gap in the line. Rounding is to an integer times an exact power of
    ten, so each value's shortest repr - what JSON writes - has at most six digits. Powers
    of ten are exact up to 1e22; values too small or large for that stay as they are."""
    magnitude = np.floor(np.log10(np.abs(y), out=np.zeros_like(y), where=np.isfinite(y) & (y != 0)))
    shift = _SIGNIFICANT - 1 - magnitude
    up = 10.0 ** np.minimum(np.abs(shift), 22)
    with np.errstate(invalid="ignore", over="ignore"):
        rounded = np.where(shift >= 0, np.round(y * up) / up, np.round(y / up) * up)
    rounded = np.where(np.abs(shift) <= 22, rounded, y)
    return [None if math.isnan(v) else v for v in rounded.tolist()]
