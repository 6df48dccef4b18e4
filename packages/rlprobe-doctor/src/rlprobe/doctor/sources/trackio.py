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

from rlprobe.storage import RunStatus

from .base import ImportedRun, SourceError, SourceTail, number
from .base import read_only_sqlite as _connect
from .hf_trainer import add_completion_rows
from .trainer_logs import TrackerRowsTail, add_tracker_rows, guess_algorithm

__all__ = ["NAME", "DESCRIPTION", "sniff", "files", "runs", "address", "status", "read", "follow"]

NAME = "trackio"
DESCRIPTION = "a trackio project database (<project>.db)"
#: No other names for a run, no status read apart from the run (see ``Reader``).
address = status = None

_SQLITE_MAGIC = b"SQLite format 3\x00"


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


def _metrics(run: ImportedRun, rows: list[tuple[Any, Any]]) -> list[tuple[Any, dict[str, Any]]]:
    """(step column, metrics) of each ``metrics`` row whose blob is a JSON object; a row that is not
    JSON is a problem of the run, skipped."""
    parsed = []
    for column_step, blob in rows:
        try:
            metrics = json.loads(blob)
        except (ValueError, TypeError):
            run.problems.add("trackio: a metrics row is not JSON; skipped", column_step)
            continue
        if isinstance(metrics, dict):
            parsed.append((column_step, metrics))
    return parsed


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
    add_tracker_rows(run, _metrics(run, rows), "trackio", lambda table, step: _samples(run, table, step))
    if config_row:
        _config(run, config_row[0])
    if not run.has_steps():
        raise SourceError(f"{path}: run {address!r} logged no metrics")
    run.algorithm = guess_algorithm(run.metric_names())
    return run


def _config(run: ImportedRun, blob: Any) -> None:
    try:
        config = json.loads(blob)
    except (ValueError, TypeError):
        config = None
    if isinstance(config, dict):
        run.model_name = config.get("_name_or_path") or config.get("model_name_or_path")
        run.trainer_config.update({k: v for k, v in config.items() if not k.startswith("_")})


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


class _Tail(SourceTail):
    """One run of a trackio project as it is logged: the position is the ``metrics`` row id
    already read. The run ends with the Trainer's end-of-training summary (trackio keeps no
    run status)."""

    format = NAME

    def __init__(self, path: Path, name: str | None = None) -> None:
        super().__init__(path, name)
        self._rows = TrackerRowsTail("trackio")
        self._last_id = 0
        self._run_id: str | None = None
        self._config_read = False
        self._table_steps: set[int] = set()

    def read_into(self, run: ImportedRun) -> None:
        for file in files(self.path):
            self.last_write = max(self.last_write or 0.0, file.stat().st_mtime)
        if self._run_id is None:
            listed = _run_list(self.path)
            chosen = next(((n, r) for n, r in listed if n == self.name), listed[0] if listed else None)
            if chosen is None:
                return  # nothing logged yet
            self.name, self._run_id = chosen
            run.name = self.name
        try:
            with _connect(self.path) as db:
                rows = db.execute("SELECT id, step, metrics FROM metrics WHERE run_id = ? AND id > ? ORDER BY id",
                                  (self._run_id, self._last_id)).fetchall()
                config_row = None if self._config_read else db.execute(
                    "SELECT config FROM configs WHERE run_id = ?", (self._run_id,)).fetchone()
        except sqlite3.Error as exc:
            raise SourceError(f"{self.path}: not a readable trackio database ({exc})") from None
        if config_row:
            _config(run, config_row[0])
            self._config_read = True
        if rows:
            self._last_id = rows[-1][0]
        parsed = _metrics(run, [(step, blob) for _, step, blob in rows])
        self._rows.add(run, parsed, lambda table, step: self._table(run, table, step))
        if self._rows.ended:
            self.status = RunStatus.FINISHED
        run.algorithm = guess_algorithm(run.metric_names())

    def _table(self, run: ImportedRun, table: dict[str, Any], step: int) -> None:
        before = len(run.samples)
        _samples(run, table, step)
        fresh = {s["step"] for s in run.samples[before:]}
        if fresh & self._table_steps:  # TRL logs the last table again with the summary
            del run.samples[before:]
        self._table_steps |= fresh


def follow(path: Path, name: str | None = None) -> SourceTail:
    return _Tail(path, name)
