"""``training_args.bin`` read without running code and without torch or trl.

The file is ``torch.save(args)``: a zip archive whose ``<name>/data.pkl`` is a pickle of
the trainer's ``TrainingArguments`` (``GRPOConfig``, ...). Unpickling normally would import
and call whatever classes the pickle names. Here every global the pickle asks for becomes
an inert placeholder that only remembers its name and the arguments it was given, so no
code from the file, from torch or from anywhere else runs; the placeholders are then turned
into plain JSON-safe values.
"""
from __future__ import annotations

import io
import math
import pickle
import zipfile
from pathlib import Path
from typing import Any

__all__ = ["read_training_args"]

#: Builtin constructors that are harmless with any arguments and give plain values.
_SAFE = {("builtins", "set"): set, ("builtins", "frozenset"): frozenset, ("builtins", "complex"): complex,
         ("builtins", "slice"): slice, ("collections", "OrderedDict"): dict}
#: Largest data.pkl read (a TrainingArguments pickle is a few kilobytes).
_MAX_PICKLE_BYTES = 16 * 2**20


class _Object:
    """Base of the placeholder classes: an instance remembers its arguments and its state.
    Building one runs no code but this (pickle's REDUCE, NEWOBJ and BUILD land here)."""

    _module = _name = "?"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.args, self.state = args, None

    def __setstate__(self, state: Any) -> None:
        self.state = state


def _placeholder(module: str, name: str) -> type[_Object]:
    """A fresh class standing for the global ``module.name`` the pickle names."""
    return type("Placeholder", (_Object,), {"_module": module, "_name": name, "__slots__": ()})


class _Unpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        safe = _SAFE.get((module, name))
        if safe is not None:
            return safe
        if (module, name) in (("copyreg", "_reconstructor"), ("copy_reg", "_reconstructor")):
            return _reconstructor
        return _placeholder(module, name)

    def persistent_load(self, pid: Any) -> Any:
        return None  # a tensor's storage: never loaded


def _reconstructor(cls: Any, base: Any = None, state: Any = None) -> _Object:
    """Protocol 0/1 pickles build objects through ``copyreg._reconstructor``."""
    return cls() if isinstance(cls, type) and issubclass(cls, _Object) else _placeholder("?", "?")()


def _plain(value: Any, depth: int = 0) -> Any:
    """A JSON-safe rendering of what the pickle held."""
    if depth > 20:
        return None
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    if isinstance(value, dict):
        return {str(k): _plain(v, depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_plain(v, depth + 1) for v in value]
    if isinstance(value, _Object):
        state = value.state
        if isinstance(state, tuple) and len(state) == 2 and isinstance(state[1], dict):
            state = {**(state[0] or {}), **state[1]}  # (dict, slots) state
        if isinstance(state, dict):
            return {str(k): _plain(v, depth + 1) for k, v in state.items() if not str(k).startswith("_")}
        if len(value.args) == 1:
            return _plain(value.args[0], depth + 1)  # an enum member, a Path, a torch.device("cpu")
        return f"{value._module}.{value._name}"
    if isinstance(value, type) and issubclass(value, _Object):
        return f"{value._module}.{value._name}"
    return str(value)


def read_training_args(path: str | Path) -> tuple[str, dict[str, Any]]:
    """``(class name, fields)`` of the arguments pickled in ``path`` (``GRPOConfig``, {...}).
    Raises ``ValueError`` when the file is not a torch archive holding such a pickle."""
    try:
        with zipfile.ZipFile(path) as archive:
            names = [n for n in archive.namelist() if n.endswith("/data.pkl") or n == "data.pkl"]
            if not names:
                raise ValueError("not a torch archive (no data.pkl)")
            info = archive.getinfo(names[0])
            if info.file_size > _MAX_PICKLE_BYTES:
                raise ValueError(f"data.pkl is {info.file_size} bytes; not a TrainingArguments pickle")
            payload = archive.read(info)
    except zipfile.BadZipFile:
        raise ValueError("not a torch zip archive") from None
    try:
        obj = _Unpickler(io.BytesIO(payload)).load()
    except Exception as exc:  # noqa: BLE001 - any malformed pickle is a bad file, said in one line
        raise ValueError(f"unreadable pickle ({type(exc).__name__}: {exc})") from None
    if not isinstance(obj, _Object) or not isinstance(_plain(obj), dict):
        raise ValueError("the pickle holds no arguments object")
    return obj._name, _plain(obj)
