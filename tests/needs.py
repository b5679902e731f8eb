"""What a test needs from the machine (LibreOffice, Gnumeric, Node and its packages, chromium, the
network): without it the test skips here, but fails under CI=true, where .ci/run installs it."""
from __future__ import annotations

import os
from typing import NoReturn

import pytest


def missing(what: str, how: str = "") -> NoReturn:
    """Skip for want of ``what`` (``how``: how to get it), or fail under CI=true."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"{what} is needed under CI=true (.ci/run provides it)")
    pytest.skip(f"{what} is missing" + (f" ({how})" if how else ""))
