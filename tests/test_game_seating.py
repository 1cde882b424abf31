"""Seating at setup: partners sit alternately in partnership games; no teams elsewhere."""

from __future__ import annotations

import argparse

import pytest

from engine.errors import GameSetupError, TablekitError
from engine.game import Game, Seat, SeatingError, SetupError, has_partnerships
from engine.variants import all_variants, find


def seats(spec: str) -> tuple[Seat, ...]:
    """``"Ann/N Bo/E Cy/N Di/E"``: names with an optional team after a slash."""
    out = []
    for part in spec.split():
        name, _, team = part.partition("/")
        out.append(Seat(name, team))
    return tuple(out)


def test_the_partnership_games_are_open_rummy_and_push():
    teams = sorted(v.id for v in all_variants() if has_partnerships(v))
    assert teams == ["open-rummy", "open-rummy-2deck", "open-rummy-3deck", "open-rummy-3deck-slow",
                     "open-rummy-6p", "open-rummy-6p-3deck", "push"]


@pytest.mark.parametrize("variant, spec", [
    ("open-rummy", "Ann/N Bo/E Cy/N Di/E"),
    ("open-rummy", "Ann Bo Cy Di"),  # no teams named: 1 and 3 against 2 and 4
    ("open-rummy-6p", "A/red B/blue C/red D/blue E/red F/blue"),
    ("push", "Ann/us Bo/them Cy/us Di/them"),
])
def test_partners_sitting_alternately_are_accepted(variant: str, spec: str) -> None:
    g = Game(variant, seats(spec))
    assert Game.from_json(g.to_json()) == g


def test_partners_side_by_side_are_refused_naming_the_seats():
    with pytest.raises(SeatingError) as caught:
        Game("open-rummy", seats("Ann/N Bo/N Cy/E Di/E"))
    text = str(caught.value)
    assert "alternately" in text
    # Ann-Bo and Cy-Di sit together; Bo-Cy and Di-Ann do not
    assert "seat 1 (Ann) and seat 2 (Bo) are both on team N" in text
    assert "seat 3 (Cy) and seat 4 (Di) are both on team E" in text
    assert "seat 2 (Bo) and seat 3" not in text
    # around the table: the last seat sits next to the first
    with pytest.raises(SeatingError, match=r"seat 6 \(F\) and seat 1 \(A\) are both on team x"):
        Game("open-rummy-6p", seats("A/x B/y C/x D/y E/y F/x"))
    with pytest.raises(SeatingError, match="seat 1 .Ann. and seat 2 .Bo."):
        Game("push", seats("Ann/us Bo/us Cy/them Di/them"))


def test_teams_must_be_two_and_named_for_every_seat_or_none():
    with pytest.raises(SeatingError, match=r"seat 4 \(Di\) have no team"):
        Game("open-rummy", seats("Ann/N Bo/E Cy/N Di"))
    with pytest.raises(SeatingError, match="two teams, not 4"):
        Game("open-rummy", seats("Ann/a Bo/b Cy/c Di/d"))


def test_a_game_without_partnerships_takes_no_teams():
    with pytest.raises(SeatingError, match=r"not a partnership game.*seat 2 \(Ravi\)"):
        Game("indian-pool-101", seats("Asha Ravi/x Meera"))
    assert not has_partnerships(find("shanghai"))


def test_a_seating_error_is_a_setup_error_the_cli_reports_as_one_line(capsys, tmp_path):
    err = SeatingError("x")
    assert isinstance(err, SetupError) and isinstance(err, GameSetupError)
    assert isinstance(err, TablekitError) and isinstance(err, ValueError)
    from tablekit.commands.run import game_from_args

    args = argparse.Namespace(players="Ann/N,Bo/N,Cy/E,Di/E", option=[], variant="open-rummy",
                              turn_seconds=0, dealer=1)
    with pytest.raises(SeatingError, match="seat 1 .Ann. and seat 2 .Bo."):
        game_from_args(args)
    from tablekit.cli import main

    assert main(["run", "--variant", "open-rummy", "--players", "Ann/N,Bo/N,Cy/E,Di/E",
                 "--headless", "--no-box", "--seconds", "0.1", "--camera", "/nowhere",
                 "--journal", str(tmp_path / "j.sqlite")]) == 2
    err = capsys.readouterr().err
    assert "error:" in err and "seat 1 (Ann) and seat 2 (Bo)" in err
