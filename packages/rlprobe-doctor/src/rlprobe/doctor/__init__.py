"""rlprobe's doctor: reads a recording and says what is going wrong, from which step, and why.

Everything here is read-side and never imports torch. Names are imported on first use,
so ``import rlprobe.doctor`` stays cheap.
"""
from __future__ import annotations

import importlib
from typing import Any

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


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    try:
        value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    except ModuleNotFoundError as exc:
        if exc.name != f"{__name__}.{module}":
            raise
        raise AttributeError(f"{__name__}.{name} needs {exc.name}, which is not installed") from exc
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
