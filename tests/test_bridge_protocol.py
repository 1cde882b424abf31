"""The wire format: CRC, COBS, frames, and a packetizer that survives any byte stream."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge.protocol import (
    BOX_TYPES,
    PAYLOAD_MAX,
    Frame,
    Msg,
    Packetizer,
    button_payload,
    cobs_decode,
    cobs_encode,
    crc16,
    encode_frame,
    parse_button,
    parse_hello,
)


def test_crc_is_ccitt_false() -> None:
    assert crc16(b"123456789") == 0x29B1  # the catalogue check value of CRC-16/CCITT-FALSE
    assert crc16(b"") == 0xFFFF


@pytest.mark.parametrize(
    ("raw", "encoded"),
    [
        (b"", b"\x01"),
        (b"\x00", b"\x01\x01"),
        (b"\x00\x00", b"\x01\x01\x01"),
        (b"\x11\x22\x00\x33", b"\x03\x11\x22\x02\x33"),
        (b"\x11\x00\x00\x00", b"\x02\x11\x01\x01\x01"),
    ],
)
def test_cobs_known_vectors(raw: bytes, encoded: bytes) -> None:
    assert cobs_encode(raw) == encoded
    assert cobs_decode(encoded) == raw


@given(st.binary(max_size=600))
def test_cobs_round_trip_has_no_zero(data: bytes) -> None:
    encoded = cobs_encode(data)
    assert 0 not in encoded
    assert cobs_decode(encoded) == data


def test_frame_layout() -> None:
    wire = encode_frame(Msg.BUTTON, 7, button_payload(3, 1, 1234))
    assert wire.endswith(b"\x00") and wire.count(0) == 1
    body = cobs_decode(wire[:-1])
    assert body[:3] == bytes((0x02, 7, 6))
    assert int.from_bytes(body[-2:], "little") == crc16(body[:-2])
    assert parse_button(body[3:-2]) == (3, 1, 1234)


def test_packetizer_reads_frames_in_any_chunking() -> None:
    frames = [
        encode_frame(Msg.BUTTON, i, button_payload(i % 10, 1 + i % 2, i * 10)) for i in range(20)
    ]
    stream = b"".join(frames)
    rng = random.Random(1)
    p = Packetizer(BOX_TYPES)
    got: list[Frame] = []
    i = 0
    while i < len(stream):
        n = rng.randint(1, 9)
        got += p.feed(stream[i : i + n])
        i += n
    assert [f.seq for f in got] == list(range(20))
    assert p.dropped == 0


@pytest.mark.parametrize(
    ("wire", "reason"),
    [
        (b"\x05\x01\x02\x00\x00", "cobs"),  # block runs past the end
        (cobs_encode(b"\x02\x00\x01\x09\x00\x00") + b"\x00", "crc"),
        (cobs_encode(b"\x02\x00") + b"\x00", "length"),
        (b"\x07" * 80 + b"\x00", "too_long"),
        (encode_frame(0x55, 0), "type"),
        (encode_frame(Msg.HELLO_REQ, 0), "type"),  # a host message is unknown to the host
    ],
)
def test_packetizer_counts_each_kind_of_bad_frame(wire: bytes, reason: str) -> None:
    p = Packetizer(BOX_TYPES)
    assert p.feed(wire) == []
    assert p.drops == {reason: 1}
    good = encode_frame(Msg.ACK, 1, b"\x05")
    assert p.feed(good) == [Frame(Msg.ACK, 1, b"\x05")]


def test_wrong_len_field_is_dropped() -> None:
    head = bytes((Msg.ACK, 0, 2, 5))  # says 2 payload bytes, carries 1
    wire = cobs_encode(head + crc16(head).to_bytes(2, "little")) + b"\x00"
    p = Packetizer(BOX_TYPES)
    assert p.feed(wire) == [] and p.drops["length"] == 1


def test_empty_frames_are_padding() -> None:
    p = Packetizer(BOX_TYPES)
    assert p.feed(b"\x00\x00\x00") == []
    assert p.dropped == 0


def test_payload_limit() -> None:
    encode_frame(Msg.HELLO, 0, bytes(PAYLOAD_MAX))
    with pytest.raises(ValueError):
        encode_frame(Msg.HELLO, 0, bytes(PAYLOAD_MAX + 1))


def test_hello_parses_name() -> None:
    hello = parse_hello(bytes((1, 10)) + b"tablekit-box 1.0")
    assert (hello.protocol, hello.buttons, hello.firmware) == (1, 10, "tablekit-box 1.0")
    with pytest.raises(ValueError):
        parse_hello(b"\x01")


# --- fuzzing the decoder -------------------------------------------------------------------

valid_frames = st.builds(
    lambda t, seq, payload: encode_frame(t, seq, payload),
    st.sampled_from(sorted(BOX_TYPES)),
    st.integers(0, 255),
    st.binary(max_size=PAYLOAD_MAX),
)


@settings(max_examples=300)
@given(st.binary(max_size=400))
def test_random_bytes_never_raise_and_frames_recover(noise: bytes) -> None:
    p = Packetizer(BOX_TYPES)
    p.feed(noise)
    marker = encode_frame(Msg.ACK, 42, b"\x2a")
    # The marker is read whole once a delimiter has ended the noise.
    assert p.feed(b"\x00" + marker) == [Frame(Msg.ACK, 42, b"\x2a")]


@settings(max_examples=300)
@given(st.lists(valid_frames, min_size=1, max_size=8), st.data())
def test_mutated_frames_are_dropped_and_counted(frames: list[bytes], data: st.DataObject) -> None:
    wire = bytearray(b"".join(frames))
    flips = data.draw(
        st.lists(st.tuples(st.integers(0, len(wire) - 1), st.integers(1, 255)), max_size=6)
    )
    for at, mask in flips:
        wire[at] ^= mask
    p = Packetizer(BOX_TYPES)
    got = p.feed(bytes(wire)) + p.feed(b"\x00")  # a later delimiter ends any open frame
    # Every frame either comes out intact or is counted (a flip can also split or join frames,
    # and a CRC-16 collision is possible but needs more luck than these sizes allow).
    originals = {cobs_decode(f[:-1]) for f in frames}
    for frame in got:
        body = bytes((frame.type, frame.seq, len(frame.payload))) + frame.payload
        assert body + crc16(body).to_bytes(2, "little") in originals
    assert len(got) + p.dropped >= 1
    if not flips:
        assert len(got) == len(frames) and p.dropped == 0
