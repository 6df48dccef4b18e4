"""The ``rlprobe`` command line. Each module of this package holds one or a few commands
(module-level ``click.Command`` objects listed in its ``COMMANDS``); ``COMMAND_MODULES``
names where each command lives so that a command imports only its own module (the report's
templates and the live machinery are not paid for by ``rlprobe doctor``).

Exit codes: 0 ok; 1 a critical finding (doctor, watch); 2 usage error or unusable input
(including a damaged recording: ``RecordingError``), with a one-line message and no
traceback; 3 a watched run that stopped writing without ending (``watch``: stalled past the
stall window); 130 and 143 stopped by SIGINT (Ctrl-C) and SIGTERM (128 + the signal, as a
shell reports a process a signal ended). They keep their meaning when the reader of the
output goes away (``rlprobe doctor RUN | head -1``).
"""
from __future__ import annotations

import atexit
import gc
import importlib
import os
import sys
from collections.abc import Sequence
from typing import Any, NoReturn, TextIO

import click

from rlprobe import __version__
from rlprobe.storage import RecordingError

from ..errors import UnusableInput
from . import process

EXIT_OK, EXIT_CRITICAL, EXIT_UNUSABLE, EXIT_STALLED = 0, 1, 2, 3
EXIT_SIGINT, EXIT_SIGTERM = 130, 143
# click ≥ 8.2 raises this for a bare `rlprobe`; older versions print the help themselves.
NoArgsIsHelp = getattr(click.exceptions, "NoArgsIsHelpError", ())

#: command name → module of this package that defines it.
COMMAND_MODULES = {
    "ls": "runs",
    "doctor": "diagnosis",
    "watch": "watch",
    "report": "report",
    "show": "forensics",
    "samples": "forensics",
    "diff": "forensics",
    "synth": "synthesis",
    "import": "importing",
    "push": "upload",
}


class RlprobeGroup(click.Group):
    """Loads each command on first use; turns usage errors and unusable input into one
    line on stderr and exit 2, and a bug into one line with a hint, never a traceback."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMAND_MODULES)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        module = COMMAND_MODULES.get(name)
        if module is None:
            return None
        commands: list[click.Command] = importlib.import_module(f"{__name__}.{module}").COMMANDS
        process.restore()  # the command's libraries have read their settings
        return next(c for c in commands if c.name == name)

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True, **extra: Any) -> NoReturn:
        """Runs the command and exits with its code; always standalone, whatever
        ``standalone_mode`` says, so that every exit goes through the codes above."""
        # The interpreter's last garbage collection, at exit, walks every object the command
        # loaded (Polars, pyarrow, numpy, the detectors: ~60k, about 0.05 s of ``rlprobe
        # doctor``) only for the process to end; frozen, they are skipped. Registered once.
        atexit.unregister(gc.freeze)
        atexit.register(gc.freeze)
        process.prepare()  # how the libraries allocate and thread, set before the command loads them
        streams = sys.stdout, sys.stderr
        sys.stdout, sys.stderr = _Output(sys.stdout), _Output(sys.stderr)
        try:
            self._main(args, prog_name, complete_var, **extra)
        finally:
            sys.stdout, sys.stderr = streams
            process.restore()

    def _main(self, args: Sequence[str] | None, prog_name: str | None, complete_var: str | None,
              **extra: Any) -> NoReturn:
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except NoArgsIsHelp as exc:
            click.echo(exc.ctx.get_help() if exc.ctx is not None else exc.format_message())
            sys.exit(EXIT_OK)
        except click.exceptions.UsageError as exc:
            hint = f" (see: {exc.ctx.command_path} --help)" if exc.ctx is not None else ""
            click.echo(f"rlprobe: error: {exc.format_message()}{hint}", err=True)
            sys.exit(EXIT_UNUSABLE)
        except click.exceptions.Exit as exc:
            sys.exit(exc.exit_code)
        except click.exceptions.Abort:
            click.echo("rlprobe: aborted", err=True)
            sys.exit(EXIT_SIGINT)
        except click.ClickException as exc:
            click.echo(f"rlprobe: error: {exc.format_message()}", err=True)
            sys.exit(exc.exit_code)
        sys.exit(code if isinstance(code, int) else EXIT_OK)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except (click.exceptions.Exit, click.exceptions.Abort, click.ClickException):
            raise
        except (UnusableInput, RecordingError, OSError) as exc:  # OSError: a missing, unreadable or unwritable path
            click.echo(f"rlprobe: error: {exc}", err=True)
            ctx.exit(EXIT_UNUSABLE)
        except KeyboardInterrupt:
            ctx.exit(EXIT_SIGINT)
        except Exception as exc:  # noqa: BLE001 - never a traceback for users
            if os.environ.get("RLPROBE_DEBUG"):
                raise
            click.echo(f"rlprobe: internal error: {type(exc).__name__}: {exc} "
                       "(set RLPROBE_DEBUG=1 for the traceback)", err=True)
            ctx.exit(EXIT_UNUSABLE)


class _Output:
    """Standard output or error as the commands write to it. Once the reader has gone
    (``rlprobe doctor RUN | head -1``) the rest is discarded instead of raising
    ``BrokenPipeError``: the command runs to its end and exits with the code it means, and
    the flush at exit finds somewhere to write."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self._gone = False

    def write(self, text: str) -> int:
        if self._gone:
            return len(text)
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            self._discard()
            return len(text)

    def flush(self) -> None:
        if not self._gone:
            try:
                self._stream.flush()
            except BrokenPipeError:
                self._discard()

    def _discard(self) -> None:
        self._gone = True
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, self._stream.fileno())
            os.close(devnull)
        except (OSError, ValueError):
            pass  # not a file descriptor (a test runner's stream): nothing is flushed at exit

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


@click.group(cls=RlprobeGroup, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="rlprobe")
def main() -> None:
    """rlprobe: a flight recorder and a doctor for RL fine-tuning of language models.

    \b
    Every command works on a plain run directory:
      rlprobe synth runs/demo --pathology kl_blowup
      rlprobe doctor runs/demo
      rlprobe report runs/demo
    """


if __name__ == "__main__":
    main()
