"""A package's public names imported on first use (PEP 562's module ``__getattr__``), so that
importing the package loads none of the modules behind them: ``rlprobe``, ``rlprobe.storage``
and ``rlprobe.doctor`` export their names this way, and a process pays only for what it uses."""
from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, MutableMapping
from typing import Any

__all__ = ["lazy_exports"]


def lazy_exports(package: str, exports: Mapping[str, str], namespace: MutableMapping[str, Any]
                 ) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of ``package``, whose globals are ``namespace``:
    each name of ``exports`` is imported from the submodule it maps to on first use and kept
    in ``namespace``. Any other name raises ``AttributeError``, and so does an export whose
    submodule is not installed (saying so); a submodule that fails to import raises as it does."""

    def __getattr__(name: str) -> Any:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        try:
            value = getattr(importlib.import_module(f"{package}.{module}"), name)
        except ModuleNotFoundError as exc:
            if exc.name != f"{package}.{module}":
                raise
            raise AttributeError(f"{package}.{name} needs {exc.name}, which is not installed") from exc
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted(set(namespace) | set(namespace.get("__all__", ())))

    return __getattr__, __dir__
