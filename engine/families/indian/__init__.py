"""13-card Indian rummy (points, pool 101/201, deals): judge answers and hand counts
(``variants``), deal and game scoring (``scoring``), play at the table (``policy``)."""
