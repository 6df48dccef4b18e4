"""The ``rlprobe`` command line. Each module of this package holds one or a few commands
(module-level ``click.Command`` objects listed in its ``COMMANDS``) and is discovered here.

Exit codes: 0 ok; 1 a critical finding (doctor, watch); 2 usage error or unusable input,
with a one-line message and no traceback.
"""
from __future__ import annotations

import importlib
import os
import pkgutil
import sys
from typing import Any

import click

from rlprobe import __version__

from ..errors import UnusableInput

EXIT_OK, EXIT_CRITICAL, EXIT_UNUSABLE = 0, 1, 2


class RlprobeGroup(click.Group):
    """Turns unusable input into one line on stderr and exit 2; a bug into one line and a hint."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except (click.exceptions.Exit, click.exceptions.Abort, click.ClickException):
            raise
        except (UnusableInput, FileNotFoundError, NotADirectoryError, PermissionError) as exc:
            click.echo(f"rlprobe: error: {exc}", err=True)
            ctx.exit(EXIT_UNUSABLE)
        except KeyboardInterrupt:
            ctx.exit(130)
        except Exception as exc:  # noqa: BLE001 - never a traceback for users
            if os.environ.get("RLPROBE_DEBUG"):
                raise
            click.echo(f"rlprobe: internal error: {type(exc).__name__}: {exc} "
                       "(set RLPROBE_DEBUG=1 for the traceback)", err=True)
            ctx.exit(EXIT_UNUSABLE)


@click.group(cls=RlprobeGroup, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="rlprobe")
def main() -> None:
    """rlprobe: a flight recorder and a doctor for RL fine-tuning of language models.

    \b
    Every command works on a plain run directory:
      rlprobe synth runs/demo --pathology kl_blowup
      rlprobe doctor runs/demo
    """


def _discover() -> None:
    for module in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if module.name.startswith("_") or module.name == "output":
            continue
        for command in getattr(importlib.import_module(f"{__name__}.{module.name}"), "COMMANDS", []):
            main.add_command(command)


_discover()

if __name__ == "__main__":
    sys.exit(main())
