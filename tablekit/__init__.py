"""Rummy Table Kit: the command line and the app shell that wires engine, vision, box and screen."""

__version__ = "0.1.0"
