"""Local object stores for the object-storage tests, each a subprocess on a free loopback port
(one per xdist worker) with a fresh bucket per test: moto's S3 server, gcp-storage-emulator for
GCS and Azurite for Azure Blob. Credentials and endpoints are always set, so that neither pyarrow
nor Polars ever looks past 127.0.0.1 (without credentials they fall back to the cloud metadata
address)."""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

#: What every test here runs with (and hands to the subprocesses it starts).
CREDENTIALS = {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing", "AWS_REGION": "us-east-1",
               "AWS_DEFAULT_REGION": "us-east-1", "AWS_EC2_METADATA_DISABLED": "true"}


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _needs(module: str, what: str) -> None:
    if os.environ.get("CI"):
        __import__(module)  # CI must run these tests: never skip there
    else:
        pytest.importorskip(module, reason=f"needs {what} (requirements/test.txt)")


def _serve(args: list[str], probe: str, name: str, env: dict[str, str] | None = None) -> Iterator[str]:
    """Run ``args`` (``{port}`` filled with a free loopback port) until ``probe`` (a path)
    answers; yield ``http://127.0.0.1:PORT``; stop it afterwards."""
    port = _free_port()
    proc = subprocess.Popen([a.format(port=port) for a in args],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    endpoint = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                requests.get(f"{endpoint}{probe}", timeout=2)
                break
            except requests.ConnectionError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"{name} did not start") from None
                time.sleep(0.1)
        yield endpoint
    finally:
        proc.terminate()
        proc.wait(10)


@pytest.fixture(scope="session")
def s3_endpoint() -> Iterator[str]:
    """``http://127.0.0.1:PORT`` of a moto S3 server running for this test session (worker)."""
    _needs("moto.server", "moto[s3], flask and flask-cors")
    yield from _serve([sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", "{port}"], "/moto-api/",
                      "moto's S3 server", env={**os.environ, **CREDENTIALS})


@pytest.fixture(scope="session")
def gcs_host() -> Iterator[str]:
    """``http://127.0.0.1:PORT`` of a local GCS server (gcp-storage-emulator) for this session (worker)."""
    _needs("gcp_storage_emulator", "gcp-storage-emulator")
    yield from _serve([sys.executable, "-m", "gcp_storage_emulator", "start", "--host", "127.0.0.1",
                       "--port", "{port}", "--in-memory"],
                      "/storage/v1/b?project=test", "the GCS emulator")


#: Where `make test` installs Azurite (npm), else found on PATH.
AZURITE = Path(__file__).resolve().parents[2] / ".venv" / "azurite" / "node_modules" / ".bin" / "azurite-blob"
#: Azurite's account: the emulator's published name and key.
AZURITE_ACCOUNT = ("devstoreaccount1",
                   "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==")


@pytest.fixture(scope="session")
def azurite_host() -> Iterator[str]:
    """``http://127.0.0.1:PORT`` of an Azurite blob server (in memory, no telemetry) for this session (worker)."""
    command = str(AZURITE) if AZURITE.exists() else shutil.which("azurite-blob")
    if command is None:
        if os.environ.get("CI"):
            raise RuntimeError(f"Azurite is missing: `make test` installs it with npm into {AZURITE.parents[2]}")
        pytest.skip("needs Azurite (npm; `make test` installs it when npm is present)")
    yield from _serve([command, "--blobHost", "127.0.0.1", "--blobPort", "{port}", "--inMemoryPersistence",
                       "--disableTelemetry", "--silent", "--skipApiVersionCheck", "--loose"],
                      f"/{AZURITE_ACCOUNT[0]}?comp=list", "Azurite")


@pytest.fixture
def s3_env(s3_endpoint: str, monkeypatch: pytest.MonkeyPatch,
           tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The environment pointing both libraries at the test server (set in this process too),
    with a cache directory of this test's own."""
    env = {**CREDENTIALS, "AWS_ENDPOINT_URL": s3_endpoint,
           "RLPROBE_CACHE_DIR": str(tmp_path_factory.mktemp("cache"))}
    for name in ("AWS_ENDPOINT_URL_S3", "AWS_PROFILE", "AWS_SESSION_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return {**os.environ, **env}


@pytest.fixture
def bucket(s3_endpoint: str, s3_env: dict[str, str]) -> str:
    """``s3://NAME`` of a new, empty bucket."""
    name = f"t-{uuid.uuid4().hex[:16]}"
    requests.put(f"{s3_endpoint}/{name}", timeout=10).raise_for_status()
    return f"s3://{name}"


@pytest.fixture
def gcs_bucket(gcs_host: str, monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> str:
    """``gs://NAME`` of a new, empty bucket, reached through Google's ``STORAGE_EMULATOR_HOST``."""
    monkeypatch.setenv("STORAGE_EMULATOR_HOST", gcs_host)
    monkeypatch.setenv("RLPROBE_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
    name = f"t-{uuid.uuid4().hex[:16]}"
    requests.post(f"{gcs_host}/storage/v1/b?project=test", json={"name": name}, timeout=10).raise_for_status()
    return f"gs://{name}"


@pytest.fixture
def abfs_container(azurite_host: str, monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> str:
    """``abfs://NAME`` of a new, empty container in Azurite, reached through Azure's
    ``AZURE_STORAGE_CONNECTION_STRING`` (which names the account, so the URL need not)."""
    account, key = AZURITE_ACCOUNT
    for name in ("AZURE_STORAGE_ACCOUNT_NAME", "AZURE_STORAGE_ACCOUNT", "AZURE_STORAGE_ACCOUNT_KEY",
                 "AZURE_STORAGE_KEY", "AZURE_STORAGE_SAS_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AZURE_STORAGE_CONNECTION_STRING", f"DefaultEndpointsProtocol=http;AccountName={account};"
                       f"AccountKey={key};BlobEndpoint={azurite_host}/{account};")
    monkeypatch.setenv("RLPROBE_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
    from rlprobe.storage.location import filesystem

    name = f"t-{uuid.uuid4().hex[:16]}"
    fs, _ = filesystem(f"abfs://{name}")
    fs.create_dir(name)
    return f"abfs://{name}"
