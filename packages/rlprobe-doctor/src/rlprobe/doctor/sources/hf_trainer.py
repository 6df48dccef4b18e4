"""TRL / Hugging Face Trainer sources: an ``output_dir``, a ``checkpoint-N/`` directory, a
``trainer_state.json``, or any JSON file holding a ``log_history`` list or a plain list of
Trainer log dicts.

Read: the newest checkpoint's ``log_history`` merged with the root ``trainer_state.json``
(written only by ``trainer.save_state()``, and the only place the end-of-training summary
lands); the config from the newest ``training_args.bin`` (see ``pickled_args``); samples
from ``completions/completions_*.parquet`` (GRPO's ``log_completions=True``).
"""
from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import orjson

from rlprobe.storage import RunStatus

from .base import ImportedRun, SourceError, SourceTail, read_file
from .pickled_args import read_training_args
from .trainer_logs import TrainerLogTail, add_trainer_logs, guess_algorithm, is_trainer_log, kind_of

__all__ = ["NAME", "DESCRIPTION", "sniff", "files", "runs", "address", "status", "read", "add_completion_rows",
           "follow"]

NAME = "trainer"
DESCRIPTION = "TRL / HF Trainer output_dir, checkpoint-N/, trainer_state.json or a JSON list of log dicts"
#: No other names for a run, no status read apart from the run (see ``Reader``).
address = status = None

STATE = "trainer_state.json"
ARGS = "training_args.bin"
_CHECKPOINT_RE = re.compile(r"^checkpoint-(\d+)$")
_COMPLETIONS_RE = re.compile(r"^completions_(\d+)\.parquet$")
#: Bytes of a JSON file looked at to recognise it.
_SNIFF_BYTES = 4096
#: Sample columns TRL writes that are not reward functions.
_NOT_REWARDS = frozenset({"step", "prompt", "completion", "advantage", "image", "images"})


def _checkpoints(folder: Path) -> list[Path]:
    found = []
    try:
        entries = list(folder.iterdir())
    except OSError:
        return []
    for entry in entries:
        match = _CHECKPOINT_RE.match(entry.name)
        if match and (entry / STATE).is_file():
            found.append((int(match.group(1)), entry))
    return [p for _, p in sorted(found)]


def _looks_like_json_log(path: Path) -> bool:
    try:
        with open(path, "rb") as fh:
            head = fh.read(_SNIFF_BYTES).lstrip()
    except OSError:
        return False
    if head.startswith(b"{"):
        return b'"log_history"' in head or path.name == STATE
    if head.startswith(b"["):
        rest = head[1:].lstrip()
        return rest.startswith(b"{") and any(
            f'"{k}"'.encode() in head for k in ("loss", "learning_rate", "reward", "epoch", "step"))
    return False


def sniff(path: Path) -> bool:
    if path.is_dir():
        return (path / STATE).is_file() or bool(_checkpoints(path))
    return path.is_file() and _looks_like_json_log(path)


def _layout(path: Path) -> tuple[Path | None, list[Path]]:
    """(output_dir or None, the trainer_state.json files to merge, newest checkpoint last)."""
    if path.is_file():
        return None, [path]
    checkpoints = _checkpoints(path)
    states = [checkpoints[-1] / STATE] if checkpoints else []
    if (path / STATE).is_file():
        states.append(path / STATE)
    return path, states


def files(path: Path) -> list[Path]:
    """The files the import depends on (their sizes and times key the cache)."""
    root, states = _layout(path)
    out = list(states)
    if root is not None:
        out += sorted(root.glob("checkpoint-*/" + ARGS))[-1:]
        out += sorted((root / "completions").glob("completions_*.parquet"))
        if _CHECKPOINT_RE.match(root.name):
            out += sorted((root.parent / "completions").glob("completions_*.parquet"))
    return out


def runs(path: Path) -> list[str]:
    return []


def _load_json(path: Path) -> Any:
    """The JSON document in ``path``. Parsed by orjson (a 100k-step ``trainer_state.json`` in
    a fifth of the time); what orjson refuses — the NaN and Infinity literals the Trainer
    writes for a NaN loss, a number past a double, text that is not UTF-8 — is parsed again
    by the standard library, which reads what the Trainer writes and words the errors. The
    one difference: an integer past 64 bits reads as a float (as its metric does anyway)."""
    data = read_file(path)
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError:
        pass
    try:
        return json.loads(data)  # accepts NaN / Infinity literals, as the Trainer writes them
    except json.JSONDecodeError as exc:
        raise SourceError(f"{path}: not valid JSON ({exc.msg} at line {exc.lineno}, column {exc.colno}); "
                          "a partial or damaged file?") from None
    except UnicodeDecodeError:
        raise SourceError(f"{path}: not UTF-8 text") from None


def _log_history(path: Path) -> tuple[list[Mapping[str, Any]], dict[str, Any]]:
    data = _load_json(path)
    if isinstance(data, Mapping):
        history = data.get("log_history")
        if not isinstance(history, list):
            raise SourceError(f"{path}: JSON object without a log_history list; not a trainer_state.json")
        state = {k: v for k, v in data.items() if k != "log_history"}
    elif isinstance(data, list):
        history, state = data, {}
    else:
        raise SourceError(f"{path}: holds a JSON {type(data).__name__}, not a log_history")
    entries = [e for e in history if isinstance(e, Mapping)]
    if history and not any(is_trainer_log(e) for e in entries):
        raise SourceError(f"{path}: its list holds no Trainer log dicts (loss, learning_rate, reward, ...)")
    return entries, state


def _merge(histories: list[list[Mapping[str, Any]]]) -> list[Mapping[str, Any]]:
    """The longest history, then the entries of the others it lacks (by step and kind): the
    root state file, written at the end, adds the summary; a newer checkpoint later steps."""
    histories = sorted(histories, key=len, reverse=True)
    merged = list(histories[0])
    if len(histories) == 1:
        return merged
    seen = {(e.get("step"), kind_of(e)) for e in merged}
    for other in histories[1:]:
        for entry in other:
            key = (entry.get("step"), kind_of(entry))
            if key not in seen:
                merged.append(entry)
                seen.add(key)
    return merged


def read(path: Path, name: str | None = None) -> ImportedRun:
    root, states = _layout(path)
    run = ImportedRun(source=str(path), format=NAME)
    histories = []
    state: dict[str, Any] = {}
    for state_path in states:
        entries, fields = _log_history(state_path)
        histories.append(entries)
        state = state or fields
    entries = _merge(histories) if histories else []
    if not entries:
        raise SourceError(f"{states[0] if states else path}: the log history is empty; nothing to diagnose")
    add_trainer_logs(run, entries, "log entry")
    config_class = None
    if root is not None:
        config_class = _read_config(run, root)
        _read_completions(run, root)
    if state:
        run.trainer_config.setdefault("trainer_state", {k: v for k, v in state.items()
                                                        if not isinstance(v, (list, dict))})
    run.algorithm = guess_algorithm(run.metric_names(), config_class)
    return run


def _read_config(run: ImportedRun, root: Path) -> str | None:
    candidates = [root / ARGS] + [c / ARGS for c in reversed(_checkpoints(root))]
    for args_path in candidates:
        if args_path.is_file():
            try:
                config_class, config = read_training_args(args_path)
            except ValueError as exc:
                run.note(f"{args_path}: config not read ({exc})")
                return None
            run.trainer_config.update(config)
            run.trainer_config["config_class"] = config_class
            model = config.get("model_init_kwargs") or {}
            run.model_name = (model.get("pretrained_model_name_or_path") if isinstance(model, dict) else None) \
                or config.get("hub_model_id") or _model_from_card(root)
            return config_class
    run.model_name = _model_from_card(root)
    return None


def _model_from_card(root: Path) -> str | None:
    """The base model named in the model card TRL writes (``base_model:`` front matter)."""
    for card in [root / "README.md"] + [c / "README.md" for c in reversed(_checkpoints(root))]:
        try:
            text = card.read_text("utf-8", errors="replace")[:4096]
        except OSError:
            continue
        match = re.search(r"^base_model:\s*(\S+)\s*$", text, re.M)
        if match:
            return match.group(1).strip("'\"")
    return None


def _read_completions(run: ImportedRun, root: Path) -> None:
    folders = [root / "completions"]
    if _CHECKPOINT_RE.match(root.name):
        folders.append(root.parent / "completions")
    folder = next((f for f in folders if f.is_dir()), None)
    if folder is None:
        return
    import pyarrow.parquet as pq

    eval_steps = run.steps_with("eval_")
    train_steps = run.steps_with()
    weights = run.trainer_config.get("reward_weights")
    skipped = []
    for file in sorted(folder.iterdir()):
        match = _COMPLETIONS_RE.match(file.name)
        if not match:
            continue
        step = int(match.group(1))
        if step in eval_steps:
            skipped.append(step)  # the eval log at this step overwrote the train samples
            continue
        try:
            table = pq.read_table(file)
        except Exception as exc:  # noqa: BLE001 - pyarrow raises several kinds for a bad file
            raise SourceError(f"{file}: unreadable Parquet ({exc})") from None
        add_completion_rows(run, table.to_pylist(), step, weights)
    if skipped:
        run.note(f"completions at steps {', '.join(map(str, skipped[:10]))}{' …' if len(skipped) > 10 else ''} "
                 "left out: an eval log at the same step overwrote them with eval samples")
    if run.samples and not train_steps:
        run.note("completions read, but the log history has no train steps")


def add_completion_rows(run: ImportedRun, rows: list[dict[str, Any]], step: int, weights: Any) -> None:
    """TRL completion rows (prompt, completion, one column per reward function, advantage)
    of one step as samples: reward = the weighted sum of the functions; groups = runs of one prompt."""
    group = -1
    previous = object()
    for row in rows:
        prompt = row.get("prompt")
        if prompt != previous:
            group += 1
            previous = prompt
        components = {k: v for k, v in row.items()
                      if k not in _NOT_REWARDS and isinstance(v, (int, float)) and not isinstance(v, bool)}
        reward = _weighted(components, weights)
        sample = {
            "step": step,
            "prompt": prompt,
            "completion": row.get("completion"),
            "advantage": row.get("advantage"),
            "reward": reward,
            "reward_components": components or None,
            "group_id": f"{step}-{group}",
            "prompt_id": hashlib.blake2b(json.dumps(prompt, sort_keys=True, default=str).encode(),
                                         digest_size=8).hexdigest(),
        }
        extras = {k: v for k, v in row.items() if k not in _NOT_REWARDS and k not in components}
        if extras:
            sample["extra"] = extras
        run.samples.append(sample)


def _weighted(components: dict[str, Any], weights: Any) -> float | None:
    """TRL's reward: the weighted sum of the reward functions (NaN ones skipped)."""
    values = list(components.values())
    if not values:
        return None
    if not isinstance(weights, list) or len(weights) != len(values):
        weights = [1.0] * len(values)
    finite = [(w, v) for w, v in zip(weights, values, strict=False) if v is not None and not math.isnan(v)]
    return sum(float(w) * float(v) for w, v in finite) if finite else None


class _Tail(SourceTail):
    """A TRL / Trainer ``output_dir`` (or a ``trainer_state.json``) as the job writes it.

    The Trainer rewrites a whole ``trainer_state.json`` at each checkpoint, so the read
    position is a count: the log entries (of the merged history) already returned. A state
    file caught half-written is read at the next look. ``training_args.bin`` gives the
    config once the first checkpoint holds it; ``completions_<step>.parquet`` files are
    read once the history has reached their step (an eval step's, overwritten with eval
    samples, is left out). The run ends with the end-of-training summary, which lands in
    the root ``trainer_state.json`` (``trainer.save_state()``); without that call, only
    its stall can end the watch."""

    format = NAME

    def __init__(self, path: Path, name: str | None = None) -> None:
        super().__init__(path, name)
        self._trainer = TrainerLogTail("log entry")
        self._seen = 0
        self._stamps: dict[Path, tuple[int, int]] = {}
        self._config_class: str | None = None
        self._config_read = False
        self._last_step = -1
        self._eval_steps: set[int] = set()
        self._completions: set[Path] = set()

    def read_into(self, run: ImportedRun) -> None:
        root, states = _layout(self.path)
        stamps = {}
        for state in states:
            try:
                st = state.stat()
            except OSError:
                return
            stamps[state] = (st.st_size, st.st_mtime_ns)
            self.last_write = max(self.last_write or 0.0, st.st_mtime)
        if stamps != self._stamps:
            try:
                histories = [_log_history(state)[0] for state in states]
            except SourceError:
                return  # a state file being rewritten: whole at the next look
            self._stamps = stamps
            merged = _merge(histories) if histories else []
            fresh, self._seen = merged[self._seen:], max(self._seen, len(merged))
            self._trainer.add(run, fresh)
            for row in run.steps:
                self._last_step = max(self._last_step, row["step"])
                if any(k.startswith("eval_") for k in row):
                    self._eval_steps.add(row["step"])
            if self._trainer.ended:
                self.status = RunStatus.FINISHED
        if root is not None:
            if not self._config_read and any(c for c in [root / ARGS] + [c / ARGS for c in _checkpoints(root)]
                                             if c.is_file()):
                self._config_class = _read_config(run, root)
                self._config_read = True
            self._read_new_completions(run, root)
        run.algorithm = guess_algorithm(run.metric_names(), self._config_class)

    def _read_new_completions(self, run: ImportedRun, root: Path) -> None:
        import pyarrow.parquet as pq

        folders = [root / "completions"] + ([root.parent / "completions"] if _CHECKPOINT_RE.match(root.name) else [])
        folder = next((f for f in folders if f.is_dir()), None)
        if folder is None:
            return
        weights = run.trainer_config.get("reward_weights")
        for file in sorted(folder.iterdir()):
            match = _COMPLETIONS_RE.match(file.name)
            if not match or file in self._completions or int(match.group(1)) > self._last_step:
                continue
            self._completions.add(file)
            step = int(match.group(1))
            if step in self._eval_steps:
                continue
            try:
                table = pq.read_table(file)
            except Exception as exc:  # noqa: BLE001 - pyarrow raises several kinds for a bad file
                run.note(f"{file}: unreadable Parquet ({exc}); its samples left out")
                continue
            add_completion_rows(run, table.to_pylist(), step, weights)


def follow(path: Path, name: str | None = None) -> SourceTail:
    return _Tail(path, name)
