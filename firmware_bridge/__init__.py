"""The button box link: framing, link health, acknowledgements, port discovery, keyboard fallback."""

from firmware_bridge.discovery import PortCandidate, candidate_ports
from firmware_bridge.errors import LinkError
from firmware_bridge.events import BoxEvent, ButtonEvent, LinkEvent
from firmware_bridge.host import HostProtocol, LinkStats
from firmware_bridge.keyboard import KeyboardButtons, default_keymap
from firmware_bridge.link import ButtonBox, open_serial, require_port
from firmware_bridge.virtual import VirtualBox

__all__ = [
    "BoxEvent",
    "ButtonBox",
    "ButtonEvent",
    "HostProtocol",
    "KeyboardButtons",
    "LinkError",
    "LinkEvent",
    "LinkStats",
    "PortCandidate",
    "VirtualBox",
    "candidate_ports",
    "default_keymap",
    "open_serial",
    "require_port",
]
