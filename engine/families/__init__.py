"""The game families the kit referees, one package each, holding everything the family owns.

A family package holds its rule modules (melds, scoring, turn checks where the family checks
turns), its variants as data (``variants.py``, or ``games.py`` for the contract family's many
games, each with a ``VARIANTS`` tuple that :mod:`engine.variants` registers) and its live-game
policy (``policy.py``, a :class:`engine.game.policy.FamilyPolicy` that its variants name).

What every family shares stays at the top of :mod:`engine` (cards, tiles, notation, the meld
grammar, the best arrangement, the table model, rulings and outcomes) and the live game's
machinery in :mod:`engine.game`. The arrows point one way: a family imports the shared code and
:mod:`engine.game`; neither imports a family (the registry loads them by name on first use).
"""
