"""Per-detector configuration: code defaults, overridden by ``doctor.toml`` or a dict.

    # doctor.toml — one table per detector, named by signature id (any case)
    [kl_blowup]
    level = 0.5          # any key the detector declares
    [reward_plateau]
    enabled = false

    # the run's own names for the quantities the doctor reads (a training loop of one's own)
    [metrics]
    reward = "average_reward"
    kl = "kl_divergence"

An unknown detector or key is an error that names the valid ones.
"""
from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping, Sequence
from typing import Any

from rlprobe.records import METRIC_ALIASES, STEP_FIELDS, canonical_metric

from .errors import ConfigError

__all__ = ["METRICS_TABLE", "load_config", "metric_map", "metric_options", "resolve_config", "split_metrics"]

#: The ``doctor.toml`` table mapping quantities to the names a run logged them under.
METRICS_TABLE = "metrics"
#: Quantities a ``[metrics]`` table or ``--metric`` may name: the known fields and their
#: plain spellings (``reward``, ``kl``, ``entropy``, ``lr``).
QUANTITIES = frozenset(STEP_FIELDS) | {k for k, v in METRIC_ALIASES.items() if "/" not in k and v in STEP_FIELDS}


def metric_map(spec: Mapping[str, Any] | None) -> dict[str, str]:
    """``{column: name logged}`` from a ``[metrics]`` table's ``{quantity: name logged}``
    (``{"reward": "average_reward"}`` → ``{"reward_mean": "average_reward"}``). Raises
    ``ConfigError`` for a quantity the doctor does not read or a name that is not text."""
    out: dict[str, str] = {}
    for quantity, name in (spec or {}).items():
        if str(quantity) not in QUANTITIES:
            raise ConfigError(f"[{METRICS_TABLE}] cannot map {quantity!r}: not a quantity the doctor reads; "
                              f"map one of: {', '.join(sorted(QUANTITIES))}")
        if not isinstance(name, str) or not name.strip():
            raise ConfigError(f"[{METRICS_TABLE}] {quantity} must be the metric's name as the run logged it "
                              f"(text), got {name!r}")
        out[canonical_metric(str(quantity))] = name.strip()
    return out


def metric_options(pairs: Sequence[str]) -> dict[str, str]:
    """``--metric QUANTITY=NAME`` options as a ``[metrics]`` table; ``ConfigError`` for one
    without ``=``."""
    table: dict[str, str] = {}
    for pair in pairs:
        quantity, sep, name = pair.partition("=")
        if not sep or not quantity.strip() or not name.strip():
            raise ConfigError(f"--metric wants QUANTITY=NAME (e.g. --metric reward=average_reward), got {pair!r}")
        table[quantity.strip()] = name.strip()
    return table


def split_metrics(config: Mapping[str, Any] | None) -> tuple[dict[str, Any], dict[str, str]]:
    """A ``doctor.toml``-shaped mapping as (its detector tables, its ``[metrics]`` as ``metric_map``)."""
    detectors: dict[str, Any] = {}
    table: Mapping[str, Any] = {}
    for section, values in (config or {}).items():
        if str(section).lower() == METRICS_TABLE:
            if not isinstance(values, Mapping):
                raise ConfigError(f"[{section}] must be a table of quantity = \"logged name\", got "
                                  f"{type(values).__name__}")
            table = values
        else:
            detectors[section] = values
    return detectors, metric_map(table)


def load_config(path: str | os.PathLike[str]) -> dict[str, dict[str, Any]]:
    """Read ``doctor.toml``; raises ``ConfigError`` (one line) when unreadable."""
    try:
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
    except FileNotFoundError:
        raise ConfigError(f"config file {path} not found") from None
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"config file {path}: {exc}") from None
    return data


def resolve_config(overrides: Mapping[str, Any] | None) -> dict[str, dict[str, Any]]:
    """Defaults of every registered detector merged with ``overrides``, keyed by signature id
    (a ``[metrics]`` table is checked, and left to ``split_metrics``). Raises ``ConfigError``
    for unknown detectors, unknown keys, or values of the wrong type."""
    from .catalog import registry

    detectors = registry()
    resolved = {sid: {"enabled": True, **d.defaults} for sid, d in detectors.items()}
    tables, _ = split_metrics(overrides)  # [metrics] is the view's business (checked here all the same)
    for section, values in tables.items():
        sid = str(section).upper()
        if sid not in detectors:
            raise ConfigError(f"unknown detector {section!r} in config; valid: {', '.join(sorted(detectors))} "
                              f"(and [{METRICS_TABLE}] for the run's own metric names)")
        if not isinstance(values, Mapping):
            raise ConfigError(f"[{section}] must be a table of settings, got {type(values).__name__}")
        for key, value in values.items():
            if key not in resolved[sid]:
                valid = ", ".join(sorted(resolved[sid]))
                raise ConfigError(f"unknown key {key!r} for detector {sid}; valid: {valid}")
            default = resolved[sid][key]
            if not _same_kind(default, value):
                raise ConfigError(f"{sid}.{key} must be {type(default).__name__}, got {value!r}")
            resolved[sid][key] = float(value) if isinstance(default, float) else value
    return resolved


def _same_kind(default: Any, value: Any) -> bool:
    if isinstance(default, bool):
        return isinstance(value, bool)
    if isinstance(default, float):
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if isinstance(default, int):
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, type(default))
