"""Suite-wide test settings: deterministic property tests in CI."""

from __future__ import annotations

import os

from hypothesis import settings

# In CI every property test draws the same examples on every run (a red build is then
# reproducible); on a developer's machine they explore new examples each time.
settings.register_profile("ci", derandomize=True, database=None, deadline=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")
