"""Which captured samples the report shows: best and worst by reward at the key steps,
the spike drivers of each critical finding, and the samples each finding links to.

Text is cut to a bounded length so one runaway completion cannot bloat the report; the
cut is marked. Nothing here escapes anything: the template does, at the last moment.
"""
from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import numpy as np
import polars as pl

from ..errors import UnusableInput
from ..findings import Finding
from ..view import RunView

__all__ = ["key_step_samples", "spike_driver_samples", "linked_samples", "MAX_TEXT"]

#: Characters of prompt/completion kept per sample (the rest is counted, not shown).
MAX_TEXT = 4000
#: Best and worst samples shown per key step.
PER_SIDE = 3
MAX_KEY_STEPS = 8
DRIVER_WINDOW, DRIVER_K = 5, 8
_COLUMNS = ("step", "sample_id", "prompt_id", "group_id", "reward", "advantage", "kl", "logprob",
            "entropy", "length", "truncated", "share", "reward_components", "prompt", "completion")


def key_step_samples(view: RunView, findings: list[Finding]) -> list[dict[str, Any]]:
    """Best and worst ``PER_SIDE`` samples by reward at the first and last captured steps
    and at each finding's onset (the nearest captured step to it), in step order."""
    samples = view.samples
    if samples.is_empty() or "reward" not in samples.columns:
        return []
    captured = np.unique(samples["step"].to_numpy())
    wanted = {int(captured[0]): "first captured step", int(captured[-1]): "last captured step"}
    for finding in findings:
        if finding.first_step is None:
            continue
        nearest = int(captured[np.argmin(np.abs(captured - finding.first_step))])
        wanted[nearest] = f"onset of {finding.signature_id}" if nearest not in wanted \
            else f"{wanted[nearest]}; onset of {finding.signature_id}"
    groups = []
    for step in sorted(wanted)[:MAX_KEY_STEPS]:
        at = samples.filter((pl.col("step") == step) & pl.col("reward").is_not_null() & pl.col("reward").is_not_nan())
        ranked = at.sort("reward", descending=True)
        worst = ranked.tail(min(PER_SIDE, max(0, ranked.height - PER_SIDE)))
        # Reversed as dicts: polars panics reversing an all-null Map column (reward_components).
        groups.append({"step": step, "why": wanted[step], "best": _rows(ranked.head(PER_SIDE)),
                       "worst": _rows(worst)[::-1]})
    return groups


def spike_driver_samples(view: RunView, findings: list[Finding]) -> list[dict[str, Any]]:
    """For each critical finding with an onset, the samples that drove the update there."""
    return [{"finding": f.signature_id, "step": f.first_step, "samples": _drivers(view, f.first_step)}
            for f in findings if f.severity == "critical" and f.first_step is not None]


def linked_samples(view: RunView, finding: Finding) -> list[dict[str, Any]]:
    """The captured samples named in ``finding.links_to_samples``, in that order."""
    if not finding.links_to_samples or view.samples.is_empty():
        return []
    order = {sid: i for i, sid in enumerate(finding.links_to_samples)}
    found = view.samples.filter(pl.col("sample_id").is_in(list(order)))
    return sorted(_rows(found), key=lambda r: order.get(r["sample_id"], len(order)))


def _drivers(view: RunView, step: int) -> list[dict[str, Any]]:
    try:
        from ..forensics import spike_drivers
    except ImportError:
        # Without forensics: the window's samples by |advantage|, the policy-gradient weight.
        window = view.samples_between(step - DRIVER_WINDOW, step + DRIVER_WINDOW)
        if window.is_empty() or "advantage" not in window.columns:
            return []
        return _rows(window.filter(pl.col("advantage").is_finite())
                     .sort(pl.col("advantage").abs(), descending=True).head(DRIVER_K))
    try:
        return _rows(spike_drivers(view, step, window=DRIVER_WINDOW, k=DRIVER_K))
    except UnusableInput:  # e.g. no samples captured near the step: nothing to show
        return []


def _rows(found: pl.DataFrame) -> list[dict[str, Any]]:
    """Sample rows as plain dicts with the columns the template shows, text cut to size."""
    records = found.select([c for c in _COLUMNS if c in found.columns]).to_dicts()
    return [{**{c: r.get(c) for c in _COLUMNS},
             "prompt": _cut(r.get("prompt")), "completion": _cut(r.get("completion")),
             "reward_components": _components(r.get("reward_components"))} for r in records]


def _cut(text: Any) -> dict[str, Any]:
    s = "" if text is None else str(text)
    return {"text": s[:MAX_TEXT], "omitted": max(0, len(s) - MAX_TEXT)}


def _components(value: Any) -> list[tuple[str, Any]]:
    """Reward components arrive as a mapping, key/value structs or a JSON string."""
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError:
            return [("", value)]
    if isinstance(value, Mapping):
        return [(str(k), v) for k, v in value.items() if v is not None]
    if isinstance(value, list):  # a Map column read as a list of key/value structs
        return [(str(c.get("key")), c.get("value")) for c in value if isinstance(c, Mapping)]
    return []
