"""Show the judge on worked examples from the rule texts (a stand-in demo without a table)."""

from __future__ import annotations

from engine.cards import Card
from engine.variants import JudgeRequest, find

EXAMPLES = [
    ("indian-points", "count", "4H 5H 6H | 7C 8C 5D | 9D 9S 4C | KD QD 7S 9S", "5D"),
    ("indian-points", "count", "9S 9H 9C | 8D 9D 6D | 8S 10S JS | QH KH | KS KD", "6C"),
    ("indian-points", "declare", "4H 5H 6H 7H | KC QC PJ | QD QS QC | 7S 7D 7C", "3S"),
    ("indian-points", "declare", "4H 5H PJ | KC QC PJ | QD QS QC | 7S 7D 7C 8C", "3S"),
    ("indian-points", "best", "4H 5H 6H 7C 8C 5D 9D 9S 4C KD QD 7S 9S", "5D"),
]


def main() -> None:
    for vid, mode, hand, wild in EXAMPLES:
        v = find(vid)
        r = v.judge(JudgeRequest(mode, groups=v.parse(hand), wild=Card.parse(wild)))
        print(f"{vid} {mode} (wild {wild}): {hand}")
        for g in r.groups:
            print(f"    {' '.join(map(str, g.cards)):<28} {g.kind:<14} {g.reason}")
        print(f"  -> {'valid' if r.valid else 'not valid'}, {r.points} points: {r.reason}\n")


if __name__ == "__main__":
    main()
