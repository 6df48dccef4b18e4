"""Helpers for the recorder's tests: child processes and quick reads of a run directory."""
from __future__ import annotations

import os
import select
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from rlprobe.storage import RunReader

CHILD = Path(__file__).with_name("child.py")


class Child:
    """A scenario from ``child.py`` running in its own process, read line by line."""

    def __init__(self, *args: str, prefix: list[str] | None = None) -> None:
        self.proc = subprocess.Popen([*(prefix or []), sys.executable, str(CHILD), *args],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.lines: list[str] = []

    def wait_for(self, word: str, timeout: float = 30.0) -> str:
        """Read stdout until a line starting with ``word``; returns that line."""
        deadline = time.monotonic() + timeout
        assert self.proc.stdout is not None
        while time.monotonic() < deadline:
            ready, _, _ = select.select([self.proc.stdout], [], [], 0.1)
            if not ready:
                if self.proc.poll() is not None:
                    break
                continue
            line = self.proc.stdout.readline()
            if not line:
                break
            self.lines.append(line.strip())
            if line.startswith(word):
                return line.strip()
        raise AssertionError(f"child never said {word!r}; said {self.lines[-5:]}; stderr: {self.stderr()}")

    def read_available(self) -> None:
        """Take whatever lines are already there without waiting."""
        assert self.proc.stdout is not None
        while select.select([self.proc.stdout], [], [], 0)[0]:
            line = self.proc.stdout.readline()
            if not line:
                return
            self.lines.append(line.strip())

    def signal(self, signum: int) -> None:
        os.kill(self.proc.pid, signum)

    def wait(self, timeout: float = 30.0) -> int:
        return self.proc.wait(timeout)

    def stderr(self) -> str:
        if self.proc.poll() is None or self.proc.stderr is None:
            return "<running>"
        return self.proc.stderr.read()[-3000:]

    def finish(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(10)
        for stream in (self.proc.stdout, self.proc.stderr):
            if stream is not None:
                stream.close()


def steps_of(run: Path) -> list[int]:
    return RunReader(run).steps().column("step").to_pylist()


def events_of(run: Path, kind: str | None = None) -> list[dict[str, Any]]:
    events = RunReader(run).events()
    return [e for e in events if kind is None or e["kind"] == kind]


def parts_left(run: Path) -> list[str]:
    parts = run / "parts"
    return sorted(p.name for p in parts.iterdir()) if parts.exists() else []
