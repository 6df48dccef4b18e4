"""Turning whatever the training loop logged into clean rows (runs on the writer thread).

Nothing here raises on bad input: each function returns what it could keep plus a list
of problems, which the recorder writes as ``bad_record`` events.
"""
from __future__ import annotations

import json
from dataclasses import fields
from typing import Any, Mapping

from .records import SampleRecord, canonical_metric
from .storage.manifest import json_safe

#: Column names a metric may not take.
RESERVED_METRICS = frozenset({"step", "time", "rank", "_part"})
#: Longest prompt/completion kept, in characters; longer texts are clipped with a marker.
MAX_TEXT_CHARS = 200_000

_FLOAT_SAMPLE_KEYS = frozenset({"reward", "advantage", "logprob", "ref_logprob", "kl", "entropy"})
_ID_SAMPLE_KEYS = frozenset({"sample_id", "prompt_id", "group_id"})
_TEXT_SAMPLE_KEYS = frozenset({"prompt", "completion"})
_SAMPLE_RECORD_FIELDS = tuple(f.name for f in fields(SampleRecord))


def to_float(value: Any) -> float | None:
    """A metric value as a float, or ``None`` for None. Raises TypeError/ValueError otherwise.

    NaN and infinities are data and kept; bools count as 0/1; numpy and torch scalars work.
    """
    kind = type(value)
    if kind is float:
        return value
    if kind is int or kind is bool:
        return float(value)
    if value is None:
        return None
    if isinstance(value, (str, bytes)):
        raise TypeError(f"is a {kind.__name__} ({_preview(value)}), not a number")
    try:
        return float(value)
    except (TypeError, ValueError, OverflowError) as exc:
        raise TypeError(f"is a {kind.__name__}, not a number ({exc})") from None


def to_step(value: Any) -> int:
    """A step number as an int; raises TypeError/ValueError for anything that is not a whole number."""
    if type(value) is int:
        return value
    if isinstance(value, bool) or value is None or isinstance(value, (str, bytes)):
        raise TypeError(f"step {_preview(value)} is not an integer")
    if hasattr(value, "__index__"):
        return int(value.__index__())
    as_float = float(value)
    if not as_float.is_integer():
        raise ValueError(f"step {value!r} is not a whole number")
    return int(as_float)


def clean_metrics(metrics: Mapping[Any, Any], out: dict[str, Any], problems: list[str], prefix: str = "") -> None:
    """Flatten ``metrics`` into ``out`` (nested dicts join keys with ``/``), mapping trainer
    spellings to known fields. Values that are not numbers become problems."""
    for name, value in metrics.items():
        key = canonical_metric(prefix + str(name))
        if isinstance(value, Mapping):
            clean_metrics(value, out, problems, key + "/")
            continue
        if key in RESERVED_METRICS:
            problems.append(f"metric name {key!r} is reserved")
            continue
        try:
            out[key] = to_float(value)
        except TypeError as exc:
            problems.append(f"metric {key!r} {exc}")


def clean_text(value: Any) -> tuple[str | None, int | None]:
    """A prompt/completion as text (chat message lists become JSON) and its original
    length when it had to be clipped."""
    if value is None:
        return None, None
    if isinstance(value, bytes):
        text = value.decode("utf-8", errors="replace")
    elif isinstance(value, str):
        text = value
    else:
        text = json.dumps(json_safe(value), ensure_ascii=False)
    if len(text) > MAX_TEXT_CHARS:
        return text[:MAX_TEXT_CHARS] + f"…[clipped {len(text) - MAX_TEXT_CHARS} chars]", len(text)
    return text, None


def clean_sample(raw: Any, step: int, rank: int, problems: list[str]) -> dict[str, Any] | None:
    """One sample (dict or SampleRecord) → a row for the samples table, or None if unusable."""
    if isinstance(raw, SampleRecord):
        raw = {name: getattr(raw, name) for name in _SAMPLE_RECORD_FIELDS}
    if not isinstance(raw, Mapping):
        problems.append(f"sample is a {type(raw).__name__}, not a dict or SampleRecord")
        return None
    row: dict[str, Any] = {"step": step, "rank": rank}
    extra: dict[str, Any] = {}
    for name, value in raw.items():
        key = str(name)
        try:
            if key in _FLOAT_SAMPLE_KEYS:
                row[key] = to_float(value)
            elif key in _TEXT_SAMPLE_KEYS:
                row[key], clipped = clean_text(value)
                if clipped is not None:
                    extra[f"{key}_chars"] = clipped
            elif key in _ID_SAMPLE_KEYS:
                row[key] = None if value is None else str(value)
            elif key == "length":
                row[key] = None if value is None else to_step(value)
            elif key == "truncated":
                row[key] = None if value is None else bool(value)
            elif key == "reward_components":
                if value is not None:
                    row[key] = _clean_components(value, problems)
            elif key == "extra":
                if isinstance(value, Mapping):
                    extra.update({str(k): v for k, v in value.items()})
                elif value is not None:
                    extra["extra"] = value
            elif key in ("step", "rank"):
                continue
            else:
                extra[key] = value
        except (TypeError, ValueError, OverflowError) as exc:
            problems.append(f"sample field {key!r}: {exc}")
    if extra:
        row["extra"] = json.dumps(json_safe(extra), ensure_ascii=False)
    return row


def _clean_components(value: Any, problems: list[str]) -> list[tuple[str, float | None]] | None:
    if not isinstance(value, Mapping):
        problems.append(f"reward_components is a {type(value).__name__}, not a dict")
        return None
    parts = []
    for name, component in value.items():
        try:
            parts.append((str(name), to_float(component)))
        except TypeError as exc:
            problems.append(f"reward component {str(name)!r} {exc}")
    return parts


def _preview(value: Any, limit: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"
