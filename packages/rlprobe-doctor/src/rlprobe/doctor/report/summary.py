"""The report's non-chart facts: header, health verdict, events timeline, config tables."""
from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from rlprobe.records import EventKind

from ..findings import Finding
from ..view import RunView

__all__ = ["header", "verdict", "timeline", "flatten", "MAX_EVENTS"]

#: Events listed in the table; the rest are counted by kind (a run can log thousands of bad records).
MAX_EVENTS = 200
_EVENT_SEVERITY = {
    EventKind.CRASH: "critical", EventKind.AUTO_HALT: "critical", EventKind.TERMINATED: "critical",
    EventKind.STORAGE_ERROR: "critical",
    EventKind.BAD_RECORD: "warn", EventKind.QUEUE_OVERFLOW: "warn", EventKind.SHIM_UNAVAILABLE: "warn",
}


def header(view: RunView) -> dict[str, Any]:
    """Run identity, status, duration, step range and a one-line environment summary. An
    imported run's start and duration are the source's own (unknown where it keeps no clock)."""
    m = view.manifest
    steps = view.step
    imported = m.get("imported_from")
    times = view.steps["time"].drop_nulls().drop_nans().to_numpy() if "time" in view.steps.columns else np.array([])
    first, last = (float(times.min()), float(times.max())) if times.size else (None, None)
    if isinstance(imported, Mapping):
        # An import's own times are when it was read, not when the run ran: the source's clock
        # (its start; its steps' times: TensorBoard's wall times, W&B's), or none.
        start, end = imported.get("started_at") or first, imported.get("ended_at") or last
    else:
        start = m.get("created_at") or first
        end = m.get("closed_at") or m.get("updated_at") or last
    unknown = "unknown (the log keeps no clock)" if isinstance(imported, Mapping) and start is None else ""
    duration = _duration(end - start) if isinstance(start, (int, float)) and isinstance(end, (int, float)) else unknown
    env = m.get("env") or {}
    return {
        "run_id": m.get("run_id") or (Path(view.run_dir).name if view.run_dir else ""),  # a URL's last part too
        "run_dir": str(view.run_dir or ""),
        "algorithm": m.get("algorithm") or "unknown",
        "model": m.get("model_name") or "unknown",
        "status": str(m.get("status") or "unknown"),
        "started": _when(start),
        "duration": duration,
        "n_steps": int(steps.size),
        "first_step": int(steps[0]),
        "last_step": int(steps[-1]),
        "world_size": m.get("world_size"),
        "counts": m.get("counts") or {},
        "environment": _environment_line(env),
        "env": flatten(env),
    }


def verdict(findings: list[Finding]) -> dict[str, str]:
    """The run's health in a word and a sentence, from its most severe finding."""
    counts = Counter(f.severity for f in findings)
    if counts["critical"]:
        return {"level": "critical", "word": "Failing",
                "text": f"{_n(counts['critical'], 'critical finding')}, led by {findings[0].signature_id} "
                        f"from step {findings[0].first_step}. Act on the first finding below."}
    if counts["warn"]:
        return {"level": "warn", "word": "Needs attention",
                "text": f"{_n(counts['warn'], 'warning')} and no critical finding; {findings[0].signature_id} first."}
    if counts["info"]:
        return {"level": "info", "word": "Healthy",
                "text": f"No warnings; {_n(counts['info'], 'note')} worth knowing."}
    return {"level": "ok", "word": "Healthy", "text": "The doctor found nothing wrong with this run."}


def timeline(view: RunView, findings: list[Finding]) -> dict[str, Any]:
    """Events and finding onsets placed on the step axis (0–1000 in SVG units), the events
    table (first ``MAX_EVENTS``) and a count of every kind.

    Events logged without a step are placed by their time, interpolated between the times
    the steps were logged."""
    steps = view.step
    lo, hi = int(steps[0]), int(steps[-1])
    span = max(1, hi - lo)
    at_step = _time_to_step(view)
    rows: list[dict[str, Any]] = []
    marks: list[dict[str, Any]] = []
    for event in view.events:
        step = event.get("step")
        where = step if isinstance(step, (int, float)) else at_step(event.get("time"))
        severity = _EVENT_SEVERITY.get(str(event.get("kind")), "info")
        if where is not None:
            marks.append({"x": _x(where, lo, span), "severity": severity, "kind": str(event.get("kind")),
                          "step": int(where)})
        if len(rows) < MAX_EVENTS:
            rows.append({"kind": str(event.get("kind")), "step": step, "near_step": None if step is not None else where,
                         "time": _when(event.get("time")), "message": str(event.get("message") or ""),
                         "data": flatten(event.get("data") or {}), "severity": severity})
    onsets = [{"x": _x(f.first_step, lo, span), "severity": f.severity, "label": f.signature_id,
               "step": f.first_step} for f in findings if f.first_step is not None]
    return {"rows": rows, "marks": marks[:2000], "onsets": onsets, "first": lo, "last": hi,
            "counts": sorted(Counter(str(e.get("kind")) for e in view.events).items()),
            "omitted": max(0, len(view.events) - MAX_EVENTS)}


def flatten(value: Any, prefix: str = "") -> list[tuple[str, str]]:
    """A nested mapping as (dotted key, value text) rows; lists of scalars stay on one row."""
    if isinstance(value, Mapping):
        rows: list[tuple[str, str]] = []
        for key, item in value.items():
            rows.extend(flatten(item, f"{prefix}.{key}" if prefix else str(key)))
        return rows
    if isinstance(value, list) and any(isinstance(v, (Mapping, list)) for v in value):
        rows = []
        for i, item in enumerate(value):
            rows.extend(flatten(item, f"{prefix}[{i}]"))
        return rows
    return [(prefix, _text(value))]


def _text(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(_text(v) for v in value)
    return "null" if value is None else str(value)


def _time_to_step(view: RunView) -> Any:
    if "time" not in view.steps.columns:
        return lambda t: None
    timed = view.steps.select("time", "step").drop_nulls().sort("time")
    if timed.is_empty():
        return lambda t: None
    t, s = timed["time"].to_numpy(), timed["step"].to_numpy().astype(float)
    return lambda when: float(np.interp(float(when), t, s)) if isinstance(when, (int, float)) else None


def _x(step: float, lo: int, span: int) -> float:
    return round(1000.0 * min(1.0, max(0.0, (step - lo) / span)), 1)


def _environment_line(env: Mapping[str, Any]) -> str:
    parts = []
    if env.get("python"):
        parts.append(f"Python {env['python']}")
    packages = env.get("packages") or {}
    parts.extend(f"{name} {packages[name]}" for name in ("torch", "transformers", "trl", "vllm") if name in packages)
    gpus = env.get("gpus") or []
    if gpus:
        names = Counter(str(g.get("name", "GPU")) if isinstance(g, Mapping) else str(g) for g in gpus)
        parts.append(", ".join(f"{n}× {name}" for name, n in names.items()))
    git = env.get("git") or {}
    if isinstance(git, Mapping) and git.get("sha"):
        parts.append(f"git {str(git['sha'])[:10]}{' (dirty)' if git.get('dirty') else ''}")
    if env.get("hostname"):
        parts.append(f"on {env['hostname']}")
    return " · ".join(parts) or "not captured"


def _when(timestamp: Any) -> str:
    try:
        return dt.datetime.fromtimestamp(float(timestamp), tz=dt.UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
    except (TypeError, ValueError, OverflowError, OSError):
        return ""


def _duration(seconds: float) -> str:
    seconds = max(0, round(seconds))
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}h {m:02d}m {s:02d}s" if h else f"{m}m {s:02d}s" if m else f"{s}s"


def _n(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"
