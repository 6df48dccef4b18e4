"""Per-detector configuration: code defaults, overridden by ``doctor.toml`` or a dict.

    # doctor.toml — one table per detector, named by signature id (any case)
    [kl_blowup]
    level = 0.5          # any key the detector declares
    [reward_plateau]
    enabled = false

An unknown detector or key is an error that names the valid ones.
"""
from __future__ import annotations

import os
import tomllib
from typing import Any, Mapping

from .errors import ConfigError

__all__ = ["load_config", "resolve_config"]


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
    """Defaults of every registered detector merged with ``overrides``, keyed by signature id.
    Raises ``ConfigError`` for unknown detectors, unknown keys, or values of the wrong type."""
    from .catalog import registry

    detectors = registry()
    resolved = {sid: {"enabled": True, **d.defaults} for sid, d in detectors.items()}
    for section, values in (overrides or {}).items():
        sid = str(section).upper()
        if sid not in detectors:
            raise ConfigError(f"unknown detector {section!r} in config; valid: {', '.join(sorted(detectors))}")
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
