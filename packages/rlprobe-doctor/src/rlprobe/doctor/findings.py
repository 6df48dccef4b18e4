"""What the doctor says: a Finding, with its evidence, and how findings are ranked."""
from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["CAUSAL_ORDER", "Finding", "Evidence", "Severity", "SEVERITIES", "rank_findings", "severity_at_least"]

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


#: Signatures from causes to symptoms: where two findings of equal severity begin at the
#: same step, the one listed first is the likelier cause (a length explosion truncates
#: completions; an entropy collapse makes groups agree; a reward collapse follows them all).
CAUSAL_ORDER: tuple[str, ...] = (
    "NONFINITE_VALUES", "ADVANTAGE_OUTLIERS", "LOGPROB_MISMATCH", "VALUE_LOSS_DIVERGENCE", "KL_BLOWUP",
    "CLIP_RATIO_HIGH", "GRAD_NORM_SPIKE", "REWARD_HACKING", "ENTROPY_COLLAPSE", "ENTROPY_EXPLOSION",
    "LENGTH_EXPLOSION", "LENGTH_COLLAPSE", "REPETITIVE_COMPLETIONS", "GROUP_MODE_COLLAPSE", "TRUNCATION_HIGH",
    "ZERO_ADVANTAGE_GROUPS", "REWARD_COLLAPSE", "REWARD_PLATEAU", "RECORDING_GAPS", "RUN_STALLED",
)


#: Onsets this close (steps, or this share of the later onset) are the same onset: each
#: detector dates a change from its own smoothed curve, a few steps apart.
ONSET_TIE, ONSET_TIE_SHARE = 5, 0.02


def rank_findings(findings: Iterable[Finding]) -> list[Finding]:
    """Most severe first; at equal severity the cause before its symptoms: earliest onset
    first, then — among onsets within ``ONSET_TIE`` steps (or ``ONSET_TIE_SHARE``) of the
    earliest of them — the signature earlier in ``CAUSAL_ORDER``, then most confident."""
    order = {sid: i for i, sid in enumerate(CAUSAL_ORDER)}
    by_onset = sorted(findings, key=lambda f: (f.first_step is None, f.first_step or 0))
    cluster: dict[int, int] = {}
    start: int | None = None
    for f in by_onset:
        if f.first_step is None:
            cluster[id(f)] = 1 << 62
            continue
        if start is None or f.first_step > start + max(ONSET_TIE, ONSET_TIE_SHARE * f.first_step):
            start = f.first_step
        cluster[id(f)] = start
    return sorted(
        by_onset,
        key=lambda f: (-SEVERITIES.index(f.severity), cluster[id(f)], order.get(f.signature_id, len(order)),
                       -f.confidence, f.signature_id),
    )
