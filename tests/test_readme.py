"""Every example command in README.md runs as written.

The commands are the lines of README.md's code blocks that start with ``mechasheet `` or
``python -m converter ``, and the ``mechasheet …`` step of the set-up lines (``python3 -m venv … &&
pip install … && mechasheet check samples/``); the venv and pip steps and the PowerShell block are
not run. Each runs from the root of a copy of the repository (in ``tmp_path``, so outputs never
touch the working tree), in README order (``read`` reads what ``write`` wrote), with
``python -m converter`` for ``mechasheet``. A ``< FILE`` redirection feeds the file on standard
input. Each command must exit with the code stated below: 0 unless listed in EXPECTED_EXIT.
"""
from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path


ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"

# Commands that document a non-zero exit code (their README comment says "exit code N").
EXPECTED_EXIT = {
    "mechasheet check samples/up/s-real-robot.json --rule damage_dice=every_die --lang en": 1,
    "mechasheet check samples/broken/ --quiet": 1,
    "mechasheet import samples/legacy/ -o out/imported/": 1,  # one sample needs its profile
    "mechasheet import samples/legacy/pp-club-2015.xlsx -o out/club/ --profile samples/legacy/profiles/club-2015-pp.toml": 1,
    # the broken samples have errors
    "mechasheet audit samples/ samples/broken/ samples/legacy/ -o out/audit/audit.html -o out/audit/audit.xlsx "
    "-o out/audit/audit.json": 1,
}

# Commands the README must keep showing: one per command of the CLI, and the group's own data.
REQUIRED = (
    "mechasheet check samples/",
    "mechasheet check - < samples/up/m-mobile-suit.json",
    "mechasheet check samples/mailgear/ --catalog samples/mailgear/.catalog/catalog-example.json",
    "mechasheet check samples/pp/ --skills samples/pp/skills-example.txt",
    "mechasheet template up -o out/up.xlsx",
    "mechasheet write samples/up/m-mobile-suit.json -o out/my-unit.xlsx",
    "mechasheet read out/my-unit.xlsx -o out/my-unit.json",
    "mechasheet import samples/legacy/ -o out/imported/",
    "mechasheet import samples/legacy/pp-club-2015.xlsx -o out/club/ --profile samples/legacy/profiles/club-2015-pp.toml",
    "mechasheet rules",
    "mechasheet schema up",
    "mechasheet audit samples/ samples/broken/ samples/legacy/ -o out/audit/audit.html -o out/audit/audit.xlsx "
    "-o out/audit/audit.json",
    "mechasheet convert samples/up/m-mobile-suit.json --to mailgear -o out/mobile-suit-gear.json",
    "mechasheet export samples/pp/pilot_with_machine.xlsx --to ccfolia --stdout",
)

COPY_IGNORED = shutil.ignore_patterns(".git", ".venv", ".hypothesis", ".pytest_cache",
                                      "__pycache__", "*.egg-info", "build", "dist", "out")
FENCE = re.compile(r"^```(\S*)\s*$")
POWERSHELL = {"powershell", "ps1", "pwsh"}


def readme_commands(text: str) -> list[tuple[str, str]]:
    """(command, comment) for each example command in the README's code blocks, in order."""
    out: list[tuple[str, str]] = []
    lang: str | None = None
    for line in text.splitlines():
        fence = FENCE.match(line.strip())
        if fence:
            lang = None if lang is not None else fence.group(1).lower()
            continue
        if lang is None or lang in POWERSHELL:
            continue
        code, _, comment = line.partition(" #")
        code = code.strip()
        if "python3 -m venv" in code or "pip install" in code:
            steps = [s.strip() for s in code.split("&&")]
            out.extend((s, "") for s in steps if s.startswith("mechasheet "))
        elif code.startswith(("mechasheet ", "python -m converter ")):
            out.append((" ".join(code.split()), comment.strip()))
    return out


def argv_and_stdin(command: str, root: Path) -> tuple[list[str], Path | None]:
    """The argument list to run ``command`` with this Python, and the file on its stdin if any."""
    words = shlex.split(command)
    stdin = None
    if "<" in words:
        at = words.index("<")
        stdin = root / words[at + 1]
        words = words[:at] + words[at + 2:]
    if words[0] == "mechasheet":
        words = [sys.executable, "-m", "converter", *words[1:]]
    elif words[:3] == ["python", "-m", "converter"]:
        words = [sys.executable, *words[1:]]
    return words, stdin


def expected_exit(command: str) -> int:
    return EXPECTED_EXIT.get(command, 0)


def test_readme_lists_its_commands():
    """README.md shows every required command, and the expected exit codes name only commands it shows."""
    commands = [c for c, _ in readme_commands(README.read_text("utf-8"))]
    missing = [c for c in REQUIRED if c not in commands]
    assert not missing, f"README.md no longer shows: {missing}"
    stale = [c for c in EXPECTED_EXIT if c not in commands]
    assert not stale, f"EXPECTED_EXIT names commands README.md does not show: {stale}"


def test_readme_states_the_exit_codes_the_test_expects():
    """README.md says 'exit code N' beside a command exactly when the test expects that non-zero code."""
    for command, comment in readme_commands(README.read_text("utf-8")):
        code = expected_exit(command)
        says = re.search(r"exit code (\d+)", comment)
        if code:
            assert says and int(says.group(1)) == code, (
                f"README.md should say 'exit code {code}' beside: {command}")
        else:
            assert not says, f"README.md says {says.group(0)!r}, the test expects 0: {command}"


def test_readme_commands_run_as_written(tmp_path):
    """Each README.md command, run in a copy of the repository, exits as expected and writes its output."""
    root = tmp_path / "repo"
    shutil.copytree(ROOT, root, symlinks=True, ignore=COPY_IGNORED)
    env = {**os.environ, "PYTHONUTF8": "1", "PYTHONIOENCODING": "utf-8",
           "PYTHONDONTWRITEBYTECODE": "1"}
    commands = readme_commands(README.read_text("utf-8"))
    assert commands
    failures = []
    for command, _ in commands:
        argv, stdin = argv_and_stdin(command, root)
        with open(stdin, "rb") if stdin else open(os.devnull, "rb") as feed:
            done = subprocess.run(argv, cwd=root, stdin=feed, capture_output=True, env=env,
                                  timeout=300)
        out = done.stdout.decode("utf-8", "replace")
        err = done.stderr.decode("utf-8", "replace")
        want = expected_exit(command)
        if done.returncode != want:
            failures.append(f"{command}\n  exit {done.returncode}, expected {want}\n"
                            f"  stdout: {out[-1500:]}\n  stderr: {err[-1500:]}")
            continue
        words = shlex.split(command)
        if "-o" in words:  # the output the command documents: written, and not empty
            target = root / words[words.index("-o") + 1]
            if target.is_dir():  # import writes a folder: its report at least; export a file a piece
                target = target / "import-report.json" if words[1] == "import" else min(target.iterdir(), default=target)
            if not (target.is_file() and target.stat().st_size > 0):
                failures.append(f"{command}\n  did not write {target.relative_to(root)}")
        elif not out.strip():
            failures.append(f"{command}\n  printed nothing")
        if "--format" in words and words[words.index("--format") + 1] == "json" or \
                words[1:2] == ["schema"]:
            json.loads(out)  # the machine-readable output is one JSON value
    assert not failures, "README.md commands that do not work as written:\n\n" + "\n\n".join(failures)
