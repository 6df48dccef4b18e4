"""RlprobeCallback: the TrainerCallback that records a TRL run and can halt it."""
from __future__ import annotations

import contextlib
import functools
import os
import warnings
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from transformers import TrainerCallback

from rlprobe import EventKind, Recorder, RlprobeWarning
from rlprobe.records import TRAINER_SUMMARY_MARKERS, is_trainer_summary_key
from rlprobe.storage import RunStatus

from .compat import check_trl_version, describe_trainer
from .live import LiveDoctor, load_doctor
from .shim import SampleShim, ShimUnavailable, default_sampling

if TYPE_CHECKING:
    from rlprobe.doctor import Finding

__all__ = ["RlprobeCallback", "attach"]

#: Keys of the summary that describe the run, not a step.
_RUN_KEYS = frozenset({"epoch", "num_input_tokens_seen"})


def _never_raises(method: Callable[..., Any]) -> Callable[..., Any]:
    """A callback hook must not take training down: errors become one warning per hook."""

    @functools.wraps(method)
    def hook(self: RlprobeCallback, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except Exception as exc:  # noqa: BLE001
            self._warn(method.__name__, f"rlprobe: {method.__name__} failed ({exc!r}); training continues")
            return None

    return hook


class RlprobeCallback(TrainerCallback):
    """Records a TRL trainer's run into ``run_dir`` and, with ``halt``, stops it on a
    critical finding. Build it with :func:`attach`, which also registers it.

    The recorder is configured from ``trainer`` (algorithm, model name, ``args.to_dict()``,
    world size and rank; any ``recorder_kwargs`` win). Only world process zero writes
    unless ``record_all_ranks=True``. Hooks never raise into training: a failure costs one
    warning. After a halt, :attr:`halted_by` holds the triggering finding on every rank.

    Attributes:
        recorder: the :class:`rlprobe.Recorder` (inert on non-recording ranks).
        halted_by: the finding that halted the run, or None.
        findings: every finding live diagnosis reported so far (main process only).
    """

    def __init__(
        self,
        trainer: Any,
        run_dir: str | os.PathLike[str],
        *,
        halt: Any = None,
        on_finding: Callable[[Finding], Any] | None = None,
        diagnose_every: int = 25,
        doctor_config: Mapping[str, Any] | None = None,
        **recorder_kwargs: Any,
    ) -> None:
        if isinstance(diagnose_every, bool) or not isinstance(diagnose_every, int) or diagnose_every < 1:
            raise ValueError(f"diagnose_every must be a positive int, got {diagnose_every!r}")
        if on_finding is not None and not callable(on_finding):
            raise TypeError(f"on_finding must be callable, got {type(on_finding).__name__}")
        if doctor_config is not None and not isinstance(doctor_config, Mapping):
            raise TypeError(f"doctor_config must be a dict shaped like doctor.toml, got {type(doctor_config).__name__}")
        live_wanted = bool(halt) or on_finding is not None
        policy = _as_policy(halt, load_doctor().HaltPolicy) if live_wanted else None

        self.trl_version = check_trl_version()
        self.trainer = trainer
        self.run_dir = os.fspath(run_dir)
        self.halted_by: Finding | None = None
        self._warned: set[str] = set()
        self._last_step_logged: int | None = None

        settings = describe_trainer(trainer)
        settings["sampling"] = default_sampling(trainer)
        settings.update(recorder_kwargs)
        self._is_main = int(settings.get("rank", 0)) == 0
        # Built before the recorder, so that a bad doctor_config fails without leaving a run behind.
        self._live: LiveDoctor | None = None
        if live_wanted:
            self._live = LiveDoctor(self.run_dir, policy=policy, on_finding=on_finding, every=diagnose_every,
                                    config=doctor_config, is_main=self._is_main)
        self.recorder = Recorder(self.run_dir, **settings)

        self._shim: SampleShim | None = None
        if self.recorder.active and self._is_main:
            # The buffer is gathered from every process, so one rank's copy is the whole batch.
            try:
                self._shim = SampleShim.for_trainer(trainer)
            except ShimUnavailable as exc:
                self._shim_unavailable(exc, step=None)

    @property
    def findings(self) -> list[Finding]:
        return list(self._live.findings) if self._live is not None else []

    # -- hooks ---------------------------------------------------------------------------

    @_never_raises
    def on_train_begin(self, args: Any, state: Any, control: Any, **kwargs: Any) -> None:
        # Resumed from a checkpoint: the steps up to it that a kill cost the recording (those
        # logged in the last flush_interval_s before it) are in the checkpoint's log history.
        step = state.global_step
        if not step:
            return
        rows = [(entry["step"], {key: value for key, value in entry.items() if key != "step"})
                for entry in state.log_history
                if isinstance(entry, Mapping) and type(entry.get("step")) is int and entry["step"] <= step
                and _log_kind(entry) == "step"]
        checkpoint = os.path.join(args.output_dir, f"checkpoint-{step}")  # Trainer's name for it
        state_file = os.path.join(checkpoint, "trainer_state.json")
        self.recorder.restore_steps(rows, source=state_file if os.path.isfile(state_file) else "state.log_history",
                                    resume_step=step)

    @_never_raises
    def on_step_end(self, args: Any, state: Any, control: Any, **kwargs: Any) -> None:
        if self._shim is None:
            return
        try:
            samples = self._shim.capture(state.global_step)
        except ShimUnavailable as exc:
            self._shim = None
            self._shim_unavailable(exc, step=state.global_step)
            return
        if samples:
            self.recorder.log_samples(state.global_step, samples)

    @_never_raises
    def on_log(self, args: Any, state: Any, control: Any, logs: Mapping[str, Any] | None = None,
               **kwargs: Any) -> Any:
        step = state.global_step
        kind = self._kind_of_log(step, logs or {})
        with self._contained("on_log"):
            self._record_log(kind, step, logs or {})
        # In a distributed run diagnosis is a collective: every rank must reach it, even one
        # whose recording just failed, so the decision rests on the log's kind alone.
        if kind == "step" and self._live is not None and self._live.due(step):
            with self._contained("diagnosis"):
                return self._diagnose(step, control)
        return None

    @_never_raises
    def on_train_end(self, args: Any, state: Any, control: Any, **kwargs: Any) -> None:
        self.recorder.close(status=RunStatus.HALTED if self.halted_by is not None else None)

    # -- internals -----------------------------------------------------------------------

    def _kind_of_log(self, step: int, logs: Mapping[str, Any]) -> str | None:
        """``"step"``, ``"evaluation"``, ``"summary"``, ``"summary+step"`` or None (nothing to
        record), from the keys alone, so that every rank classifies every log the same way."""
        kind = _log_kind(logs)
        if kind == "step":
            self._last_step_logged = step
        if kind != "summary":
            return kind
        # Trainer's end-of-training summary repeats the last logged step; it carries a step's
        # metrics only when the last logging window was cut short by max_steps.
        fresh = {key for key in logs if not is_trainer_summary_key(key)} - _RUN_KEYS
        if fresh and step != self._last_step_logged:
            self._last_step_logged = step
            return "summary+step"
        return "summary"

    def _record_log(self, kind: str | None, step: int, logs: Mapping[str, Any]) -> None:
        if kind == "evaluation":
            self.recorder.log_event(EventKind.EVALUATION, step=step, message="evaluation metrics", metrics=dict(logs))
            return
        if kind in ("summary", "summary+step"):
            summary = {key: value for key, value in logs.items() if is_trainer_summary_key(key)}
            self.recorder.log_event(EventKind.TRAIN_SUMMARY, step=step, message="training finished", **summary)
        if kind == "step":
            self.recorder.log_step(step, **logs)
        elif kind == "summary+step":
            metrics = {key: value for key, value in logs.items() if not is_trainer_summary_key(key)}
            self.recorder.log_step(step, **metrics)

    @contextlib.contextmanager
    def _contained(self, what: str) -> Iterator[None]:
        try:
            yield
        except Exception as exc:  # noqa: BLE001 - the training loop must never see our errors
            self._warn(what, f"rlprobe: {what} failed ({exc!r}); training continues")

    def _diagnose(self, step: int, control: Any) -> Any:
        if self._live is None:
            return None
        finding = self._live.diagnose(step, flush=self.recorder.flush)
        if finding is None or self.halted_by is not None:
            return None
        self.halted_by = finding
        # Stop, and keep a checkpoint of the state at the halt: stopping alone saves nothing.
        control.should_training_stop = True
        control.should_save = True
        self.recorder.log_event(
            EventKind.AUTO_HALT,
            step=step,
            message=f"halted at step {step} on {_describe(finding)}",
            signature_id=finding.signature_id,
            severity=finding.severity,
            confidence=finding.confidence,
            first_step=finding.first_step,
            explanation=finding.explanation,
        )
        return control

    def _shim_unavailable(self, exc: Exception, step: int | None) -> None:
        self.recorder.log_event(EventKind.SHIM_UNAVAILABLE, step=step,
                                message=f"per-sample capture off: {exc}; step scalars are unaffected",
                                trainer=type(self.trainer).__name__, trl_version=self.trl_version)

    def _warn(self, key: str, message: str) -> None:
        if key not in self._warned:
            self._warned.add(key)
            warnings.warn(message, RlprobeWarning, stacklevel=3)


def _log_kind(logs: Mapping[str, Any]) -> str | None:
    """A Trainer log's kind by its keys: None (empty), ``"evaluation"``, ``"step"`` or
    ``"summary"`` (the end-of-training summary, which may also carry a step's metrics)."""
    if not logs:
        return None
    if any(str(key).startswith("eval_") for key in logs):
        return "evaluation"
    return "step" if TRAINER_SUMMARY_MARKERS.isdisjoint(logs) else "summary"


def _as_policy(halt: Any, default_policy: type) -> Any:
    """``halt`` as a policy: True → the default ``HaltPolicy``; anything with
    ``should_halt(finding)`` as is; None/False → None (never halt)."""
    if halt is None or halt is False:
        return None
    if halt is True:
        return default_policy()
    if callable(getattr(halt, "should_halt", None)):
        return halt
    raise TypeError(f"halt must be None, a bool or a HaltPolicy, got {type(halt).__name__}")


def _describe(finding: Finding) -> str:
    since = f" since step {finding.first_step}" if finding.first_step is not None else ""
    return f"{finding.signature_id} ({finding.severity}, confidence {finding.confidence:.2f}){since}"


def attach(
    trainer: Any,
    run_dir: str | os.PathLike[str],
    *,
    halt: Any = None,
    on_finding: Callable[[Finding], Any] | None = None,
    diagnose_every: int = 25,
    doctor_config: Mapping[str, Any] | None = None,
    **recorder_kwargs: Any,
) -> RlprobeCallback:
    """Build an :class:`RlprobeCallback` for ``trainer``, register it, return it.

    ``halt``: True = default ``HaltPolicy``, or a policy, or None/False = never halt.
    ``on_finding``: called with each new finding (main process). ``diagnose_every``: live
    diagnosis cadence in steps. ``doctor_config``: per-detector overrides shaped like
    ``doctor.toml``. Anything else goes to :class:`rlprobe.Recorder`. Raises ImportError
    at once when ``halt``/``on_finding`` is used without ``rlprobe-doctor`` installed.
    """
    callback = RlprobeCallback(trainer, run_dir, halt=halt, on_finding=on_finding, diagnose_every=diagnose_every,
                               doctor_config=doctor_config, **recorder_kwargs)
    trainer.add_callback(callback)
    _record_crashes(trainer, callback.recorder)
    return callback


def _record_crashes(trainer: Any, recorder: Recorder) -> None:
    """Make ``trainer.train()`` the recorder's ``with`` block: an exception leaving it is
    recorded at once (a ``crash`` event with the traceback, flushed, status "crashed";
    KeyboardInterrupt: "terminated") and then propagates unchanged. TrainerCallback has no
    hook for an exception, and a caller that catches it (a notebook, a sweep) would
    otherwise leave the run "running" and unflushed until the interpreter exits."""
    train = trainer.train

    @functools.wraps(train)
    def recorded_train(*args: Any, **kwargs: Any) -> Any:
        try:
            return train(*args, **kwargs)
        except BaseException as exc:
            recorder.internals.close_after(type(exc), exc, exc.__traceback__, step=_completed_step(trainer))
            raise

    trainer.train = recorded_train


def _completed_step(trainer: Any) -> int | None:
    """The last optimizer step the trainer completed, for the crash event (None when unknown)."""
    step = getattr(getattr(trainer, "state", None), "global_step", None)
    return step if isinstance(step, int) else None
