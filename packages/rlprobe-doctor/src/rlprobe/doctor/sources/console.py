"""A training job's console output: a Slurm ``.out``, a ``docker logs`` capture, a notebook
export.

Two kinds of line are read, whatever surrounds them (progress bars, ``\\r`` redraws, colour
codes, other prints):

* the Hugging Face Trainer's printed log dicts, ``{'loss': 0.40, 'reward': ...}``: Python
  literals, parsed with ``ast.literal_eval`` on the dict's span only (never ``eval``);
  values printed as strings (``'0.4023'``) are read as numbers. A printed dict carries no
  step: steps are the dicts' order, i.e. counted in ``logging_steps`` (a note says so);
* verl's console metrics, ``step:N - key:value - key:value …`` (one or more lines a step;
  validation lines share the step).
"""
from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

from rlprobe.storage import RunStatus

from .base import GrowingFile, ImportedRun, SourceError, SourceTail, number
from .trainer_logs import TrainerLogTail, add_trainer_logs, guess_algorithm, is_trainer_log

__all__ = ["NAME", "DESCRIPTION", "sniff", "files", "runs", "address", "status", "read", "follow"]

NAME = "console"
DESCRIPTION = "a training job's console output (Trainer's printed log dicts, verl's step:N lines)"
#: No other names for a run, no status read apart from the run (see ``Reader``).
address = status = None

_ANSI_RE = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[@-Z\\-_]")
#: A flat printed dict: starts with a quoted key, holds no nested braces.
_DICT_RE = re.compile(r"\{'[^{}\n\r]*\}")
_VERL_RE = re.compile(r"(?:^|[\s)])step:(\d+) - (.*)$")
_NUMBER_WRAP_RE = re.compile(r"^(?:np\.)?(?:float|int)\d*\((.*)\)$")
#: Bytes of a file looked at to recognise it.
_SNIFF_BYTES = 1 << 20
_TRAINER_HINT = re.compile(rb"\{'(?:loss|learning_rate|grad_norm|reward|train_runtime|eval_loss|epoch)'")
_VERL_HINT = re.compile(rb"step:\d+ - [\w/@().-]+:")
#: verl's last words (``ray_trainer.fit``): printed once, after the last step.
_VERL_END = re.compile(r"Final validation metrics:")
_VERL_GRPO = re.compile(r"adv_estimator[=:]\s*'?grpo")
_VERL_MODEL = re.compile(r"actor_rollout_ref\.model\.path[=:]\s*'?([^\s',]+)")


def sniff(path: Path) -> bool:
    if not path.is_file():
        return False
    try:
        with open(path, "rb") as fh:
            head = fh.read(_SNIFF_BYTES)
    except OSError:
        return False
    if b"\x00" in head[:4096]:
        return False  # binary
    if _TRAINER_HINT.search(head) or _VERL_HINT.search(head):
        return True
    if len(head) == _SNIFF_BYTES:  # a long preamble: look at the end too
        try:
            with open(path, "rb") as fh:
                fh.seek(-_SNIFF_BYTES, 2)
                tail = fh.read()
        except OSError:
            return False
        return bool(_TRAINER_HINT.search(tail) or _VERL_HINT.search(tail))
    return False


def files(path: Path) -> list[Path]:
    return [path]


def runs(path: Path) -> list[str]:
    return []


def _text(path: Path) -> str:
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise SourceError(f"{path}: cannot read ({exc.strerror})") from None
    return _decoded(raw)


def _decoded(raw: bytes) -> str:
    return _ANSI_RE.sub("", raw.decode("utf-8", errors="replace"))


def trainer_dicts(text: str) -> list[dict[str, Any]]:
    """The Trainer log dicts printed in ``text``, in order."""
    found = []
    for match in _DICT_RE.finditer(text):
        try:
            value = ast.literal_eval(match.group(0))
        except (ValueError, SyntaxError, MemoryError, RecursionError, TypeError):
            continue
        if is_trainer_log(value):
            found.append(value)
    return found


def verl_steps(text: str) -> dict[int, dict[str, float]]:
    """verl's ``step:N - key:value`` metrics by step (later lines of a step add to it)."""
    steps: dict[int, dict[str, float]] = {}
    for line in text.splitlines():
        line = line.rsplit("\r", 1)[-1]
        match = _VERL_RE.search(line)
        if not match:
            continue
        row = steps.setdefault(int(match.group(1)), {})
        for item in match.group(2).split(" - "):
            key, sep, value = item.rpartition(":")
            if not sep:
                continue
            value = value.strip()
            wrapped = _NUMBER_WRAP_RE.match(value)
            parsed = number(wrapped.group(1) if wrapped else value)
            if parsed is not None and key.strip():
                row[key.strip()] = parsed
    return {step: row for step, row in steps.items() if row}


def read(path: Path, name: str | None = None) -> ImportedRun:
    text = _text(path)
    dicts = trainer_dicts(text)
    verl = verl_steps(text)
    run = ImportedRun(source=str(path), format=NAME)
    if not dicts and not verl:
        raise SourceError(f"{path}: no Trainer log dicts or verl step lines found in this console output")
    if len(verl) > len(dicts):
        run.format = "verl-console"
        for step, metrics in sorted(verl.items()):
            run.add_step(step, _verl_units(metrics))
        config_class = "grpo" if _VERL_GRPO.search(text) else None
        model = _VERL_MODEL.search(text)
        run.model_name = model.group(1) if model else None
    else:
        run.format = "trainer-console"
        add_trainer_logs(run, dicts, "printed dict")
        config_class = None
    run.algorithm = guess_algorithm(run.metric_names(), config_class)
    return run


def _verl_units(metrics: dict[str, float]) -> dict[str, float]:
    """Older verl printed learning rates scaled, as ``actor/lr(1e-4):0.010``: unscale them."""
    out = {}
    for key, value in metrics.items():
        match = re.match(r"^(.*)\(([0-9.eE+-]+)\)$", key)
        scale = number(match.group(2)) if match else None
        if match and scale is not None:
            out[match.group(1)] = value * scale
        else:
            out[key] = value
    return out


class _Tail(SourceTail):
    """A console log as it grows, by byte offset, in whole lines. Which kind of log it is
    (Trainer dicts or verl lines) is settled by the first look that finds either. The run
    ends on the Trainer's end-of-training summary dict, or on verl's ``Final validation
    metrics:`` line."""

    format = NAME

    def __init__(self, path: Path, name: str | None = None) -> None:
        super().__init__(path, name)
        self._file = GrowingFile(path)
        self._trainer = TrainerLogTail("printed dict")
        self._kind: str | None = None
        self._config_class: str | None = None
        self._model: str | None = None

    def read_into(self, run: ImportedRun) -> None:
        text = _decoded(self._file.read_new())
        self.saw(self._file)
        if self._file.restarted:
            self.restarted, self.status = True, RunStatus.RUNNING
            self._trainer, self._kind = TrainerLogTail("printed dict"), None
            run.note(f"{self.path} shrank: a new job is writing it; read again from its start")
        dicts = trainer_dicts(text) if self._kind != "verl-console" else []
        verl = verl_steps(text) if self._kind != "trainer-console" else {}
        if self._kind is None and (dicts or verl):
            self._kind = "verl-console" if len(verl) > len(dicts) else "trainer-console"
        run.format = self._kind or NAME
        if self._kind == "trainer-console":
            self._trainer.add(run, dicts)
            if self._trainer.ended:
                self.status = RunStatus.FINISHED
        elif self._kind == "verl-console":
            for step, metrics in sorted(verl.items()):
                run.add_step(step, _verl_units(metrics))
            if _VERL_END.search(text):
                self.status = RunStatus.FINISHED
        # verl prints its config before the first step: remember it for the looks after.
        self._config_class = self._config_class or ("grpo" if _VERL_GRPO.search(text) else None)
        model = _VERL_MODEL.search(text)
        self._model = self._model or (model.group(1) if model else None)
        run.model_name = self._model if self._kind == "verl-console" else None
        config_class = self._config_class if self._kind == "verl-console" else None
        run.algorithm = guess_algorithm(run.metric_names(), config_class)


def follow(path: Path, name: str | None = None) -> SourceTail:
    return _Tail(path, name)
