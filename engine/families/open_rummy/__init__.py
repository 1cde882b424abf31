"""Open Rummy (Marwari partnership rummy): melds (``melds``), laying and pile rules (``rules``),
how a turn changed the melds (``meld_changes``), turn checks (``turn_checks``), scoring
(``scoring``), the six variants (``variants``), play at the table (``policy``) and legal random
play for tests and benchmarks (``play``)."""
