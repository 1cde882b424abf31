"""``tablekit history``: the games played at this table, a game's score sheet, player statistics,
a game's rulings with the photos they were read from, and a game replayed on screen.

``--game N --rulings`` lists the game's deals and each ruling (a show judged valid or wrong
and why, a hand counted) with whether its photo is kept; ``--photos DIR`` writes those photos
out as ``game<N>-deal<D>-seat<S>-<player>-<seq>.jpg``. ``--replay N`` plays the game's journal
step by step on the table's own screens, a verdict's photo beside it: OK (Return, space,
right arrow) steps forward, MENU (M, Backspace, left arrow) back, Q or Escape ends;
``--step-ms`` steps on by itself, ``--seconds`` ends it (``--headless`` draws off screen).

The journal is opened read-only: history needs no write access to it or its folder. A damaged
journal is read as far as it can be (:func:`tablekit.journal_open.read_journal`), and a line on
stderr says how much of it could not be.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from tablekit.journal import GameSummary, Journal, JournalError, PlayerStats, default_path
from tablekit.journal_open import read_journal
from tablekit.score_sheet import resolve_game, score_sheet
from tablekit.values import path_arg, text_arg

if TYPE_CHECKING:
    from display.window import Screen
    from tablekit.evidence import ReplayStep

NAME = "history"
HELP = "list past games, show a game's score sheet, or per-player statistics"
log = logging.getLogger(__name__)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--journal", type=path_arg, help="journal database (default: $TABLEKIT_JOURNAL or ~/.local/share/tablekit)")
    p.add_argument("--game", type=text_arg, help="show this game's score sheet (an id, or 'latest')")
    p.add_argument("--players", action="store_true", help="per-player statistics over every game")
    p.add_argument("--json", action="store_true", help="JSON lines instead of a table")
    p.add_argument("--rulings", action="store_true",
                   help="with --game: each deal's rulings (shows judged, hands counted) and their photos")
    p.add_argument("--photos", type=path_arg, metavar="DIR",
                   help="with --game: write the game's ruling photos into DIR (one JPEG each)")
    p.add_argument("--replay", metavar="GAME",
                   help="play this game's journal step by step on screen (an id, or 'latest')")
    p.add_argument("--headless", action="store_true", help="--replay without a window")
    p.add_argument("--size", default="1280x720", help="--replay's screen size, e.g. 800x480")
    p.add_argument("--step-ms", type=int, default=None,
                   help="--replay steps on by itself every this many ms (default: 0 headless, "
                        "by key in a window)")
    p.add_argument("--seconds", type=float, default=None, help="end --replay after this long")
    p.add_argument("--screenshots", type=path_arg, help="--replay: a PNG of each screen into this folder")


def run(args: argparse.Namespace) -> int:
    path = args.journal or default_path()
    from tablekit.values import ValueRefused

    # a flag that would be passed over in silence is said: what the user asked for is not shown
    if (args.rulings or args.photos) and not args.game:
        raise ValueRefused(f"{'--rulings' if args.rulings else '--photos'} goes with --game N (the game whose rulings)")
    if args.replay and (args.game or args.players):
        raise ValueRefused("--replay shows one game on screen: give it alone, without --game or --players")
    if args.game and args.players:
        raise ValueRefused("--game and --players are two views: give one of them")
    try:
        if args.replay:
            return _replay(path, args)
        if args.game and (args.rulings or args.photos):
            return _rulings(path, args.game, args.photos, args.json)
        if args.game:
            game = args.game

            def sheet(journal: Journal) -> tuple[list[str], list[list[object]]]:
                return score_sheet(journal, resolve_game(journal, game))

            (header, rows), note = read_journal(path, sheet)
            _warn(note)
            return _sheet(header, rows, args.json)
        if args.players:
            stats, note = read_journal(path, lambda journal: journal.player_stats())
            _warn(note)
            return _players(stats, args.json)
        games, note = read_journal(path, lambda journal: journal.games())
        _warn(note)
        if not games and not args.json:
            print(f"no games in the journal {path} yet", file=sys.stderr)
        return _games(games, args.json)
    except JournalError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


def _rulings(path: Path, game: str, photos: Path | None, as_json: bool) -> int:
    from tablekit.evidence import RulingLine, decode, rulings
    from tablekit.values import output_folder

    folder = output_folder(photos, "--photos") if photos is not None else None

    def read(journal: Journal) -> tuple[int, list[RulingLine], list[tuple[RulingLine, bytes | None]]]:
        game_id = resolve_game(journal, game)
        lines = rulings(journal, game_id)
        kept = [(r, journal.photo(game_id, r.seq)) for r in lines if r.photo] if folder else []
        return game_id, lines, kept

    (game_id, lines, kept), note = read_journal(path, read)
    _warn(note)
    deal = None
    for r in lines:
        if as_json:
            print(json.dumps({"game": game_id, **r.to_json()}))
            continue
        if r.deal != deal:
            deal = r.deal
            print(f"deal {deal}")
        points = "" if r.points is None else f"{r.points} points"
        why = f"  ({r.reason})" if r.reason and r.verdict != "counted" else ""
        how = "entered at the table" if r.entered else ("photo kept" if r.photo else "no photo")
        print(f"  #{r.seq:<4} {r.player:<12} {r.kind:<5} {r.verdict:<10} {points:<11} {how}{why}")
    if not lines and not as_json:
        print(f"game {game_id}: no rulings yet")
    if folder is not None:
        written = 0
        for r, jpeg in kept:
            whose = f"seat{r.seat + 1}-{_file_word(r.player)}" if r.seat >= 0 else "table"
            what = f"-{r.kind}" if r.kind in ("cut", "turn") else ""
            name = f"game{game_id}-deal{r.deal}-{whose}{what}-{r.seq}.jpg"
            if decode(jpeg) is None:
                log.warning("%s: photo unreadable (kept as it is)", name)
            (folder / name).write_bytes(jpeg or b"")
            written += 1
        print(f"{written} photo(s) written to {folder}", file=sys.stderr)
    return 0


def _file_word(name: str) -> str:
    """A player's name as a safe part of a file name."""
    word = "".join(ch if ch.isalnum() else "-" for ch in name).strip("-")
    return word[:24] or "player"


def _replay(path: Path, args: argparse.Namespace) -> int:
    from tablekit.evidence import replay_views
    from tablekit.shell import open_screen
    from tablekit.values import ValueRefused, check_seconds, output_folder, parse_size

    size = parse_size(args.size, example="800x480")
    check_seconds(args.seconds)
    if args.headless and args.step_ms is not None and args.step_ms < 0:
        raise ValueRefused("a replay without a window has no keys to step it: give --step-ms 0 "
                           "or more")
    shots = output_folder(args.screenshots, "--screenshots") if args.screenshots else None

    def read(journal: Journal) -> list[ReplayStep]:
        return list(replay_views(journal, resolve_game(journal, args.replay)))

    steps, note = read_journal(path, read)
    _warn(note)
    if not steps:
        print("error: the game has no events to replay", file=sys.stderr)
        return 2
    screen = open_screen(size, headless=args.headless, screenshots=shots)
    try:
        shown = play_replay(steps, screen, step_ms=args.step_ms, seconds=args.seconds)
    finally:
        screen.close()
    print(f"replayed {shown} of {len(steps)} steps", file=sys.stderr)
    return 0


FORWARD_KEYS = ("return", "space", "right", "enter", "o")
BACK_KEYS = ("m", "backspace", "left")
QUIT_KEYS = ("q", "escape")


def play_replay(steps: list[ReplayStep], screen: Screen, *, step_ms: int | None = None,
                seconds: float | None = None, on_step: Callable[[int], None] | None = None) -> int:
    """Show ``steps`` on ``screen`` one at a time; the number of steps shown (the furthest
    one reached). Keys step forward and back; ``step_ms`` steps on by itself (headless
    default: 0, each step once and done); ``seconds`` ends it. A headless replay with no
    ``step_ms`` given runs through every step once."""
    import pygame

    if step_ms is None:
        step_ms = 0 if screen.headless else -1  # -1: by key only
    start = time.monotonic()
    index, furthest, shown_at = 0, 0, start
    screen.show(steps[0].view)
    if on_step is not None:
        on_step(0)
    while True:
        now = time.monotonic()
        if seconds is not None and now - start >= seconds:
            break
        moves: list[int] = []  # each key is a step of its own, shown in turn
        for event in screen.events():
            if event.type == pygame.QUIT:
                return furthest + 1
            if event.type == pygame.KEYDOWN:
                name = pygame.key.name(event.key)
                if name in QUIT_KEYS:
                    return furthest + 1
                if name in FORWARD_KEYS or name in BACK_KEYS:
                    moves.append(1 if name in FORWARD_KEYS else -1)
        if not moves and step_ms >= 0 and (now - shown_at) * 1000 >= step_ms:
            if index + 1 < len(steps):
                moves.append(1)
            elif screen.headless or step_ms == 0:
                break
        for move in moves:
            index = min(len(steps) - 1, max(0, index + move))
            furthest = max(furthest, index)
            screen.show(steps[index].view)
            shown_at = now
            if on_step is not None:
                on_step(index)
        if not moves and not (step_ms == 0 and screen.headless):
            time.sleep(0.01)
    return furthest + 1


def _warn(note: str | None) -> None:
    if note:
        log.warning("%s", note)


def _games(games: list[GameSummary], as_json: bool) -> int:
    for g in games:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(g.created_ms / 1000))
        if as_json:
            print(json.dumps({"id": g.id, "created_ms": g.created_ms, "variant": g.variant,
                              "players": list(g.players), "status": g.status,
                              "winners": list(g.winners), "deals": g.deals}))
        else:
            won = ", ".join(g.winners) or "-"
            print(f"{g.id:>4}  {when}  {g.variant:<18} {g.status:<9} deals {g.deals:<3} "
                  f"winner {won:<12} {', '.join(g.players)}")
    return 0


def _sheet(header: list[str], rows: list[list[object]], as_json: bool) -> int:
    if as_json:
        for row in rows:
            print(json.dumps(dict(zip(header, row, strict=True))))
        return 0
    widths = [max(len(str(x)) for x in [h] + [r[i] for r in rows]) for i, h in enumerate(header)]
    table: list[list[object]] = [list(header), *rows]
    for row in table:
        print("  ".join(str(x).rjust(w) for x, w in zip(row, widths, strict=True)))
    return 0


def _players(stats: list[PlayerStats], as_json: bool) -> int:
    for s in stats:
        if as_json:
            print(json.dumps({"name": s.name, "games": s.games, "games_won": s.games_won,
                              "deals": s.deals, "deals_won": s.deals_won, "points": s.points,
                              "average": round(s.average, 1)}))
        else:
            print(f"{s.name:<14} games {s.games:>3} won {s.games_won:>3}   deals {s.deals:>4} "
                  f"won {s.deals_won:>4}   points {s.points:>5}  avg {s.average:5.1f}")
    return 0
