"""Mirroring a run directory to object storage (``Recorder(upload_to=...)``, ``rlprobe push``).

The run is written locally as always (fsync, rename, the recorder's promises) and copied
up in an order that keeps every state of the bucket a readable run with no row missing or
doubled, and a prefix of the local run: rows the bucket lacks from parts compacted
before they went up first, then new part files, oldest first, then a compacted file that
has grown enough, followed by the deletion of the remote parts it holds; then
``events.jsonl``, and the manifest last.

Upload traffic stays linear in the run's size. Part files never change and go up once.
A compacted file grows at every compaction (every 64 parts), so it goes up only when its
watermark has doubled since the last upload of it (the remote keeps the parts in between,
which readers merge as usual), at the end (``final``), or when the remote's rows would
otherwise differ from the local ones (a resumed run that superseded rows). The rows of a
part compacted away before it was uploaded (a burst the store did not keep up with) are
read back from the compacted file and go up as that part; past a few such parts the store
is slower than the writer, and the compacted file goes up in one request instead. The uploads
at doublings add up to less than twice its final size, so with the final one, less than three times.
``events.jsonl`` is uploaded whole when it changed, at most once a round: events are
sparse (a few hundred bytes in a typical run), and one object keeps the format unchanged
(docs/storage.md, measured traffic).

A URL that already holds another run (a manifest with another run id) is never written
to: its files and ours would read as one run. ``OtherRun`` says so, and ``replace=True``
(``rlprobe push --replace``) deletes that run's files first.
"""
from __future__ import annotations

import io
import json
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from .layout import (
    EVENTS,
    KINDS,
    MANIFEST,
    PART_COLUMN,
    PARTS_DIR,
    WATERMARK_KEY,
    compacted_path,
    list_parts,
    rank_dirs,
)
from .location import RUN_FILE_RE, filesystem, remote_files

__all__ = ["Mirror", "OtherRun", "Uploader", "push"]


class OtherRun(ValueError):
    """The URL already holds another run's recording (a manifest with another run id):
    uploading there would mix the two runs' rows under one manifest."""

_CHUNK = 8 * 2**20
#: Parts compacted before they went up that are sent as parts; past this many the compacted
#: file goes up instead (one request, where a request per part would fall further behind).
_MAX_LOST_PARTS = 8


@dataclass
class _Kind:
    """What the remote holds of one kind of one rank directory."""

    watermark: int = 0
    rows: int = 0  # rows in the remote compacted file
    parts: dict[int, int] = field(default_factory=dict)  # remote part number → its rows
    compacted_sent: tuple[int, int] | None = None  # local (size, mtime) of the compacted file last uploaded


class Mirror:
    """Copies a run directory (a single run or its ``rank-N/`` directories) to ``url``,
    one ``sync()`` at a time. Not thread-safe; state is kept between calls so that each
    call uploads only what changed. Counts what it sent (``sent``, ``bytes_sent``, ``requests``)."""

    def __init__(self, run_dir: str | os.PathLike[str], url: str, replace: bool = False) -> None:
        self.run_dir = Path(run_dir)
        self.url = url.rstrip("/")
        #: Delete another run found at ``url`` rather than refusing (``OtherRun``) to write there.
        self.replace = replace
        #: Bytes uploaded so far by what they held: ``parts``, ``compacted``, ``events``, ``manifest.json``.
        self.sent = {"parts": 0, "compacted": 0, EVENTS: 0, MANIFEST: 0}
        self.requests = 0
        self._fs: Any = None  # a pyarrow FileSystem, once the remote is learnt
        self._base = ""
        self._kinds: dict[tuple[str, str], _Kind] = {}
        self._sent: dict[str, tuple[int, int]] = {}  # rel → local (size, mtime) uploaded

    def sync(self, final: bool = False) -> None:
        """Upload what changed since the last call. ``final``: the run is closed (or dead),
        so compacted files go up whatever their growth. Raises ``OSError`` (or
        ``ValueError`` for a bad URL) when the store fails; the next call carries on."""
        if self._fs is None:
            self._fs, self._base = filesystem(self.url)
            try:
                self._learn_remote()
            except BaseException:
                self._fs = None  # learnt again at the next call: never upload on a half-learnt remote
                raise
        sources = [("", self.run_dir)] if (self.run_dir / MANIFEST).exists() or not rank_dirs(self.run_dir) \
            else [(f"{path.name}/", path) for _, path in rank_dirs(self.run_dir)]
        # The manifest as it was before the data files are looked at: the one uploaded last
        # then never counts a row the bucket lacks (the writer rewrites it after each part).
        manifests = {prefix: self._read_if_changed(source / MANIFEST, prefix + MANIFEST) for prefix, source in sources}
        for prefix, source in sources:
            for kind in KINDS:
                self._sync_kind(prefix, source, kind, final)
        for prefix, source in sources:
            events = self._read_if_changed(source / EVENTS, prefix + EVENTS)
            for name, snapshot in ((EVENTS, events), (MANIFEST, manifests[prefix])):
                if snapshot is not None:
                    self._put(io.BytesIO(snapshot[0]), prefix + name, name)
                    self._sent[prefix + name] = snapshot[1]

    def _learn_remote(self) -> None:
        """What an earlier session (or push) left in the bucket. A part of the same size as
        the local one is taken as uploaded (parts never change); a compacted file, when its
        footer (watermark, rows) matches the local one's too; the manifest and events file,
        when their bytes match. Anything else is replaced at the first round. Raises
        ``OtherRun`` when the remote holds another run (unless ``replace``: then its files
        are deleted first)."""
        listing = remote_files(self._fs, self._base)
        self.requests += 1
        other = self._other_run(listing)
        if other is not None:
            if not self.replace:
                raise OtherRun(f"{self.url}: holds another run (run id {other}); upload this one elsewhere, or "
                               f"replace that run with: rlprobe push --replace {self.run_dir} {self.url}")
            for rel in listing:
                if RUN_FILE_RE.match(rel):
                    self._fs.delete_file(f"{self._base}/{rel}")
                    self.requests += 1
            listing = {}
        for rel, info in listing.items():
            local = self.run_dir / rel
            try:
                st = local.stat()
            except OSError:
                st = None
            same = st is not None and st.st_size == info.size
            size_and_time = (st.st_size, st.st_mtime_ns) if st is not None else None
            prefix, _, name = rel.rpartition("/")
            prefix = prefix + "/" if prefix else ""
            if prefix.endswith(f"{PARTS_DIR}/"):
                kind, _, seq = name.partition("-")
                if kind in KINDS and seq.split(".")[0].isdigit():
                    rows = pq.read_metadata(local).num_rows if same else -1  # -1: unknown rows, never "covered"
                    self._state(prefix[:-len(PARTS_DIR) - 1], kind).parts[int(seq.split(".")[0])] = rows
            elif name.endswith(".parquet") and name[:-8] in KINDS:
                state = self._state(prefix, name[:-8])
                state.watermark = -1  # unknown contents: replaced by the local compacted file at once
                if same:
                    mine, theirs = pq.read_metadata(local), pq.read_metadata(f"{self._base}/{rel}", filesystem=self._fs)
                    if (mine.metadata, mine.num_rows) == (theirs.metadata, theirs.num_rows):
                        state.watermark = int((mine.metadata or {}).get(WATERMARK_KEY, b"0"))
                        state.rows, state.compacted_sent = mine.num_rows, size_and_time
            elif same:
                with self._fs.open_input_stream(f"{self._base}/{rel}") as fh:
                    if fh.read() == local.read_bytes() and size_and_time is not None:
                        self._sent[rel] = size_and_time

    def _other_run(self, listing: dict[str, Any]) -> str | None:
        """The run id of another run whose manifest the remote holds (None when every remote
        manifest is of this run, or there is none). A resumed run keeps its first session's
        ``created_at`` but takes the new session's run id: the same run is either."""
        for rel in listing:
            if not (rel == MANIFEST or rel.endswith("/" + MANIFEST)) or not RUN_FILE_RE.match(rel):
                continue
            try:
                mine = json.loads((self.run_dir / rel).read_bytes())
            except (OSError, ValueError):
                mine = {}
            with self._fs.open_input_stream(f"{self._base}/{rel}") as fh:
                data = fh.read()
            self.requests += 1
            try:
                theirs = json.loads(data)
            except ValueError:
                continue  # unreadable: the first round replaces it
            if not (isinstance(mine, dict) and isinstance(theirs, dict)) or not theirs.get("run_id"):
                continue
            if all(mine.get(key) != theirs.get(key) for key in ("run_id", "created_at")):
                return str(theirs["run_id"])
        return None

    def _state(self, prefix: str, kind: str) -> _Kind:
        return self._kinds.setdefault((prefix, kind), _Kind())

    def _sync_kind(self, prefix: str, source: Path, kind: str, final: bool) -> None:
        state = self._state(prefix, kind)
        for _ in range(3):  # a compaction removed a part mid-round: look again (a few times, then next round)
            # A compacted file holding rows the bucket lacks goes up before any newer part,
            # so that a process killed in between leaves no hole.
            self._send_compacted(prefix, source, kind, state, final, behind_only=True)
            if self._send_parts(prefix, source, kind, state):
                break
        self._send_compacted(prefix, source, kind, state, final, behind_only=False)

    def _send_parts(self, prefix: str, source: Path, kind: str, state: _Kind) -> bool:
        """Upload the parts the bucket lacks, oldest first and one at a time: a process
        killed mid-round then leaves the bucket a prefix of the run. False when one was
        compacted away before it went up (those after it are left for the next look)."""
        for seq, path in list_parts(source, kind):
            if seq <= state.watermark or seq in state.parts:
                continue
            try:
                with open(path, "rb") as fh:
                    rows = pq.read_metadata(fh).num_rows
                    fh.seek(0)
                    self._put(fh, f"{prefix}{PARTS_DIR}/{path.name}", "parts")
            except FileNotFoundError:
                return False
            state.parts[seq] = rows
        return True

    def _send_compacted(self, prefix: str, source: Path, kind: str, state: _Kind, final: bool,
                        behind_only: bool) -> None:
        """Upload the local compacted file if the bucket's rows differ from it (rows a
        resumed run superseded, a remote file of unknown content; parts compacted before
        they went up are sent as parts instead), or, unless ``behind_only``, when it has
        doubled or ``final``; then delete the remote parts it holds."""
        try:
            fh = open(compacted_path(source, kind), "rb")
        except FileNotFoundError:
            return
        with fh:
            st = os.fstat(fh.fileno())
            if state.compacted_sent == (st.st_size, st.st_mtime_ns):
                return
            metadata = pq.read_metadata(fh)
            watermark = int((metadata.metadata or {}).get(WATERMARK_KEY, b"0"))
            covered = state.rows + sum(r for s, r in state.parts.items() if state.watermark < s <= watermark)
            behind = state.watermark < 0 or metadata.num_rows != covered
            due = final or watermark >= 2 * max(state.watermark, 32)  # goes up this round anyway
            if behind and not due and metadata.num_rows > covered and state.watermark >= 0:
                behind = not self._send_lost_parts(fh, watermark, state, f"{prefix}{PARTS_DIR}/{kind}")
            if not (behind or (not behind_only and due)):
                return
            fh.seek(0)
            self._put(fh, f"{prefix}{kind}.parquet", "compacted")
        state.watermark, state.rows, state.compacted_sent = watermark, metadata.num_rows, (st.st_size, st.st_mtime_ns)
        for seq in sorted(s for s in state.parts if s <= watermark):
            self._fs.delete_file(f"{self._base}/{prefix}{PARTS_DIR}/{kind}-{seq:08d}.parquet")
            self.requests += 1
            del state.parts[seq]

    def _send_lost_parts(self, fh: BinaryIO, watermark: int, state: _Kind, stem: str) -> bool:
        """Upload, as part files of their own and oldest first, the rows of the compacted
        file ``fh`` that came from parts compacted before they went up (a writer outrunning
        the store); True once the bucket holds every row of ``fh``. False when the bucket's
        rows differ from it otherwise (a resumed run superseded some): then the whole file
        must go up. Sending just these rows keeps the traffic linear, where sending the
        growing compacted file at each compaction while lagging would not."""
        fh.seek(0)
        with pq.ParquetFile(fh) as pf:
            values = pc.value_counts(pf.read(columns=[PART_COLUMN]).column(PART_COLUMN))
            counts = dict(zip(values.field("values").to_pylist(), values.field("counts").to_pylist(), strict=True))
            if sum(n for seq, n in counts.items() if seq <= state.watermark) != state.rows \
                    or any(counts.get(seq) != rows for seq, rows in state.parts.items() if seq <= watermark):
                return False
            lost = sorted(seq for seq in counts if seq > state.watermark and seq not in state.parts)
            if not lost:
                return True
            if len(lost) > _MAX_LOST_PARTS:
                return False  # the store takes requests slower than the writer makes parts: one catches up
            groups = [i for i in range(pf.num_row_groups) if _part_max(pf, i) >= lost[0]]
            table = pf.read_row_groups(groups)
        for seq in lost:
            rows = table.filter(pc.equal(table.column(PART_COLUMN), seq))
            buffer = io.BytesIO()
            pq.write_table(rows, buffer, compression="zstd")
            buffer.seek(0)
            self._put(buffer, f"{stem}-{seq:08d}.parquet", "parts")
            state.parts[seq] = rows.num_rows
        return True

    def _read_if_changed(self, path: Path, rel: str) -> tuple[bytes, tuple[int, int]] | None:
        """The content and identity of a small file not uploaded as it is now; None if it was."""
        try:
            with open(path, "rb") as fh:
                st = os.fstat(fh.fileno())
                identity = (st.st_size, st.st_mtime_ns)
                return None if self._sent.get(rel) == identity else (fh.read(), identity)
        except FileNotFoundError:
            return None

    def _put(self, fh: BinaryIO, rel: str, what: str) -> None:
        with self._fs.open_output_stream(f"{self._base}/{rel}") as out:
            while chunk := fh.read(_CHUNK):
                out.write(chunk)
                self.sent[what] += len(chunk)
        self.requests += 1

    @property
    def bytes_sent(self) -> int:
        """Bytes uploaded so far, all files together."""
        return sum(self.sent.values())


def _part_max(pf: pq.ParquetFile, row_group: int) -> float:
    """The highest part number in a row group, from its statistics (+inf when unknown)."""
    group = pf.metadata.row_group(row_group)
    for i in range(group.num_columns):
        column = group.column(i)
        if column.path_in_schema == PART_COLUMN and column.statistics is not None \
                and column.statistics.has_min_max:
            return float(column.statistics.max)
    return float("inf")


def push(run_dir: str | os.PathLike[str], url: str, replace: bool = False) -> Mirror:
    """Upload the run at ``run_dir`` (finished, crashed or killed) to ``url``, in the
    mirror's safe order; what the bucket already holds unchanged is not sent again.
    Raises ``FileNotFoundError`` when ``run_dir`` holds no recording, ``OtherRun`` (a
    ``ValueError``) when ``url`` holds another run and not ``replace``, ``ValueError`` for
    a bad URL and ``OSError`` when the store fails."""
    from .manifest import load_manifest

    load_manifest(run_dir)
    mirror = Mirror(run_dir, url, replace=replace)
    try:
        mirror.sync(final=True)
    except pa.ArrowException as exc:  # a bare one (not an OSError) from some stores: one line all the same
        raise OSError(f"{mirror.url}: {' '.join(str(exc).split())}") from None
    return mirror


class Uploader:
    """The recorder's background mirror: a daemon thread that syncs every ``interval_s``
    seconds. Never raises into its caller: each failed round is reported to ``on_error``
    and retried at the next. ``close(timeout)`` runs a last, final round and waits for it
    at most ``timeout`` seconds."""

    def __init__(self, run_dir: Path, url: str, interval_s: float,
                 on_error: Callable[[BaseException], None]) -> None:
        self.mirror = Mirror(run_dir, url)
        #: Set when the URL holds another run: nothing is uploaded, and no round is tried again.
        self.refused: OtherRun | None = None
        self._interval_s = interval_s
        self._on_error = on_error
        self._wake = threading.Event()
        self._closing = False
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._main, name="rlprobe-upload", daemon=True)
        self._thread.start()

    def _main(self) -> None:
        while True:
            self._wake.wait(self._interval_s)
            self._wake.clear()
            final = self._closing
            try:
                self.mirror.sync(final=final)
            except OtherRun as exc:  # never written to: retrying cannot help
                self.refused = exc
                self._on_error(exc)
                self._done.set()
                return
            except Exception as exc:  # noqa: BLE001 - the store failing must not stop training
                self._on_error(exc)
                if final:
                    time.sleep(min(1.0, self._interval_s))
                    self._wake.set()  # retried until close() stops waiting
                continue
            if final:
                self._done.set()
                return

    def close(self, timeout: float) -> bool:
        """Upload what is left, waiting at most ``timeout`` seconds; True when it all went up."""
        self._closing = True
        self._wake.set()
        return self._done.wait(max(0.0, timeout)) and self.refused is None
