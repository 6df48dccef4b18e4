"""HaltPolicy: which findings are worth stopping a run for."""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..errors import UnusableInput
from ..findings import SEVERITIES, Finding, severity_at_least

__all__ = ["HaltPolicy"]


@dataclass(frozen=True)
class HaltPolicy:
    """Halt on findings at least ``min_severity`` with at least ``min_confidence``,
    optionally only for the signature ids in ``signatures`` (None = any).

    Conservative by default: only critical findings at ≥70% confidence, because a
    warn-level hunch must never burn a checkpoint. Arguments are checked at construction
    (``UnusableInput``, a ``ValueError``, with a one-line message); an unknown signature id
    is an error rather than a policy that silently never fires. Immutable and hashable.
    """

    min_severity: str = "critical"
    min_confidence: float = 0.7
    signatures: frozenset[str] | None = None

    def __post_init__(self) -> None:
        if self.min_severity not in SEVERITIES:
            raise UnusableInput(f"HaltPolicy min_severity must be one of {', '.join(SEVERITIES)}, "
                                f"got {self.min_severity!r}")
        confidence = self.min_confidence
        if isinstance(confidence, bool) or not isinstance(confidence, (int, float)) or not 0.0 <= confidence <= 1.0:
            raise UnusableInput(f"HaltPolicy min_confidence must be a number in [0, 1], got {confidence!r}")
        object.__setattr__(self, "min_confidence", float(confidence))
        if self.signatures is not None:
            object.__setattr__(self, "signatures", _signature_ids(self.signatures))

    def should_halt(self, finding: Finding) -> bool:
        """True when ``finding`` meets every threshold of this policy. Never raises for a Finding."""
        return (severity_at_least(finding.severity, self.min_severity)
                and finding.confidence >= self.min_confidence
                and (self.signatures is None or finding.signature_id in self.signatures))


def _signature_ids(signatures: Iterable[str]) -> frozenset[str]:
    from ..catalog import registry

    if isinstance(signatures, str) or not isinstance(signatures, Iterable):
        raise UnusableInput(f"HaltPolicy signatures must be None or a set of signature ids "
                            f"(e.g. frozenset({{'KL_BLOWUP'}})), got {signatures!r}")
    known = registry()
    ids = frozenset(str(s).upper() for s in signatures)
    unknown = sorted(ids - set(known))
    if unknown:
        raise UnusableInput(f"HaltPolicy signatures: unknown id(s) {', '.join(unknown)}; "
                            f"valid: {', '.join(sorted(known))}")
    if not ids:
        raise UnusableInput("HaltPolicy signatures is empty, so nothing could ever halt; pass None for any signature")
    return ids
