"""A trackio project database (``$TRACKIO_DIR/<project>.db``, SQLite), opened read-only.

One project holds many runs: ``rlprobe ls PROJECT.db`` lists them, ``PROJECT.db#RUN`` picks
one (by run name, or run id where names repeat). Read: each ``metrics`` row's JSON; the
trainer's step is ``train/global_step`` inside it (the ``step`` column is trackio's own
counter, which TRL's profiling rows also advance); rows without it (TRL's
``profiling/...`` timings) are left out when the run has it, and a run that never logs it
is read by the ``step`` column. NaN and infinities are stored as strings. ``train/<key>``
becomes ``<key>``, ``eval/<key>`` stays apart; the ``completions`` tables TRL logs with
``log_completions=True`` become samples; the ``configs`` row gives the trainer config.
"""
from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from .base import ImportedRun, SourceError, number
from .hf_trainer import add_completion_rows
from .trainer_logs import add_tracker_rows, guess_algorithm

__all__ = ["NAME", "DESCRIPTION", "sniff", "files", "runs", "read"]

NAME = "trackio"
DESCRIPTION = "a trackio project database (<project>.db)"

_SQLITE_MAGIC = b"SQLite format 3\x00"


def _connect(path: Path) -> sqlite3.Connection:
    try:
        return sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise SourceError(f"{path}: cannot open the SQLite database ({exc})") from None


def sniff(path: Path) -> bool:
    if not path.is_file():
        return False
    try:
        with open(path, "rb") as fh:
            if fh.read(16) != _SQLITE_MAGIC:
                return False
        with _connect(path) as db:
            tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    except (OSError, sqlite3.Error, SourceError):
        return False
    return {"metrics", "configs"} <= tables and "runs" not in tables  # MLflow's sqlite store has runs


def files(path: Path) -> list[Path]:
    return [p for p in (path, path.with_name(path.name + "-wal")) if p.exists()]


def _run_list(path: Path) -> list[tuple[str, str]]:
    """(address name, run_id) of each run, oldest first; the run name unless it repeats."""
    try:
        with _connect(path) as db:
            rows = db.execute("SELECT run_id, run_name, MIN(id) FROM metrics GROUP BY run_id ORDER BY 3").fetchall()
    except sqlite3.Error as exc:
        raise SourceError(f"{path}: not a readable trackio database ({exc})") from None
    counts: dict[str, int] = {}
    for _, name, _ in rows:
        counts[name] = counts.get(name, 0) + 1
    return [(name if counts[name] == 1 else run_id, run_id) for run_id, name, _ in rows]


def runs(path: Path) -> list[str]:
    names = [name for name, _ in _run_list(path)]
    return names if len(names) > 1 else []


def read(path: Path, name: str | None = None) -> ImportedRun:
    listed = _run_list(path)
    if not listed:
        raise SourceError(f"{path}: the trackio project holds no logged metrics")
    address, run_id = next(((n, r) for n, r in listed if n == name), listed[0])
    run = ImportedRun(source=str(path), format=NAME, name=address)
    try:
        with _connect(path) as db:
            rows = db.execute("SELECT step, metrics FROM metrics WHERE run_id = ? ORDER BY id", (run_id,)).fetchall()
            config_row = db.execute("SELECT config FROM configs WHERE run_id = ?", (run_id,)).fetchone()
    except sqlite3.Error as exc:
        raise SourceError(f"{path}: not a readable trackio database ({exc})") from None
    parsed = []
    for column_step, blob in rows:
        try:
            metrics = json.loads(blob)
        except (ValueError, TypeError):
            run.problems.add("trackio: a metrics row is not JSON; skipped", column_step)
            continue
        if isinstance(metrics, dict):
            parsed.append((column_step, metrics))
    add_tracker_rows(run, parsed, "trackio", lambda table, step: _samples(run, table, step))
    if config_row:
        try:
            config = json.loads(config_row[0])
        except (ValueError, TypeError):
            config = None
        if isinstance(config, dict):
            run.model_name = config.get("_name_or_path") or config.get("model_name_or_path")
            run.trainer_config.update({k: v for k, v in config.items() if not k.startswith("_")})
    if not run.steps:
        raise SourceError(f"{path}: run {address!r} logged no metrics")
    run.algorithm = guess_algorithm(run.metric_names())
    return run


def _samples(run: ImportedRun, table: dict[str, Any], step: int) -> None:
    """A ``trackio.table`` value: ``_value`` is a list of row dicts."""
    rows = table.get("_value")
    if table.get("_type") != "trackio.table" or not isinstance(rows, list):
        return
    rows = [r for r in rows if isinstance(r, dict)]
    if not rows:
        return
    first = number(rows[0].get("step"))
    step = int(first) if first is not None else step
    if any(s.get("step") == step for s in run.samples[-len(rows):]):
        return  # TRL logs the last batch again with the end-of-training summary
    add_completion_rows(run, rows, step, run.trainer_config.get("reward_weights"))
