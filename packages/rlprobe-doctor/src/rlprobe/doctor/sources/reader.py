"""What a foreign-log reader provides: the ``Reader`` protocol.

A reader is a module of this package, one a format, listed in ``sources.FORMATS``; mypy
checks each module against ``Reader`` where ``FORMATS`` lists it, and
``tests/sources/test_readers.py`` checks the same at run time, for every module that names a
format. Heavy libraries a reader needs are imported inside its functions: every reader is
imported with the doctor's CLI.
"""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Protocol, runtime_checkable

from .base import ImportedRun, SourceTail

__all__ = ["Reader", "Address", "Status"]

#: ``address(path, name)``: the name ``runs(path)`` lists for the run ``name`` addresses
#: (W&B's run id addresses the run listed by its name).
Address = Callable[[Path, str], str]
#: ``status(path, name)``: the run's status and, for one still marked running, its last sign
#: of life (Unix seconds), without reading the run whole (``rlprobe ls``).
Status = Callable[[Path, str | None], tuple[str, float | None]]


@runtime_checkable
class Reader(Protocol):
    """One foreign log format. ``path`` is what the user named (a file or a folder); ``name``
    is the run ``SOURCE#NAME`` addresses, ``None`` for the first (or only) one."""

    #: The format's name, as an import's manifest records it (``imported_from.format``).
    NAME: str
    #: What the user may name, for the message that lists what rlprobe reads.
    DESCRIPTION: str

    def sniff(self, path: Path) -> bool:
        """True when ``path`` is this format, judged by content; never raises."""
        ...

    def files(self, path: Path) -> list[Path]:
        """The files a read of ``path`` reads: their sizes and times key the import cache."""
        ...

    def runs(self, path: Path) -> list[str]:
        """The names of the runs ``path`` holds, ``[]`` for a single run."""
        ...

    def read(self, path: Path, name: str | None = None) -> ImportedRun:
        """The run whole. Raises ``SourceError`` (one line) for a source it cannot read."""
        ...

    def follow(self, path: Path, name: str | None = None) -> SourceTail:
        """A reader of the run while it is still being written."""
        ...

    @property
    def address(self) -> Address | None:
        """Other names a run answers to, or ``None`` where a run has only the one ``runs`` lists."""
        ...

    @property
    def status(self) -> Status | None:
        """The run's status read cheaply, or ``None`` where the format cannot tell a live run
        from a killed one without reading it whole."""
        ...
