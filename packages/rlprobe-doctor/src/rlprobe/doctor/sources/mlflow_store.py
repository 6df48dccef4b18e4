"""An MLflow tracking store, read without MLflow installed: the SQLite store
(``mlflow.db``, MLflow 3's default, opened read-only) or a file store (``mlruns/``; MLflow ≥ 3
writes one only with ``MLFLOW_ALLOW_FILE_STORE=true``).

A file store is addressed as its root, an experiment folder or a run folder. A store with
several runs lists them with ``rlprobe ls`` and takes ``#RUN`` (the run name, or its id where
names repeat; deleted runs are left out). Read: each metric's ``(step, value)`` history
(``metrics`` table with its ``is_nan`` flag, or ``metrics/<key>`` files of ``<ms> <value>
<step>`` lines, keys with ``/`` as folders), the params as the trainer config, the run's
name, start and end time. TRL's ``profiling/...`` timings are left out; the Trainer's
end-of-training summary keys become an event.
"""
from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from rlprobe.records import EventKind
from rlprobe.storage import RunStatus

from .base import GrowingFile, ImportedRun, SourceError, SourceTail, number
from .base import read_only_sqlite as _connect
from .trainer_logs import SUMMARY_KEYS as _SUMMARY_KEYS
from .trainer_logs import guess_algorithm

__all__ = ["NAME", "DESCRIPTION", "sniff", "files", "runs", "address", "status", "read", "follow"]

NAME = "mlflow"
DESCRIPTION = "an MLflow store (mlflow.db, or a file store: mlruns/, an experiment or a run folder)"
#: No other names for a run, no status read apart from the run (see ``Reader``).
address = status = None

_SQLITE_MAGIC = b"SQLite format 3\x00"


def _meta(folder: Path) -> dict[str, str]:
    """The flat ``key: value`` lines of a ``meta.yaml`` (all MLflow writes there)."""
    out: dict[str, str] = {}
    try:
        text = (folder / "meta.yaml").read_text("utf-8", errors="replace")
    except OSError:
        return out
    for line in text.splitlines():
        key, sep, value = line.partition(":")
        if sep and not line.startswith((" ", "-")):
            out[key.strip()] = value.strip().strip("'\"")
    return out


def _is_run(folder: Path) -> bool:
    return (folder / "metrics").is_dir() and "run_id" in _meta(folder)


def _is_experiment(folder: Path) -> bool:
    return "experiment_id" in _meta(folder) and "run_id" not in _meta(folder)


def _run_dirs(path: Path) -> list[Path]:
    if _is_run(path):
        return [path]
    experiments = [path] if _is_experiment(path) else [p for p in sorted(path.iterdir())
                                                       if p.is_dir() and _is_experiment(p)]
    found = []
    for experiment in experiments:
        found += [p for p in sorted(experiment.iterdir()) if p.is_dir() and _is_run(p)]
    return sorted(found, key=lambda p: number(_meta(p).get("start_time")) or 0)


def _db_tables(path: Path) -> set[str]:
    try:
        with open(path, "rb") as fh:
            if fh.read(16) != _SQLITE_MAGIC:
                return set()
        with _connect(path) as db:
            return {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    except (OSError, sqlite3.Error, SourceError):
        return set()


def _db_runs(path: Path) -> list[tuple[str, str]]:
    """(address name, run id) of each live run of a SQLite store, oldest first."""
    try:
        with _connect(path) as db:
            rows = db.execute("SELECT run_uuid, name FROM runs WHERE lifecycle_stage = 'active' "
                              "ORDER BY start_time").fetchall()
    except sqlite3.Error as exc:
        raise SourceError(f"{path}: not a readable MLflow database ({exc})") from None
    names = [name or run_id for run_id, name in rows]
    return [(n if names.count(n) == 1 else run_id, run_id) for n, (run_id, _) in zip(names, rows, strict=False)]


def sniff(path: Path) -> bool:
    if path.is_file():
        return {"runs", "metrics", "params", "experiments"} <= _db_tables(path)
    if not path.is_dir():
        return False
    try:
        return _is_run(path) or _is_experiment(path) or any(
            p.is_dir() and _is_experiment(p) for p in path.iterdir())
    except OSError:
        return False


def _named(path: Path) -> dict[str, Path]:
    dirs = _run_dirs(path)
    names = [_meta(d).get("run_name") or d.name for d in dirs]
    return {(n if names.count(n) == 1 else d.name): d for n, d in zip(names, dirs, strict=False)}


def runs(path: Path) -> list[str]:
    names = [n for n, _ in _db_runs(path)] if path.is_file() else list(_named(path))
    return names if len(names) > 1 else []


def files(path: Path) -> list[Path]:
    if path.is_file():
        return [p for p in (path, path.with_name(path.name + "-wal")) if p.exists()]
    out = []
    for run_dir in _run_dirs(path):
        for folder, _, names in os.walk(run_dir / "metrics"):
            out += [Path(folder) / n for n in names]
        out.append(run_dir / "meta.yaml")
    return out


def read(path: Path, name: str | None = None) -> ImportedRun:
    return _read_db(path, name) if path.is_file() else _read_folder(path, name)


def _read_db(path: Path, name: str | None) -> ImportedRun:
    listed = _db_runs(path)
    if not listed:
        raise SourceError(f"{path}: the MLflow store holds no runs")
    address, run_id = next(((n, r) for n, r in listed if n == name), listed[0])
    try:
        with _connect(path) as db:
            rows = db.execute("SELECT key, step, value, is_nan FROM metrics WHERE run_uuid = ? "
                              "ORDER BY timestamp, step", (run_id,)).fetchall()
            params = dict(db.execute("SELECT key, value FROM params WHERE run_uuid = ?", (run_id,)).fetchall())
            start, end = db.execute("SELECT start_time, end_time FROM runs WHERE run_uuid = ?", (run_id,)).fetchone()
    except sqlite3.Error as exc:
        raise SourceError(f"{path}: not a readable MLflow database ({exc})") from None
    series = ((key, step, float("nan") if is_nan else value) for key, step, value, is_nan in rows)
    return _to_run(ImportedRun(source=str(path), format=NAME, name=address), series, params, start, path, end)


def _read_folder(path: Path, name: str | None) -> ImportedRun:
    named = _named(path)
    if not named:
        raise SourceError(f"{path}: the MLflow store holds no runs")
    address = name if name in named else next(iter(named))
    run_dir = named[address]
    meta = _meta(run_dir)
    metrics_dir = run_dir / "metrics"

    def series() -> Iterator[tuple[str, Any, Any]]:
        for folder, _, names in os.walk(metrics_dir):
            for file_name in names:
                key = (Path(folder) / file_name).relative_to(metrics_dir).as_posix()
                text = (Path(folder) / file_name).read_text("utf-8", "replace")
                for line_number, line in enumerate(text.splitlines(), 1):
                    parts = line.split()
                    if not parts:
                        continue
                    if len(parts) < 2 or number(parts[1]) is None:
                        raise SourceError(f"{Path(folder) / file_name}: line {line_number} is not "
                                          "'<time> <value> <step>'")
                    yield key, (parts[2] if len(parts) > 2 else 0), parts[1]

    params = {}
    for folder, _, names in os.walk(run_dir / "params"):
        for file_name in names:
            key = (Path(folder) / file_name).relative_to(run_dir / "params").as_posix()
            params[key] = (Path(folder) / file_name).read_text("utf-8", "replace")
    run = ImportedRun(source=str(path), format=NAME, name=meta.get("run_name") or address)
    return _to_run(run, series(), params, number(meta.get("start_time")), run_dir, number(meta.get("end_time")))


def _to_run(run: ImportedRun, series: Iterable[tuple[str, Any, Any]], params: dict[str, str],
            start_ms: float | None, where: Path, end_ms: float | None = None) -> ImportedRun:
    by_step: dict[int, dict[str, float | None]] = {}
    summary: dict[str, Any] = {}
    profiling: set[str] = set()
    for key, step, value in series:
        if key.startswith("profiling/"):
            profiling.add(key)
            continue
        as_number, at = number(value), number(step)
        if as_number is None or at is None:
            raise SourceError(f"{where}: metric {key!r} has a value or step that is not a number")
        if key in _SUMMARY_KEYS:
            summary[key] = as_number
        else:
            by_step.setdefault(int(at), {})[key] = as_number
    if not by_step:
        raise SourceError(f"{where}: the MLflow run logged no metrics")
    for step in sorted(by_step):
        run.add_step(step, by_step[step])
    if profiling:
        run.note(f"{len(profiling)} profiling/ timing metrics left out")
    if summary:
        run.events.append((EventKind.TRAIN_SUMMARY, max(by_step), "end-of-training summary", summary))
    _params(run, params)
    run.created_at = start_ms / 1000 if start_ms else None
    run.ended_at = end_ms / 1000 if end_ms else None  # none while the run goes on
    run.algorithm = guess_algorithm(run.metric_names())
    return run


def _params(run: ImportedRun, params: dict[str, str]) -> None:
    """The run's params as its trainer config (numbers as numbers), and the model they name."""
    for key, text in params.items():
        as_number = number(text)
        run.trainer_config[key] = as_number if as_number is not None and str(text).strip().lower() not in (
            "true", "false", "nan") else text
    run.model_name = run.trainer_config.get("_name_or_path") or run.trainer_config.get("model_name_or_path")


#: How a run ended, as the SQLite store's ``runs.status`` and a file store's ``meta.yaml``
#: (``RunStatus`` enum values: RUNNING 1, SCHEDULED 2, FINISHED 3, FAILED 4, KILLED 5) say it.
_ENDED = {"FINISHED": RunStatus.FINISHED, "FAILED": RunStatus.CRASHED, "KILLED": RunStatus.TERMINATED,
          "3": RunStatus.FINISHED, "4": RunStatus.CRASHED, "5": RunStatus.TERMINATED}


class _Tail(SourceTail):
    """One run of an MLflow store as it is logged: in a SQLite store the position is the
    ``metrics`` rowid already read, in a file store each ``metrics/<key>`` file's byte
    offset (whole lines). The run ends when its status leaves RUNNING: finished, failed
    (crashed) or killed (terminated)."""

    format = NAME

    def __init__(self, path: Path, name: str | None = None) -> None:
        super().__init__(path, name)
        self._run: str | Path | None = None  # the run id (SQLite) or the run folder
        self._rowid = 0
        self._files: dict[Path, GrowingFile] = {}
        self._params: dict[str, str] = {}
        self._summary_said = False

    def read_into(self, run: ImportedRun) -> None:
        for file in files(self.path):
            self.last_write = max(self.last_write or 0.0, file.stat().st_mtime)
        if self._run is None:
            self._run = self._find(run)
            if self._run is None:
                return
        in_folder = not self.path.is_file()
        series, params, status = self._read_folder(run, Path(self._run)) if in_folder else self._read_db()
        if params and params != self._params:  # read each look: a param file may be caught half-written
            self._params = params
            _params(run, params)
        by_step: dict[int, dict[str, float | None]] = {}
        summary: dict[str, Any] = {}
        for key, step, value in series:
            as_number, at = number(value), number(step)
            if key.startswith("profiling/") or as_number is None or at is None:
                continue
            if key in _SUMMARY_KEYS:
                summary[key] = as_number
            else:
                by_step.setdefault(int(at), {})[key] = as_number
        for step in sorted(by_step):
            run.add_step(step, by_step[step])
        if summary and not self._summary_said:
            self._summary_said = True
            run.events.append((EventKind.TRAIN_SUMMARY, max(by_step, default=None), "end-of-training summary", summary))
        self.status = RunStatus.RUNNING if status is None else _ENDED.get(status, RunStatus.RUNNING)
        run.algorithm = guess_algorithm(run.metric_names())

    def _find(self, run: ImportedRun) -> str | Path | None:
        """Settle which run is followed: its id (SQLite) or folder; None while the store
        holds none yet."""
        found: str | Path
        if self.path.is_file():
            listed = _db_runs(self.path)
            chosen = next(((n, r) for n, r in listed if n == self.name), listed[0] if listed else None)
            if chosen is None:
                return None
            self.name, found = chosen
        else:
            named = _named(self.path)
            if not named:
                return None
            self.name = self.name if self.name in named else next(iter(named))
            found = named[self.name]
        run.name = self.name
        return found

    def _read_db(self) -> tuple[list[tuple[str, Any, Any]], dict[str, str] | None, str | None]:
        try:
            with _connect(self.path) as db:
                rows = db.execute("SELECT rowid, key, step, value, is_nan FROM metrics WHERE run_uuid = ? "
                                  "AND rowid > ? ORDER BY rowid", (self._run, self._rowid)).fetchall()
                params = dict(db.execute("SELECT key, value FROM params WHERE run_uuid = ?", (self._run,)).fetchall())
                status = db.execute("SELECT status FROM runs WHERE run_uuid = ?", (self._run,)).fetchone()
        except sqlite3.Error as exc:
            raise SourceError(f"{self.path}: not a readable MLflow database ({exc})") from None
        if rows:
            self._rowid = rows[-1][0]
        series = [(key, step, float("nan") if is_nan else value) for _, key, step, value, is_nan in rows]
        return series, params or None, status[0] if status else None

    def _read_folder(self, run: ImportedRun, run_dir: Path
                     ) -> tuple[list[tuple[str, Any, Any]], dict[str, str] | None, str | None]:
        metrics_dir = run_dir / "metrics"
        series = []
        for folder, _, names in os.walk(metrics_dir):
            for file_name in names:
                path = Path(folder) / file_name
                tail = self._files.setdefault(path, GrowingFile(path))
                key = path.relative_to(metrics_dir).as_posix()
                for line in tail.read_new().decode("utf-8", "replace").splitlines():
                    parts = line.split()
                    if len(parts) < 2 or number(parts[1]) is None:
                        run.problems.add(f"mlflow: a line of metrics/{key} is not '<time> <value> <step>'; skipped",
                                         None)
                        continue
                    series.append((key, parts[2] if len(parts) > 2 else 0, parts[1]))
        params = {}
        for folder, _, names in os.walk(run_dir / "params"):
            for file_name in names:
                key = (Path(folder) / file_name).relative_to(run_dir / "params").as_posix()
                params[key] = (Path(folder) / file_name).read_text("utf-8", "replace")
        return series, params or None, _meta(run_dir).get("status")


def follow(path: Path, name: str | None = None) -> SourceTail:
    return _Tail(path, name)
