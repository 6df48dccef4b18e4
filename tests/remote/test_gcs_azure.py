"""gs:// and abfs:// through pyarrow's GCS and Azure filesystems, against local servers on free
loopback ports: gcp-storage-emulator (found through Google's ``STORAGE_EMULATOR_HOST``) and
Azurite (through Azure's ``AZURE_STORAGE_CONNECTION_STRING``). A run recorded with ``upload_to``
and a run pushed after the fact read from the bucket as they read locally; abfs:// URLs take
the account, key and endpoint from Azure's variables."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from rlprobe import Recorder
from rlprobe.doctor import diagnose
from rlprobe.doctor.cli import main
from rlprobe.storage import RunReader, list_runs, location
from rlprobe.storage.location import filesystem
from rlprobe.storage.upload import push


@pytest.fixture(params=["gcs_bucket", "abfs_container"])
def store(request: pytest.FixtureRequest) -> str:
    """A new, empty ``gs://`` bucket or ``abfs://`` container."""
    return request.getfixturevalue(request.param)


def test_a_run_recorded_with_upload_to_reads_as_the_local_one(store: str, tmp_path: Path):
    url = f"{store}/runs/live"
    with Recorder(tmp_path / "run", upload_to=url, flush_interval_s=0.1, capture_env=False,
                  install_handlers=False) as rec:
        for step in range(200):
            rec.log_step(step, reward=0.5 + step / 400, kl=0.01 * (1 + step / 50))
            rec.log_samples(step, [{"prompt": "p", "completion": f"c{step}", "reward": 0.5}], select=False)
    remote, local = RunReader(url), RunReader(tmp_path / "run")
    assert remote.manifest["status"] == "finished"
    assert local.manifest["counts"]["storage_errors"] == 0
    assert remote.steps().drop_columns(["time"]).equals(local.steps().drop_columns(["time"]))
    assert remote.samples().num_rows == local.samples().num_rows == 200


def test_a_pushed_run_is_listed_and_diagnosed(store: str, synth_run):
    run = synth_run("kl_blowup", 400, 1)
    push(run, f"{store}/fleet/kl")
    [listed] = list_runs(f"{store}/fleet")
    assert listed["path"] == f"{store}/fleet/kl"
    assert [f.model_dump() for f in diagnose(f"{store}/fleet/kl")] == [f.model_dump() for f in diagnose(run)]


def test_the_cli_reads_abfs_with_the_account_in_the_url(abfs_container: str, synth_run, tmp_path: Path):
    # The URL form Azure's own tools print: abfs://CONTAINER@ACCOUNT.dfs.core.windows.net/...
    # (the connection string's endpoint for that account still reaches the emulator).
    container = abfs_container.removeprefix("abfs://")
    url = f"abfs://{container}@devstoreaccount1.dfs.core.windows.net/runs/kl"
    run = synth_run("kl_blowup", 400, 1)
    pushed = CliRunner().invoke(main, ["push", str(run), url])
    assert pushed.exit_code == 0, pushed.output
    remote, local = (CliRunner().invoke(main, ["doctor", where, "--json"]) for where in (url, str(run)))
    assert remote.exit_code == local.exit_code == 1, remote.output
    assert json.loads(remote.output) == json.loads(local.output) != []
    listing = CliRunner().invoke(main, ["ls", f"{abfs_container}/runs", "--health"])
    assert listing.exit_code == 0, listing.output
    assert "KL_BLOWUP" in listing.output and f"{abfs_container}/runs/kl" in listing.output


def _azure_options(url: str) -> tuple[dict, str]:
    fs, path = filesystem(url)
    options = fs.__reduce__()[1][0]  # pyarrow's own record of how the filesystem was built
    return {k: v for k, v in options.items() if v}, path


AZURITE_KEY = location._AZURITE["AccountKey"]
KEY = "a2V5"  # base64 of "key": building a filesystem contacts nothing


@pytest.mark.parametrize("env, url, expected", [
    # the account in the URL, a key from the environment, Azure's public cloud
    ({"AZURE_STORAGE_ACCOUNT_KEY": KEY}, "abfs://c@acct.dfs.core.windows.net/r",
     {"account_name": "acct", "account_key": KEY}),
    # another cloud: its endpoints follow the URL's host
    ({"AZURE_STORAGE_SAS_TOKEN": "sv=1&sig=x"}, "abfss://c@acct.dfs.core.chinacloudapi.cn/r",
     {"account_name": "acct", "sas_token": "sv=1&sig=x", "dfs_storage_authority": ".dfs.core.chinacloudapi.cn",
      "blob_storage_authority": ".blob.core.chinacloudapi.cn"}),
    # the account from the environment; no key: the default credential chain
    ({"AZURE_STORAGE_ACCOUNT_NAME": "acct"}, "abfs://c/r", {"account_name": "acct"}),
    # a connection string names the account, its key and an emulator's address
    ({"AZURE_STORAGE_CONNECTION_STRING": f"AccountName=dev;AccountKey={KEY};BlobEndpoint=http://127.0.0.1:9/dev"},
     "abfs://c/r", {"account_name": "dev", "account_key": KEY, "blob_storage_authority": "127.0.0.1:9",
                    "dfs_storage_authority": "127.0.0.1:9", "blob_storage_scheme": "http",
                    "dfs_storage_scheme": "http"}),
    # Azurite's shorthand (setting names in any case, as Azure's own parsers take them)
    ({"AZURE_STORAGE_CONNECTION_STRING": "usedevelopmentstorage=true"}, "az://c/r",
     {"account_name": "devstoreaccount1", "account_key": AZURITE_KEY, "blob_storage_authority": "127.0.0.1:10000",
      "dfs_storage_authority": "127.0.0.1:10000", "blob_storage_scheme": "http", "dfs_storage_scheme": "http"}),
    # a connection string for another account does not apply to this one
    ({"AZURE_STORAGE_CONNECTION_STRING": f"AccountName=other;AccountKey={KEY};EndpointSuffix=core.usgovcloudapi.net"},
     "abfs://c@acct.dfs.core.windows.net/r", {"account_name": "acct"}),
])
def test_abfs_urls_take_account_key_and_endpoint_from_azures_variables(monkeypatch, env, url, expected):
    for name in location._AZURE_ENV:
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    options, path = _azure_options(url)
    defaults = {"blob_storage_authority": ".blob.core.windows.net", "dfs_storage_authority": ".dfs.core.windows.net",
                "blob_storage_scheme": "https", "dfs_storage_scheme": "https"}
    assert options == {**defaults, **expected}
    assert path == "c/r"


def test_an_abfs_url_without_an_account_is_one_line_and_exit_2(monkeypatch):
    for name in location._AZURE_ENV:
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(ValueError, match="no storage account"):
        filesystem("abfs://container/run")
    result = CliRunner().invoke(main, ["doctor", "abfs://container/run"])
    assert result.exit_code == 2 and "AZURE_STORAGE_ACCOUNT_NAME" in result.output
    assert len(result.output.strip().splitlines()) == 1


@pytest.mark.parametrize("command", ["ls", "doctor", "push"])
def test_a_malformed_azure_key_is_one_line_and_exit_2(monkeypatch, synth_run, command):
    """pyarrow raises a bare ArrowException ("Unknown error") for it, neither OSError nor ValueError."""
    for name in location._AZURE_ENV:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AZURE_STORAGE_CONNECTION_STRING",
                       "AccountName=a;AccountKey=not-base64!!;BlobEndpoint=http://127.0.0.1:9/a")
    args = [command] + ([str(synth_run("healthy", 100, 0))] if command == "push" else []) + ["abfs://c/run"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2 and "internal error" not in result.output, result.output
    assert result.output.startswith("rlprobe: error: abfs://c/") and result.output.count("\n") == 1
