"""Facts every package shares are stated once, in core, and the other modules name them rather
than spell them again (issue 20): event kinds (``EventKind``), run statuses (``RunStatus``) and
the one way a file is replaced (``storage.atomic.atomic_path``)."""
from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from rlprobe.records import EventKind
from rlprobe.storage import RunStatus

PACKAGES = Path(__file__).resolve().parents[2] / "packages"


def _values(holder: type) -> set[str]:
    return {value for name, value in vars(holder).items() if name.isupper()}


def _modules() -> Iterator[tuple[str, ast.Module]]:
    for path in sorted(PACKAGES.glob("*/src/**/*.py")):
        yield str(path.relative_to(PACKAGES)), ast.parse(path.read_text())


def _strings(node: ast.expr) -> list[ast.Constant]:
    """The string constants in ``node`` (``"halted" if halted else None`` holds one)."""
    return [item for item in ast.walk(node) if isinstance(item, ast.Constant) and isinstance(item.value, str)]


def _is_key(node: ast.expr, key: str, variables: bool) -> bool:
    """``x.get(key)``, ``x[key]``, ``x.key`` or (``variables``) a variable named ``key``."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get":
        return bool(node.args) and isinstance(node.args[0], ast.Constant) and node.args[0].value == key
    if isinstance(node, ast.Subscript):
        return isinstance(node.slice, ast.Constant) and node.slice.value == key
    return (isinstance(node, ast.Attribute) and node.attr == key) or (
        variables and isinstance(node, ast.Name) and node.id == key)


def _spelled(values: set[str], key: str, calls: set[str], keyword: str, variables: bool = False) -> list[str]:
    """Where a module spells one of ``values`` as a literal: compared with a ``key``
    (``event.get("kind") == "crash"``; with ``variables``, ``status == "crashed"`` too), or given
    to one of ``calls`` first or as ``keyword``."""
    found = []
    for where, module in _modules():
        for node in ast.walk(module):
            literals: list[ast.Constant] = []
            if isinstance(node, ast.Compare):
                sides = [node.left, *node.comparators]
                if any(_is_key(side, key, variables) for side in sides):
                    literals = [c for side in sides for c in _strings(side)]
            elif isinstance(node, ast.Call):
                name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
                if name in calls and node.args:
                    literals = _strings(node.args[0])
                literals += [c for k in node.keywords if k.arg == keyword for c in _strings(k.value)]
            found += [f"{where}:{c.lineno}: {c.value!r}" for c in literals if c.value in values]
    return found


def test_event_kinds_are_named_by_their_event_kind_member() -> None:
    # Not a variable named kind: the TRL callback's kinds of a Trainer log ("evaluation", "step") are its own.
    calls = {"log_event", "events_of", "event_line", "_event", "append_event"}
    assert _spelled(_values(EventKind), "kind", calls, "kind") == []


def test_run_statuses_are_named_by_their_run_status_member() -> None:
    assert _spelled(_values(RunStatus), "status", {"close"}, "status", variables=True) == []


def test_no_module_but_storage_atomic_replaces_a_file_by_hand() -> None:
    """A file is replaced through ``atomic_path`` (temp file, rename, and the fsyncs where the
    file must survive a crash). ``sources.base`` swaps a whole imported recording, a directory,
    into place, which ``atomic_path`` does not do."""
    allowed = {"rlprobe-core/src/rlprobe/storage/atomic.py", "rlprobe-doctor/src/rlprobe/doctor/sources/base.py"}
    found = []
    for where, module in _modules():
        for node in ast.walk(module):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in ("replace", "rename") and isinstance(node.func.value, ast.Name)
                    and node.func.value.id == "os" and where not in allowed):
                found.append(f"{where}:{node.lineno}: {ast.unparse(node)}")
    assert found == []
