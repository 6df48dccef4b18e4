"""Hatchling metadata hook shared by the three rlprobe distributions.

The version lives once, in rlprobe-core's ``_version.py``. Each package lists its
dependencies in ``[tool.hatch.metadata.hooks.custom]`` with ``{version}`` where a
sibling is pinned, so inter-package pins are exact and never drift.
"""
import re
from pathlib import Path

from hatchling.metadata.plugin.interface import MetadataHookInterface

VERSION_FILE = Path(__file__).parent / "rlprobe-core" / "src" / "rlprobe" / "_version.py"


def read_version() -> str:
    match = re.search(r'__version__\s*=\s*"([^"]+)"', VERSION_FILE.read_text())
    if match is None:
        raise ValueError(f"no __version__ in {VERSION_FILE}")
    return match.group(1)


class PinsHook(MetadataHookInterface):
    PLUGIN_NAME = "custom"

    def update(self, metadata: dict) -> None:
        version = read_version()
        metadata["dependencies"] = [d.format(version=version) for d in self.config.get("dependencies", [])]
        metadata["optional-dependencies"] = {
            extra: [d.format(version=version) for d in deps]
            for extra, deps in self.config.get("optional-dependencies", {}).items()
        }
