"""The firmware's framing code (hardware/firmware/src/frame.c), built for the host, against Python.

The C file has no AVR dependencies, so it compiles with the host's cc into a shared library
that ctypes can call: both implementations must agree byte for byte, and the C receiver must
survive any input.
"""

from __future__ import annotations

import ctypes
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest_hardware import FIRMWARE_DIR
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge.protocol import (
    PAYLOAD_MAX,
    Msg,
    cobs_decode,
    cobs_encode,
    crc16,
    encode_frame,
)

FRAME_NONE, FRAME_OK, FRAME_BAD = 0, 1, 2


class RxState(ctypes.Structure):
    _fields_ = [("buf", ctypes.c_uint8 * 66), ("n", ctypes.c_uint8), ("overflow", ctypes.c_uint8)]


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> ctypes.CDLL:
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no host C compiler")
    out = Path(tmp_path_factory.mktemp("frame")) / "libframe.so"
    src = FIRMWARE_DIR / "src" / "frame.c"
    subprocess.run(
        [cc, "-std=c99", "-O1", "-Wall", "-Werror", "-shared", "-fPIC", str(src), "-o", str(out)],
        check=True,
        timeout=60,
    )
    so = ctypes.CDLL(str(out))
    so.frame_crc16.restype = ctypes.c_uint16
    so.frame_crc16.argtypes = [ctypes.c_char_p, ctypes.c_uint8, ctypes.c_uint16]
    so.frame_cobs_encode.restype = ctypes.c_uint8
    so.frame_build.restype = ctypes.c_uint8
    so.frame_build.argtypes = [
        ctypes.c_uint8,
        ctypes.c_uint8,
        ctypes.c_char_p,
        ctypes.c_uint8,
        ctypes.c_void_p,
    ]
    so.frame_rx_feed.restype = ctypes.c_int
    so.frame_rx_feed.argtypes = [
        ctypes.POINTER(RxState),
        ctypes.c_uint8,
        ctypes.c_void_p,
        ctypes.POINTER(ctypes.c_uint8),
    ]
    return so


class CReceiver:
    """The firmware's receiver fed one byte at a time."""

    def __init__(self, so: ctypes.CDLL) -> None:
        self.so = so
        self.state = RxState()
        self.body = (ctypes.c_uint8 * 64)()
        self.n = ctypes.c_uint8()
        self.bad = 0

    def feed(self, data: bytes) -> list[bytes]:
        bodies = []
        for byte in data:
            r = self.so.frame_rx_feed(
                ctypes.byref(self.state), byte, self.body, ctypes.byref(self.n)
            )
            if r == FRAME_OK:
                bodies.append(bytes(self.body[: self.n.value]))
            elif r == FRAME_BAD:
                self.bad += 1
        return bodies


@given(st.binary(max_size=255))
def test_crc_matches(lib: ctypes.CDLL, data: bytes) -> None:
    assert lib.frame_crc16(data, len(data), 0xFFFF) == crc16(data)


@given(st.binary(max_size=64))
def test_cobs_encoding_matches(lib: ctypes.CDLL, data: bytes) -> None:
    out = ctypes.create_string_buffer(len(data) + 2)
    n = lib.frame_cobs_encode(data, len(data), out)
    assert out.raw[:n] == cobs_encode(data)


@given(st.integers(0, 255), st.integers(0, 255), st.binary(max_size=PAYLOAD_MAX))
def test_frames_built_in_c_are_the_frames_python_builds(
    lib: ctypes.CDLL, msg: int, seq: int, payload: bytes
) -> None:
    out = ctypes.create_string_buffer(80)
    n = lib.frame_build(msg, seq, payload, len(payload), out)
    assert out.raw[:n] == encode_frame(msg, seq, payload)


@given(st.lists(st.tuples(st.integers(0, 255), st.binary(max_size=PAYLOAD_MAX)), max_size=6))
def test_c_receiver_reads_python_frames(lib: ctypes.CDLL, frames: list[tuple[int, bytes]]) -> None:
    rx = CReceiver(lib)
    wire = b"".join(encode_frame(Msg.LED, seq, payload) for seq, payload in frames)
    bodies = rx.feed(wire)
    assert bodies == [bytes((Msg.LED, seq, len(p))) + p for seq, p in frames]
    assert rx.bad == 0


@settings(max_examples=300)
@given(st.binary(max_size=300))
def test_c_receiver_survives_noise_and_recovers(lib: ctypes.CDLL, noise: bytes) -> None:
    rx = CReceiver(lib)
    rx.feed(noise)
    marker = encode_frame(Msg.HOST_ACK, 9, b"\x05")
    assert rx.feed(b"\x00" + marker) == [bytes((Msg.HOST_ACK, 9, 1, 5))]


@settings(max_examples=300)
@given(st.binary(min_size=1, max_size=80))
def test_c_receiver_rejects_what_python_rejects(lib: ctypes.CDLL, raw: bytes) -> None:
    raw = raw.replace(b"\x00", b"\x01")
    rx = CReceiver(lib)
    got = rx.feed(raw + b"\x00")
    try:
        body = cobs_decode(raw)
        ok = 5 <= len(body) <= 64 and body[2] == len(body) - 5
        ok = ok and crc16(body[:-2]) == int.from_bytes(body[-2:], "little")
    except ValueError:
        ok = False
    assert (got == [body[:-2]]) if ok else (got == [] and rx.bad == 1)
