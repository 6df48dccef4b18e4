"""An MLflow file store (``mlruns/``; MLflow ≥ 3 writes one only with
``MLFLOW_ALLOW_FILE_STORE=true``), read from its files without MLflow installed.

Addressed as the store root, an experiment folder or a run folder; a store with several
runs lists them with ``rlprobe ls`` and takes ``#RUN`` (the run name, or its id where names
repeat). Read: ``metrics/<key>`` files (``<ms> <value> <step>`` a line; keys with ``/`` are
folders), ``params/`` as the trainer config, ``meta.yaml`` for the name and times.
TRL's ``profiling/...`` timings are left out; the Trainer's end-of-training summary keys
become an event. The SQLite store (``mlflow.db``) is not read yet.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from .base import ImportedRun, SourceError, number
from .trainer_logs import guess_algorithm

__all__ = ["NAME", "DESCRIPTION", "sniff", "files", "runs", "read"]

NAME = "mlflow"
DESCRIPTION = "an MLflow file store (mlruns/, an experiment or a run folder)"

_SUMMARY_KEYS = ("train_runtime", "train_samples_per_second", "train_steps_per_second", "train_loss", "total_flos")


def _meta(folder: Path) -> dict[str, str]:
    """The flat ``key: value`` lines of a ``meta.yaml`` (all MLflow writes there)."""
    out = {}
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


def sniff(path: Path) -> bool:
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
    return {(n if names.count(n) == 1 else d.name): d for n, d in zip(names, dirs)}


def runs(path: Path) -> list[str]:
    named = _named(path)
    return list(named) if len(named) > 1 else []


def files(path: Path) -> list[Path]:
    out = []
    for run_dir in _run_dirs(path):
        for folder, _, names in os.walk(run_dir / "metrics"):
            out += [Path(folder) / n for n in names]
        out.append(run_dir / "meta.yaml")
    return out


def read(path: Path, name: str | None = None) -> ImportedRun:
    named = _named(path)
    if not named:
        raise SourceError(f"{path}: the MLflow store holds no runs")
    address = name if name in named else next(iter(named))
    run_dir = named[address]
    meta = _meta(run_dir)
    run = ImportedRun(source=str(path), format=NAME, name=meta.get("run_name") or address)
    by_step: dict[int, dict[str, float | None]] = {}
    summary: dict[str, Any] = {}
    profiling = 0
    metrics_dir = run_dir / "metrics"
    for folder, _, names in os.walk(metrics_dir):
        for file_name in names:
            key = (Path(folder) / file_name).relative_to(metrics_dir).as_posix()
            if key.startswith("profiling/"):
                profiling += 1
                continue
            for line_number, line in enumerate((Path(folder) / file_name).read_text("utf-8", "replace").splitlines(), 1):
                parts = line.split()
                if len(parts) < 2:
                    continue
                value = number(parts[1])
                step = number(parts[2]) if len(parts) > 2 else 0.0
                if value is None or step is None:
                    raise SourceError(f"{Path(folder) / file_name}: line {line_number} is not '<time> <value> <step>'")
                if key in _SUMMARY_KEYS:
                    summary[key] = value
                else:
                    by_step.setdefault(int(step), {})[key] = value
    if not by_step:
        raise SourceError(f"{run_dir}: the MLflow run logged no metrics")
    for step in sorted(by_step):
        run.add_step(step, by_step[step])
    if profiling:
        run.note(f"{profiling} profiling/ timing metrics left out")
    if summary:
        run.events.append(("train_summary", max(by_step), "end-of-training summary", summary))
    params = run_dir / "params"
    for folder, _, names in os.walk(params):
        for file_name in names:
            key = (Path(folder) / file_name).relative_to(params).as_posix()
            text = (Path(folder) / file_name).read_text("utf-8", "replace")
            as_number = number(text)
            run.trainer_config[key] = as_number if as_number is not None and text.strip().lower() not in (
                "true", "false") else text
    run.model_name = run.trainer_config.get("_name_or_path") or run.trainer_config.get("model_name_or_path")
    start = number(meta.get("start_time"))
    run.created_at = start / 1000 if start else None
    run.algorithm = guess_algorithm(run.metric_names())
    return run
