"""The label reader on sheets written for one behaviour each."""
from __future__ import annotations

from converter.legacy.grid import Grid
from converter.legacy.reader import detect, read_grid


def grid(rows: list[list]) -> Grid:
    g = Grid("シート1")
    for r, row in enumerate(rows):
        for c, v in enumerate(row):
            if v is not None:
                g.cells[(r, c)] = v
    return g


def test_a_table_header_naming_a_column_like_the_unit_does_not_split_the_sheet() -> None:
    """名称 names the unit (a field label) and the weapons' column (a header): one unit, its
    weapon read from the table."""
    g = grid([["機体名", "ゲシュペンスト"], ["総UP", 1500], ["サイズ", "M"], ["運動性", 20], ["移動タイプ", "陸宇"],
              [], ["名称", "種類", "射程", "ダメージ"], ["スラッシュリッパー", "射撃", "3", "1D+20"]])
    [got] = read_grid(g, "up")
    assert got.document["name"] == "ゲシュペンスト"
    assert got.document["weapons"] == [{"name": "スラッシュリッパー", "kind": "ranged", "range": 3,
                                        "damage": {"dice": 1, "fixed": 20}}]
    assert got.unmapped == {}


def test_a_value_that_cannot_be_read_is_a_warning_and_kept() -> None:
    """総UP 「たくさん」: no budget, the warning at the cell, the two cells kept."""
    g = grid([["機体名", "ザク"], ["総UP", "たくさん"], ["運動性", 20], ["移動タイプ", "陸宇"], ["サイズ", "M"]])
    [got] = read_grid(g, "up")
    assert "budget" not in got.document
    assert [(f.code, f.cell) for f in got.findings] == [("LEGACY_VALUE_UNREAD", "シート1!B2")]
    assert got.unmapped == {"A2": "総UP", "B2": "たくさん"}


def test_detection_needs_its_minimum_and_names_the_best() -> None:
    """Detection needs a system's minimum of labels, and names the best system with its confidence."""
    assert detect([grid([["名前", "ロン"], ["肉体", 3]])], ["up", "pp", "mailgear"]).system is None
    seen = detect([grid([["肉体", "反応", "感覚", "精神", "社会"], [3, 3, 3, 3, 3]])], ["up", "pp", "mailgear"])
    assert seen.system == "pp" and seen.confidence == 0.83 and seen.scores["pp"] == 10


def test_a_label_a_space_and_text_in_one_cell() -> None:
    """「機体名 試作機21号」: a known label, a space, then text (not a number) is the field and its
    value; 「佐伯 みのり」 (no label before the space) stays a name as written; a cell whose
    first word is a label followed by a number still reads as before (「装甲 ２０」)."""
    g = grid([["機体名 試作機21号"], ["総UP", 1500], ["サイズ", "M"], ["運動性", 20], ["移動タイプ", "陸宇"],
              ["パイロット", "佐伯 みのり"], ["装甲 ２０"]])
    [got] = read_grid(g, "up")
    assert got.document["name"] == "試作機21号"
    assert got.document["pilot"] == "佐伯 みのり"
    assert got.document["stats"]["armor"] == 20
    assert "A1" not in got.unmapped
