"""Terminal output shared by the commands: aligned tables, colour on a TTY only."""
from __future__ import annotations

import datetime as dt
import functools
import shutil
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from rlprobe.storage import RunStatus
from rlprobe.storage.layout import is_url

from .. import progress
from ..config import METRICS_TABLE, load_config, metric_options

if TYPE_CHECKING:
    _RunParamType = click.ParamType[Path | str]
else:  # generic from click 8.4 on; the older clicks the doctor accepts cannot subscript it
    _RunParamType = click.ParamType


class RunLocation(_RunParamType):
    """A run argument: a local path (a ``Path``), or a URL of a run in object storage kept
    as text (``s3://bucket/runs/x``; a ``Path`` would fold its ``//``)."""

    name = "run"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Path | str:
        return value if isinstance(value, Path) or is_url(value) else Path(value)


#: The type of every argument naming a run (or a root of runs).
RUN = RunLocation()


def metric_option(command: Any) -> Any:
    """``--metric QUANTITY=NAME`` (repeatable) on a command that reads a run's metrics."""
    return click.option("--metric", "metrics", multiple=True, metavar="QUANTITY=NAME",
                        help="Read the run's metric NAME as QUANTITY (reward, kl, entropy, loss, ...), e.g. "
                             "--metric reward=average_reward; repeatable; wins over doctor.toml's [metrics].")(command)


def reads_logs(command: Any) -> Any:
    """``--quiet`` on a command that reads runs or logs: without it, a read that takes more
    than a second shows a progress bar on stderr when stderr is a terminal (``progress``)."""

    @functools.wraps(command)
    def run(*args: Any, quiet: bool, **kwargs: Any) -> Any:
        with progress.shown(not quiet):
            return command(*args, **kwargs)

    return click.option("--quiet", "-q", is_flag=True,
                        help="No progress bar on stderr (shown on a terminal only, for reads over a second).")(run)


def command_config(config_path: Path | None, metrics: Sequence[str] = ()) -> dict[str, Any] | None:
    """``--config doctor.toml`` with the ``--metric`` options laid over its ``[metrics]`` table;
    None when neither is given. Raises ``ConfigError`` (one line)."""
    config = load_config(config_path) if config_path else {}
    if metrics:
        section = next((k for k in config if str(k).lower() == METRICS_TABLE), METRICS_TABLE)
        table = config.pop(section, None)
        config[METRICS_TABLE] = {**(table if isinstance(table, dict) else {}), **metric_options(metrics)}
    return config or None

SEVERITY_COLOURS = {"critical": "red", "warn": "yellow", "info": "cyan"}


def is_tty() -> bool:
    return sys.stdout.isatty()


def style(text: str, **kwargs: Any) -> str:
    return click.style(text, **kwargs) if is_tty() else text


def severity(text: str) -> str:
    return style(text.upper(), fg=SEVERITY_COLOURS.get(text), bold=text == "critical")


def terminal_width() -> int:
    return shutil.get_terminal_size((100, 24)).columns


def shorten(text: Any, width: int) -> str:
    """One line of at most ``width`` characters (newlines shown as ⏎)."""
    s = "" if text is None else str(text).replace("\r", "").replace("\n", " ⏎ ")
    return s if len(s) <= width else s[: max(0, width - 1)] + "…"


def table(rows: Sequence[Sequence[Any]], headers: Sequence[str], align: str | None = None) -> str:
    """Rows aligned under headers; ``align`` is one of l/r per column (default: left)."""
    cells = [[str(h) for h in headers]] + [["" if c is None else str(c) for c in row] for row in rows]
    widths = [max(len(click.unstyle(r[i])) for r in cells) for i in range(len(headers))]
    align = align or "l" * len(headers)
    lines = []
    for n, row in enumerate(cells):
        parts = []
        for i, cell in enumerate(row):
            pad = widths[i] - len(click.unstyle(cell))
            parts.append(cell + " " * pad if align[i] == "l" else " " * pad + cell)
        line = "  ".join(parts).rstrip()
        lines.append(style(line, bold=True) if n == 0 else line)
    return "\n".join(lines)


def when(timestamp: Any) -> str:
    """A Unix time as local ``YYYY-MM-DD HH:MM``; empty when unknown."""
    try:
        return dt.datetime.fromtimestamp(float(timestamp)).strftime("%Y-%m-%d %H:%M")
    except (TypeError, ValueError, OverflowError, OSError):
        return ""


def looks_killed(status: Any, heartbeat: Any) -> bool:
    """A run still marked running whose last sign of life (a recording manifest's
    ``updated_at``, a foreign log's last write or record) is older than RUN_STALLED takes a
    live writer's heartbeat to be: its writer was most likely killed."""
    from ..detectors.liveness import HEARTBEAT_STALE_S  # one threshold for both

    try:
        return status == RunStatus.RUNNING and time.time() - float(heartbeat) > HEARTBEAT_STALE_S
    except (TypeError, ValueError):
        return False


def number(value: Any, digits: int = 4) -> str:
    if value is None:
        return "—"
    try:
        return f"{float(value):.{digits}g}"
    except (TypeError, ValueError):
        return str(value)
