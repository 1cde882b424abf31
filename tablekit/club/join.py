"""A table joins the club: ``tablekit run --club mqtt://HOST:PORT [--table-id ID]`` starts a
:class:`~tablekit.club.publish.Publisher` beside the table (its own thread; the table never
waits for it) and stops it when the table closes."""

from __future__ import annotations

import logging
import re
import socket
from pathlib import Path
from typing import Any
from urllib.parse import quote

from engine.errors import TablekitError

log = logging.getLogger(__name__)


def default_table_id() -> str:
    """This machine's name, as a table id."""
    name = re.sub(r"[^A-Za-z0-9_-]", "-", socket.gethostname().split(".")[0])[:40]
    return name.strip("-") or "table"


#: The port ``tablekit club`` serves its page on unless told otherwise (``--listen``).
CLUB_PAGE_PORT = 8080


def club_page(club: str | None, table_id: str | None, page: str | None) -> str:
    """The address of this table's page at the club ("" when not in a club): ``page`` when
    given, else the club's page on the broker's host at its usual port."""
    if page:
        if not page.startswith(("http://", "https://")):
            raise TablekitError(f"bad --club-page {page[:80]!r}: an http:// or https:// address")
        return page
    if not club:
        return ""
    from tablekit.club.wire import parse_broker

    broker = parse_broker(club)
    host = f"[{broker.host}]" if ":" in broker.host else broker.host
    return f"http://{host}:{CLUB_PAGE_PORT}/table/{quote(table_id or default_table_id())}"


def start_publisher(club: str | None, table_id: str | None, journal: Path) -> Any:
    """The running publisher for ``club`` (None when no club was named)."""
    if not club:
        return None
    try:
        from tablekit.club.publish import Publisher
    except ImportError as exc:
        raise TablekitError(f"--club needs the club's packages ({exc.name} is missing): "
                            f"pip install 'tablekit[club]'") from None
    publisher = Publisher(journal, table_id or default_table_id(), club)
    log.info("publishing the journal to the club at %s as table %s", publisher.broker,
             publisher.table)
    return publisher.start()
