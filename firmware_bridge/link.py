"""``ButtonBox``: the button box on a serial port, kept alive by one reader thread.

Opens any pyserial URL (``/dev/ttyACM0``, a pty path, ``loop://``, ``socket://…``). The thread
owns reading and the link timing; all protocol decisions are in ``HostProtocol``. If the port
fails (a yanked cable) or the box is silent for 3 s, the thread reports the link down, closes
the port and keeps trying to reopen it, asking for HELLO each time. The thread never dies on
bad input: the decoder does not raise, and anything unexpected is counted and survived.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Iterator
from typing import Protocol

import serial

from firmware_bridge.errors import LinkError
from firmware_bridge.events import BoxEvent
from firmware_bridge.host import HostProtocol
from firmware_bridge.protocol import LED_MODES

log = logging.getLogger(__name__)

BAUDRATE = 115200


class SerialPort(Protocol):
    """What the bridge uses of a port: the part of ``serial.SerialBase`` it calls (fakes in
    tests provide just this)."""

    @property
    def in_waiting(self) -> int: ...

    def read(self, size: int = 1, /) -> bytes: ...

    def write(self, data: bytes, /) -> int | None: ...

    def close(self) -> None: ...


Opener = Callable[[str], SerialPort]


def open_serial(url: str, timeout: float = 0.05) -> SerialPort:
    """Opens a pyserial URL with the box's line settings (a ``serial.SerialBase``). Every
    failure is a ``serial.SerialException`` naming the URL: pyserial's own messages for a URL
    whose options it cannot read come out as a ``KeyError`` of its log levels."""
    try:
        port: SerialPort = serial.serial_for_url(url, baudrate=BAUDRATE, timeout=timeout,
                                                 write_timeout=1.0)
    except (OSError, serial.SerialException) as exc:
        if "debug|info|warning|error" in str(exc):  # pyserial's message for a bad option
            raise serial.SerialException(f"{url!r} has an option pyserial cannot read") from None
        raise
    except (KeyError, IndexError, TypeError, AttributeError, ValueError) as exc:
        raise serial.SerialException(f"{url!r} is not a serial port URL pyserial can open "
                                     f"({type(exc).__name__})") from None
    return port


class ButtonBox:
    """Events from, and commands to, one button box.

    ``clock`` (monotonic seconds) is injected so tests control the link timing; ``opener``
    turns the URL into a pyserial-like object (``read``, ``write``, ``in_waiting``, ``close``).
    """

    def __init__(
        self,
        url: str,
        *,
        clock: Callable[[], float] = time.monotonic,
        opener: Opener | None = None,
        reopen_every: float = 0.25,
        protocol: HostProtocol | None = None,
    ) -> None:
        self.url = url
        self.clock = clock
        self.protocol = protocol or HostProtocol()
        self.internal_errors = 0
        self._opener: Opener = opener or open_serial
        self._reopen_every = reopen_every
        self._events: queue.Queue[BoxEvent] = queue.Queue()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._port: SerialPort | None = None
        self._thread: threading.Thread | None = None

    # --- life cycle -------------------------------------------------------------------------

    def start(self) -> ButtonBox:
        """Starts the reader thread, which opens the port (and keeps reopening it) itself."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="button-box", daemon=True)
            self._thread.start()
        return self

    def open(self) -> ButtonBox:
        """Opens the port now, then starts the reader thread; raises LinkError (naming the
        port) if it cannot be opened, for a command that must say so rather than wait."""
        if self._thread is None and self._port is None:
            try:
                port = self._opener(self.url)
            except (OSError, serial.SerialException, ValueError) as exc:
                raise LinkError(f"cannot open the button box port {self.url}: {exc}") from exc
            self._opened(port)
        return self.start()

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2.0)
            self._thread = None
        self._close_port()

    def __enter__(self) -> ButtonBox:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def alive(self) -> bool:
        """True while the reader thread runs."""
        return self._thread is not None and self._thread.is_alive()

    @property
    def link_up(self) -> bool:
        return self.protocol.up

    @property
    def buttons(self) -> int | None:
        """How many buttons the box's last HELLO named (None before any HELLO)."""
        hello = self.protocol.box
        return hello.buttons if hello is not None else None

    @property
    def box_dropped(self) -> int:
        """Frames the box itself dropped since it powered up, from its last HEARTBEAT: events
        it gave up re-sending or had no room for (presses that may never have arrived),
        and damaged frames from the host."""
        return self.protocol.stats.box_dropped

    @property
    def refused(self) -> bool:
        """The box speaks another protocol version; nothing it sends is delivered."""
        return self.protocol.refused

    # --- events and commands ----------------------------------------------------------------

    def get_event(self, timeout: float | None = None) -> BoxEvent | None:
        """The next event, or None after ``timeout`` seconds (None waits for ever)."""
        try:
            return self._events.get(timeout=timeout)
        except queue.Empty:
            return None

    def events(self, timeout: float) -> Iterator[BoxEvent]:
        """Events until none arrives for ``timeout`` seconds."""
        while (event := self.get_event(timeout)) is not None:
            yield event

    def led(self, button: int, mode: int | str) -> None:
        """Sets a seat LED: 0/"off", 1/"on", 2/"slow" blink, 3/"fast" blink."""
        code = LED_MODES[mode] if isinstance(mode, str) else mode
        with self._lock:
            self.protocol.led(button, code, self.clock())
            self._flush()

    def buzz(self, ms: int) -> None:
        with self._lock:
            self.protocol.buzz(ms, self.clock())
            self._flush()

    # --- the reader thread ------------------------------------------------------------------

    def _run(self) -> None:
        next_open = 0.0
        while not self._stop.is_set():
            try:
                if self._port is None:
                    now = self.clock()
                    if now < next_open:
                        self._stop.wait(min(self._reopen_every, next_open - now))
                        continue
                    next_open = now + self._reopen_every
                    self._open()
                    continue
                self._pump()
            except Exception:  # never let the thread die; count and carry on
                self.internal_errors += 1
                log.exception("button box reader")
                self._lost()
                self._stop.wait(0.05)

    def _open(self) -> None:
        try:
            port = self._opener(self.url)
        except (OSError, serial.SerialException, ValueError) as exc:
            log.debug("cannot open %s: %s", self.url, exc)
            return
        self._opened(port)

    def _opened(self, port: SerialPort) -> None:
        with self._lock:
            self._port = port
            self.protocol.opened(self.clock())
            self._flush()
            self._drain_events()

    def _pump(self) -> None:
        port = self._port
        if port is None:  # closed by a failed write since the loop looked
            return
        try:
            data = port.read(max(1, port.in_waiting))
        except (OSError, serial.SerialException) as exc:
            log.info("button box port lost: %s", exc)
            self._lost()
            return
        with self._lock:
            now = self.clock()
            if data:
                self.protocol.receive(data, now)
            self.protocol.tick(now)
            self._flush()
            self._drain_events()
            if self.protocol.want_reopen:
                self._close_port()

    def _flush(self) -> None:
        """Writes what the protocol wants sent; call with the lock held."""
        out = self.protocol.take_output()
        port = self._port  # once: the reader thread may let the port go meanwhile
        if not out or port is None:
            return
        try:
            port.write(out)
        except (OSError, serial.SerialException) as exc:
            log.info("button box write failed: %s", exc)
            self._close_port()
            self.protocol.closed()
            self._drain_events()

    def _drain_events(self) -> None:
        """Moves the protocol's events to the queue; call with the lock held."""
        for event in self.protocol.take_events():
            self._events.put(event)

    def _lost(self) -> None:
        with self._lock:
            self._close_port()
            self.protocol.closed()
            self._drain_events()

    def _close_port(self) -> None:
        port, self._port = self._port, None
        if port is not None:
            try:
                port.close()
            except Exception as exc:  # a port that fails to close is gone all the same
                log.debug("closing %s: %s", self.url, exc)


def require_port(url: str | None) -> str:
    """The given URL, or the first box found on this machine; raises LinkError if none."""
    if url:
        return url
    from firmware_bridge.discovery import candidate_ports

    found = candidate_ports()
    if not found:
        raise LinkError("no button box found (try --port, or see `tablekit buttons --list`)")
    return found[0].url
