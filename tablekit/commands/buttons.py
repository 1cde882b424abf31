"""``tablekit buttons``: list button box ports, or print the box's events as they come.

A port that cannot be opened at all (``--port /dev/nonexistent``) is an error: one
``error: …`` line naming the port, exit status 2 (``tablekit.cli``). Once open, a box that
goes away is waited for, as at the table.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import time

from firmware_bridge import ButtonBox, ButtonEvent, LinkError, candidate_ports, require_port
from tablekit.values import ValueRefused

NAME = "buttons"
HELP = "Show the button box's events (a wiring check), or list the ports a box may be on."
log = logging.getLogger(__name__)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--list", action="store_true", help="list candidate ports and exit")
    parser.add_argument(
        "--port", metavar="URL", help="pyserial URL or device (default: the first box found)"
    )
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    parser.add_argument(
        "--seconds", type=float, metavar="N", help="stop after N seconds (default: run until ^C)"
    )
    parser.add_argument("--count", type=int, metavar="N", help="stop after N button events")


def _print(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def run(args: argparse.Namespace) -> int:
    from tablekit.values import check_seconds

    check_seconds(args.seconds)
    if args.list:
        ports = candidate_ports()
        for port in ports:
            _print(
                json.dumps({"port": port.url, "description": port.description})
                if args.json
                else f"{port.url}\t{port.description}"
            )
        if not ports and not args.json:
            _print(
                "no button box found (is it plugged in? see hardware/README.md for the udev rule)"
            )
        return 0
    if args.count is not None and args.count < 1:
        raise ValueRefused(f"bad --count {args.count}: 1 or more button events")
    try:
        url = require_port(args.port)
    except LinkError as exc:
        log.error("buttons: %s", exc)
        return 1
    started = time.monotonic()
    deadline = None if args.seconds is None else started + args.seconds
    presses = 0
    warned = False
    with ButtonBox(url).open() as box:  # LinkError if the port cannot be opened
        while args.count is None or presses < args.count:
            if not warned and not box.link_up and time.monotonic() - started > 3.0:
                if box.refused:
                    log.warning("buttons: the box on %s speaks another protocol version;"
                                " its events are ignored", url)
                else:
                    log.warning("buttons: no answer from %s yet; still trying", url)
                warned = True
            wait = 0.5 if deadline is None else deadline - time.monotonic()
            if wait <= 0:
                break
            event = box.get_event(timeout=min(wait, 0.5))
            if event is None:
                continue
            if args.json:
                _print(json.dumps(event.to_json()))
            elif isinstance(event, ButtonEvent):
                _print(f"button {event.button} {event.event} at {event.t_ms} ms")
            else:
                _print(f"link {event.state}")
            presses += isinstance(event, ButtonEvent)
    return 0
