"""Demo tables: simulated tables that play whole games into real journals and publish them
to the club, as real tables would (``tablekit club --demo-tables N``, the tests, the bench)."""

from __future__ import annotations

import logging
import threading
from pathlib import Path

from tablekit.clock import wall_ms
from tablekit.club.publish import Publisher
from tablekit.club.sim import sim_events, sim_game
from tablekit.club.wire import Broker
from tablekit.journal import Journal

log = logging.getLogger(__name__)


class DemoTable:
    """Table ``table``: a journal in ``folder``, games one after another, an event every
    ``pace`` seconds, published to ``broker``."""

    def __init__(self, table: str, folder: Path, broker: Broker, pace: float, seed: int,
                 games: int | None = None, after: int = 0) -> None:
        """``after``: the highest game number the club already holds from this table (a demo
        run before, against the same database): this run's games are numbered after it."""
        self.table, self.pace, self.seed, self.games = table, pace, seed, games
        self.after = after
        self.path = folder / f"{table}.sqlite"
        self.publisher = Publisher(self.path, table, broker)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"demo-{table}", daemon=True)

    def start(self) -> DemoTable:
        Journal(self.path).close()  # the file exists before the publisher looks
        self.publisher.start()
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(5)
        self.publisher.stop()

    def _run(self) -> None:
        n = 0
        with Journal(self.path) as journal:
            journal.first_game_id = self.after + 1
            while not self._stop.is_set() and (self.games is None or n < self.games):
                seed = self.seed * 1000 + n
                game = sim_game(seed)
                game_id = journal.new_game(game, wall_ms())
                for event in sim_events(game, seed):
                    if self._stop.wait(self.pace):
                        return
                    journal.append(game_id, event)
                    self.publisher.notify()
                n += 1
                self._stop.wait(self.pace * 5)
