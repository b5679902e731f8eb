"""Every palette line, filled in as a client fills it, rolled by the real BCDice (the npm
``bcdice`` package, the generic ``DiceBot`` both clients use): each command parses, rolls the
dice and the fixed part the engine derived, and each ※ note is no roll at all (issue 33). Names
are filled in as Udonarium fills them (widths folded), so two weapons whose names differ only in
width must still roll their own numbers.

One Node process rolls every line of every golden case. Node and the package are found as
tests/excel/test_pyodide.py finds Pyodide: $MECHASHEET_BCDICE, else ~/.cache/mechasheet-bcdice
(.ci/run installs it there); missing, the test skips, except under CI=true."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from converter.export.files import export_paths
from converter.export.model import Piece

from ..needs import missing
from .test_export import CASES, dice_terms
from .test_online_play import PP_DOC, SUIT, folded_expand

BCDICE_VERSION = "4.9.0"  # .ci/run installs this one

SCRIPT = r"""
const { DynamicLoader } = require('bcdice');
(async () => {
  const lines = JSON.parse(require('fs').readFileSync(0, 'utf-8'));
  const bot = await new DynamicLoader().dynamicLoad('DiceBot');
  const out = lines.map((text) => {
    const r = bot.eval(text);
    return r ? { text: r.text, rands: r.rands } : null;
  });
  process.stdout.write(JSON.stringify(out));
})().catch((e) => { console.error(e); process.exit(1); });
"""


def bcdice_dir() -> Path | None:
    """The folder whose node_modules holds bcdice: $MECHASHEET_BCDICE, else the CI's cache."""
    for base in (os.environ.get("MECHASHEET_BCDICE"), Path.home() / ".cache" / "mechasheet-bcdice"):
        if base and (Path(base) / "node_modules" / "bcdice" / "package.json").is_file():
            return Path(base)
    return None


@pytest.fixture(scope="module")
def pieces(tmp_path_factory) -> list[tuple[str, Piece]]:
    """Every golden case, a unit with weapons named apart only by width, and a pp sheet with
    skills the engine cannot roll."""
    folder = tmp_path_factory.mktemp("bcdice")
    unit = json.loads(SUIT.read_text(encoding="utf-8"))
    unit["weapons"][0]["name"], unit["weapons"][2]["name"] = "Ｂライフル", "Bライフル"
    extra = []
    for name, doc in (("widths", unit), ("unrollable", PP_DOC)):
        path = folder / f"{name}.json"
        path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
        extra.append((name, export_paths([path])[0].piece))
    return [(name, piece) for name, piece, _ in CASES] + extra


def _lines(piece: Piece) -> list[tuple[object, str, str]]:
    """(line, its text as Udonarium sends it, its command with the exact names filled in)."""
    return [(line, folded_expand(piece, line.text), piece.expand(line.command)) for line in piece.lines]


@pytest.fixture(scope="module")
def rolled(pieces) -> dict[str, dict | None]:
    """Every palette line, variables filled in, rolled once by BCDice: text → result."""
    node, folder = shutil.which("node"), bcdice_dir()
    if not (node and folder):
        missing("Node and its bcdice package", f"npm install --prefix ~/.cache/mechasheet-bcdice bcdice@{BCDICE_VERSION}")
    texts = sorted({text for _, piece in pieces for _, text, _ in _lines(piece)})
    run = subprocess.run([node, "-e", SCRIPT], input=json.dumps(texts), capture_output=True, text=True,
                         cwd=folder, timeout=120, check=True)
    return dict(zip(texts, json.loads(run.stdout), strict=True))


def test_every_palette_line_rolls_as_the_engine_derived(pieces, rolled) -> None:
    """Each line, as Udonarium fills it, rolls in BCDice the dice and fixed part its own variables
    hold (test_export holds those to the engine); each note rolls nothing."""
    wrong = []
    for name, piece in pieces:
        for line, text, command in _lines(piece):
            result = rolled[text]
            if line.is_note:
                if result is not None:
                    wrong.append((name, text, "a note rolled"))
                continue
            if result is None:
                wrong.append((name, text, "BCDice does not read it"))
                continue
            sides = sorted(s for _, s in result["rands"])
            if "U" in command:  # 上方無限ロール: at least the pool's dice, each a d10; counted successes
                n, faces = map(int, re.match(r"(\d+)U(\d+)", command).groups())
                if len(sides) < n or set(sides) != {faces} or "成功数" not in result["text"]:
                    wrong.append((name, text, result["text"]))
                continue
            dice, fixed = dice_terms(command)
            if sides != sorted(s for s, k in dice.items() for _ in range(k)):
                wrong.append((name, text, result["text"]))
                continue
            if "<=" in command:  # a d100 under a target: judged
                if not re.search(r"＞ (成功|失敗)$", result["text"]):
                    wrong.append((name, text, result["text"]))
                continue
            total = int(result["text"].rsplit("＞", 1)[1])
            if total - sum(v for v, _ in result["rands"]) != fixed:
                wrong.append((name, text, result["text"]))
    assert wrong == []
