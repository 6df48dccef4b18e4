"""Liveness: a run that is still marked running but has stopped stepping."""
from __future__ import annotations

import time
from typing import Any, Mapping

import polars as pl

from ..catalog import detector
from ..findings import Evidence, Finding
from ..stats import confidence_from
from ..view import RunView

#: The recorder rewrites the manifest at every flush (default every 5 s); one older than
#: this means the recording process itself has gone quiet.
_HEARTBEAT_STALE_S = 120.0


@detector("RUN_STALLED", live_only=True, defaults={
    "factor": 20.0,
    "min_stall_s": 600.0,
    "critical_multiple": 3.0,
    "interval_window": 200,
    "min_steps": 5,
})
def run_stalled(view: RunView, cfg: Mapping[str, Any]) -> Finding | None:
    """No new step for far longer than the run's usual step interval, while it is still marked running.

    Meaning: the training loop has stopped making progress without ending: a hung collective
    (one rank died or waits forever), a stuck dataloader or generation server, a deadlock, or a
    process killed so hard it could not mark its recording closed. GPUs stay allocated and
    nothing is learnt. Live only: it compares the last step's time with the clock now.

    Metrics: the steps table's ``time`` column (when each step was logged), the manifest's
    ``status`` and ``updated_at`` (the recorder's heartbeat).

    Rule: the usual interval is the median gap between consecutive steps over the last
    ``interval_window`` steps; the run is stalled when its status is ``running`` and the time
    since its last step exceeds both ``factor`` × that interval and ``min_stall_s`` (so evals
    and checkpoint saves, which also pause stepping, pass). Critical at ``critical_multiple``
    times that threshold. Confidence grows with how far past the threshold the silence runs.

    Actions: check that the training process is alive and where it waits (``py-spy dump
    --pid``, GPU utilisation in ``nvidia-smi``); lower TrainingArguments ``ddp_timeout`` so a
    hung collective fails fast instead of idling; if the process is gone, resume from the last
    checkpoint (``resume_from_checkpoint``).

    Source: operational practice in distributed training: hangs show up as silence, not as bad
    metrics, and NCCL's watchdog (and ``ddp_timeout``) default to 30 minutes before failing.

    Keys:
    factor: a stall is a silence at least this many usual step intervals long
    min_stall_s: and at least this many seconds (evals and checkpoint saves pause stepping too)
    critical_multiple: silent this many times the stall threshold is critical
    interval_window: the usual interval is the median over this many most recent step gaps
    min_steps: steps needed before the usual interval is trusted
    """
    if view.manifest.get("status") != "running" or "time" not in view.steps.columns:
        return None
    logged = view.steps.select("step", "time").drop_nulls().drop_nans()
    if logged.height < cfg["min_steps"]:
        return None
    recent = logged.tail(int(cfg["interval_window"]) + 1)
    usual = recent.select(pl.col("time").diff().filter(pl.col("time").diff() > 0).median()).item()
    if usual is None:
        return None
    last_step, last_time = logged.row(int(logged["time"].arg_max()))
    last_step, last_time = int(last_step), float(last_time)
    now = time.time()
    silent = now - last_time
    threshold = max(cfg["factor"] * usual, cfg["min_stall_s"])
    if silent < threshold:
        return None
    critical = silent >= cfg["critical_multiple"] * threshold
    heartbeat = _seconds_since(view.manifest.get("updated_at"), now)
    if heartbeat is not None and heartbeat < _HEARTBEAT_STALE_S:
        why = (f"the recorder is still writing (manifest updated {heartbeat:.0f} s ago), so the process is "
               "alive but the training loop is stuck")
    else:
        why = "the recorder has gone quiet too, so the process was likely killed or frozen without closing the run"
    return Finding(
        signature_id="RUN_STALLED",
        severity="critical" if critical else "warn",
        confidence=confidence_from(silent / threshold - 1.0, 2.0, floor=0.6),
        first_step=last_step,
        explanation=(f"No step for {_duration(silent)} since step {last_step}, against a usual step interval of "
                     f"{_duration(usual)} (×{silent / usual:.0f}), while the run is still marked running; {why}."),
        evidence=[Evidence(metric="time", window=(last_step, last_step), baseline=float(usual), observed=silent,
                           note="seconds: median step interval vs time since the last step")],
        suggested_actions=[
            "Check the training process is alive and where it waits: `py-spy dump --pid PID`, "
            "GPU utilisation in `nvidia-smi`.",
            "Lower TrainingArguments `ddp_timeout` (default 1800 s) so a hung collective fails fast instead of idling.",
            "If the process is gone, restart from the last checkpoint (`resume_from_checkpoint`).",
        ],
    )


def _seconds_since(timestamp: Any, now: float) -> float | None:
    try:
        return max(0.0, now - float(timestamp))
    except (TypeError, ValueError):
        return None


def _duration(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:.3g} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"
