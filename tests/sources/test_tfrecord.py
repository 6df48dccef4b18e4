"""TensorBoard event files are read with their TFRecord CRCs checked: the vectorised CRC-32C
agrees with the definition, and a file written by tensorboardX and then damaged is read up to
the damage with a note (as a W&B run log is), whole or followed; an intact one is read whole."""
from __future__ import annotations

import random
import struct
from pathlib import Path

import numpy as np
import pytest

from rlprobe.doctor import RunView
from rlprobe.doctor.sources import ImportedRun, SourceError, follow, tensorboard, tfrecord
from rlprobe.records import EventKind


def _crc32c_bitwise(data: bytes) -> int:
    """CRC-32C as its definition states it, a bit at a time."""
    crc = 0xFFFFFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 if crc & 1 else 0)
    return crc ^ 0xFFFFFFFF


def test_crc32c_of_many_spans_agrees_with_its_definition() -> None:
    rng = random.Random(0)
    data = rng.randbytes(40_000)
    lengths = [*range(0, 20), 255, 256, 257, 511, 512, 513, 1000, 4097, 20_000]
    starts = [rng.randrange(0, len(data) - n + 1) for n in lengths]
    got = tfrecord.crc32c(data, np.array(starts), np.array(lengths)).tolist()
    assert got == [_crc32c_bitwise(data[s:s + n]) for s, n in zip(starts, lengths, strict=True)]
    assert tfrecord.crc32c(b"123456789", np.array([0]), np.array([9]))[0] == 0xE3069283  # the check value


def test_masked_crcs_are_tensorboardx_s() -> None:
    record_writer = pytest.importorskip("tensorboardX.record_writer")
    data = random.Random(1).randbytes(3000)
    spans = [(0, 8), (17, 61), (100, 300), (0, 3000)]
    got = tfrecord.masked(tfrecord.crc32c(data, np.array([s for s, _ in spans]), np.array([n for _, n in spans])))
    assert got.tolist() == [record_writer.masked_crc32c(data[s:s + n]) for s, n in spans]


def _event_file(folder: Path, steps: int = 40) -> Path:
    """An event file written by tensorboardX's SummaryWriter: the args as text, scalars,
    every tenth step a histogram (a record the fast scalar scan leaves), the Trainer's summary."""
    tensorboardx = pytest.importorskip("tensorboardX")
    writer = tensorboardx.SummaryWriter(str(folder))
    writer.add_text("args", '{"beta": 0.04}')
    for step in range(1, steps + 1):
        for tag, value in (("train/loss", 0.01 * step), ("train/reward", 0.5 + 0.01 * step), ("train/kl", 0.002)):
            writer.add_scalar(tag, value, step)
        if step % 10 == 0:
            writer.add_histogram("weights", np.arange(100.0), step)
    writer.add_scalar("train/train_runtime", 12.5, steps)
    writer.close()
    return next(folder.iterdir())


def _record_starts(data: bytes) -> list[int]:
    framing = tfrecord.walk(data)
    assert framing.damage is None and framing.end == len(data)
    return framing.starts.tolist()


def _notes(view: RunView) -> list[str]:
    return [e["message"] for e in view.events_of(EventKind.IMPORT_NOTE)]


def test_an_intact_event_file_is_read_whole_without_a_note(tmp_path: Path) -> None:
    view = RunView.load(_event_file(tmp_path / "tb"))
    assert view.n_steps == 40 and view.manifest["trainer_config"]["beta"] == 0.04
    assert not any("CRC" in n or "cut short" in n for n in _notes(view))
    assert view.events_of(EventKind.TRAIN_SUMMARY)


@pytest.mark.parametrize("where", ["scalar value", "length", "histogram"])
def test_a_flipped_byte_ends_the_reading_at_its_record_with_a_note(tmp_path: Path, where: str) -> None:
    original = _event_file(tmp_path / "tb")
    data = original.read_bytes()
    starts = _record_starts(data)
    histograms = [s for s in starts if b"weights" in data[s:s + 200]]
    record = {"scalar value": starts[len(starts) // 2], "length": starts[len(starts) // 2],
              "histogram": histograms[1]}[where]
    length = struct.unpack_from("<Q", data, record)[0]
    flip = {"scalar value": record + 12 + length - 1, "length": record, "histogram": record + 12 + length // 2}[where]
    damaged = bytearray(data)
    damaged[flip] ^= 0x04
    copy = tmp_path / "damaged" / original.name
    copy.parent.mkdir()
    copy.write_bytes(bytes(damaged))

    whole = RunView.load(original)
    view = RunView.load(copy)
    assert 0 < view.n_steps < whole.n_steps and view.step.max() < whole.step.max()  # nothing after the damage
    kind = "bad length CRC" if where == "length" else "bad CRC"
    assert [n for n in _notes(view) if f"{kind} at byte {record}" in n and "a damaged file" in n]
    assert not view.events_of(EventKind.TRAIN_SUMMARY)  # logged after the damage


def test_a_file_cut_short_is_read_to_its_last_whole_record_with_a_note(tmp_path: Path) -> None:
    original = _event_file(tmp_path / "tb")
    data = original.read_bytes()
    copy = tmp_path / "cut" / original.name
    copy.parent.mkdir()
    copy.write_bytes(data[:-7])
    view = RunView.load(copy)
    assert view.n_steps == 40
    assert [n for n in _notes(view) if f"cut short at byte {_record_starts(data)[-1]}" in n and "writer killed" in n]


def test_damage_before_any_scalar_is_one_line(tmp_path: Path) -> None:
    original = _event_file(tmp_path / "tb")
    data = bytearray(original.read_bytes())
    data[_record_starts(bytes(data))[1] + 20] ^= 0xFF  # the args text, before the first scalar
    copy = tmp_path / "bad" / original.name
    copy.parent.mkdir()
    copy.write_bytes(bytes(data))
    with pytest.raises(SourceError, match="holds no scalars before the damage \\(bad CRC at byte"):
        tensorboard.read(copy)


def test_a_followed_file_is_read_up_to_damage_and_no_further(tmp_path: Path) -> None:
    original = _event_file(tmp_path / "tb")
    data = bytearray(original.read_bytes())
    starts = _record_starts(bytes(data))
    middle = starts[len(starts) // 2]
    data[middle + 14] ^= 0x01
    copy = tmp_path / "live" / original.name
    copy.parent.mkdir()
    copy.write_bytes(bytes(data[:middle - 5]))  # the look lands inside a record: it waits
    tail = follow(copy.parent)
    first = tail.look()
    assert first.step_table is not None and not _damage_notes(first)
    with open(copy, "ab") as fh:
        fh.write(bytes(data[middle - 5:]))
    second = tail.look()
    assert [n for n in _damage_notes(second) if f"bad CRC at byte {middle}" in n and "not read" in n]
    with open(copy, "ab") as fh:
        fh.write(bytes(data[starts[1]:]))  # more records after the damage: never read
    third = tail.look()
    assert third.step_table is None and not third.events


def _damage_notes(run: ImportedRun) -> list[str]:
    return [message for kind, _, message, _ in run.events if kind == EventKind.IMPORT_NOTE and "byte" in message]


def _framed(records: list[bytes]) -> bytes:
    """Records framed as TFRecord, with their masked CRCs."""
    out = bytearray()
    for data in records:
        header = struct.pack("<Q", len(data))
        out += header + struct.pack("<I", _masked(header)) + data + struct.pack("<I", _masked(data))
    return bytes(out)


def _masked(data: bytes) -> int:
    crc = _crc32c_bitwise(data)
    return ((((crc >> 15) | (crc << 17)) & 0xFFFFFFFF) + 0xA282EAD8) & 0xFFFFFFFF


def _walked(data: bytes) -> tuple[list[int], list[int], int, str | None]:
    """``tfrecord.frame`` as its definition states it: ``walk``, stopped at the first record
    whose length's CRC is wrong."""
    framing = tfrecord.walk(data)
    starts, lengths = framing.starts.tolist(), framing.lengths.tolist()
    for i, start in enumerate(starts):
        if not tfrecord._length_ok(data[start:start + 12]):
            return starts[:i], lengths[:i], start, tfrecord.damage_at(data, start)
    return starts, lengths, framing.end, framing.damage


@pytest.mark.parametrize("seed", range(12))
def test_frame_finds_the_records_walk_finds_in_a_periodic_log_damaged_anywhere(seed: int) -> None:
    rng = random.Random(seed)
    tags = [rng.randbytes(rng.randrange(1, 40)) for _ in range(rng.randrange(1, 9))]
    records = [b"\x09" + rng.randbytes(20)]  # a first record of its own
    for step in range(rng.randrange(50, 400)):
        records += [b"\x10" + bytes([step % 128]) + tag for tag in tags]
        if step % rng.randrange(5, 30) == 0:
            records.append(rng.randbytes(rng.randrange(0, 300)))  # an eval, a text: off the period
    data = bytearray(_framed(records))
    if seed % 3:
        for _ in range(seed % 3):
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
    if seed % 4 == 0:
        del data[rng.randrange(len(data)):]
    got = tfrecord.frame(bytes(data))
    assert (got.starts.tolist(), got.lengths.tolist(), got.end, got.damage) == _walked(bytes(data))


def test_one_scalar_records_decode_as_field_by_field() -> None:
    """``scalar_events.decode`` takes exactly the records of its layout and gives the values
    the field-by-field decoder gives them; every other record is left to that decoder."""
    pb = pytest.importorskip("tensorboardX.proto.event_pb2")
    summary_pb2 = pytest.importorskip("tensorboardX.proto.summary_pb2")
    from rlprobe.doctor.sources import scalar_events

    records = []
    for step in [0, 1, 127, 128, 300, 16383, 16384, 2**40, -1, -5, 2**62]:
        for tag in ["a", "train/loss", "x" * 100, "b\x15c", "", "é/ü"]:
            value = summary_pb2.Summary.Value(tag=tag, simple_value=0.1 * step)
            records.append(pb.Event(wall_time=1.5 + step, step=step,
                                    summary=summary_pb2.Summary(value=[value])).SerializeToString())
    records.append(b"\x09" + bytes(8) + b"\x10\x01\x2a\x09\x0a\x07\x0a\x00\x15" + bytes(4))  # an empty tag written
    records.append(pb.Event(wall_time=2.0, file_version="brain.Event:2").SerializeToString())
    data = _framed(records)
    framing = tfrecord.frame(data)
    decoded = scalar_events.decode(data, framing.starts, framing.lengths)
    scalars = decoded.scalars
    got = list(zip(scalars.steps.tolist(), scalars.walls.tolist(), [scalars.tags[c] for c in scalars.codes],
                   scalars.values.tolist(), strict=True))
    expected = []
    for i, (start, length) in enumerate(zip(framing.starts.tolist(), framing.lengths.tolist(), strict=True)):
        values = tensorboard._values(data[start + 12:start + 12 + length])
        if decoded.simple[i]:
            expected += [(step, wall, tag, value) for step, wall, tag, value, _ in values]
    assert got == expected
    assert decoded.simple.sum() > len(records) // 2
    assert not decoded.simple[-2:].any()  # the empty tag (no scalar for the decoder) and the file version
