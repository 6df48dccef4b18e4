"""HaltJudge: whether a run being watched should stop now, asked at each look.

A ``RunWatcher`` reports a signature once, and again only when its severity rises. A finding
a policy turns down only for want of confidence would then never be asked about again, while
the doctor may grow surer of it as the run goes on. So the judge keeps such findings (the
hopefuls) and, while one exists, diagnoses the run read so far at each look and asks the
policy again. Every loop that halts a run on a finding (the TRL callback's ``LiveDoctor``, a
future adapter for another trainer) asks a judge rather than keeping its own copy of this.
"""
from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from typing import Any

from rlprobe import RlprobeWarning

from ..catalog import diagnose_view
from ..findings import Finding
from ..view import RunView

__all__ = ["HaltJudge"]


class HaltJudge:
    """Asks ``policy`` (anything with ``should_halt(finding)``, e.g. ``HaltPolicy``) about
    each look's findings. ``config`` (shaped like ``doctor.toml``) is the one the watcher
    diagnoses with, used again for the second look. Never raises: a policy or diagnosis that
    raises costs one ``RlprobeWarning`` (per kind of failure) and counts as "do not halt"."""

    def __init__(self, policy: Any, config: Mapping[str, Any] | None = None) -> None:
        self.policy = policy
        self._config = dict(config) if config is not None else None
        self._hopefuls: dict[str, Finding] = {}
        self._warned: set[str] = set()

    def verdict(self, new: Sequence[Finding], view: RunView | None) -> Finding | None:
        """The finding that halts the run now, or None: a hopeful the policy now accepts, as
        the run looks in ``view`` (the watcher's), else the first of the watcher's ``new``
        findings (most urgent first) it accepts."""
        return self._second_look(view) or self._first_look(new)

    def _first_look(self, new: Sequence[Finding]) -> Finding | None:
        for finding in new:
            if self._halts(finding):
                return finding
            if self._halts(finding.model_copy(update={"confidence": 1.0})):
                self._hopefuls[finding.signature_id] = finding
        return None

    def _second_look(self, view: RunView | None) -> Finding | None:
        """Costs a diagnosis of the run read so far, and only while a hopeful exists (rare: a
        finding severe enough to halt but not yet sure enough)."""
        if not self._hopefuls or view is None:
            return None
        try:
            current = diagnose_view(view, self._config, live=True)
        except Exception as exc:  # noqa: BLE001 - the run goes on whatever the doctor does
            self._warn("diagnosis", f"rlprobe: live diagnosis failed ({exc!r}); training continues")
            return None
        for finding in current:
            if finding.signature_id in self._hopefuls and self._halts(finding):
                return finding
        return None

    def _halts(self, finding: Finding) -> bool:
        try:
            return bool(self.policy.should_halt(finding))
        except Exception as exc:  # noqa: BLE001 - a user's policy may raise anything
            self._warn("policy", f"rlprobe: halt policy raised {exc!r}; treated as 'do not halt'")
            return False

    def _warn(self, key: str, message: str) -> None:
        if key not in self._warned:
            self._warned.add(key)
            warnings.warn(message, RlprobeWarning, stacklevel=3)
