"""How a deal ended for one seat: the names every family's scoring and the live game share.

The live game (:mod:`engine.game`) records one of these per seat when a deal ends, and each
family's policy scores them; Indian rummy's scoring (:mod:`engine.families.indian.scoring`)
prices every one of them.
"""

from __future__ import annotations

from enum import StrEnum


class Outcome(StrEnum):
    WINNER = "winner"
    LOST = "lost"
    SECOND_VALID = "second-valid"
    WRONG_SHOW = "wrong-show"
    FIRST_DROP = "first-drop"
    MIDDLE_DROP = "middle-drop"
    MISSED_TURNS = "missed-turns"
    DEAL_SHOW = "deal-show"
