"""Rummy Table Kit: the command line and the app shell that wires engine, vision, box and screen.

The shell's parts: ``table`` (one game's loop around the engine), ``cameras`` (what the table
asks a camera, and the cameras), ``corrections`` (correcting a misread card on a verdict),
``setup_screen`` (choosing the game), ``box_input`` (box and keyboard events to the table),
``shell`` (the screen and the frame loops of ``tablekit run``), ``present`` (the screens'
view-models), ``journal`` and ``clock``; the commands live in ``tablekit.commands``.
"""

import os

# pygame prints a "Hello from the pygame community" banner on its first import unless told
# not to; a command's output (judge's JSON lines, a report) is no place for it.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

__version__ = "0.1.0"
