"""Process-level hooks shared by all live recorders: atexit, excepthook, SIGTERM, fork.

Each hook is installed once, by the first recorder created with ``install_handlers=True``
(SIGTERM's by the first one created on the main thread, as Python requires), chains to
whatever was installed before it, and acts on every recorder that asked for handlers:

* atexit closes them (status as recorded so far, "finished" by default).
* The excepthook writes a ``crash`` event with the traceback, closes them as "crashed"
  (KeyboardInterrupt: "terminated", no crash event), then calls the previous hook.
* SIGTERM writes a ``terminated`` event and, within ``SIGTERM_BUDGET_S``, flushes and
  compacts, then behaves as the previous handler would: a Python handler is called (and
  the recorder stays open, since it may let training go on; the run closes as
  "terminated" at exit); the default action closes the recorders and kills the process
  with SIGTERM as if we had not been there. A SIGTERM that was ignored stays ignored
  (no handler is installed). A handler someone installs after us replaces ours.
* After ``fork()`` the child's recorders are disabled (see ``Recorder``).

They act on a recorder only through ``Recorder.internals`` (``RecorderInternals``).

Locks here are re-entrant because a signal handler runs on the main thread, possibly in
the middle of a call that holds them.
"""
from __future__ import annotations

import atexit
import os
import signal
import sys
import threading
import time
import traceback
import weakref
from typing import TYPE_CHECKING, Any

from .storage.manifest import RunStatus

if TYPE_CHECKING:
    from .recorder import Recorder

#: How long SIGTERM may spend flushing and compacting before the previous handler runs.
SIGTERM_BUDGET_S = 10.0
#: How long the exit handlers wait for each recorder to close.
EXIT_TIMEOUT_S = 30.0

_handled: weakref.WeakSet[Recorder] = weakref.WeakSet()
_every: weakref.WeakSet[Recorder] = weakref.WeakSet()
_lock = threading.RLock()
_installed = False
_sigterm_installed = False
_previous_excepthook: Any = None
_previous_sigterm: Any = None


def register(recorder: Recorder, install_handlers: bool) -> None:
    """Track ``recorder`` (for fork) and, if asked, put it under the exit handlers."""
    global _installed, _sigterm_installed
    with _lock:
        _every.add(recorder)
        if not install_handlers:
            return
        _handled.add(recorder)
        first = not _installed
        _installed = True
        # Signal handlers can only be installed from the main thread: a recorder made
        # elsewhere first leaves that to the next one made on the main thread.
        sigterm = not _sigterm_installed and threading.current_thread() is threading.main_thread()
        _sigterm_installed = _sigterm_installed or sigterm
    if first:
        _install_exit_hooks()
    if sigterm:
        _install_sigterm()


def unregister(recorder: Recorder) -> None:
    with _lock:
        _handled.discard(recorder)
        _every.discard(recorder)


def _recorders() -> list[Recorder]:
    with _lock:
        return list(_handled)


def _install_exit_hooks() -> None:
    global _previous_excepthook
    atexit.register(_close_all)
    _previous_excepthook = sys.excepthook
    sys.excepthook = _excepthook


def _install_sigterm() -> None:
    global _previous_sigterm
    try:
        previous = signal.getsignal(signal.SIGTERM)
        if previous == signal.SIG_IGN:
            return
        _previous_sigterm = previous
        signal.signal(signal.SIGTERM, _on_sigterm)
    except (ValueError, OSError):
        _previous_sigterm = None


def _close_all(status: str | None = None, timeout: float = EXIT_TIMEOUT_S) -> None:
    deadline = time.monotonic() + timeout
    for recorder in _recorders():
        recorder.close(timeout=max(0.0, deadline - time.monotonic()), status=status)


def _excepthook(exc_type: Any, exc: Any, tb: Any) -> None:
    try:
        if issubclass(exc_type, KeyboardInterrupt):
            _close_all(status=RunStatus.TERMINATED)
        else:
            text = "".join(traceback.format_exception(exc_type, exc, tb))
            for recorder in _recorders():
                recorder.internals.record_crash(f"{exc_type.__name__}: {exc}", text)
            _close_all()
    except Exception:  # noqa: BLE001 - the previous hook must run whatever happens here
        pass
    previous = _previous_excepthook or sys.__excepthook__
    previous(exc_type, exc, tb)


def _on_sigterm(signum: int, frame: Any) -> None:
    previous = _previous_sigterm
    deadline = time.monotonic() + SIGTERM_BUDGET_S
    recorders = _recorders()
    for recorder in recorders:
        recorder.internals.record_terminated("SIGTERM received; flushing")
    if callable(previous):
        for recorder in recorders:
            recorder.internals.sync(max(0.0, deadline - time.monotonic()), compact=True)
        previous(signum, frame)
        return
    for recorder in recorders:
        recorder.close(timeout=max(0.0, deadline - time.monotonic()))
    # The default action (or a handler installed outside Python, which we cannot call).
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    os.kill(os.getpid(), signal.SIGTERM)


def _after_fork_in_child() -> None:
    global _lock
    _lock = threading.RLock()
    for recorder in list(_every):
        recorder.internals.disable_after_fork()
    _handled.clear()
    _every.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)
