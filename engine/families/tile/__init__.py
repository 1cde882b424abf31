"""106-tile rummy: meld and value rules (``rules``), deal and game rules (``game_rules``), the
variant and its judge answers (``variants``), play at the table (``policy``)."""
