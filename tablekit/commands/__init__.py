"""Subcommands of ``tablekit``, one module each (see ``tablekit.cli``)."""
