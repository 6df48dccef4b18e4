"""Liveness pathologies: a run that stops stepping but never says it ended."""
from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from rlprobe import EventKind
from rlprobe.storage import RunStatus, load_manifest
from rlprobe.storage.atomic import atomic_path
from rlprobe.storage.layout import EVENTS, compacted_path, list_parts
from rlprobe.storage.manifest import write_manifest

from .plan import SynthPlan, pathology


@pathology("run_stalled")
def run_stalled(plan: SynthPlan) -> None:
    """Steps every 15–45 s up to the onset, then nothing for 2–4 hours, and the manifest
    still says ``running`` with a heartbeat as old as the last step (a hung or killed job).
    The times are relative to when the recording is written, so a watcher started on it
    afterwards sees the silence; ``rlprobe doctor`` (not live) stays silent by design."""
    rng = plan.rng
    plan.skip_steps.update(range(plan.onset + 1, plan.n_steps))
    interval = rng.uniform(15.0, 45.0)
    elapsed = np.cumsum(interval * np.exp(rng.normal(0.0, 0.1, plan.n_steps)))
    silence = rng.uniform(2.0, 4.0) * 3600.0
    # seconds before the write at which each step is stamped; the onset step is the last one
    before_write = silence + elapsed[plan.onset] - elapsed
    plan.finishers.append(lambda run_dir: _leave_running(run_dir, before_write))


def _leave_running(run_dir: Path, before_write: np.ndarray) -> None:
    """Restamp step and event times to ``now - before_write[step]``, drop the run's end
    event, and mark the manifest running again with a heartbeat as old as the last step."""
    now = time.time()
    stamps = now - before_write
    last_seen = float("-inf")
    for path in [compacted_path(run_dir, "steps")] + [p for _, p in list_parts(run_dir, "steps")]:
        if not path.exists():
            continue
        table = pq.read_table(path)
        times = pa.array(stamps[table.column("step").to_numpy()], pa.float64())
        last_seen = max(last_seen, float(np.max(times.to_numpy()))) if len(times) else last_seen
        _replace_parquet(path, table.set_column(table.schema.get_field_index("time"), "time", times))
    first = float(stamps[0])
    events_path = run_dir / EVENTS
    lines = []
    for line in events_path.read_text(encoding="utf-8").splitlines():
        event = json.loads(line)
        if event.get("kind") == EventKind.RUN_END:
            continue
        step = event.get("step")
        event["time"] = float(stamps[step]) if isinstance(step, int) and 0 <= step < len(stamps) else first
        lines.append(json.dumps(event))
    events_path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    manifest = load_manifest(run_dir)
    manifest.update(status=RunStatus.RUNNING, closed_at=None, created_at=first, updated_at=last_seen)
    write_manifest(run_dir, manifest)


def _replace_parquet(path: Path, table: pa.Table) -> None:
    with atomic_path(path, durable=False) as tmp:
        pq.write_table(table, tmp, compression="zstd")  # the schema keeps its metadata (the compaction watermark)
