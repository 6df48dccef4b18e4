"""Process-level hooks shared by all live recorders: atexit, excepthook, SIGTERM, fork.

Each hook is installed once, chains to whatever was installed before it, and acts on
every recorder that asked for handlers (``install_handlers=True``).
"""
from __future__ import annotations

import atexit
import os
import signal
import sys
import threading
import traceback
import weakref
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .recorder import Recorder

#: How long SIGTERM may spend flushing and compacting before the previous handler runs.
SIGTERM_BUDGET_S = 10.0

_handled: "weakref.WeakSet[Recorder]" = weakref.WeakSet()
_every: "weakref.WeakSet[Recorder]" = weakref.WeakSet()
_lock = threading.Lock()
_installed = False
_previous_excepthook: Any = None
_previous_sigterm: Any = None


def register(recorder: "Recorder", install_handlers: bool) -> None:
    global _installed
    with _lock:
        _every.add(recorder)
        if not install_handlers:
            return
        _handled.add(recorder)
        if _installed:
            return
        _installed = True
    _install()


def unregister(recorder: "Recorder") -> None:
    with _lock:
        _handled.discard(recorder)
        _every.discard(recorder)


def _recorders() -> list["Recorder"]:
    with _lock:
        return list(_handled)


def _install() -> None:
    global _previous_excepthook, _previous_sigterm
    atexit.register(_close_all)
    _previous_excepthook = sys.excepthook
    sys.excepthook = _excepthook
    if threading.current_thread() is threading.main_thread():
        try:
            _previous_sigterm = signal.getsignal(signal.SIGTERM)
            signal.signal(signal.SIGTERM, _on_sigterm)
        except (ValueError, OSError):
            _previous_sigterm = None


def _close_all(status: str | None = None, timeout: float = 30.0) -> None:
    for recorder in _recorders():
        recorder.close(timeout=timeout, status=status)


def _excepthook(exc_type: Any, exc: Any, tb: Any) -> None:
    if not issubclass(exc_type, KeyboardInterrupt):
        text = "".join(traceback.format_exception(exc_type, exc, tb))
        for recorder in _recorders():
            recorder._record_crash(f"{exc_type.__name__}: {exc}", text)
        _close_all()
    previous = _previous_excepthook or sys.__excepthook__
    previous(exc_type, exc, tb)


def _on_sigterm(signum: int, frame: Any) -> None:
    from .records import EventKind
    from .storage.manifest import RunStatus

    for recorder in _recorders():
        recorder.log_event(EventKind.TERMINATED, message="SIGTERM received; flushing")
    _close_all(status=RunStatus.TERMINATED, timeout=SIGTERM_BUDGET_S)
    previous = _previous_sigterm
    if callable(previous):
        previous(signum, frame)
    elif previous == signal.SIG_IGN:
        return
    else:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGTERM)


def _after_fork_in_child() -> None:
    global _lock
    _lock = threading.Lock()
    for recorder in list(_every):
        recorder._disable_after_fork()
    _handled.clear()
    _every.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)
