"""What the doctor says: a Finding, with its evidence, and how findings are ranked."""
from __future__ import annotations

from typing import Iterable, Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["Finding", "Evidence", "Severity", "SEVERITIES", "rank_findings", "severity_at_least"]

Severity = Literal["info", "warn", "critical"]
#: Severities from least to most urgent.
SEVERITIES: tuple[str, ...] = ("info", "warn", "critical")


def severity_at_least(severity: str, floor: str) -> bool:
    return SEVERITIES.index(severity) >= SEVERITIES.index(floor)


class Evidence(BaseModel):
    """One measured fact behind a finding."""

    model_config = ConfigDict(frozen=True)

    metric: str
    """The metric (steps column or sample field) the fact is about."""
    window: tuple[int, int]
    """First and last step of the window the observation covers."""
    baseline: float | None = None
    """What the metric looked like before (robust level of the reference window)."""
    observed: float | None = None
    """What it looks like in ``window``."""
    note: str = ""
    """How baseline and observed were computed, when not obvious."""


class Finding(BaseModel):
    """A diagnosis: one pathology signature seen in a run, with its evidence.

    Its JSON (``model_dump(mode="json")``) is the ``rlprobe doctor --json`` output.
    """

    signature_id: str
    """Catalog id, e.g. ``KL_BLOWUP``."""
    severity: Severity
    """``info`` (worth knowing), ``warn`` (act soon) or ``critical`` (the run is failing)."""
    confidence: float = Field(ge=0.0, le=1.0)
    """How sure the detector is, 0–1; grows with the strength of the evidence."""
    first_step: int | None
    """The step the pathology began (its onset), not the step it was noticed."""
    explanation: str
    """One or two sentences with the numbers in them."""
    evidence: list[Evidence] = Field(default_factory=list)
    """The measurements behind the explanation."""
    suggested_actions: list[str] = Field(default_factory=list)
    """Concrete next steps, naming trainer knobs where they exist."""
    links_to_samples: list[str] = Field(default_factory=list)
    """``sample_id`` of captured samples that show the pathology, most telling first."""


def rank_findings(findings: Iterable[Finding]) -> list[Finding]:
    """Most severe first, then most confident, then earliest onset."""
    return sorted(
        findings,
        key=lambda f: (-SEVERITIES.index(f.severity), -f.confidence,
                       f.first_step if f.first_step is not None else float("inf"), f.signature_id),
    )
