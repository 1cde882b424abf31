"""``tablekit club``: the club service. It listens to every table on the club's MQTT broker,
stores their events once in PostgreSQL, and serves the room's live page on the LAN
(see docs/club.md). A table joins with ``tablekit run --club mqtt://HOST:PORT``."""

from __future__ import annotations

import argparse
import logging
import os
import signal
import tempfile
import threading
from pathlib import Path
from typing import Any

from tablekit.club.wire import ClubError, check_table_id, parse_broker

NAME = "club"
HELP = "run the club service: every table's results stored once, a live page for the room"
log = logging.getLogger(__name__)

DEFAULT_DB = "postgresql:///tablekit_club"


def _listen(text: str) -> tuple[str, int]:
    host, _, port = text.rpartition(":")
    if not (port.isascii() and port.isdigit()) or not 0 <= int(port) <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not HOST:PORT (e.g. 0.0.0.0:8080)")
    return host or "0.0.0.0", int(port)


def _table(text: str) -> str:
    try:
        return check_table_id(text)
    except ClubError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--broker", default="mqtt://127.0.0.1:1883",
                   help="the club's MQTT broker (default mqtt://127.0.0.1:1883)")
    p.add_argument("--db", default=os.environ.get("TABLEKIT_CLUB_DB", DEFAULT_DB),
                   help=f"PostgreSQL connection string (default $TABLEKIT_CLUB_DB or {DEFAULT_DB})")
    p.add_argument("--listen", type=_listen, default=("0.0.0.0", 8080), metavar="HOST:PORT",
                   help="where the page is served (default 0.0.0.0:8080)")
    p.add_argument("--table", dest="tables", action="append", type=_table, default=[],
                   metavar="ID", help="a table of the club (repeat; kept in the database)")
    p.add_argument("--any-table", action="store_true",
                   help="take any table that publishes (otherwise unknown tables are kept aside)")
    p.add_argument("--demo-tables", type=int, default=0, metavar="N",
                   help="also run N simulated tables publishing to the broker (a demo)")
    p.add_argument("--demo-pace", type=float, default=1.0, metavar="SECONDS",
                   help="seconds between a demo table's events (default 1)")


def run(args: argparse.Namespace) -> int:
    from tablekit.club.demo import DemoTable
    from tablekit.club.service import Club
    from tablekit.club.store import highest_games
    from tablekit.club.web import serve

    if not 0 <= args.demo_tables <= 200:
        raise ClubError("--demo-tables must be between 0 and 200")
    if args.demo_pace <= 0:
        raise ClubError("--demo-pace must be more than 0 seconds")
    broker = parse_broker(args.broker)
    demo = [f"demo-{i + 1}" for i in range(args.demo_tables)]
    club = Club(broker, args.db, [*args.tables, *demo], open_club=args.any_table)
    host, port = args.listen
    try:
        server, _ = serve(host, port, args.db, club.hub)
    except OSError as exc:
        club.stop()
        raise ClubError(f"cannot serve the page on {host}:{port}: {exc.strerror or exc}") from None
    club.start()
    print(f"tablekit club: page on http://{host}:{server.server_port}/ · broker {broker} · "
          f"{len(club.store.tables)} tables known", flush=True)
    done = threading.Event()

    def _quit(*_: Any) -> None:
        done.set()

    signal.signal(signal.SIGTERM, _quit)
    tables: list[DemoTable] = []
    with tempfile.TemporaryDirectory(prefix="tablekit-club-demo-") as folder:
        try:
            held = highest_games(args.db, demo) if demo else {}
            tables = [DemoTable(t, Path(folder), broker, args.demo_pace, i + 1, after=held[t]).start()
                      for i, t in enumerate(demo)]
            while not done.wait(0.5):
                pass
        except KeyboardInterrupt:
            pass
        finally:
            for t in tables:
                t.stop()
            server.shutdown()
            club.stop()
    return 0
