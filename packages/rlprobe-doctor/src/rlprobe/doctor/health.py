"""Fleet health (``rlprobe ls ROOT --health``): each run's last step and worst finding,
diagnosing only the runs that changed since the last look.

What was found is cached in a small JSON file beside the other caches, keyed by the run's
path and by what its manifest says about its content: run id, status, close time and row
counts (the writer rewrites the manifest after every part, so new rows change the key,
while an unchanged run keeps it). The listing already holds every manifest, so telling a
changed run from an unchanged one costs nothing more; a fleet of finished runs is
diagnosed once.
"""
from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from rlprobe import __version__
from rlprobe.storage.atomic import atomic_path
from rlprobe.storage.location import cache_dir

from . import progress
from .catalog import diagnose_view
from .errors import UnusableInput
from .view import RunView

__all__ = ["run_health"]

_CACHE_NAME = "runs.json"
#: Runs remembered; the least recently seen beyond this are forgotten.
_CACHED = 5000


def _key(manifest: dict[str, Any]) -> str:
    counts = manifest.get("counts") or {}
    return json.dumps([__version__, manifest.get("run_id"), manifest.get("status"), manifest.get("closed_at"),
                       counts.get("steps"), counts.get("samples"), counts.get("events")])


def _diagnosed(path: str) -> dict[str, Any]:
    try:
        view = RunView.load(path)
    except (UnusableInput, ValueError, OSError) as exc:
        return {"last_step": None, "worst": None, "error": str(exc)}
    if view.n_steps == 0:
        return {"last_step": None, "worst": None}
    findings = diagnose_view(view)
    worst = findings[0] if findings else None  # ranked most urgent first
    return {"last_step": int(view.step[-1]),
            "worst": None if worst is None else {"signature_id": worst.signature_id, "severity": worst.severity,
                                                 "first_step": worst.first_step}}


def run_health(manifests: Iterable[dict[str, Any]]) -> tuple[list[dict[str, Any]], int]:
    """For each manifest (as ``list_runs`` gives them, with ``path``): ``{"last_step",
    "worst": {"signature_id", "severity", "first_step"} | None}`` (plus ``"error"`` for a
    run that cannot be diagnosed), and how many runs were diagnosed now rather than taken
    from the cache. Never raises for a run; a cache that cannot be written is ignored."""
    path = cache_dir("health") / _CACHE_NAME
    try:
        cache: dict[str, Any] = json.loads(path.read_text())
    except (OSError, ValueError):
        cache = {}
    out, fresh = [], 0
    manifests = list(manifests)
    report = progress.current()
    report.task("diagnosing runs", len(manifests), "runs")
    for manifest in manifests:
        run, key = str(manifest["path"]), _key(manifest)
        hit = cache.pop(run, None)
        if hit is None or hit.get("key") != key:
            hit = {"key": key, **_diagnosed(run)}
            fresh += 1
        cache[run] = hit  # re-inserted: the most recently seen last
        report.advance(1)
        out.append({k: v for k, v in hit.items() if k != "key"})
    for stale in list(cache)[:max(0, len(cache) - _CACHED)]:
        del cache[stale]
    if fresh:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            with atomic_path(path, durable=False) as tmp:  # a cache: lost, it is rebuilt
                tmp.write_text(json.dumps(cache))
        except OSError:
            pass
    return out, fresh
