"""Live diagnosis inside the training loop: rank 0 runs the doctor, every rank obeys.

The doctor is an optional dependency (``rlprobe-trl[live]``); it is imported only when
``halt=`` or ``on_finding=`` is used, and its absence is reported at ``attach`` time.
"""
from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from rlprobe import RlprobeWarning

if TYPE_CHECKING:
    from rlprobe.doctor import Finding

__all__ = ["LiveDoctor", "load_doctor", "share_from_rank0"]

#: Longest the training loop waits for the recorder to persist before a diagnosis.
FLUSH_TIMEOUT_S = 10.0

_INSTALL_HINT = "pip install 'rlprobe-trl[live]'"


def load_doctor() -> SimpleNamespace:
    """The doctor's live API (``RunWatcher``, ``HaltPolicy``, ``HaltJudge``), or
    ImportError with a one-line install hint."""
    try:
        from rlprobe.doctor.live import HaltJudge, HaltPolicy, RunWatcher
    except ImportError as exc:
        raise ImportError(
            f"halt= and on_finding= need rlprobe-doctor, which is not importable ({exc}); {_INSTALL_HINT}"
        ) from None
    return SimpleNamespace(RunWatcher=RunWatcher, HaltPolicy=HaltPolicy, HaltJudge=HaltJudge)


def share_from_rank0(value: Any) -> Any:
    """Rank 0's ``value`` on every rank (a collective: every rank must call it, in step).
    Without an initialised process group it returns ``value`` unchanged."""
    try:
        import torch.distributed as dist
    except ImportError:
        return value
    if not (dist.is_available() and dist.is_initialized()) or dist.get_world_size() == 1:
        return value
    box = [value if dist.get_rank() == 0 else None]
    dist.broadcast_object_list(box, src=0)
    return box[0]


class LiveDoctor:
    """Every ``every`` steps: flush the recording, tick a ``RunWatcher`` over it, hand each
    new finding to ``on_finding`` and ask ``policy`` whether to halt (through the doctor's
    ``HaltJudge``, which also looks again at findings turned down for want of confidence).

    The watcher runs on the main process only; with a policy, :meth:`diagnose` is a
    collective and returns the same answer on every rank. It never raises: a failing
    watcher, sink or callback costs one warning and the run goes on.
    """

    def __init__(
        self,
        run_dir: str,
        *,
        policy: Any | None,
        on_finding: Callable[[Finding], Any] | None,
        every: int,
        config: Mapping[str, Any] | None,
        is_main: bool,
    ) -> None:
        doctor = load_doctor()
        self.policy = policy
        self.on_finding = on_finding
        self.every = every
        self.is_main = is_main
        self.findings: list[Finding] = []
        self._next = every
        self._warned: set[str] = set()
        self._watcher: Any = None  # the doctor's RunWatcher, on the main process
        self._judge = None if policy is None else doctor.HaltJudge(policy, config)
        if is_main:
            # Built now so that a bad doctor_config fails at attach, not mid-run.
            self._watcher = doctor.RunWatcher(run_dir, sinks=[], config=config)

    def due(self, step: int) -> bool:
        """Deterministic from ``step`` alone, so every rank agrees without talking."""
        return step >= self._next

    def diagnose(self, step: int, flush: Callable[..., Any]) -> Finding | None:
        """The finding that halts the run, or None. ``flush(timeout=)`` makes the recording
        current first. Collective when a policy is set."""
        self._next = (step // self.every + 1) * self.every
        verdict = self._diagnose_here(step, flush) if self.is_main else None
        if self.policy is None:
            return None
        try:
            return share_from_rank0(verdict)
        except Exception as exc:  # noqa: BLE001 - a broken process group must not crash the run from here
            self._warn("share", f"rlprobe: could not share the halt decision across ranks ({exc!r}); not halting")
            return None

    def _diagnose_here(self, step: int, flush: Callable[..., Any]) -> Finding | None:
        try:
            flush(timeout=FLUSH_TIMEOUT_S)
            new = list(self._watcher.tick())
        except Exception as exc:  # noqa: BLE001
            self._warn("tick", f"rlprobe: live diagnosis failed at step {step} ({exc!r}); training continues")
            return None
        self.findings.extend(new)
        if self.on_finding is not None:
            for finding in new:
                try:
                    self.on_finding(finding)
                except Exception as exc:  # noqa: BLE001
                    self._warn("on_finding", f"rlprobe: on_finding raised {exc!r}; training continues")
        if self._judge is None:
            return None
        return self._judge.verdict(new, self._watcher.view)

    def _warn(self, key: str, message: str) -> None:
        if key not in self._warned:
            self._warned.add(key)
            warnings.warn(message, RlprobeWarning, stacklevel=2)
