"""verl's file logger: JSON lines ``{"step": N, "data": {...}}`` (newer versions add
``elapsed_seconds``), at ``$VERL_FILE_LOGGER_PATH`` or ``<root>/<project>/<experiment>.jsonl``.

Rollout dumps (``trainer.rollout_data_dir``: ``<step>.jsonl`` files of ``input``,
``output``, ``gts``, ``score``, ``step``) are read as samples when they sit in a folder
named ``rollout*`` beside the log (consecutive rows with one input form a group).
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from .base import GrowingFile, ImportedRun, SourceError, SourceTail, number
from .trainer_logs import guess_algorithm

__all__ = ["NAME", "DESCRIPTION", "sniff", "files", "runs", "address", "status", "read", "follow"]

NAME = "verl-jsonl"
DESCRIPTION = "a verl file-logger JSONL ({\"step\": N, \"data\": {...}} a line), with rollout dumps beside it"
#: No other names for a run, no status read apart from the run (see ``Reader``).
address = status = None

_SNIFF_BYTES = 65536
_ROLLOUT_RE = re.compile(r"^(\d+)\.jsonl$")


def sniff(path: Path) -> bool:
    if not path.is_file():
        return False
    try:
        with open(path, "rb") as fh:
            first = fh.readline(_SNIFF_BYTES)
    except OSError:
        return False
    try:
        record = json.loads(first)
    except ValueError:
        return False
    return isinstance(record, dict) and isinstance(record.get("data"), dict) and "step" in record


def _rollout_dirs(path: Path) -> list[Path]:
    """Rollout dump folders beside the log: sub-folders named ``rollout*`` holding ``<step>.jsonl``."""
    found = []
    for candidate in sorted(path.parent.iterdir()):
        if candidate.is_dir() and candidate.name.startswith("rollout") and any(
                _ROLLOUT_RE.match(p.name) for p in candidate.iterdir()):
            found.append(candidate)
    return found[:1]


def files(path: Path) -> list[Path]:
    out = [path]
    for folder in _rollout_dirs(path):
        out += sorted(p for p in folder.iterdir() if _ROLLOUT_RE.match(p.name))
    return out


def runs(path: Path) -> list[str]:
    return []


def _record(line: bytes) -> tuple[int, dict[str, Any]] | None:
    """(step, data) of one log line, or None when it is not a ``{"step": N, "data": {...}}`` record."""
    try:
        record = json.loads(line)
        step = int(record["step"])
        data = record["data"]
    except (ValueError, KeyError, TypeError):
        return None
    return (step, data) if isinstance(data, dict) else None


def read(path: Path, name: str | None = None) -> ImportedRun:
    run = ImportedRun(source=str(path), format=NAME, name=path.stem)
    by_step: dict[int, dict[str, float]] = {}
    with open(path, "rb") as fh:
        lines = fh.read().splitlines()
    for line_number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        parsed = _record(line)
        if parsed is None:
            if line_number == len(lines):
                run.note(f"the last line ({line_number}) is cut short; left out")
                continue
            raise SourceError(f"{path}: line {line_number} is not a verl log record "
                              '({"step": N, "data": {...}})') from None
        step, data = parsed
        by_step.setdefault(step, {}).update(data)
    if not by_step:
        raise SourceError(f"{path}: holds no verl log records")
    for step in sorted(by_step):
        run.add_step(step, by_step[step])
    for folder in _rollout_dirs(path):
        _read_rollouts(run, folder)
    run.algorithm = guess_algorithm(run.metric_names())
    return run


def _read_rollouts(run: ImportedRun, folder: Path, up_to: int | None = None, done: set[int] | None = None) -> None:
    """The rollout dumps in ``folder`` as samples: all of them, or (reading a live log) those
    up to step ``up_to`` not in ``done`` (verl dumps a step's rollouts before it logs the
    step, so a dump whose step is logged is whole); ``done`` gains the steps read."""
    dumps = [(int(match.group(1)), p) for p in folder.iterdir() if (match := _ROLLOUT_RE.match(p.name))]
    for step, file in sorted(dumps, key=lambda dump: dump[0]):
        if done is not None:
            if step in done or up_to is None or step > up_to:
                continue
            done.add(step)
        group, previous = -1, object()
        for line in file.read_bytes().splitlines():
            try:
                row = json.loads(line)
            except ValueError:
                continue
            if not isinstance(row, dict):
                continue
            prompt = row.get("input")
            if prompt != previous:
                group, previous = group + 1, prompt
            extra = {k: v for k, v in row.items() if k not in ("input", "output", "score", "step")}
            run.samples.append({"step": int(number(row.get("step")) or step), "prompt": prompt,
                                "completion": row.get("output"), "reward": number(row.get("score")),
                                "group_id": f"{step}-{group}", "extra": extra or None})
    if done is None:
        run.note(f"samples from the rollout dumps in {folder}")


class _Tail(SourceTail):
    """A verl JSONL log as it grows, by byte offset, in whole lines (a line still being
    written waits for the next look; a whole line that is not a record is a bad record,
    not an error). verl's file logger writes no end: the run goes on until it stalls."""

    format = NAME

    def __init__(self, path: Path, name: str | None = None) -> None:
        super().__init__(path, path.stem)
        self._file = GrowingFile(path)
        self._last_step: int | None = None
        self._rollouts_read: set[int] = set()
        self._lines = 0

    def read_into(self, run: ImportedRun) -> None:
        chunk = self._file.read_new()
        self.saw(self._file)
        if self._file.restarted:
            self.restarted = True
            self._lines, self._last_step, self._rollouts_read = 0, None, set()
            run.note(f"{self.path} shrank: a new job is writing it; read again from its start")
        for line in chunk.splitlines():
            self._lines += 1
            if not line.strip():
                continue
            parsed = _record(line)
            if parsed is None:
                run.problems.add(f"verl: line {self._lines} is not a log record ({{\"step\": N, \"data\": {{...}}}}); "
                                 "skipped", None)
                continue
            step, data = parsed
            run.add_step(step, data)
            self._last_step = step if self._last_step is None else max(self._last_step, step)
        for folder in _rollout_dirs(self.path):
            _read_rollouts(run, folder, self._last_step, self._rollouts_read)
        run.algorithm = guess_algorithm(run.metric_names())


def follow(path: Path, name: str | None = None) -> SourceTail:
    return _Tail(path, name)
