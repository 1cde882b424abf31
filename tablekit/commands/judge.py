"""``tablekit judge``: adjudicate a hand, a meld, a contract or a turn (see the judge contract)."""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections.abc import Mapping
from typing import Any

from engine.errors import TablekitError
from tablekit.judging import JudgeInputError, answer, load_state_file
from tablekit.values import parse_option

_log = logging.getLogger("tablekit")

NAME = "judge"
HELP = "rule on a declaration, a hand count, melds, a contract or a turn"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--variant", help="variant id (see `tablekit variants`)")
    p.add_argument("--mode", help="declare, count, best, contract, meld or turn")
    p.add_argument("--wild", help="the cut wild-joker card (Indian rummy)")
    p.add_argument("--deal", help="deal/round number, 1-based (contract games)")
    p.add_argument("--decks", help="number of decks, if not the variant's default")
    p.add_argument("--players", help="number of players, if not the variant's default")
    p.add_argument("--seat", help="the seat whose turn it was (turn mode)")
    p.add_argument("--before", help="table state before the turn (JSON file)")
    p.add_argument("--after", help="table state after the turn (JSON file)")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="house-rule option, e.g. wrap=true (repeatable)")
    p.add_argument("--batch", action="store_true", help="read JSON lines on stdin, answer one per line")
    p.add_argument("hand", nargs="*", help="the hand: groups separated by '|'")


def _question(args: argparse.Namespace) -> dict[str, Any]:
    q: dict[str, Any] = {"variant": args.variant, "mode": args.mode}
    for key in ("wild", "deal", "decks", "players", "seat"):
        if getattr(args, key) is not None:
            q[key] = getattr(args, key)
    # as `run` reads them: numbers are numbers (a switch given as 1 or 0 is made true or false
    # once the game's options say which it is)
    options = dict(parse_option(item) for item in args.option)
    if options:
        q["options"] = options
    if args.mode == "turn":
        if not args.before or not args.after:
            raise TablekitError("turn mode needs --before FILE and --after FILE")
        q["before"] = load_state_file(args.before)
        q["after"] = load_state_file(args.after)
    else:
        q["hand"] = " ".join(args.hand)
    return q


def _fail(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    if args.batch:
        return _run_batch()
    if not args.variant:
        return _fail("missing --variant")
    if not args.mode:
        return _fail("missing --mode")
    result = _answer(_question(args))  # bad input: tablekit.cli prints the error line, exit 2
    print(json.dumps(result, ensure_ascii=False))
    return 0


#: An error line quotes at most this much (a pasted megabyte is named by its start).
_ERROR_CHARS = 300


def _answer(question: Mapping[str, Any]) -> dict[str, Any]:
    """:func:`answer`, with input too deeply nested to walk reported as bad input and error
    messages that quote a huge token cut short."""
    try:
        return answer(question)
    except RecursionError:
        raise JudgeInputError("the question is nested too deeply to be a judge question") from None
    except TablekitError as exc:
        text = str(exc)
        if len(text) <= _ERROR_CHARS:
            raise
        raise JudgeInputError(text[:_ERROR_CHARS] + "...") from None


def _batch_line(line: str) -> dict[str, Any]:
    """The answer to one batch line, or ``{"error": ...}``: never an exception."""
    try:
        try:
            question = json.loads(line)
        except RecursionError:
            raise JudgeInputError("bad JSON line: nested too deeply") from None
        except ValueError as exc:
            raise JudgeInputError(f"bad JSON line: {exc}") from None
        if not isinstance(question, dict):
            raise JudgeInputError("each batch line must be a JSON object")
        return _answer(question)
    except TablekitError as exc:
        return {"error": str(exc)}
    except Exception as exc:  # a fault of the kit's own: the line says so, the batch goes on
        _log.debug("unexpected failure on a batch line", exc_info=True)
        return {"error": f"unexpected {type(exc).__name__}: {exc}"}


def _run_batch() -> int:
    for line in sys.stdin:  # one result line per input line, a blank one included
        answer = _batch_line(line) if line.strip() else {"error": "empty line"}
        print(json.dumps(answer, ensure_ascii=False), flush=True)
    return 0
