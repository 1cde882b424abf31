"""The rules engine: cards, melds, variants, arrangements, scoring and game state (pure, no I/O)."""
