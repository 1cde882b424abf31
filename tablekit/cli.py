"""The ``tablekit`` command line: finds every subcommand module in ``tablekit.commands``.

Each module there defines ``NAME`` (the subcommand), ``HELP`` (one line), ``add_arguments(parser)``
and ``run(args) -> int``. Adding a command means adding one module; nothing here changes.

A command's output (judge's JSON lines, see's lines, a report) goes to stdout and its usage
mistakes to stderr as one ``error:`` line. What happens on the way (a fallback taken, a device
not found) is logged, to stderr as ``tablekit: …`` lines: warnings by default, more with
``--verbose`` (``-v``; ``-vv`` for debugging), errors only with ``--quiet``.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import pkgutil
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from types import ModuleType
from typing import NoReturn

import tablekit
import tablekit.commands
from engine.errors import TablekitError
from tablekit.values import one_line


def _command_modules() -> list[ModuleType]:
    modules = []
    for info in sorted(pkgutil.iter_modules(tablekit.commands.__path__), key=lambda i: i.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"tablekit.commands.{info.name}")
        if hasattr(module, "NAME") and hasattr(module, "run"):
            modules.append(module)
    return modules


#: The kit's own loggers: the packages whose diagnostics the command line shows.
LOGGERS = ("tablekit", "display", "firmware_bridge", "vision", "engine")


class _Stderr(logging.Handler):
    """Writes to whatever ``sys.stderr`` is when a record comes (tests swap it)."""

    def emit(self, record: logging.LogRecord) -> None:
        try:
            sys.stderr.write(self.format(record) + "\n")
            sys.stderr.flush()
        except Exception:
            self.handleError(record)


_HANDLER = _Stderr()
_HANDLER.setFormatter(logging.Formatter("tablekit: %(message)s"))


@contextmanager
def logging_to_stderr(verbosity: int) -> Iterator[None]:
    """Diagnostics on stderr while a command runs: errors only (``verbosity`` < 0), warnings
    (0), what happens (1), debugging (2 and more). The loggers are as they were afterwards."""
    level = (logging.ERROR if verbosity < 0 else logging.WARNING if verbosity == 0
             else logging.INFO if verbosity == 1 else logging.DEBUG)
    loggers = [logging.getLogger(name) for name in LOGGERS]
    before = [logger.level for logger in loggers]
    _HANDLER.setLevel(level)
    for logger in loggers:
        logger.setLevel(level)
        logger.addHandler(_HANDLER)
    try:
        yield
    finally:
        for logger, old in zip(loggers, before, strict=True):
            logger.removeHandler(_HANDLER)
            logger.setLevel(old)


class _Parser(argparse.ArgumentParser):
    """Usage mistakes print one ``error:`` line (exit 2), as every tablekit contract asks."""

    def error(self, message: str) -> NoReturn:
        print(f"error: {message} (see `{self.prog} --help`)", file=sys.stderr)
        raise SystemExit(2)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="tablekit", description="Rummy Table Kit: referee rummy played with real cards."
    )
    parser.add_argument("--version", action="version", version=f"tablekit {tablekit.__version__}")
    talk = parser.add_mutually_exclusive_group()
    talk.add_argument("-v", "--verbose", action="count", default=0,
                      help="say more of what happens on the way (stderr); -vv for debugging")
    talk.add_argument("-q", "--quiet", action="store_true",
                      help="say nothing on the way but errors (a command's output stays)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for module in _command_modules():
        p = sub.add_parser(module.NAME, help=module.HELP, description=module.HELP)
        module.add_arguments(p)
        p.set_defaults(_run=module.run)
    return parser


def tolerant_streams() -> None:
    """Bytes that are not UTF-8 never stop a command: read from stdin they keep their place
    (a batch line then gets its own error), and a file name or a line that holds them is
    written with them escaped where the locale would refuse them (a UTF-8 locale other than
    C.UTF-8 encodes strictly: one such photo name ended a whole ``see`` run)."""
    for stream, errors in ((sys.stdin, "surrogateescape"), (sys.stdout, "backslashreplace"),
                           (sys.stderr, "backslashreplace")):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None and getattr(stream, "errors", None) == "strict":
            try:
                reconfigure(errors=errors)
            except (ValueError, OSError):  # a stream already read from, or closed
                pass


def main(argv: Sequence[str] | None = None) -> int:
    tolerant_streams()
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "_run", None):
        parser.print_help()
        return 2
    with logging_to_stderr(-1 if args.quiet else args.verbose):
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    """The command, every failure ending as one ``error:`` line on stderr: no traceback
    reaches a user (with ``-vv`` an unexpected one is logged in full)."""
    try:
        return int(args._run(args) or 0)
    except TablekitError as exc:
        # Every command reports bad input the same way: one line, exit status 2.
        print(f"error: {one_line(str(exc))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        sys.stderr.close()
        return 0
    except MemoryError:
        print("error: out of memory", file=sys.stderr)
        return 1
    except OSError as exc:  # the machine refused: a full disk, a folder that cannot be written
        where = f" ({one_line(str(exc.filename))})" if exc.filename else ""
        print(f"error: {one_line(exc.strerror or str(exc))}{where}", file=sys.stderr)
        return 1
    except Exception as exc:  # a fault of the kit's own: one line for the user, details in the log
        logging.getLogger("tablekit").debug("unexpected failure", exc_info=True)
        print(f"error: unexpected {type(exc).__name__}: {one_line(str(exc))} "
              "(run with -vv for the details)", file=sys.stderr)
        return 1
