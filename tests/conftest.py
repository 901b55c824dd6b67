"""Shared test setup: the helper module beside the tests, and hypothesis settings that keep the
property tests fast (``TEXAS42_EXAMPLES_SCALE=20`` multiplies the examples for a long run)."""

from __future__ import annotations

import os
import sys

from hypothesis import HealthCheck, settings

sys.path.insert(0, os.path.dirname(__file__))

settings.register_profile(
    "texas42", max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("texas42")
