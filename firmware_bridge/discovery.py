"""Finding the button box: the udev name, /dev/serial/by-id, and USB serial adapters we know."""

from __future__ import annotations

import glob
import logging
import os
from dataclasses import dataclass

log = logging.getLogger(__name__)

UDEV_NAME = "/dev/tablekit-box"  # made by hardware/udev/99-tablekit-box.rules
BY_ID_GLOB = "/dev/serial/by-id/*"

# USB vendor ids of the boards and adapters a box is built on (Arduino, CH340, FTDI, CP210x).
KNOWN_VENDORS = {
    0x2341: "Arduino",
    0x2A03: "Arduino",
    0x1A86: "CH340",
    0x0403: "FTDI",
    0x10C4: "CP210x",
}


@dataclass(frozen=True, slots=True)
class PortCandidate:
    """A serial port that may be a button box, best guess first in lists."""

    url: str
    description: str


def candidate_ports() -> list[PortCandidate]:
    """Ports worth trying, most specific first; each device appears once."""
    found: list[PortCandidate] = []
    seen: set[str] = set()

    def add(url: str, description: str) -> None:
        real = os.path.realpath(url)
        if real not in seen:
            seen.add(real)
            found.append(PortCandidate(url, description))

    if os.path.exists(UDEV_NAME):
        add(UDEV_NAME, "tablekit udev name")
    for path in sorted(glob.glob(BY_ID_GLOB)):
        add(path, "serial by-id")
    try:
        from serial.tools import list_ports

        for info in sorted(list_ports.comports(), key=lambda i: i.device):
            if info.vid in KNOWN_VENDORS:
                add(info.device, f"{KNOWN_VENDORS[info.vid]} {info.description}".strip())
    except Exception as exc:  # discovery is a convenience; a broken sysfs must not stop the kit
        log.debug("listing USB serial ports failed: %s", exc)
    return found
