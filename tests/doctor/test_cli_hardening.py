"""Exit codes on a closed pipe, output paths that cannot be, and webhook URLs carrying
credentials (redacted wherever shown, delivered as HTTP basic auth)."""
from __future__ import annotations

import base64
import http.server
import json
import os
import shutil
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from click.testing import CliRunner

from rlprobe import RlprobeWarning
from rlprobe.doctor import Finding
from rlprobe.doctor.cli import main
from rlprobe.doctor.errors import UnusableInput
from rlprobe.doctor.live import webhook_sink

RLPROBE = shutil.which("rlprobe", path=os.path.dirname(sys.executable)) or "rlprobe"


def run_with_closed_stdout(*args: str) -> subprocess.CompletedProcess[bytes]:
    """``rlprobe ARGS`` whose stdout is a pipe nobody reads any more (``| head -0``): the
    read end is closed before the command starts, so its first write meets a closed pipe."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return subprocess.run([RLPROBE, *args], stdout=write_end, stderr=subprocess.PIPE, timeout=120)
    finally:
        os.close(write_end)


@pytest.mark.parametrize("pathology, code", [("kl_blowup", 1), ("healthy", 0)])
def test_doctor_keeps_its_exit_code_when_stdout_is_closed(synth_run, pathology, code) -> None:
    done = run_with_closed_stdout("doctor", str(synth_run(pathology, 400, 1)))
    assert done.returncode == code
    assert done.stderr == b""  # no BrokenPipeError, no "Exception ignored" at exit


@pytest.mark.parametrize("args", [["ls", "{run}"], ["show", "{run}", "--step", "300"], ["samples", "{run}"],
                                  ["diff", "{run}", "{run}"], ["report", "{run}", "--out", "{tmp}/r.html"],
                                  ["watch", "{run}", "--max-ticks", "1", "--poll", "0"]])
def test_every_command_survives_a_closed_stdout(synth_run, tmp_path, args) -> None:
    run = synth_run("kl_blowup", 400, 1)
    done = run_with_closed_stdout(*[a.format(run=run, tmp=tmp_path) for a in args])
    assert done.returncode == (1 if args[0] == "watch" else 0), done.stderr
    assert done.stderr == b""


def test_report_into_a_path_under_a_file_is_a_usage_error(synth_run, tmp_path) -> None:
    (tmp_path / "some-file").write_text("not a directory")
    for out in ("some-file/r.html", "some-file/deeper/r.html"):
        result = CliRunner().invoke(main, ["report", str(synth_run("healthy", 400, 0)), "--out", str(tmp_path / out)])
        assert result.exit_code == 2
        assert result.stderr.strip().splitlines() == [
            f"rlprobe: error: cannot write {tmp_path / out}: {(tmp_path / out).parent} is not a directory"]


# -- webhook URLs with credentials ------------------------------------------------------------


class AuthEndpoint(http.server.ThreadingHTTPServer):
    """A webhook receiver on 127.0.0.1 that takes a POST only with the right basic-auth header."""

    daemon_threads = True

    def __init__(self, user: str, password: str) -> None:
        super().__init__(("127.0.0.1", 0), _AuthHandler)
        self.expected = "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()
        self.bodies: list[dict[str, Any]] = []
        self.refused = 0

    @property
    def port(self) -> int:
        return self.server_address[1]


class _AuthHandler(http.server.BaseHTTPRequestHandler):
    server: AuthEndpoint

    def do_POST(self) -> None:  # noqa: N802 - http.server's naming
        body = self.rfile.read(int(self.headers["Content-Length"]))
        if self.headers.get("Authorization") != self.server.expected:
            self.server.refused += 1
            self.send_response(401)
        else:
            self.server.bodies.append(json.loads(body))
            self.send_response(200)
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def auth_endpoint() -> Iterator[AuthEndpoint]:
    server = AuthEndpoint("alert-bot", "s3cr:et/%")
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def finding() -> Finding:
    return Finding(signature_id="KL_BLOWUP", severity="critical", confidence=0.9, first_step=10,
                   explanation="KL rose from 0.01 to 2 (×200).")


def test_credentials_in_a_webhook_url_are_sent_as_basic_auth(auth_endpoint: AuthEndpoint) -> None:
    sink = webhook_sink(f"http://alert-bot:s3cr%3Aet%2F%25@127.0.0.1:{auth_endpoint.port}/hooks/x", retries=0)
    sink(finding())
    assert sink.drain(10)
    assert sink.sent == 1 and auth_endpoint.refused == 0
    assert "KL_BLOWUP" in auth_endpoint.bodies[0]["text"]
    assert "s3cr" not in sink.url and "alert-bot" not in sink.url and "s3cr" not in repr(sink)


def test_wrong_credentials_are_refused_and_the_warning_shows_no_secret(auth_endpoint: AuthEndpoint) -> None:
    sink = webhook_sink(f"http://alert-bot:wrong-secret@127.0.0.1:{auth_endpoint.port}/hooks/x", retries=0)
    with pytest.warns(RlprobeWarning, match="HTTP 401") as caught:
        sink(finding())
        assert sink.drain(10)
    assert auth_endpoint.refused == 1 and sink.failed == 1
    message = str(caught[0].message)
    assert f"http://127.0.0.1:{auth_endpoint.port}" in message
    assert "wrong-secret" not in message and "alert-bot" not in message and "hooks" not in message


def test_watch_never_prints_webhook_credentials(synth_run) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # nothing listens there once the socket closes
    url = f"http://user:topsecret@127.0.0.1:{port}/services/T0/B0/XXXX"
    result = CliRunner().invoke(main, ["watch", str(synth_run("kl_blowup", 400, 1)), "--max-ticks", "1",
                                       "--webhook", url])
    assert result.exit_code == 1
    assert "failed" in result.stderr and f"127.0.0.1:{port}" in result.stderr
    assert "topsecret" not in result.output + result.stderr and "XXXX" not in result.output + result.stderr


def test_a_bad_webhook_url_is_refused_without_echoing_its_credentials() -> None:
    with pytest.raises(UnusableInput, match="must start with http") as refused:
        webhook_sink("ftp://user:topsecret@example.com/hook")
    assert "topsecret" not in str(refused.value)


def test_a_webhook_url_urllib_would_choke_on_is_refused_at_once() -> None:
    with pytest.raises(UnusableInput, match="percent-encode") as refused:
        webhook_sink("http://127.0.0.1:9/hooks/sec ret")
    assert "sec ret" not in str(refused.value)
