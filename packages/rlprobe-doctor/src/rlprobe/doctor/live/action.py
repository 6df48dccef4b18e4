"""Acting on a critical finding: a command run once, a stop file written once.

``CommandAction`` and ``StopFile`` are ``RunWatcher`` sinks behind ``rlprobe watch
--on-critical CMD`` and ``--on-critical-file PATH``. Each acts on the first finding that
reaches its ``HaltPolicy`` and never again, and neither ever raises into the watcher.

The command is the one the person running the watch typed; nothing read from the watched
log ever becomes part of it. The finding reaches it only as data: environment variables
and JSON on stdin.
"""
from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rlprobe.storage.atomic import atomic_path

from ..findings import Finding
from .policy import HaltPolicy

__all__ = ["CommandAction", "StopFile", "ActionResult", "finding_env", "finding_json"]

#: Longest a command may run before it is killed (a hung ``scancel`` must not hang the watch).
COMMAND_TIMEOUT_S = 60.0
#: Output of the command kept for the report.
_OUTPUT_MAX = 4000


def finding_json(finding: Finding, run: str) -> str:
    """The finding as ``rlprobe doctor --json`` writes one, plus the ``run`` it is about."""
    return json.dumps({"run": run, **finding.model_dump(mode="json")})


def finding_env(finding: Finding, run: str) -> dict[str, str]:
    """The finding as environment variables (``RLPROBE_*``), for a command that needs no JSON."""
    return {
        "RLPROBE_RUN": run,
        "RLPROBE_SIGNATURE": finding.signature_id,
        "RLPROBE_SEVERITY": finding.severity,
        "RLPROBE_CONFIDENCE": f"{finding.confidence:.2f}",
        "RLPROBE_FIRST_STEP": "" if finding.first_step is None else str(finding.first_step),
        "RLPROBE_EXPLANATION": finding.explanation,
    }


@dataclass(frozen=True)
class ActionResult:
    """What acting on ``finding`` did: ``exit_code`` (None when the command could not be
    started or timed out), its combined ``output``, and ``error`` saying what went wrong."""

    finding: Finding
    exit_code: int | None
    output: str = ""
    error: str | None = None


class CommandAction:
    """A sink that runs ``command`` with ``sh -c`` once, on the first finding ``policy``
    (default: ``HaltPolicy()``) would halt on: the finding in ``RLPROBE_*`` environment variables (``finding_env``) and
    as JSON on stdin (``finding_json``). Blocks while the command runs, at most ``timeout``
    seconds (then it is killed). Never raises: a command that cannot start, fails or times
    out is an ``ActionResult`` like any other, handed to ``report`` and kept in ``result``
    (a ``report`` that raises is the watcher's to warn about, as for any sink)."""

    def __init__(self, command: str, run: str, policy: HaltPolicy | None = None,
                 report: Callable[[ActionResult], Any] | None = None, timeout: float = COMMAND_TIMEOUT_S) -> None:
        self.command, self.run, self.report, self.timeout = command, run, report, timeout
        self.policy = policy or HaltPolicy()
        self.result: ActionResult | None = None

    def __call__(self, finding: Finding) -> None:
        if self.result is not None or not self.policy.should_halt(finding):
            return
        env = {**os.environ, **finding_env(finding, self.run)}
        try:
            done = subprocess.run(["/bin/sh", "-c", self.command], input=finding_json(finding, self.run),
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace",
                                  env=env, timeout=self.timeout)
            self.result = ActionResult(finding, done.returncode, done.stdout[-_OUTPUT_MAX:])
        except subprocess.TimeoutExpired as exc:
            output = exc.output if isinstance(exc.output, str) else (exc.output or b"").decode("utf-8", "replace")
            self.result = ActionResult(finding, None, output[-_OUTPUT_MAX:], f"killed after {self.timeout:g} s")
        except OSError as exc:
            self.result = ActionResult(finding, None, "", f"could not start: {exc.strerror or exc}")
        if self.report is not None:
            self.report(self.result)


class StopFile:
    """A sink that writes the first finding ``policy`` would halt on to ``path`` as JSON
    (``finding_json``), atomically (a loop checking for the file never reads half of it),
    and nothing after. Never raises: a write that fails is an ``ActionResult`` with
    ``error`` set, handed to ``report``."""

    def __init__(self, path: str | os.PathLike[str], run: str, policy: HaltPolicy | None = None,
                 report: Callable[[ActionResult], Any] | None = None) -> None:
        self.path, self.run, self.report = Path(path), run, report
        self.policy = policy or HaltPolicy()
        self.result: ActionResult | None = None

    def __call__(self, finding: Finding) -> None:
        if self.result is not None or not self.policy.should_halt(finding):
            return
        try:
            with atomic_path(self.path, durable=False) as tmp:
                tmp.write_text(finding_json(finding, self.run) + "\n")
            self.result = ActionResult(finding, 0)
        except OSError as exc:
            self.result = ActionResult(finding, None, "", f"cannot write {self.path}: {exc.strerror or exc}")
        if self.report is not None:
            self.report(self.result)
