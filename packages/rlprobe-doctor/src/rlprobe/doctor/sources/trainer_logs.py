"""Hugging Face Trainer log dicts (``log_history`` entries, or the dicts a job printed)
→ an ``ImportedRun``.

Each dict is one of three kinds: a train row (the trainer's metrics at a step), an eval row
(every metric ``eval_``-prefixed; kept under those names, apart from the train metrics), or
the end-of-training summary (``train_runtime``/``train_loss``/``total_flos`` without
``loss``; kept as a ``train_summary`` event, never as a step). A log holding several trainer
runs one after the other (the step or epoch counter starts again, or a summary came
before) is read as consecutive stages on one step axis; stages that logged no reward (an
SFT warm-up before GRPO) are left out when a later stage did.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from operator import itemgetter
from typing import Any

from rlprobe.records import TRAINER_SUMMARY_KEYS as SUMMARY_KEYS
from rlprobe.records import TRAINER_SUMMARY_MARKERS, EventKind, canonical_metric

from .. import progress
from .base import ImportedRun, number
from .columns import StepColumns

__all__ = ["is_trainer_log", "add_trainer_logs", "TrainerLogTail", "add_tracker_rows", "TrackerRowsTail",
           "guess_algorithm", "kind_of",
           "TRAINER_KEYS", "SUMMARY_KEYS", "TRACKER_STEP_KEY"]

#: Keys only Trainer log dicts have; a dict with one of these is a trainer log.
TRAINER_KEYS = frozenset({"loss", "learning_rate", "grad_norm", "reward", "train_runtime", "train_loss",
                          "eval_loss", "epoch", "objective/scores", "objective/kl"})
#: The trainer's step in each row a Trainer logs through a tracker (trackio, W&B), whose
#: own step counter also counts rows logged by others (TRL's profiling timings).
TRACKER_STEP_KEY = "train/global_step"
#: A row's time where the tracker stamps one (W&B's ``_timestamp``, Unix seconds): the step's time.
TIME_KEY = "_timestamp"
#: What a training loop of one's own logs its iteration as, read as the step without the Trainer's.
LOOP_STEP_KEY = "step"


#: Log entries added between two reports to the progress bar.
_REPORT_EVERY = 8192
#: The key of a Trainer log dict that is its step, not a metric.
_STEP = frozenset({"step"})


def is_trainer_log(entry: Any) -> bool:
    return (isinstance(entry, Mapping) and any(k in entry for k in TRAINER_KEYS)
            and all(isinstance(k, str) for k in entry))


def kind_of(entry: Mapping[str, Any]) -> str:
    if "loss" in entry or "reward" in entry or "grad_norm" in entry:
        return "train"
    if not TRAINER_SUMMARY_MARKERS.isdisjoint(entry):
        return "summary"
    if any(k.startswith("eval_") for k in entry):
        return "eval"
    return "train"


def _has_reward(entry: Mapping[str, Any]) -> bool:
    return any(canonical_metric(k) == "reward_mean" or k.startswith("rewards/") for k in entry)


def add_trainer_logs(run: ImportedRun, entries: Sequence[Mapping[str, Any]], where: str) -> None:
    """Add the train and eval rows of ``entries`` to ``run`` (as its step table, built as
    columns: ``StepColumns``) and their summary as described in the module docstring.
    ``where`` names the log in notes ("log entry", "printed dict")."""
    stages: list[list[tuple[int, str, Mapping[str, Any], float | None]]] = [[]]
    last_step: float | None = None
    last_epoch: float | None = None
    summary_seen = False
    inferred = 0
    for index, entry in enumerate(entries):
        kind = kind_of(entry)
        if kind == "summary":
            stages[-1].append((index, kind, entry, None))
            summary_seen = True
            continue
        step = number(entry.get("step"))
        epoch = number(entry.get("epoch"))
        restart = _restarts(kind, step, epoch, last_step, last_epoch, summary_seen)
        if restart and any(k == "train" for _, k, _, _ in stages[-1]):
            stages.append([])
            summary_seen = False
            last_step = None
        stages[-1].append((index, kind, entry, step))
        if kind == "train":
            last_step = step if step is not None else last_step
            last_epoch = epoch if epoch is not None else last_epoch
    rl_stages = [s for s in stages if any(k == "train" and _has_reward(e) for _, k, e, _ in s)]
    if rl_stages and len(rl_stages) < len(stages):
        for stage in stages:
            if stage not in rl_stages:
                trains = sum(1 for _, k, _, _ in stage if k == "train")
                run.note(f"left out a stage of {trains} {where}s that logged no reward (not RL "
                         f"training, e.g. an SFT warm-up), {where}s {stage[0][0] + 1}-{stage[-1][0] + 1}")
        stages = rl_stages
    offset = 0
    columns = StepColumns(run.problems)
    report = progress.current()
    report.task("decoding the log", len(entries), "rows")
    for number_of_stage, stage in enumerate(stages):
        stage_last = 0
        count = 0
        for _index, kind, entry, raw_step in stage:
            if kind == "summary":
                run.events.append((EventKind.TRAIN_SUMMARY, offset + stage_last or None, "end-of-training summary",
                                   {k: number(v) if number(v) is not None else v for k, v in entry.items()}))
                continue
            if kind == "train":
                count += 1
            if raw_step is None or raw_step != int(raw_step):
                raw_step = float(stage_last if kind == "eval" else count)
                inferred += kind == "train"
            columns.add(offset + int(raw_step), entry, skip=_STEP, only="eval_" if kind == "eval" else None)
            if not len(columns) % _REPORT_EVERY:
                report.advance(_REPORT_EVERY)
            if kind == "train":
                stage_last = int(raw_step)
        if number_of_stage and stage_last:
            run.events.append((EventKind.STAGE_START, offset + 1, f"stage {number_of_stage + 1} of the log starts "
                               f"(its step counter restarted; its steps are offset by {offset})",
                               {"offset": offset}))
        offset += stage_last
    report.advance(len(entries))  # the rest, and the entries left out: the task is done
    run.add_columns(columns)
    if inferred:
        run.note(f"{inferred} {where}s carry no step: steps are their order (1, 2, …), i.e. counted in "
                 "logging_steps; multiply by the run's logging_steps for optimizer steps",
                 inferred=inferred)


def _restarts(kind: str, step: float | None, epoch: float | None, last_step: float | None,
              last_epoch: float | None, summary_seen: bool) -> bool:
    """Whether a ``kind`` entry at ``step``/``epoch`` starts a new trainer run in the log: a
    train row after a summary, or one whose step (else epoch) went back."""
    return kind == "train" and (summary_seen or (step is not None and last_step is not None and step < last_step)
                                or (step is None and epoch is not None and last_epoch is not None
                                    and epoch < last_epoch))


class TrainerLogTail:
    """``add_trainer_logs`` for a log still being written: entries are added as they
    arrive and get the steps the whole log would give them. Unlike a whole log's read, a
    stage that logged no reward is kept (whether a later one will is not known yet), and
    the end-of-training summary ends the run (``ended``). Not thread-safe."""

    def __init__(self, where: str) -> None:
        self.where = where
        self.ended = False
        self._offset = self._stage_last = self._count = 0
        self._last_step: float | None = None
        self._last_epoch: float | None = None
        self._stages = 1
        self._inferred_said = False

    def add(self, run: ImportedRun, entries: Sequence[Mapping[str, Any]]) -> None:
        """Append the steps and events of ``entries`` (the next ones of the log) to ``run``."""
        for entry in entries:
            kind = kind_of(entry)
            if kind == "summary":
                run.events.append((EventKind.TRAIN_SUMMARY, self._offset + self._stage_last or None,
                                   "end-of-training summary",
                                   {k: number(v) if number(v) is not None else v for k, v in entry.items()}))
                self.ended = True
                continue
            step, epoch = number(entry.get("step")), number(entry.get("epoch"))
            if _restarts(kind, step, epoch, self._last_step, self._last_epoch, False) and self._count:
                self._offset += self._stage_last
                self._stages += 1
                self._stage_last = self._count = 0
                self._last_step = None
                run.events.append((EventKind.STAGE_START, self._offset + 1,
                                   f"stage {self._stages} of the log starts (its step counter restarted; its steps "
                                   f"are offset by {self._offset})",
                                   {"offset": self._offset}))
            if kind == "train":
                self._count += 1
                self._last_step = step if step is not None else self._last_step
                self._last_epoch = epoch if epoch is not None else self._last_epoch
            raw_step = step
            if raw_step is None or raw_step != int(raw_step):
                raw_step = float(self._stage_last if kind == "eval" else self._count)
                if kind == "train" and not self._inferred_said:
                    self._inferred_said = True
                    run.note(f"{self.where}s carry no step: steps are their order (1, 2, …), i.e. counted in "
                             "logging_steps; multiply by the run's logging_steps for optimizer steps")
            metrics = {k: v for k, v in entry.items() if k != "step"}
            if kind == "eval":
                metrics = {k: v for k, v in metrics.items() if k.startswith("eval_")}
            run.add_step(self._offset + int(raw_step), metrics)
            if kind == "train":
                self._stage_last = int(raw_step)


def _holds_metrics(row: Mapping[str, Any]) -> bool:
    """Whether a tracker's row logs a metric: a value that is not a dict or list (a table, a
    media item), under a key that is not a step, the row's time or TRL's profiling timings."""
    return any(not isinstance(value, (dict, list)) and not key.startswith("profiling/")
               and key not in (TRACKER_STEP_KEY, LOOP_STEP_KEY, TIME_KEY) for key, value in row.items())


def add_tracker_rows(run: ImportedRun, rows: Sequence[tuple[Any, dict[str, Any]]], tracker: str,
                     on_table: Callable[[Any, int], None] | None = None) -> None:
    """Append the rows a Trainer logged through a tracker, each ``(the tracker's step, {key:
    value})`` in log order. The step is ``train/global_step`` in the row, else the row's own
    ``step`` (a training loop of one's own) where the first row of metrics holds one; rows
    without it are left out, with a note, when the run logs it, else the tracker's step is
    the step.
    TRL's ``profiling/...`` timings are left out (trackio logs them without the step; W&B
    fills in the last step, as the Trainer's ``define_metric(step_sync=True)`` asks, which
    would date them to the step before). ``train/<key>`` becomes ``<key>``, ``eval/<key>``
    stays apart, dict values are not metrics, and the end-of-training summary keys become a
    ``train_summary`` event. A row's ``TIME_KEY`` is the step's time, not a metric. A
    ``completions`` dict goes to ``on_table`` with the step it belongs to (the row's, or the
    last one's)."""
    # A loop of one's own often logs its iteration as ``step`` (a name the recording keeps for
    # its step axis): without the Trainer's step, that is the step, never a metric; as when
    # followed, only if its first row of metrics holds it (a media row's ``step``, logged
    # beside rows of metrics without one, is not the run's step).
    first = next((m for _, m in rows if _holds_metrics(m)), {})
    step_key = TRACKER_STEP_KEY if any(TRACKER_STEP_KEY in m for _, m in rows) \
        else LOOP_STEP_KEY if LOOP_STEP_KEY in first else None
    summary: dict[str, Any] = {}
    left_out = profiling = 0
    current = None
    columns = StepColumns(run.problems)
    shapes: dict[tuple[str, ...], _RowShape] = {}
    for tracker_step, metrics in rows:
        step_value = number(metrics.get(step_key)) if step_key else number(tracker_step)
        table = metrics.get("completions")
        if step_value is None:
            if isinstance(table, dict) and on_table is not None and current is not None:
                on_table(table, current)
            left_out += 1
            continue
        current = int(step_value)
        if isinstance(table, dict) and on_table is not None:
            on_table(table, current)
        keys = tuple(metrics)
        shape = shapes.get(keys) or shapes.setdefault(keys, _RowShape(keys))
        raw = tuple(metrics.values())
        profiling += shape.profiling
        for short, at in shape.summary:
            summary[short] = number(raw[at])
        picked = shape.pick(raw) if shape.plain else ()
        if shape.plain and _PLAIN.issuperset(map(type, picked)):
            if not picked:
                continue
            columns.add_values(current, shape.names, picked)
        else:  # a repeated name, a dict or a list: the row as the keys come (dicts and lists are no metrics)
            values = {}
            for key, value in metrics.items():
                short = key[len("train/"):] if key.startswith("train/") else key
                if not (key.startswith("profiling/") or short in SUMMARY_KEYS or key in _NOT_VALUES
                        or isinstance(value, (dict, list))):
                    values[short] = value
            if not values:
                continue
            columns.add(current, values)
        when = number(raw[shape.time]) if shape.time is not None else None
        if when is not None:
            columns.set_time(when)
    run.add_columns(columns)
    if step_key == LOOP_STEP_KEY:
        run.note(f"steps are the {tracker} rows' own '{LOOP_STEP_KEY}' values (no {TRACKER_STEP_KEY} logged)")
    if left_out:
        run.note(f"{left_out} {tracker} rows without {step_key or 'a step'}"
                 + (" (TRL's profiling timings)" if step_key == TRACKER_STEP_KEY else "") + " left out")
    if profiling:
        run.note(f"{profiling} TRL profiling/ timings logged with a step left out")
    if summary:
        run.events.append((EventKind.TRAIN_SUMMARY, current, "end-of-training summary", summary))


#: A tracker row's keys that are not metrics: its step, a loop's own step, its time.
_NOT_VALUES = frozenset({TRACKER_STEP_KEY, LOOP_STEP_KEY, TIME_KEY})
#: The types of a row's values that are read as they are (a dict or a list is no metric).
_PLAIN = frozenset({float, int, str, bool, type(None)})


class _RowShape:
    """What ``add_tracker_rows`` takes from a row with these keys, worked out once: the
    metrics' names (``train/`` dropped) and where their values are, where the summary keys
    and the time are, how many profiling timings it holds. ``plain``: no two keys give one
    name (else the row is read key by key)."""

    __slots__ = ("names", "values", "summary", "time", "profiling", "plain", "pick")

    def __init__(self, keys: tuple[str, ...]) -> None:
        shorts = [key[len("train/"):] if key.startswith("train/") else key for key in keys]
        self.profiling = sum(key.startswith("profiling/") for key in keys)
        self.summary = [(short, at) for at, (key, short) in enumerate(zip(keys, shorts, strict=True))
                        if not key.startswith("profiling/") and short in SUMMARY_KEYS]
        self.time = keys.index(TIME_KEY) if TIME_KEY in keys else None
        taken = [(short, at) for at, (key, short) in enumerate(zip(keys, shorts, strict=True))
                 if not (key.startswith("profiling/") or short in SUMMARY_KEYS or key in _NOT_VALUES)]
        self.names = tuple(short for short, _ in taken)
        self.values = tuple(at for _, at in taken)
        self.plain = len(set(self.names)) == len(self.names)
        # The metrics' values of a row (its values as a tuple), picked in C.
        self.pick: Callable[[tuple[Any, ...]], tuple[Any, ...]] = (
            itemgetter(*self.values) if len(self.values) > 1 else lambda raw: tuple(raw[at] for at in self.values))


class TrackerRowsTail:
    """``add_tracker_rows`` for a tracker's rows as they arrive (a row's ``TIME_KEY`` is its
    step's time, as there). Whether the step is
    ``train/global_step`` is settled by the first row that holds it, or by the first row of
    metrics without it (that row's own ``step`` then, a training loop of one's own, else the
    tracker's step); rows before that (TRL's profiling timings, which come before the first
    step's metrics) wait for it. The end-of-training
    summary ends the run (``ended``). Not thread-safe."""

    def __init__(self, tracker: str) -> None:
        self.tracker = tracker
        self.ended = False
        self._settled = False
        self._step_key: str | None = None  # None: the tracker's own step
        self._waiting: list[tuple[Any, dict[str, Any]]] = []
        self._current: int | None = None
        self._left_out = self._profiling = 0

    @property
    def last_step(self) -> int | None:
        """The step of the last row read (None before one)."""
        return self._current

    def add(self, run: ImportedRun, rows: Sequence[tuple[Any, dict[str, Any]]],
            on_table: Callable[[Any, int], None] | None = None) -> None:
        """Append the steps, tables and summary of ``rows`` (the next ones logged) to ``run``."""
        if not self._settled:
            self._waiting += rows
            for _, metrics in self._waiting:
                if TRACKER_STEP_KEY in metrics:
                    self._settled, self._step_key = True, TRACKER_STEP_KEY
                    break
                if _holds_metrics(metrics):
                    self._settled, self._step_key = True, LOOP_STEP_KEY if LOOP_STEP_KEY in metrics else None
                    if self._step_key:
                        run.note(f"steps are the {self.tracker} rows' own '{LOOP_STEP_KEY}' values (no "
                                 f"{TRACKER_STEP_KEY} logged)")
                    break
            if not self._settled:
                return
            rows, self._waiting = self._waiting, []
        left_out, profiling = self._left_out, self._profiling
        summary: dict[str, Any] = {}
        for tracker_step, metrics in rows:
            step_value = number(metrics.get(self._step_key)) if self._step_key else number(tracker_step)
            table = metrics.get("completions")
            if step_value is None:
                if isinstance(table, dict) and on_table is not None and self._current is not None:
                    on_table(table, self._current)
                self._left_out += 1
                continue
            self._current = int(step_value)
            if isinstance(table, dict) and on_table is not None:
                on_table(table, self._current)
            values = {}
            for key, value in metrics.items():
                short = key[len("train/"):] if key.startswith("train/") else key
                if key.startswith("profiling/"):
                    self._profiling += 1
                elif short in SUMMARY_KEYS:
                    summary[short] = number(value)
                elif key not in (TRACKER_STEP_KEY, LOOP_STEP_KEY, TIME_KEY) and not isinstance(value, (dict, list)):
                    values[short] = value
            if values:
                run.add_step(self._current, values)
                when = number(metrics.get(TIME_KEY))
                if when is not None:
                    run.steps[-1]["time"] = when
        if self._left_out and not left_out:
            run.note(f"{self.tracker} rows without {self._step_key or 'a step'}"
                     + (" (TRL's profiling timings)" if self._step_key == TRACKER_STEP_KEY else "") + " left out")
        if self._profiling and not profiling:
            run.note("TRL profiling/ timings logged with a step left out")
        if not self.ended and summary.keys() & TRAINER_SUMMARY_MARKERS:
            run.events.append((EventKind.TRAIN_SUMMARY, self._current, "end-of-training summary", summary))
            self.ended = True


def guess_algorithm(names: set[str], config_class: str | None = None) -> str | None:
    """The algorithm a run used, from its config class (``GRPOConfig``) or its metric names."""
    if config_class:
        lowered = config_class.lower()
        for algo in ("grpo", "rloo", "ppo", "dpo", "online_dpo", "sft", "reward", "gkd", "kto", "orpo"):
            if lowered.startswith(algo.replace("_", "")):
                return algo
    if any(n.startswith(("critic/vf_loss", "critic/values", "loss/value", "objective/scores")) for n in names) \
            or "critic_loss" in names or "value_loss" in names:
        return "ppo"
    if any(n in names for n in ("reward", "reward_mean", "frac_reward_zero_std", "critic/score/mean")) \
            or any(n.startswith("rewards/") for n in names):
        return "grpo"
    return None
