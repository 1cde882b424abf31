"""A real button box on a real port: opt in with TABLEKIT_BOX_PORT=/dev/ttyUSB0 (or the udev name).

Skipped unless that variable names a port, so CI and desktops without a box never touch
whatever serial devices they happen to have.
"""

from __future__ import annotations

import os
import time

import pytest
from conftest_hardware import wait_link

from firmware_bridge import ButtonBox

PORT = os.environ.get("TABLEKIT_BOX_PORT")

pytestmark = [
    pytest.mark.hardware,
    pytest.mark.skipif(not PORT, reason="no real box: set TABLEKIT_BOX_PORT to test one"),
]


def test_real_box_says_hello_and_keeps_a_heartbeat() -> None:
    assert PORT
    with ButtonBox(PORT) as box:
        wait_link(box, "up", timeout=10)  # an Uno/Nano may reset when the port opens
        deadline = time.monotonic() + 3
        while box.protocol.box is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert box.protocol.box is not None and box.protocol.box.buttons >= 3
        uptime = box.protocol.stats.box_uptime_ms
        deadline = time.monotonic() + 3
        while box.protocol.stats.box_uptime_ms == uptime and time.monotonic() < deadline:
            time.sleep(0.05)
        assert box.protocol.stats.box_uptime_ms > uptime
        box.led(0, "fast")
        box.buzz(50)
        time.sleep(0.5)
        assert box.protocol.stats.commands_unacked == 0
        box.led(0, "off")
