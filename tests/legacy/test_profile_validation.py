"""Layout profiles checked at load (issue 36 item 9), and a pinned cell never replaced by another."""
from __future__ import annotations

import openpyxl
import pytest

from converter.core.errors import InputError
from converter.legacy.profile import load_profile
from converter.legacy.sources import read_import


@pytest.mark.parametrize(("body", "key"), [
    ('[cells]\n"/stats/bogus" = "B2"\n', "cells./stats/bogus"),
    ('[cells]\n"/nmae" = "B2"\n', "cells./nmae"),
    ('[labels]\n"/attributes/bodyy" = ["体"]\n', "labels./attributes/bodyy"),
    ('[ranges]\n"/skills" = { range = "A1:B3", columns = ["name", "range"] }\n', "ranges./skills.columns"),
    ('[ranges]\n"/weapons" = { range = "A1:B3", columns = ["name"] }\n', "ranges./weapons"),
])
def test_a_pointer_the_system_does_not_read_is_refused(tmp_path, body: str, key: str) -> None:
    """A typo, a field no label reads, or a column no table has: PROFILE_INVALID naming the key."""
    path = tmp_path / "p.toml"
    path.write_text('system = "pp"\n' + body, encoding="utf-8")
    with pytest.raises(InputError) as caught:
        load_profile(path)
    assert caught.value.code == "PROFILE_INVALID"
    assert caught.value.finding.params["key"] == key


def test_labels_for_a_field_read_by_no_label_are_refused(tmp_path) -> None:
    """mailgear's /gear/boosts has no label reading: its [labels] entry is refused, not ignored."""
    path = tmp_path / "p.toml"
    path.write_text('system = "mailgear"\n[labels]\n"/gear/boosts" = ["強化"]\n', encoding="utf-8")
    with pytest.raises(InputError) as caught:
        load_profile(path)
    assert caught.value.finding.params["key"] == "labels./gear/boosts"


def test_a_pinned_cell_that_cannot_be_read_is_an_error_not_a_fallback(tmp_path) -> None:
    """The profile pins 肉体 to B5, which is empty: an error at B5, and B2's labelled value unused."""
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "PC"
    for a1, value in {"A1": "名前", "B1": "ユウ", "A2": "肉体", "B2": 4, "A3": "反応", "B3": 3, "A4": "感覚",
                      "B4": 2, "B6": "たくさん"}.items():
        sheet[a1] = value
    book.save(tmp_path / "pc.xlsx")
    path = tmp_path / "p.toml"
    path.write_text('system = "pp"\n[cells]\n"/attributes/body" = "B5"\n"/attributes/mind" = "B6"\n',
                    encoding="utf-8")
    ((source, _),) = read_import(tmp_path / "pc.xlsx", profile=load_profile(path))
    assert "body" not in source.document["attributes"] and "mind" not in source.document["attributes"]
    unread = [(f.code, f.cell) for f in source.findings if f.code == "PROFILE_CELL_UNREAD"]
    assert unread == [("PROFILE_CELL_UNREAD", "PC!B5"), ("PROFILE_CELL_UNREAD", "PC!B6")]
    assert source.document["extra"]["import"]["unmapped"]["B2"] == 4


def test_a_pinned_cell_is_read_even_when_hidden(tmp_path) -> None:
    """A profile names its cell: a hidden column's cell is read, and is no leftover."""
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "PC"
    for a1, value in {"B1": "ユウ", "A2": "肉体", "C2": 4, "A3": "反応", "C3": 3, "A4": "感覚", "C4": 2}.items():
        sheet[a1] = value
    sheet.column_dimensions["B"].hidden = True
    book.save(tmp_path / "pc.xlsx")
    path = tmp_path / "p.toml"
    path.write_text('system = "pp"\n[cells]\n"/name" = "B1"\n', encoding="utf-8")
    ((source, _),) = read_import(tmp_path / "pc.xlsx", profile=load_profile(path))
    assert source.document["name"] == "ユウ" and source.document["attributes"]["body"] == 4
    assert "B1" not in source.document["extra"]["import"].get("unmapped", {})
    assert not [f for f in source.findings if f.code in ("PROFILE_CELL_UNREAD", "LEGACY_HIDDEN_READ")]
