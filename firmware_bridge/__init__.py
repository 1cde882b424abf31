"""The button box link: framing, link health, acknowledgements, port discovery, keyboard fallback."""
