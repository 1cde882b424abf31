"""Card and tile notation: parsing, printing, round trips and errors."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.cards import JOKER, SUITS, Card, full_deck, parse_card
from engine.errors import NotationError, TablekitError
from engine.notation import format_hand, parse_hand, parse_tiles
from engine.tiles import COLOURS, JOLY, Tile, full_tile_set, parse_tile


@pytest.mark.parametrize(
    ("text", "expected"),
    [("QH", Card(12, "H")), ("10c", Card(10, "C")), ("TS", Card(10, "S")), ("a♠", Card(1, "S")),
     ("7♦", Card(7, "D")), ("PJ", JOKER), ("jk", JOKER), ("K♥", Card(13, "H"))],
)
def test_parse_accepts_every_spelling(text: str, expected: Card) -> None:
    assert parse_card(text) == expected


# digits of other scripts (a superscript two, full-width and Arabic-Indic digits) are no rank
@pytest.mark.parametrize("bad", ["1X", "11H", "0S", "", "Q", "QX", "PJJ", "010H", "HQ", "²H", "４H",
                                 "1０H", "٥H"])
def test_parse_rejects_and_names_the_token(bad: str) -> None:
    with pytest.raises(NotationError) as err:
        parse_card(bad)
    assert repr(bad.strip()) in str(err.value) or bad.strip() == "" or "unknown" in str(err.value)


def test_canonical_printing() -> None:
    assert [str(c) for c in (Card(1, "S"), Card(10, "H"), Card(11, "D"), JOKER)] == ["AS", "10H", "JD", "PJ"]
    assert str(Tile(7, "R")) == "R7" and str(JOLY) == "JY"


@given(st.sampled_from(full_deck(1, 1)))
def test_card_round_trip(card: Card) -> None:
    assert parse_card(str(card)) == card
    assert eval(repr(card), {"Card": Card}) == card


@given(st.sampled_from(full_tile_set()))
def test_tile_round_trip(tile: Tile) -> None:
    assert parse_tile(str(tile)) == tile


@given(st.lists(st.lists(st.sampled_from(full_deck(2, 2)), min_size=1, max_size=5), min_size=1, max_size=4))
def test_hand_round_trip(groups: list[list[Card]]) -> None:
    text = format_hand(groups)
    assert parse_hand(text) == groups
    assert format_hand(parse_hand(text)) == text


@given(st.text(max_size=30))
def test_parser_raises_only_project_errors(text: str) -> None:
    try:
        parse_hand(text)
    except TablekitError:
        pass
    try:
        parse_tiles(text)
    except TablekitError:
        pass


def test_tile_parsing() -> None:
    assert parse_tiles("R10 R11 R12 | B7 Y7 K7 | JY") == [
        [Tile(10, "R"), Tile(11, "R"), Tile(12, "R")], [Tile(7, "B"), Tile(7, "Y"), Tile(7, "K")], [JOLY]]
    assert parse_tile("O5") == Tile(5, "Y")  # orange sets count as yellow
    for bad in ("R0", "R14", "X5", "R", "JJ"):
        with pytest.raises(NotationError):
            parse_tile(bad)


def test_decks() -> None:
    deck = full_deck(2, 2)
    assert len(deck) == 106 and deck.count(JOKER) == 2 and deck.count(Card(5, "H")) == 2
    assert len(full_tile_set()) == 106
    assert {c.suit for c in deck if not c.is_joker} == set(SUITS)
    assert {t.colour for t in full_tile_set() if not t.is_joker} == set(COLOURS)


def test_commas_and_spaces_both_separate() -> None:
    assert parse_hand("4H,5H, 6H|QD  QS") == parse_hand("4H 5H 6H | QD QS")
