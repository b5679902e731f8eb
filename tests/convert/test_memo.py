"""The 変換メモ sheet of a converted workbook: every source and target field with its kind (the
scaled ones with their anchors), then the GM's list; the sheet is invisible to the reader, so the
workbook reads back as the converted document."""
from __future__ import annotations

import json
from pathlib import Path

import openpyxl
import pytest

from converter.cli import main
from converter.convert import carried, convert
from converter.convert.leaves import leaves
from converter.convert.memo import TITLE
from converter.core.texts import texts
from converter.sheets import read_sheet

ROOT = Path(__file__).resolve().parents[2]
SOURCES = {"up": ROOT / "samples/up/m-mobile-suit.json", "mailgear": ROOT / "samples/mailgear/veteran-custom.json",
           "pp": ROOT / "samples/pp/pilot_with_machine.json"}
CASES = [(s, t) for s in SOURCES for t in SOURCES if s != t]


def _memo(path: Path) -> list[tuple]:
    wb = openpyxl.load_workbook(path)
    assert wb[TITLE].sheet_state == "visible"
    return [tuple(r) for r in wb[TITLE].iter_rows(values_only=True)]


@pytest.mark.parametrize("source,target", CASES, ids=[f"{s}->{t}" for s, t in CASES])
def test_the_memo_sheet_accounts_for_every_field(tmp_path: Path, capsys, source: str, target: str) -> None:
    """Each leaf of the source and of the converted document is a row with its side and kind;
    the scaled rows name anchors; the direction's decisions follow; read back, the workbook is
    the converted document."""
    out = tmp_path / f"out.{target}.xlsx"
    assert main(["convert", str(SOURCES[source]), "--to", target, "-o", str(out)]) in (0, 1)
    capsys.readouterr()
    doc = json.loads(SOURCES[source].read_text("utf-8"))
    result = convert(doc, target)
    t = texts("ja")
    rows = _memo(out)
    assert rows[0][0] == t["convert_heading"].format(source=source, target=target)
    fields = {(r[0], r[1]): r[3] for r in rows[2:] if r[0] in (t["convert_side_source"], t["convert_side_target"])}
    kinds = {t["convert_kind_" + k] for k in ("exact", "scaled", "approximated", "dropped", "defaulted", "derived")}
    want = {(t["convert_side_source"], p) for p in leaves(doc).values}
    want |= {(t["convert_side_target"], p) for p in leaves(carried.without_key(result.document)).values}
    assert set(fields) == want and set(fields.values()) <= kinds
    scaled = [r for r in rows[2:] if r[3] == t["convert_kind_scaled"] and "durability" in r[1]]
    assert scaled and all(r[5] for r in scaled), "a scaled durability row names its anchors"
    gm = rows.index(next(r for r in rows if r[0] == t["convert_decisions"]))
    assert [r[1] for r in rows[gm + 1: gm + 1 + len(result.account.decisions)]] == [
        d["ja"] for d in result.account.decisions]
    back, findings, _ = read_sheet(out)
    assert back == result.document and findings == []


def test_the_memo_follows_the_language(tmp_path: Path, capsys) -> None:
    """--lang en writes the memo's words in English (the sheet keeps its name)."""
    out = tmp_path / "out.xlsx"
    main(["convert", str(SOURCES["up"]), "--to", "mailgear", "-o", str(out), "--lang", "en"])
    capsys.readouterr()
    rows = _memo(out)
    assert rows[1][:4] == ("side", "field", "value", "kind") and rows[2][0] == "source"


def test_a_plain_sheet_has_no_memo(tmp_path: Path, capsys) -> None:
    """`mechasheet write` of a document (not a conversion) gives no 変換メモ sheet."""
    out = tmp_path / "plain.xlsx"
    assert main(["write", str(SOURCES["up"]), "-o", str(out)]) in (0, 1)
    capsys.readouterr()
    assert TITLE not in openpyxl.load_workbook(out).sheetnames
