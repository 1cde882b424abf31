"""One module per screen; each draws a view-model onto a `Canvas` and decides nothing."""
