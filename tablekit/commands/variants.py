"""``tablekit variants``: list every game the kit referees."""

from __future__ import annotations

import argparse
import json

from engine.variants import all_variants

NAME = "variants"
HELP = "list the variants with players, decks, deals and a one-line summary"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="one JSON object per line")


def run(args: argparse.Namespace) -> int:
    rows = [v.describe() for v in all_variants()]
    if args.json:
        for row in rows:
            print(json.dumps(row, ensure_ascii=False))
        return 0
    width = max((len(r["id"]) for r in rows), default=10)
    print(f"{'id':<{width}}  players  decks  jokers  dealt  deals  summary")
    for r in rows:
        print(f"{r['id']:<{width}}  {r['players']:<7}  {r['decks']:<5}  {r['jokers']:<6}  "
              f"{str(r['cards_dealt']):<5}  {str(r['deals']):<5}  {r['summary']}")
    return 0
