"""The setup screen before a game: the game, the players, the turn timer and the counting,
chosen with MENU (next row) and OK (change it, or start on Start)."""

from __future__ import annotations

from display.viewmodel import SetupCursor, SetupOption, SetupPlayer, SetupView
from engine.errors import TablekitError
from engine.game import Game, Seat
from engine.variants import Variant, find
from tablekit.present import team_label

TURN_CHOICES = (0, 30, 45, 60, 90)  # 0: the variant's own timer


class TableSetup:
    """The setup screen before a game: MENU moves to the next row, OK changes it or starts.

    Rows: the game, the number of players, the turn timer, how losing hands are counted, and
    Start. Names come from ``names`` (``Player N`` past the end).
    """

    ROWS = ("variant", "players", "turn_seconds", "count", "start")

    def __init__(self, variant_ids: list[str], names: list[str] | None = None,
                 variant: str = "indian-pool-101", players: int = 3) -> None:
        self.variant_ids = variant_ids
        self.variant = variant_ids.index(variant) if variant in variant_ids else 0
        self.names = list(names or [])
        self.players = players
        self.turn = TURN_CHOICES.index(0)
        self.count = "best"
        self.row = 0
        self.problem = ""

    def _variant(self) -> Variant:
        return find(self.variant_ids[self.variant])

    def _names(self) -> list[str]:
        return self.names + [f"Player {i + 1}" for i in range(len(self.names), self.players)]

    def menu(self) -> None:
        self.row = (self.row + 1) % len(self.ROWS)

    def tap(self, region: str) -> None:
        """A tap on one of the setup screen's rows (its region: "row:variant",
        "row:option:1", "row:start"…) moves the cursor there; a seat's row is the number of
        players. Anything else is ignored."""
        parts = region.split(":")
        if parts[0] != "row" or len(parts) < 2:
            return
        row = {"variant": "variant", "start": "start", "player": "players"}.get(parts[1])
        if parts[1] == "option" and len(parts) == 3 and parts[2].isdigit():
            options = self.view().options
            index = int(parts[2])
            row = options[index].key if index < len(options) else None
        if row in self.ROWS:
            self.row = self.ROWS.index(row)
            self.problem = ""

    def ok(self) -> Game | None:
        """Change the row under the cursor; on Start, the game (or None and a problem)."""
        row = self.ROWS[self.row]
        self.problem = ""
        if row == "variant":
            self.variant = (self.variant + 1) % len(self.variant_ids)
            v = self._variant()
            self.players = min(max(self.players, v.min_players), v.max_players)
        elif row == "players":
            v = self._variant()
            self.players = self.players + 1 if self.players < v.max_players else v.min_players
        elif row == "turn_seconds":
            self.turn = (self.turn + 1) % len(TURN_CHOICES)
        elif row == "count":
            self.count = "arranged" if self.count == "best" else "best"
        else:
            return self.game()
        return None

    def game(self) -> Game | None:
        try:
            return Game(self.variant_ids[self.variant],
                        tuple(Seat(n) for n in self._names()[:self.players]),
                        TURN_CHOICES[self.turn], 0, {"count": self.count})
        except TablekitError as exc:
            self.problem = str(exc)
            return None

    def view(self) -> SetupView:
        v = self._variant()
        turn = TURN_CHOICES[self.turn]
        options = (SetupOption("players", "Players", str(self.players)),
                   SetupOption("turn_seconds", "Turn timer", f"{turn} s" if turn else "the game's own"),
                   SetupOption("count", "Losing hands", "best arrangement" if self.count == "best"
                               else "as laid out"))
        row = self.ROWS[self.row]
        cursor = (SetupCursor("variant") if row == "variant" else SetupCursor("start") if row == "start"
                  else SetupCursor("option", self.ROWS.index(row) - 1))
        players = tuple(SetupPlayer(n, team_label(v, i)) for i, n in enumerate(self._names()[:self.players]))
        return SetupView(v.id, v.name, players, options,
                         cursor, hint="MENU or a tap: another row · OK: change · OK on Start: play",
                         problem=self.problem)
