"""Vision: frame sources, table calibration, card and tile recognition, grouping into melds."""
