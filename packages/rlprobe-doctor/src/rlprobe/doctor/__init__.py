"""rlprobe's doctor: reads a recording and says what is going wrong, from which step, and why.

Everything here is read-side and never imports torch. Names are imported on first use,
so ``import rlprobe.doctor`` stays cheap.
"""
from __future__ import annotations

from rlprobe.lazy import lazy_exports

_EXPORTS = {
    "diagnose": "catalog",
    "diagnose_view": "catalog",
    "RunView": "view",
    "Finding": "findings",
    "Evidence": "findings",
    "RunWatcher": "live",
    "HaltPolicy": "live",
    "webhook_sink": "live",
    "render_report": "report",
    "diff_runs": "diff",
    "RunDiff": "diff",
    "query_samples": "forensics",
    "spike_drivers": "forensics",
    "UnusableInput": "errors",
    "ConfigError": "errors",
}

__all__ = sorted(_EXPORTS)

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals())
