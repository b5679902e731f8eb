"""The code as a new maintainer's tools read it: ruff (pyflakes and bugbear) and mypy over the
package, both configured in pyproject.toml and both clean."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path


ROOT = Path(__file__).resolve().parents[1]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_ruff_finds_nothing() -> None:
    """ruff's configured rules report no finding in the package, the tests or the benches."""
    done = _run("ruff", "check", "--no-cache", "converter", "tests", "bench")
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_finds_no_error() -> None:
    """mypy reports no error in converter/ (its settings in pyproject.toml)."""
    done = _run("mypy", "--no-incremental", "--cache-dir", "/dev/null")
    assert done.returncode == 0, done.stdout + done.stderr
