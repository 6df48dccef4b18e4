"""Where a run is: a local directory or an object-storage URL (``s3://``, ``gs://``, ``abfs://``).

Object storage is reached through ``pyarrow.fs`` (no other dependency), configured by the
standard environment: ``AWS_ACCESS_KEY_ID``/``AWS_SECRET_ACCESS_KEY`` (or profiles),
``AWS_REGION``/``AWS_DEFAULT_REGION``, ``AWS_ENDPOINT_URL_S3``/``AWS_ENDPOINT_URL`` for an
S3-compatible store; Google's default credentials or ``STORAGE_EMULATOR_HOST`` for ``gs://``;
``AZURE_STORAGE_CONNECTION_STRING``, ``AZURE_STORAGE_ACCOUNT_KEY``/``AZURE_STORAGE_SAS_TOKEN``
or Azure's default credential chain for ``abfs://``.

A remote run is read through a local copy (``local_copy``): part files never change, so
each is fetched once; a compacted file is fetched again when its size or time changes,
``events.jsonl`` (which only grows) from where the copy ends, the manifest on every look.
Everything that reads a run directory then works on the copy unchanged, and a second look
at an unchanged run costs one listing and one small GET.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, BinaryIO
from urllib.parse import urlsplit

import pyarrow as pa
import pyarrow.fs as pafs

from .atomic import atomic_path
from .errors import RecordingError
from .layout import EVENTS, MANIFEST, is_url
from .manifest import parse_manifest

__all__ = ["RUN_FILE_RE", "STORE_ERRORS", "is_url", "filesystem", "remote_files", "local_copy", "pull", "pull_objects",
           "load_remote_manifest",
           "list_remote_runs", "cache_root", "cache_dir", "CACHE_ENV", "CACHE_DIRS"]

#: The root of every cache rlprobe keeps; default ``$XDG_CACHE_HOME/rlprobe`` (``~/.cache/rlprobe``).
CACHE_ENV = "RLPROBE_CACHE_DIR"
#: The layout under ``cache_root()``: one directory a kind of cache, so that no cache reads
#: or prunes another's files whether or not ``RLPROBE_CACHE_DIR`` is set.
CACHE_DIRS = {"remote": "local copies of remote recordings (local_copy)",
              "imports": "foreign logs imported as recordings (rlprobe.doctor.sources)",
              "remote-logs": "local copies of foreign logs in object storage (rlprobe watch)",
              "health": "each run's last diagnosis for rlprobe ls --health (rlprobe.doctor.health)"}
#: The files of a run directory, relative to it; nothing else is copied.
RUN_FILE_RE = re.compile(r"^(rank-\d+/)?(manifest\.json|events\.jsonl|(steps|samples)\.parquet"
                          r"|parts/(steps|samples)-\d{8}\.parquet)$")
#: Requests in flight at once when fetching many objects (real stores answer in parallel).
FETCH_THREADS = 16
_STATE = ".rlprobe-copy.json"


#: The environment an S3 filesystem is built from: a change makes a new one.
_S3_ENV = ("AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL", "AWS_REGION", "AWS_DEFAULT_REGION",
           "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE")
#: The environment an Azure filesystem is built from (account names, keys, connection string).
_AZURE_ENV = ("AZURE_STORAGE_CONNECTION_STRING", "AZURE_STORAGE_ACCOUNT_NAME", "AZURE_STORAGE_ACCOUNT",
              "AZURE_STORAGE_ACCOUNT_KEY", "AZURE_STORAGE_KEY", "AZURE_STORAGE_SAS_TOKEN")
_AZURE_SCHEMES = ("abfs", "abfss", "az")
#: ``UseDevelopmentStorage=true``: the Azurite emulator's published account, key and address.
_AZURITE = {"AccountName": "devstoreaccount1", "BlobEndpoint": "http://127.0.0.1:10000/devstoreaccount1",
            "AccountKey": "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="}
#: What a store's failure raises: OSError mostly, a bare ArrowException for some (Azure's
#: "Unknown error" of a malformed key, among others).
STORE_ERRORS = (OSError, pa.ArrowException)
_filesystems: dict[tuple[Any, ...], pafs.FileSystem] = {}
_fs_lock = threading.Lock()


def filesystem(url: str) -> tuple[pafs.FileSystem, str]:
    """``(filesystem, path)`` for ``url``; an S3 filesystem is shared per bucket and
    environment. Raises ``ValueError`` (one line) for a URL pyarrow cannot serve."""
    if not is_url(url):
        raise ValueError(f"{url}: not a URL")
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if not parts.netloc:
        raise ValueError(f"{url}: no bucket in the URL")
    try:
        if scheme in ("gs", "gcs") and os.environ.get("STORAGE_EMULATOR_HOST"):
            return _gcs_emulator(os.environ["STORAGE_EMULATOR_HOST"]), (parts.netloc + parts.path).rstrip("/")
        if scheme in _AZURE_SCHEMES:
            container, _, host = parts.netloc.partition("@")
            fs = _shared(("azure", host, *(os.environ.get(name) for name in _AZURE_ENV)), lambda: _azure(host))
            return fs, (container + parts.path).rstrip("/")
        if scheme != "s3":
            fs, path = pafs.FileSystem.from_uri(url)
            return fs, path.rstrip("/")
        fs = _shared((parts.netloc, *(os.environ.get(name) for name in _S3_ENV)), lambda: _s3(parts.netloc))
    except (ValueError, *STORE_ERRORS) as exc:  # ArrowInvalid is a ValueError
        raise ValueError(f"{url}: cannot open ({' '.join(str(exc).split())})") from None
    return fs, (parts.netloc + parts.path).rstrip("/")


def _shared(key: tuple[Any, ...], build: Callable[[], pafs.FileSystem]) -> pafs.FileSystem:
    with _fs_lock:
        fs = _filesystems.get(key)
        if fs is None:
            fs = _filesystems[key] = build()
        return fs


def _azure(host: str) -> pafs.FileSystem:
    # ``abfs://CONTAINER@ACCOUNT.dfs.core.windows.net/...`` names the account; ``abfs://CONTAINER/...``
    # takes it from the environment. A connection string (the Azure tools' own variable, which
    # Azurite's docs use too) for the same account gives its key or SAS and, for an emulator,
    # its address; otherwise a key or SAS from the environment, else the default credential chain.
    settings = _connection_string(os.environ.get("AZURE_STORAGE_CONNECTION_STRING", ""))
    account, _, suffix = host.partition(".")
    account = account or settings.get("AccountName") or os.environ.get("AZURE_STORAGE_ACCOUNT_NAME") \
        or os.environ.get("AZURE_STORAGE_ACCOUNT") or ""
    if not account:
        raise ValueError("no storage account: write abfs://CONTAINER@ACCOUNT.dfs.core.windows.net/... "
                         "or set AZURE_STORAGE_ACCOUNT_NAME")
    options: dict[str, str] = {}
    if suffix and suffix != "dfs.core.windows.net":  # another cloud (e.g. dfs.core.chinacloudapi.cn)
        options = {"dfs_storage_authority": "." + suffix.replace("blob.", "dfs.", 1),
                   "blob_storage_authority": "." + suffix.replace("dfs.", "blob.", 1)}
    if settings.get("AccountName", account) != account:
        settings = {}
    if settings.get("BlobEndpoint"):  # an emulator, addressed by path: http://HOST:PORT/ACCOUNT
        endpoint = urlsplit(settings["BlobEndpoint"])
        options = {f"{kind}_storage_{field}": value for kind in ("blob", "dfs")
                   for field, value in (("authority", endpoint.netloc), ("scheme", endpoint.scheme or "https"))}
    elif settings.get("EndpointSuffix") or settings.get("DefaultEndpointsProtocol"):
        end = settings.get("EndpointSuffix", "core.windows.net")
        scheme = settings.get("DefaultEndpointsProtocol", "https")
        options = {"blob_storage_authority": f".blob.{end}", "dfs_storage_authority": f".dfs.{end}",
                   "blob_storage_scheme": scheme, "dfs_storage_scheme": scheme}
    key = (settings.get("AccountKey") or os.environ.get("AZURE_STORAGE_ACCOUNT_KEY")
           or os.environ.get("AZURE_STORAGE_KEY"))
    sas = settings.get("SharedAccessSignature") or os.environ.get("AZURE_STORAGE_SAS_TOKEN")
    if key:
        options["account_key"] = key
    elif sas:
        options["sas_token"] = sas
    azure = getattr(pafs, "AzureFileSystem", None)
    if azure is None:
        raise ValueError("abfs:// needs pyarrow >= 16")
    return azure(account, **options)


#: The connection-string settings read, by their names lower-cased (Azure's parsers ignore case).
_SETTINGS = {name.lower(): name for name in ("AccountName", "AccountKey", "SharedAccessSignature", "BlobEndpoint",
                                              "EndpointSuffix", "DefaultEndpointsProtocol", "UseDevelopmentStorage")}


def _connection_string(text: str) -> dict[str, str]:
    """``Name=value;...`` as a dict of the settings read (values may hold ``=``; names in any
    case); ``UseDevelopmentStorage=true`` is Azurite."""
    pairs = (item.strip().split("=", 1) for item in text.split(";") if "=" in item)
    settings = {_SETTINGS[name.lower()]: value for name, value in pairs if name.lower() in _SETTINGS}
    if settings.pop("UseDevelopmentStorage", "").lower() == "true":
        settings = {**_AZURITE, **settings}
    return settings


def _gcs_emulator(host: str) -> pafs.FileSystem:
    # STORAGE_EMULATOR_HOST is Google's own variable for a local GCS server (its clients honour
    # it; pyarrow's from_uri does not): anonymous, and a project for creating buckets.
    split = urlsplit(host if "://" in host else f"http://{host}")
    return pafs.GcsFileSystem(anonymous=True, scheme=split.scheme or "http", endpoint_override=split.netloc,
                              project_id=os.environ.get("GOOGLE_CLOUD_PROJECT") or "test")


def _s3(bucket: str) -> pafs.S3FileSystem:
    # Built directly rather than by from_uri, which cannot switch background writes off:
    # a process exiting while an upload stream is open then never exits (apache/arrow#50188).
    # The direct constructor ignores AWS_ENDPOINT_URL, so it is read here.
    endpoint = os.environ.get("AWS_ENDPOINT_URL_S3") or os.environ.get("AWS_ENDPOINT_URL")
    options: dict[str, Any] = {"background_writes": False}
    region = os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION")
    if endpoint:
        split = urlsplit(endpoint if "://" in endpoint else f"https://{endpoint}")
        options["endpoint_override"] = split.netloc
        options["scheme"] = split.scheme or "https"
        region = region or "us-east-1"
    elif not region:
        region = pafs.resolve_s3_region(bucket)
    options["region"] = region
    try:
        return pafs.S3FileSystem(allow_delayed_open=True, **options)  # one PUT per small object (pyarrow ≥ 21)
    except TypeError:
        return pafs.S3FileSystem(**options)


def _remote_error(url: str, exc: BaseException) -> OSError:
    return OSError(f"{url}: {' '.join(str(exc).split()) or type(exc).__name__}")


def missing_bucket(fs: pafs.FileSystem, base: str, url: str) -> FileNotFoundError | None:
    """The one-line error for a URL whose bucket (or container) does not exist, else None.
    Asked only once a listing came back empty: stores list a missing bucket as empty."""
    bucket = base.split("/", 1)[0]
    try:
        missing = fs.get_file_info(bucket).type == pafs.FileType.NotFound
    except STORE_ERRORS:
        return None  # cannot tell (no right to look at the bucket itself): as before, nothing found
    return FileNotFoundError(f"{url}: the bucket {bucket!r} does not exist") if missing else None


def remote_files(fs: pafs.FileSystem, base: str) -> dict[str, pafs.FileInfo]:
    """Every object under ``base`` by its path relative to ``base`` (one recursive listing;
    stores synthesise no directories reliably, so only files are kept). ``{}`` when none."""
    selector = pafs.FileSelector(base, recursive=True, allow_not_found=True)
    prefix = base + "/"
    return {info.path[len(prefix):]: info for info in fs.get_file_info(selector)
            if info.type == pafs.FileType.File and info.path.startswith(prefix)}


def cache_root() -> Path:
    """``$RLPROBE_CACHE_DIR``, else ``$XDG_CACHE_HOME/rlprobe``, else ``~/.cache/rlprobe``."""
    configured = os.environ.get(CACHE_ENV)
    if configured:
        return Path(configured)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "rlprobe"


def cache_dir(kind: str) -> Path:
    """The directory of one kind of cache (a key of ``CACHE_DIRS``) under ``cache_root()``."""
    if kind not in CACHE_DIRS:
        raise ValueError(f"{kind!r}: not a kind of cache (one of {', '.join(CACHE_DIRS)})")
    return cache_root() / kind


def local_copy(url: str) -> Path:
    """The up-to-date local copy of the run at ``url`` (fetching only what changed since the
    last call, in this process or an earlier one). Raises ``FileNotFoundError`` when there
    is no recording at ``url``, ``ValueError`` for a bad URL, ``OSError`` when the store fails."""
    name = hashlib.sha256(url.rstrip("/").encode()).hexdigest()[:20]
    return pull(url, cache_dir("remote") / name)


def pull(url: str, dest: Path) -> Path:
    """Bring the local copy at ``dest`` up to date with the run at ``url`` and return
    ``dest``. Data files are fetched before the manifest and local files are removed only
    after, so the copy never lacks a row the remote run held when it was listed: a part
    missing from the listing was removed only after the compacted file holding it landed."""
    fs, base = filesystem(url)
    try:
        listing = {rel: info for rel, info in remote_files(fs, base).items() if RUN_FILE_RE.match(rel)}
    except STORE_ERRORS as exc:
        raise _remote_error(url, exc) from None
    if not any(rel.endswith(MANIFEST) for rel in listing):
        missing = None if listing else missing_bucket(fs, base, url)
        raise missing or FileNotFoundError(f"no rlprobe recording at {url} (no {MANIFEST})")
    dest.mkdir(parents=True, exist_ok=True)
    state_path = dest / _STATE
    try:
        state: dict[str, list[int]] = json.loads(state_path.read_text())
    except (OSError, ValueError):
        state = {}

    def changed(rel: str) -> bool:
        info = listing[rel]
        return state.get(rel) != [info.size, info.mtime_ns] or not (dest / rel).exists()

    parts = [rel for rel in listing if "/parts/" in f"/{rel}" and changed(rel)]
    compacted = [rel for rel in listing if rel.endswith(".parquet") and rel not in parts
                 and "/parts/" not in f"/{rel}" and changed(rel)]
    events = [rel for rel in listing if rel.endswith(EVENTS) and changed(rel)]
    manifests = [rel for rel in listing if rel.endswith(MANIFEST)]

    def fetch(rel: str) -> None:
        try:
            _download(fs, f"{base}/{rel}", dest / rel, state.get(rel) if rel.endswith(EVENTS) else None)
        except FileNotFoundError:
            return  # a part compacted away since the listing: the compacted file fetched next holds it
        state[rel] = [listing[rel].size, listing[rel].mtime_ns]

    try:
        with ThreadPoolExecutor(FETCH_THREADS) as pool:
            list(pool.map(fetch, parts))
        for group in (compacted, events, manifests):
            for rel in group:
                fetch(rel)
    except STORE_ERRORS as exc:
        raise _remote_error(url, exc) from None
    for rel in [rel for rel in state if rel not in listing]:
        try:
            os.unlink(dest / rel)
        except FileNotFoundError:
            pass
        del state[rel]
    _write_state(state_path, state)
    return dest


#: Objects a log reader never reads (model weights, optimizer state in a TRL output_dir's
#: checkpoints): not copied. ``training_args.bin`` is read, other ``.bin`` files are weights.
_NOT_LOGS = re.compile(r"(\.(safetensors|pt|pth|ckpt|gguf|npy|npz|msgpack|h5)|(?<!training_args)\.bin)$")
#: Objects a writer rewrites whole rather than appends to: fetched whole when they change.
_REWRITTEN = re.compile(r"\.(json|yaml|db|db-wal|db-shm|bin|parquet)$")


def pull_objects(url: str, dest: Path) -> Path:
    """Bring the local copy at ``dest`` up to date with the object at ``url``, or every
    object under it, for a log that is not an rlprobe recording (``s3://bucket/job.out``, a
    TensorBoard prefix). Only what changed is fetched: an object that grew (a log) from where
    its copy ends, one a writer rewrites whole (``.json``, a database, ...) whole; model
    weights are never copied. Returns the copy of ``url``: ``dest/<name>`` for one object,
    ``dest/<name>/`` for a prefix. Raises ``FileNotFoundError`` when nothing is at ``url``,
    ``ValueError`` for a bad URL, ``OSError`` when the store fails."""
    fs, base = filesystem(url)
    name = base.rsplit("/", 1)[-1] or "source"
    try:
        if fs.get_file_info(base).type == pafs.FileType.File:
            listing, root, prefix = {name: fs.get_file_info(base)}, base.rsplit("/", 1)[0], dest
        else:
            listing = {rel: info for rel, info in remote_files(fs, base).items() if not _NOT_LOGS.search(rel)}
            root, prefix = base, dest / name
    except STORE_ERRORS as exc:
        raise _remote_error(url, exc) from None
    if not listing:
        raise missing_bucket(fs, base, url) or FileNotFoundError(f"{url}: no object or prefix there")
    prefix.mkdir(parents=True, exist_ok=True)
    state_path = dest / _STATE
    try:
        state: dict[str, list[int]] = json.loads(state_path.read_text())
    except (OSError, ValueError):
        state = {}
    for rel, info in listing.items():
        if state.get(rel) == [info.size, info.mtime_ns] and (prefix / rel).exists():
            continue
        try:
            _download(fs, f"{root}/{rel}", prefix / rel, None if _REWRITTEN.search(rel) else state.get(rel))
        except FileNotFoundError:
            continue  # gone since the listing
        except STORE_ERRORS as exc:
            raise _remote_error(url, exc) from None
        state[rel] = [info.size, info.mtime_ns]
    _write_state(state_path, state)
    return prefix / name if prefix == dest else prefix


def _manifest_bytes(fs: pafs.FileSystem, path: str, tries: int = 4) -> bytes:
    """The manifest at ``path``, read again (a few times) while it does not parse: a store that
    rewrites an object in place (some S3-compatible servers; S3, GCS and Azure replace it whole)
    can answer a GET racing a PUT with half of it. One still torn is left to the reader to report."""
    data = b""
    for attempt in range(tries):
        with fs.open_input_stream(path) as fh:
            data = bytes(fh.read())
        try:
            json.loads(data)
            break
        except ValueError:
            time.sleep(0.05 * (attempt + 1))
    return data


def _download(fs: pafs.FileSystem, src: str, target: Path, had: list[int] | None) -> None:
    """Copy one object to ``target`` atomically (another process may be reading or updating
    the same copy). For an object that only grows (``events.jsonl``) and whose earlier copy
    is there, fetch just the bytes past it."""
    target.parent.mkdir(parents=True, exist_ok=True)
    # Not fsynced: a copy is checked against the store on every look and fetched again when lost.
    with atomic_path(target, durable=False) as tmp, open(tmp, "wb") as out:
        if target.name == MANIFEST:
            out.write(_manifest_bytes(fs, src))
        elif not (had is not None and _append_tail(fs, src, target, had[0], out)):
            out.seek(0)
            out.truncate()
            with fs.open_input_stream(src) as fh:
                while chunk := fh.read(8 * 2**20):
                    out.write(chunk)


def _write_state(state_path: Path, state: dict[str, list[int]]) -> None:
    """Save what a copy holds (``{relative path: [size, mtime_ns]}``); a lost state only
    costs fetching again, so it is not fsynced."""
    with atomic_path(state_path, durable=False) as tmp:
        tmp.write_text(json.dumps(state))


def _append_tail(fs: pafs.FileSystem, src: str, target: Path, known: int, out: BinaryIO) -> bool:
    """Write the copy at ``target`` (``known`` bytes long, as last fetched) and the bytes
    of ``src`` past it to ``out``; False when the copy or the object is not as expected."""
    try:
        local = target.read_bytes()
    except FileNotFoundError:
        return False
    if len(local) != known:
        return False
    with fs.open_input_file(src) as fh:
        size = fh.size()
        if size < known:
            return False  # rewritten, not grown
        out.write(local)
        out.write(fh.read_at(size - known, known) if size > known else b"")
    return True


def load_remote_manifest(url: str) -> dict[str, Any]:
    """``load_manifest`` for a URL: the run's manifest (rank 0's for a run every rank
    recorded), fetched alone. Raises as ``load_manifest`` does."""
    fs, base = filesystem(url)
    for rel in (MANIFEST, None):
        if rel is None:  # no top-level manifest: the lowest rank's
            try:
                ranks = sorted((int(m.group(1)), key) for key in remote_files(fs, base)
                               if (m := re.match(r"^rank-(\d+)/manifest\.json$", key)))
            except STORE_ERRORS as exc:
                raise _remote_error(url, exc) from None
            if not ranks:
                raise FileNotFoundError(f"no rlprobe recording at {url} (no {MANIFEST})")
            rel = ranks[0][1]
        try:
            data = _manifest_bytes(fs, f"{base}/{rel}")
        except FileNotFoundError:
            continue
        except STORE_ERRORS as exc:
            raise _remote_error(url, exc) from None
        return parse_manifest(url, f"{url.rstrip('/')}/{rel}", data)
    raise AssertionError("unreachable")


def list_remote_runs(url: str, max_depth: int, include_unreadable: bool) -> list[dict[str, Any]]:
    """``list_runs`` for a URL: one recursive listing, the manifests it finds fetched in
    parallel. A run inside another run's directory is not one (as for local roots)."""
    fs, base = filesystem(url)
    root = url.rstrip("/")
    try:
        keys = sorted(remote_files(fs, base))
        missing = None if keys else missing_bucket(fs, base, url)
    except STORE_ERRORS as exc:
        raise _remote_error(url, exc) from None
    if missing is not None:
        raise missing
    manifests: dict[str, str] = {}  # run, relative to root → its manifest's key
    for key in keys:
        if not (key == MANIFEST or key.endswith("/" + MANIFEST)):
            continue
        run = key[:-len(MANIFEST)].rstrip("/")
        match = re.match(r"^(?:(.*)/)?rank-\d+$", run)
        if match and f"{match.group(1) + '/' if match.group(1) else ''}{MANIFEST}" not in keys:
            run = match.group(1) or ""  # a run every rank recorded: its lowest rank speaks for it
            if run in manifests:
                continue
        manifests.setdefault(run, key)
    runs = {run: key for run, key in manifests.items()
            if (run.count("/") + 1 if run else 0) <= max_depth
            and not any(part.startswith(".") for part in run.split("/") if part)
            and not any(run.startswith(other + "/") or (other == "" and run) for other in manifests)}

    def fetch(item: tuple[str, str]) -> dict[str, Any]:
        run, key = item
        path = f"{root}/{run}" if run else root
        try:
            manifest = parse_manifest(path, f"{root}/{key}", _manifest_bytes(fs, f"{base}/{key}"))
        except (ValueError, *STORE_ERRORS) as exc:
            return {"path": path, "error": str(exc) if isinstance(exc, RecordingError)
                    else f"{root}/{key}: unreadable manifest: {exc}"}
        manifest["path"] = path
        return manifest

    with ThreadPoolExecutor(FETCH_THREADS) as pool:
        found = list(pool.map(fetch, sorted(runs.items())))
    good = sorted((m for m in found if "error" not in m), key=lambda m: (m.get("created_at") or 0.0))
    bad = sorted((m for m in found if "error" in m), key=lambda m: m["path"])
    return good + (bad if include_unreadable else [])
