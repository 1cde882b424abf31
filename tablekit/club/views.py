"""What the club's page shows, read from the club's database: the room, a game, an evening's
standings, a league table per variant and season, a player's history, and ratings.

Every figure comes from the stored results (``club_games``, ``club_deals``), which the
engine's replay derived; ratings are openskill's Plackett-Luce over finished games in the
order they ended (the winners first, everyone else tied behind them).
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import psycopg
from openskill.models import PlackettLuce


@dataclass(frozen=True, slots=True)
class GameRow:
    table: str
    game: int
    created_ms: int
    variant: str
    players: list[str]
    status: str
    phase: str
    turn: str
    totals: list[Any]
    winners: list[int]
    ruling: str
    notice: str
    last_seq: int
    deals: int
    updated_ms: int
    #: When the game's last event happened by its table's clock: its creation plus the game
    #: clock's reading then (an event's ``t_ms`` counts from the game's start)
    ended_ms: int = 0

    @property
    def evening(self) -> str:
        return evening_of(self.created_ms)

    @property
    def season(self) -> str:
        return season_of(self.created_ms)

    def to_json(self) -> dict[str, Any]:
        return {"table": self.table, "game": self.game, "created_ms": self.created_ms,
                "variant": self.variant, "players": self.players, "status": self.status,
                "phase": self.phase, "turn": self.turn, "totals": self.totals,
                "winners": [self.players[w] for w in self.winners if 0 <= w < len(self.players)],
                "ruling": self.ruling, "notice": self.notice, "seq": self.last_seq,
                "deals": self.deals, "evening": self.evening, "season": self.season,
                "updated_ms": self.updated_ms, "ended_ms": self.ended_ms}


def evening_of(ms: int) -> str:
    """The evening a game belongs to: its local date, a game started before 6 in the morning
    counting for the evening before."""
    local = dt.datetime.fromtimestamp(ms / 1000) - dt.timedelta(hours=6)
    return local.date().isoformat()


def season_of(ms: int) -> str:
    """The season: the calendar year the game's evening falls in."""
    return evening_of(ms)[:4]


GAME_SQL = ("SELECT g.table_id, g.game_id, g.created_ms, g.variant, g.players, g.status, g.phase, "
            "g.turn, g.totals, g.winners, g.ruling, g.notice, g.last_seq, "
            "(SELECT COUNT(*) FROM club_deals d WHERE d.table_id=g.table_id AND "
            "d.game_id=g.game_id), (EXTRACT(EPOCH FROM g.updated_at) * 1000)::BIGINT, "
            "g.created_ms + COALESCE((SELECT e.t_ms FROM club_events e WHERE "
            "e.table_id=g.table_id AND e.game_id=g.game_id ORDER BY e.seq DESC LIMIT 1), 0) "
            "FROM club_games g")


def _rows(db: psycopg.Connection[Any], where: str = "", params: Iterable[Any] = ()) -> list[GameRow]:
    out = []
    for r in db.execute(GAME_SQL + where, tuple(params)).fetchall():
        out.append(GameRow(str(r[0]), int(r[1]), int(r[2]), str(r[3]), list(r[4]), str(r[5]),
                           str(r[6]), str(r[7]), list(r[8]), list(r[9]), str(r[10]), str(r[11]),
                           int(r[12]), int(r[13]), int(r[14]), int(r[15])))
    return out


def room(db: psycopg.Connection[Any]) -> dict[str, Any]:
    """Every table's latest game."""
    latest = _rows(db, " WHERE g.game_id = (SELECT MAX(h.game_id) FROM club_games h WHERE "
                   "h.table_id = g.table_id) ORDER BY g.table_id")
    seen = {g.table for g in latest}
    idle = [str(t) for (t,) in db.execute("SELECT table_id FROM club_tables ORDER BY table_id")
            if t not in seen]
    return {"tables": [g.to_json() for g in latest], "idle": idle}


def game(db: psycopg.Connection[Any], table: str, game_id: int) -> dict[str, Any] | None:
    rows = _rows(db, " WHERE g.table_id=%s AND g.game_id=%s", (table, game_id))
    if not rows:
        return None
    deals = [{"deal": int(d), "winner": w, "scores": s, "totals": t} for d, w, s, t in db.execute(
        "SELECT deal, winner, scores, totals FROM club_deals WHERE table_id=%s AND game_id=%s "
        "ORDER BY deal", (table, game_id))]
    out = rows[0].to_json()
    out["score_rows"] = deals
    return out


def _points(db: psycopg.Connection[Any]) -> dict[tuple[str, int], list[list[Any]]]:
    out: dict[tuple[str, int], list[list[Any]]] = {}
    for t, g, w, s in db.execute("SELECT table_id, game_id, winner, scores FROM club_deals "
                                 "ORDER BY table_id, game_id, deal"):
        out.setdefault((str(t), int(g)), []).append([w, s])
    return out


def _standings(games: list[GameRow], deals: dict[tuple[str, int], list[list[Any]]],
               ratings: dict[str, float] | None = None) -> list[dict[str, Any]]:
    table: dict[str, dict[str, Any]] = {}
    for g in games:
        for seat, name in enumerate(g.players):
            e = table.setdefault(name, {"player": name, "games": 0, "finished": 0, "wins": 0,
                                        "deals": 0, "deals_won": 0, "points": 0})
            e["games"] += 1
            if g.status == "over":
                e["finished"] += 1
                e["wins"] += seat in g.winners
            for winner, scores in deals.get((g.table, g.game), []):
                if seat < len(scores):
                    e["deals"] += 1
                    e["points"] += scores[seat]
                    e["deals_won"] += winner == seat
    out = list(table.values())
    for e in out:
        e["win_rate"] = round(e["wins"] / e["finished"], 3) if e["finished"] else 0.0
        e["average"] = round(e["points"] / e["deals"], 1) if e["deals"] else 0.0
        if ratings is not None:
            e["rating"] = round(ratings.get(e["player"], 0.0), 2)
    key = (lambda e: (-e["rating"], -e["wins"], e["player"])) if ratings is not None else \
        (lambda e: (-e["wins"], -e["deals_won"], e["average"], e["player"]))
    return sorted(out, key=key)


def ratings(games: Iterable[GameRow]) -> dict[str, float]:
    """Each player's openskill rating (its ordinal: mu - 3 sigma) over finished games."""
    model = PlackettLuce()
    people: dict[str, Any] = {}
    # in the order the games ended at their tables (not the order the club happened to store
    # them: a table offline all evening sends its games late)
    for g in sorted((g for g in games if g.status == "over"), key=lambda g: (g.ended_ms, g.table, g.game)):
        if len(set(g.players)) != len(g.players) or len(g.players) < 2:
            continue
        teams = [[people.get(n) or model.rating(name=n)] for n in g.players]
        ranks: list[float] = [1.0 if seat in g.winners else 2.0 for seat in range(len(g.players))]
        for (rated,), name in zip(model.rate(teams, ranks=ranks), g.players, strict=True):
            people[name] = rated
    return {name: float(r.ordinal()) for name, r in people.items()}


def _tonight() -> str:
    """The club's own evening (by its clock)."""
    return evening_of(int(dt.datetime.now().timestamp() * 1000))


def evening(db: psycopg.Connection[Any], day: str | None) -> dict[str, Any]:
    games = _rows(db, " ORDER BY g.created_ms")
    evenings = sorted({g.evening for g in games}, reverse=True)
    tonight = _tonight()
    # the latest evening up to the club's own: a table whose clock runs years ahead must not
    # make its games the page's evening for good (they are listed, and open by their date)
    current = [e for e in evenings if e <= tonight] or evenings
    day = day or (current[0] if current else tonight)
    chosen = [g for g in games if g.evening == day]
    return {"evening": day, "evenings": evenings, "games": [g.to_json() for g in chosen],
            "standings": _standings(chosen, _points(db))}


def league(db: psycopg.Connection[Any], variant: str | None, season: str | None) -> dict[str, Any]:
    games = _rows(db, " ORDER BY g.created_ms")
    choices = sorted({(g.variant, g.season) for g in games}, key=lambda c: (c[1], c[0]), reverse=True)
    if not variant or not season:  # the latest season up to the club's own year, as the evening
        current = [c for c in choices if c[1] <= _tonight()[:4]] or choices
        variant, season = current[0] if current else ("", "")
    chosen = [g for g in games if g.variant == variant and g.season == season]
    return {"variant": variant, "season": season,
            "choices": [{"variant": v, "season": s} for v, s in choices],
            "games": len(chosen), "table": _standings(chosen, _points(db), ratings(chosen))}


def player(db: psycopg.Connection[Any], name: str) -> dict[str, Any] | None:
    games = _rows(db, " WHERE g.players ? %s ORDER BY g.created_ms DESC", (name,))
    if not games:
        return None
    deals = _points(db)
    history = []
    for g in games:
        seat = g.players.index(name)
        history.append({**g.to_json(), "seat": seat,
                        "total": g.totals[seat] if seat < len(g.totals) else None,
                        "won": g.status == "over" and seat in g.winners})
    by_variant: dict[str, list[GameRow]] = {}
    for g in _rows(db, " WHERE g.status='over'"):
        by_variant.setdefault(g.variant, []).append(g)
    rated = {v: round(ratings(gs).get(name, 0.0), 2) for v, gs in by_variant.items()
             if any(name in g.players for g in gs)}
    summary = [e for e in _standings(games, deals) if e["player"] == name]
    return {"player": name, "summary": summary[0] if summary else {}, "ratings": rated,
            "games": history}


def quarantine(db: psycopg.Connection[Any], limit: int = 50) -> list[dict[str, Any]]:
    return [{"at": str(at), "table": t, "game": g, "seq": s, "reason": r}
            for at, t, g, s, r in db.execute(
                "SELECT received_at, table_id, game_id, seq, reason FROM club_quarantine "
                "ORDER BY id DESC LIMIT %s", (limit,))]


def dumps(data: Any) -> bytes:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
