"""A progress bar on stderr for the reads that take a while: the first read of a large
foreign log (reading its bytes, then decoding them) and ``rlprobe ls --health`` over many
runs.

Code that does long work reports it to ``current()`` — ``task(what, total, unit)`` and
``advance(amount)`` — whether or not anything is shown; the commands that read logs turn the
bar on with ``shown(enabled)`` (on when stderr is a terminal and ``--quiet`` was not given).
The bar appears only once the command has run ``DELAY`` seconds (a quick command prints
nothing), redraws itself on a thread a few times a second (the work never waits on the
terminal), and is erased when the command's output comes. Not shown: a pipe, a file, CI logs.
"""
from __future__ import annotations

import contextlib
import os
import sys
import threading
import time
from collections.abc import Iterator
from typing import TextIO

__all__ = ["Progress", "current", "shown", "DELAY"]

#: Seconds a command runs before the bar appears (``RLPROBE_PROGRESS_DELAY`` overrides it).
DELAY = 1.0
_REDRAW_S = 0.2
_WIDTH = 24
_UNITS = {"bytes": (2**20, "MB")}


class Progress:
    """Where long work reports how far it got. This one shows nothing (the default sink);
    ``_Bar`` draws it. Thread-safe enough for one worker and one drawer."""

    #: Whether anything is drawn (work may skip its reports where nothing is).
    shows = False

    def task(self, what: str, total: float, unit: str = "bytes") -> None:
        """Start a piece of work: ``what`` (``reading run-x.wandb``), its ``total`` in ``unit``."""

    def advance(self, amount: float) -> None:
        """``amount`` more of the current task done (a task done to its total is erased)."""


class _Bar(Progress):
    shows = True

    def __init__(self, stream: TextIO, delay: float) -> None:
        self.stream = stream
        self.delay = delay
        self.began = time.monotonic()
        self.what, self.total, self.unit = "", 0.0, "bytes"
        self.done, self.since = 0.0, self.began
        self.drawn = False
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="rlprobe-progress", daemon=True)
        self._thread.start()

    def task(self, what: str, total: float, unit: str = "bytes") -> None:
        self.what, self.total, self.unit = what, float(total), unit
        self.done, self.since = 0.0, time.monotonic()
        if self.delay <= 0:
            self._draw()

    def advance(self, amount: float) -> None:
        self.done += amount

    def _run(self) -> None:
        if self._stop.wait(self.delay):
            return
        while not self._stop.is_set():
            self._draw()
            self._stop.wait(_REDRAW_S)

    def line(self) -> str:
        """The bar as one line: what, a bar, done of total, rate."""
        scale, name = _UNITS.get(self.unit, (1, self.unit))
        share = min(1.0, self.done / self.total) if self.total else 0.0
        filled = int(share * _WIDTH)
        elapsed = max(time.monotonic() - self.since, 1e-6)
        rate = self.done / scale / elapsed
        amount = (f"{self.done / scale:.0f}/{self.total / scale:.0f} {name}" if scale > 1
                  else f"{self.done:.0f}/{self.total:.0f} {name}")
        return (f"{self.what} [{'#' * filled}{'-' * (_WIDTH - filled)}] {amount} "
                f"{rate:.0f} {name}/s")

    def _draw(self) -> None:
        if not self.what:
            return
        finished = self.total and self.done >= self.total
        try:  # a finished task is erased, so that what the command prints next starts a clean line
            self.stream.write("\r\x1b[K" + ("" if finished else self.line()))
            self.stream.flush()
            self.drawn = not finished
        except (OSError, ValueError):
            self._stop.set()
        if finished:
            self.what = ""

    def close(self) -> None:
        self._stop.set()
        self._thread.join()
        if self.drawn:
            with contextlib.suppress(OSError, ValueError):
                self.stream.write("\r\x1b[K")
                self.stream.flush()


_NOWHERE = Progress()
_current: Progress = _NOWHERE


def current() -> Progress:
    """Where long work reports now: the bar of a command that shows one, else nowhere."""
    return _current


@contextlib.contextmanager
def shown(enabled: bool, stream: TextIO | None = None) -> Iterator[Progress]:
    """Within this block, long work draws a bar on ``stream`` (stderr) when ``enabled`` and
    the stream is a terminal; otherwise nothing is drawn. Erased on leaving."""
    global _current
    stream = stream if stream is not None else sys.stderr
    try:
        tty = stream.isatty()
    except (AttributeError, ValueError):
        tty = False
    if not enabled or not tty or _current is not _NOWHERE:
        yield _current
        return
    try:
        delay = float(os.environ.get("RLPROBE_PROGRESS_DELAY", DELAY))
    except ValueError:
        delay = DELAY
    bar = _Bar(stream, delay)
    _current = bar
    try:
        yield bar
    finally:
        _current = _NOWHERE
        bar.close()
