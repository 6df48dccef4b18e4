"""Synthetic recordings: a healthy GRPO-like run, or one with a pathology injected at a
known onset, written through the real Recorder (``rlprobe synth``).

Pathologies register with ``@pathology("name")`` in the modules of this package; each
one edits a ``SynthPlan`` (metric curves and per-step sample "modes") from its onset on.
"""
from .plan import SynthPlan, generate, pathologies, pathology

__all__ = ["SynthPlan", "generate", "pathologies", "pathology"]
