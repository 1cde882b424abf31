"""Training of the card detector (needs torch; never imported at run time)."""
