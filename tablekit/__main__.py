"""``python -m tablekit`` runs the command line."""

from tablekit.cli import main

raise SystemExit(main())
