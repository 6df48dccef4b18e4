"""A synthetic run as a ``RunView`` straight from memory, without the Recorder or disk.

It holds the rows ``generate`` would write, cleaned by core's own rules into core's own
table schema, so a detector sees the same frames either way; it exists because the
detection matrix needs thousands of runs and the disk round trip would dominate.
"""
from __future__ import annotations

import time
from typing import Any, cast

import numpy as np
import polars as pl

from rlprobe.cleaning import Problems, clean_sample, flatten_metric
from rlprobe.records import EventKind, canonical_metric
from rlprobe.storage import RunStatus
from rlprobe.storage.schema import order_steps, samples_table

from ..view import RunView
from .plan import HEALTHY, SynthPlan, build_plan, step_log

__all__ = ["plan_view", "synth_view"]


def synth_view(pathology: str = HEALTHY, n_steps: int = 500, seed: int = 0,
               onset: int | None = None) -> tuple[SynthPlan, RunView]:
    """``build_plan`` then ``plan_view``: the plan (with its onset) and its run in memory."""
    plan = build_plan(pathology, n_steps, seed, onset)
    return plan, plan_view(plan, name=pathology)


def plan_view(plan: SynthPlan, name: str = "synth") -> RunView:
    """The run ``plan`` describes as a ``RunView``: steps, samples and events as the
    Recorder would have written them, and a finished run's manifest."""
    start = time.time()
    sample_rows: list[dict[str, Any]] = []
    problems = Problems()
    events = [_event(EventKind.RUN_START, None, f"recording synth-{name}-s{plan.seed}", {}, start)]
    for step, logged_events, _, raw_samples in step_log(plan, metrics=False):
        events.extend(_event(kind, step, message, data, start + step) for kind, message, data in logged_events)
        for raw in raw_samples or ():
            row = clean_sample(raw, step, 0, problems)
            if row is not None:
                sample_rows.append(row)
    steps = _steps_frame(plan, start, problems)
    events.extend(_event(EventKind.BAD_RECORD, step, message, data, start + (step or 0))
                  for message, step, data in problems.events())
    events.append(_event(EventKind.RUN_END, None, RunStatus.FINISHED, {}, start + plan.n_steps))
    # Arrow tables (not arrays) convert to DataFrames.
    samples = cast(pl.DataFrame, pl.from_arrow(samples_table(sample_rows))) if sample_rows else None
    manifest = {
        "format_version": 1, "run_id": f"synth-{name}-s{plan.seed}", "algorithm": plan.algorithm,
        "model_name": f"synth/{name}", "trainer_config": dict(plan.trainer_config), "world_size": 1, "rank": 0,
        "created_at": start, "closed_at": start + plan.n_steps, "status": RunStatus.FINISHED,
        "counts": {"steps": steps.height, "samples": len(sample_rows), "events": len(events), "dropped": 0,
                   "bad_records": problems.total()},
    }
    return RunView(steps, samples, events, manifest)


def _steps_frame(plan: SynthPlan, start: float, problems: Problems) -> pl.DataFrame:
    """One row per logged step, known fields always present (null when absent), extras
    as float columns, the way the reader hands a recording back. Overrides the Recorder
    would reject go to ``problems``."""
    n = plan.n_steps
    values: dict[str, np.ndarray] = {}
    logged: dict[str, np.ndarray] = {}
    for key, series in plan.metrics.items():  # later spellings of one field win, as in the Recorder
        name = canonical_metric(key)
        series = np.asarray(series, dtype=float)
        mask = ~np.isnan(series)
        if name in values:
            values[name] = np.where(mask, series, values[name])
            logged[name] |= mask
        else:
            values[name], logged[name] = series.copy(), mask
    for step, raw in sorted(plan.overrides.items()):
        cleaned: dict[str, Any] = {}
        for key, value in raw.items():
            flatten_metric(key, value, cleaned, problems, step)
            column = canonical_metric(str(key))
            if column in logged and column not in cleaned:
                logged[column][step] = False  # the Recorder drops a value it cannot keep
        for name, value in cleaned.items():
            if name not in values:
                values[name], logged[name] = np.full(n, np.nan), np.zeros(n, dtype=bool)
            if value is not None:
                values[name][step], logged[name][step] = value, True
    keep = np.ones(n, dtype=bool)
    keep[[s for s in plan.skip_steps if 0 <= s < n]] = False
    steps = np.flatnonzero(keep).astype(np.int64)
    # NaN logged on purpose stays NaN; a step that did not log the metric is null.
    frame = pl.DataFrame({"step": steps, "time": start + steps.astype(float),
                          **{name: series[keep] for name, series in values.items()}}, nan_to_null=False)
    frame = frame.with_columns(pl.when(pl.Series(~logged[name][keep])).then(None).otherwise(pl.col(name)).alias(name)
                               for name in values)
    return cast(pl.DataFrame, pl.from_arrow(order_steps(frame.to_arrow())))


def _event(kind: str, step: int | None, message: str, data: dict[str, Any], when: float) -> dict[str, Any]:
    return {"kind": kind, "step": step, "time": when, "message": message, "data": dict(data)}
