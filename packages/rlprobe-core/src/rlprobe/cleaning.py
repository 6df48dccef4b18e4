"""Turning whatever the training loop logged into clean values (runs on the writer thread).

Nothing here raises on bad input: what cannot be kept is reported to a ``Problems``
collector, which the recorder turns into ``bad_record`` events. A foreign object may raise
anything from ``__float__``, ``__index__``, ``__str__`` or ``items()`` (a CUDA tensor after a
device-side assert raises from all of them), so each such call is guarded where it is made
and costs that value, that sample or that row's step, never its neighbours.
"""
from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from .records import SAMPLE_FIELDS, SAMPLE_KINDS, SampleRecord, canonical_metric
from .storage.manifest import json_safe

#: Internal column ordering buffered steps on the writer thread; never on disk.
INDEX_COLUMN = "__rlprobe_index"
#: Column names a metric may not take.
RESERVED_METRICS = frozenset({"step", "time", "rank", "_part", INDEX_COLUMN})
#: Longest metric name kept, in characters.
MAX_NAME_CHARS = 256
#: Deepest nesting of metric dicts that is flattened (``a/b/c/...``).
MAX_DEPTH = 8
#: Longest prompt/completion kept, in characters; longer texts are clipped with a marker.
MAX_TEXT_CHARS = 200_000
#: Distinct kinds of problem reported per flush; the rest are summed into one event.
MAX_PROBLEM_KINDS = 50

_INT64 = (-(2**63), 2**63 - 1)
_SAMPLE_RECORD_FIELDS = (*SAMPLE_FIELDS, "extra")
_NOT_NUMBERS = (str, bytes, bytearray, Mapping, list, tuple, set, frozenset)


class Problems:
    """Bad values seen since the last flush, grouped by what was wrong (one event per kind,
    with a count, the first steps it happened at and one example)."""

    __slots__ = ("_kinds",)

    def __init__(self) -> None:
        self._kinds: dict[str, list[Any]] = {}

    def add(self, summary: str, step: int | None, example: Any = None) -> None:
        entry = self._kinds.get(summary)
        if entry is None:
            self._kinds[summary] = [1, [step], None if example is None else preview(example, 200)]
        else:
            entry[0] += 1
            if len(entry[1]) < 20:
                entry[1].append(step)

    def merge(self, other: Problems) -> None:
        """Add ``other``'s problems to these."""
        for summary, (count, steps, example) in other._kinds.items():
            entry = self._kinds.get(summary)
            if entry is None:
                self._kinds[summary] = [count, list(steps), example]
            else:
                entry[0] += count
                entry[1].extend(steps[: 20 - len(entry[1])])

    def __bool__(self) -> bool:
        return bool(self._kinds)

    def total(self) -> int:
        return sum(entry[0] for entry in self._kinds.values())

    def events(self) -> list[tuple[str, int | None, dict[str, Any]]]:
        """``(message, step, data)`` for each kind of problem, at most ``MAX_PROBLEM_KINDS``
        plus one summing up the rest."""
        out = []
        items = list(self._kinds.items())
        for summary, (count, steps, example) in items[:MAX_PROBLEM_KINDS]:
            data: dict[str, Any] = {"count": count, "steps": steps}
            if example is not None:
                data["example"] = example
            out.append((summary, steps[0], data))
        rest = items[MAX_PROBLEM_KINDS:]
        if rest:
            out.append((f"{len(rest)} more kinds of bad values", None,
                        {"count": sum(entry[0] for _, entry in rest), "kinds": [s for s, _ in rest[:20]]}))
        return out

    def clear(self) -> None:
        self._kinds.clear()


def to_float(value: Any) -> float | None:
    """A metric value as a float, or ``None`` for None. Raises TypeError otherwise.

    NaN and infinities are data and kept; bools count as 0/1; numpy and torch scalars
    (0-d arrays and tensors included) work; arrays with elements are refused.
    """
    kind = type(value)
    if kind is float:
        same: float = value  # a plain float: no conversion on the hot path
        return same
    if kind is int or kind is bool:
        try:
            return float(value)
        except OverflowError:
            raise TypeError(f"is an int too large for a float ({preview(value)})") from None
    if value is None:
        return None
    try:
        if isinstance(value, _NOT_NUMBERS):
            reason = ", not a number"
        else:
            ndim = getattr(value, "ndim", 0)
            if not (isinstance(ndim, int) and ndim > 0):
                return float(value)
            reason = f" of shape {preview(tuple(getattr(value, 'shape', ())))}, not a scalar"
    except Exception as exc:  # noqa: BLE001 - whatever a foreign __float__ (or __class__, shape) raises
        reason = f", not a number ({describe_error(exc)})"
    raise TypeError(f"is a {kind.__name__}{reason}")


def to_step(value: Any) -> int:
    """A step number (or length) as an int64; raises TypeError for anything that is not a
    whole number in range."""
    number: int | float
    if type(value) is int:
        number = value
    elif isinstance(value, bool) or value is None or isinstance(value, (str, bytes)):
        raise TypeError(f"{preview(value)} is not an integer")
    else:
        try:
            number = int(value.__index__()) if hasattr(value, "__index__") else float(value)
        except Exception as exc:  # noqa: BLE001 - whatever a foreign __index__/__float__ raises
            raise TypeError(f"{preview(value)} is not an integer ({describe_error(exc)})") from None
        if type(number) is float:
            if not number.is_integer():
                raise TypeError(f"{preview(value)} is not a whole number")
            number = int(number)
    if not _INT64[0] <= number <= _INT64[1]:
        raise TypeError(f"{preview(value)} does not fit in int64")
    return int(number)


def metric_column(name: Any) -> str:
    """The column a metric name is stored under; raises TypeError for a name that cannot
    be a column (reserved, too long, not valid Unicode, or ``str()`` fails on it)."""
    key = canonical_metric(as_text(name))
    if key in RESERVED_METRICS:
        raise TypeError(f"metric name {key!r} is reserved")
    if len(key) > MAX_NAME_CHARS:
        raise TypeError(f"metric name {preview(key)} is longer than {MAX_NAME_CHARS} characters")
    try:
        key.encode("utf-8")
    except UnicodeEncodeError:
        raise TypeError(f"metric name {key.encode('utf-8', 'replace').decode()!r} is not valid Unicode") from None
    return key


def flatten_metric(name: Any, value: Any, out: dict[str, float | None], problems: Problems, step: int | None,
                   prefix: str = "", depth: int = 0) -> None:
    """Put one logged metric into ``out`` (column → float), flattening nested dicts into
    ``parent/child`` names. What cannot be kept becomes a problem."""
    try:
        full = prefix + as_text(name)
    except TypeError as exc:
        where = f" in {preview(prefix[:-1])}" if prefix else ""
        problems.add(f"log_step: a metric name{where} is {exc}; value dropped", step)
        return
    try:
        mapping = isinstance(value, Mapping)
    except Exception as exc:  # noqa: BLE001 - a foreign object's __class__ may raise anything
        problems.add(f"log_step: metric {preview(full, 60)} is a {type(value).__name__} that cannot be read "
                     f"({describe_error(exc)}); value dropped", step)
        return
    if mapping:
        if depth >= MAX_DEPTH:
            problems.add(f"log_step: metric {preview(full)} nests deeper than {MAX_DEPTH} levels; dropped", step)
            return
        try:
            children = list(value.items())
        except Exception as exc:  # noqa: BLE001 - a foreign mapping's items() may raise anything
            problems.add(f"log_step: metric {preview(full)} is a {type(value).__name__} whose items() fails "
                         f"({describe_error(exc)}); dropped", step)
            return
        for child, child_value in children:
            flatten_metric(child, child_value, out, problems, step, full + "/", depth + 1)
        return
    try:
        key = metric_column(full)
    except TypeError as exc:
        problems.add(f"log_step: {exc}; value dropped", step)
        return
    try:
        out[key] = to_float(value)
    except TypeError as exc:
        problems.add(f"log_step: metric {preview(key, 60)} {exc}; value dropped", step, value)


def clean_text(value: Any) -> tuple[str | None, int | None]:
    """A prompt/completion as text (chat message lists become JSON) and its original
    length when it had to be clipped."""
    if value is None:
        return None, None
    if type(value) is str:
        text = value
    elif isinstance(value, (bytes, bytearray)):
        text = bytes(value).decode("utf-8", errors="replace")
    elif isinstance(value, str):
        text = str(value)
    else:
        text = json.dumps(json_safe(value), ensure_ascii=False)
    if len(text) > MAX_TEXT_CHARS:
        return text[:MAX_TEXT_CHARS] + f"…[clipped {len(text) - MAX_TEXT_CHARS} chars]", len(text)
    return text, None


def clean_sample(raw: Any, step: int, rank: int, problems: Problems) -> dict[str, Any] | None:
    """One sample (dict or SampleRecord) → a row for the samples table, or None if unusable."""
    if isinstance(raw, SampleRecord):
        raw = {name: getattr(raw, name) for name in _SAMPLE_RECORD_FIELDS}
    if not isinstance(raw, Mapping):
        problems.add(f"log_samples: a sample is a {type(raw).__name__}, not a dict or SampleRecord; dropped",
                     step, raw)
        return None
    try:
        items = list(raw.items())
    except Exception as exc:  # noqa: BLE001 - a foreign mapping's items() may raise anything
        problems.add(f"log_samples: a sample is a {type(raw).__name__} whose items() fails "
                     f"({describe_error(exc)}); dropped", step)
        return None
    row: dict[str, Any] = {"step": step, "rank": rank}
    extra: dict[str, Any] = {}
    for name, value in items:
        try:
            key = as_text(name)
        except TypeError as exc:
            problems.add(f"log_samples: a sample field name is {exc}; value dropped", step)
            continue
        kind = SAMPLE_KINDS.get(key)
        try:
            if kind == "text":
                row[key], clipped = clean_text(value)
                if clipped is not None:
                    extra[f"{key}_chars"] = clipped
            elif kind == "float":
                row[key] = to_float(value)
            elif kind == "id":
                row[key] = None if value is None else clean_text(value)[0]
            elif kind == "int":
                row[key] = None if value is None else to_step(value)
            elif kind == "bool":
                row[key] = None if value is None else _to_bool(value)
            elif kind == "components":
                if value is not None:
                    row[key] = _clean_components(value, problems, step)
            elif key == "extra":
                if isinstance(value, Mapping):
                    extra.update({str(k): v for k, v in value.items()})
                elif value is not None:
                    extra["extra"] = value
            elif key not in ("step", "rank"):
                extra[key] = value
        except TypeError as exc:
            problems.add(f"log_samples: sample field {preview(key)} {exc}; value dropped", step, value)
        except Exception as exc:  # noqa: BLE001 - what a foreign str subclass or mapping raises
            problems.add(f"log_samples: sample field {preview(key)} is a {type(value).__name__} that cannot be "
                         f"read ({describe_error(exc)}); value dropped", step, value)
    if extra:
        row["extra"] = json.dumps(json_safe(extra), ensure_ascii=False)
    return row


def _to_bool(value: Any) -> bool:
    if isinstance(value, str):
        lowered = value.strip().lower()
        if lowered in ("true", "1", "yes"):
            return True
        if lowered in ("false", "0", "no", ""):
            return False
        raise TypeError(f"is the str {preview(value)}, not a bool")
    number = to_float(value)
    if number is None or number != number:
        raise TypeError(f"is {preview(value)}, not a bool")
    return bool(number)


def _clean_components(value: Any, problems: Problems, step: int) -> list[tuple[str, float | None]] | None:
    if not isinstance(value, Mapping):
        raise TypeError(f"is a {type(value).__name__}, not a dict")
    parts = []
    for name, component in list(value.items()):
        try:
            key = as_text(name)
        except TypeError as exc:
            problems.add(f"log_samples: a reward component name is {exc}; value dropped", step)
            continue
        try:
            parts.append((key, to_float(component)))
        except TypeError as exc:
            problems.add(f"log_samples: reward component {preview(key)} {exc}; value dropped", step, component)
    return parts


def as_text(name: Any) -> str:
    """A mapping key (or an event's kind or message) as a plain ``str``; raises TypeError
    when ``str()`` fails on it."""
    if type(name) is str:
        return name
    try:
        text = str(name)
    except Exception as exc:  # noqa: BLE001 - a foreign __str__ may raise anything
        raise TypeError(f"a {type(name).__name__} whose str() fails ({describe_error(exc)})") from None
    # A str subclass could carry its own __hash__/__eq__ into the column lookups.
    return str.__str__(text)


def describe_error(exc: BaseException, limit: int = 120) -> str:
    """An exception's text for a message (its type's name if even ``str()`` fails on it)."""
    try:
        text = str(exc) or type(exc).__name__
    except Exception:  # noqa: BLE001 - an exception can carry a hostile object too
        text = type(exc).__name__
    return text if len(text) <= limit else text[: limit - 1] + "…"


def preview(value: Any, limit: int = 40) -> str:
    """A short, printable repr for messages."""
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 - a broken __repr__ must not break recording
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 1] + "…"
