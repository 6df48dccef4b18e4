"""Every reader module of ``rlprobe.doctor.sources`` imports, is registered in ``FORMATS`` and
provides what the ``Reader`` protocol says, with its signatures; a reader that fails to import
fails the import of ``sources`` (it is never dropped quietly)."""
from __future__ import annotations

import importlib
import inspect
import pkgutil
import subprocess
import sys
from types import ModuleType

import pytest

from rlprobe.doctor import sources
from rlprobe.doctor.sources import FORMATS, Reader

#: The protocol's functions and its optional ones (a function, or None), from the class itself.
METHODS = sorted(n for n, v in vars(Reader).items() if inspect.isfunction(v) and not n.startswith("_"))
OPTIONAL = sorted(n for n, v in vars(Reader).items() if isinstance(v, property))


def _reader_modules() -> list[ModuleType]:
    """Every module of the package that names a format (importing each: an error fails here)."""
    names = [f"{sources.__name__}.{info.name}" for info in pkgutil.iter_modules(sources.__path__)]
    modules = [importlib.import_module(name) for name in names]
    return [module for module in modules if hasattr(module, "NAME")]


def _parameters(function: object) -> list[tuple[str, object]]:
    return [(p.name, p.default) for p in inspect.signature(function).parameters.values() if p.name != "self"]  # type: ignore[arg-type]


def test_every_reader_module_is_registered_once() -> None:
    assert METHODS == ["files", "follow", "read", "runs", "sniff"] and OPTIONAL == ["address", "status"]
    modules = _reader_modules()
    assert sorted(m.__name__ for m in modules) == sorted(m.__name__ for m in FORMATS)  # type: ignore[attr-defined]
    assert len({reader.NAME for reader in FORMATS}) == len(FORMATS)
    assert FORMATS[-1].NAME == "console"  # takes any text with training lines: offered a path last


@pytest.mark.parametrize("reader", FORMATS, ids=[reader.NAME for reader in FORMATS])
def test_each_reader_provides_the_protocol(reader: Reader) -> None:
    assert isinstance(reader, Reader)
    assert isinstance(reader.NAME, str) and reader.NAME and isinstance(reader.DESCRIPTION, str) and reader.DESCRIPTION
    for name in METHODS:
        assert _parameters(getattr(reader, name)) == _parameters(getattr(Reader, name)), name
    address, status = reader.address, reader.status
    assert address is None or [n for n, _ in _parameters(address)] == ["path", "name"]
    assert status is None or [n for n, _ in _parameters(status)] == ["path", "name"]


def test_a_reader_that_cannot_be_imported_fails_loudly() -> None:
    code = ("import sys; sys.modules['rlprobe.doctor.sources.wandb_log'] = None\n"
            "import rlprobe.doctor.sources")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    last = done.stderr.strip().splitlines()[-1]
    assert done.returncode == 1 and last.startswith("ModuleNotFoundError") and "wandb_log" in last
