"""An S3-compatible server for the object-storage tests: moto's, as a subprocess on a free
loopback port (one per xdist worker), a fresh bucket per test. Credentials and the endpoint
are always set, so that neither pyarrow nor Polars ever looks past 127.0.0.1 (without
credentials both fall back to the cloud metadata address)."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import uuid
from typing import Iterator

import pytest
import requests

#: What every test here runs with (and hands to the subprocesses it starts).
CREDENTIALS = {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing", "AWS_REGION": "us-east-1",
               "AWS_DEFAULT_REGION": "us-east-1", "AWS_EC2_METADATA_DISABLED": "true"}


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="session")
def s3_endpoint() -> Iterator[str]:
    """``http://127.0.0.1:PORT`` of a moto S3 server running for this test session (worker)."""
    if os.environ.get("CI"):
        import moto.server  # noqa: F401  (CI must run these tests: never skip there)
    else:
        pytest.importorskip("moto.server", reason="needs moto[s3], flask and flask-cors (requirements/test.txt)")
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env={**os.environ, **CREDENTIALS})
    endpoint = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                requests.get(f"{endpoint}/moto-api/", timeout=2)
                break
            except requests.ConnectionError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("moto's S3 server did not start") from None
                time.sleep(0.1)
        yield endpoint
    finally:
        proc.terminate()
        proc.wait(10)


@pytest.fixture
def s3_env(s3_endpoint: str, monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
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
