"""Real parts for the club's tests: a Mosquitto broker and a PostgreSQL server on the loopback
address, each on a free port in a temporary folder, stopped afterwards; every wait is bounded.

A missing binary fails the test with the Debian package to install (``make test`` installs them).
PostgreSQL refuses to run as root: as root, the server runs as the ``postgres`` user.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest


def pg_bin() -> Path:
    """The server programs of the newest PostgreSQL Debian installs (``/usr/lib/postgresql/N/bin``;
    ``pg_config --bindir`` names the client's folder, which lacks them)."""
    versions = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"),
                      key=lambda p: int(p.parent.parent.name) if p.parent.parent.name.isdigit() else 0)
    return versions[-1].parent if versions else Path("/usr/lib/postgresql/bin")


def need(path: str | Path, package: str) -> str:
    found = shutil.which(str(path)) or (str(path) if Path(path).is_file() else None)
    if not found:
        pytest.fail(f"{path} is missing: install the Debian package {package!r} "
                    f"(`make test` installs it as root)", pytrace=False)
    return found


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_port(port: int, timeout: float, proc: subprocess.Popen[bytes] | None = None) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"the server on port {port} exited ({proc.returncode})")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing answered on port {port} within {timeout} s")


def wait_until(check, timeout: float, what: str, step: float = 0.05):  # type: ignore[no-untyped-def]
    """``check()``'s first true answer within ``timeout`` seconds, else a failed test."""
    end = time.monotonic() + timeout
    last = None
    while time.monotonic() < end:
        last = check()
        if last:
            return last
        time.sleep(step)
    pytest.fail(f"{what}: not within {timeout} s (last: {last!r})", pytrace=False)


class Mosquitto:
    """A broker that can be stopped and started again on the same port."""

    def __init__(self, folder: Path) -> None:
        self.binary = need("mosquitto", "mosquitto")
        self.port = free_port()
        self.conf = folder / "mosquitto.conf"
        user = "user root\n" if os.geteuid() == 0 else ""
        self.conf.write_text(f"listener {self.port} 127.0.0.1\nallow_anonymous true\n"
                             f"persistence false\n{user}max_queued_messages 100000\n")
        self.log = folder / "mosquitto.log"
        self.proc: subprocess.Popen[bytes] | None = None
        self.url = f"mqtt://127.0.0.1:{self.port}"

    def start(self) -> None:
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen([self.binary, "-c", str(self.conf)], stdout=out,
                                         stderr=subprocess.STDOUT)
        wait_port(self.port, 10, self.proc)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(5)
        self.proc = None


@dataclass
class Postgres:
    folder: Path
    port: int

    def dsn(self, db: str = "postgres") -> str:
        return f"host=127.0.0.1 port={self.port} user=club dbname={db} connect_timeout=5"


def _as_pg(cmd: list[str]) -> list[str]:
    if os.geteuid() == 0:
        return [need("runuser", "util-linux"), "-u", "postgres", "--", *cmd]
    return cmd


def start_postgres(durable: bool = False) -> tuple[Postgres, Path]:
    """A PostgreSQL server in a new temporary folder (user ``club``, no password); fsync off
    unless ``durable`` (the tests' data is thrown away)."""
    initdb = need(pg_bin() / "initdb", "postgresql")
    pg_ctl = need(pg_bin() / "pg_ctl", "postgresql")
    folder = Path(tempfile.mkdtemp(prefix="club-pg-"))
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres", "postgres")
    data = folder / "data"
    port = free_port()
    subprocess.run(_as_pg([initdb, "-D", str(data), "-U", "club", "-A", "trust", "-E", "UTF8",
                           "--no-sync"]), check=True, capture_output=True, timeout=60)
    opts = f"-h 127.0.0.1 -p {port} -k {folder}"
    if not durable:
        opts += " -c fsync=off -c full_page_writes=off"
    subprocess.run(_as_pg([pg_ctl, "-D", str(data), "-o", opts, "-l", str(folder / "log"), "-w",
                           "-t", "30", "start"]), check=True, capture_output=True, timeout=40)
    return Postgres(folder, port), data


def stop_postgres(pg: Postgres, data: Path) -> None:
    pg_ctl = need(pg_bin() / "pg_ctl", "postgresql")
    subprocess.run(_as_pg([pg_ctl, "-D", str(data), "-m", "immediate", "-w", "-t", "20", "stop"]),
                   capture_output=True, timeout=30)
    shutil.rmtree(pg.folder, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    pg, data = start_postgres()
    try:
        yield pg
    finally:
        stop_postgres(pg, data)


@pytest.fixture
def club_db(postgres: Postgres, request: pytest.FixtureRequest) -> str:
    """A new, empty database for one test; its connection string."""
    import psycopg

    name = "t_" + "".join(c if c.isalnum() else "_" for c in request.node.name)[:50].lower()
    with psycopg.connect(postgres.dsn(), autocommit=True) as db:
        db.execute(f'DROP DATABASE IF EXISTS "{name}"')
        db.execute(f'CREATE DATABASE "{name}"')
    return postgres.dsn(name)


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Mosquitto]:
    b = Mosquitto(tmp_path)
    b.start()
    try:
        yield b
    finally:
        b.stop()
