"""Online play, round two (issues 33 and 35): what the real clients do with a piece. Names that
differ only in width stay apart after Udonarium's folding; 武運 has a real maximum; --stdout
gives one JSON value or refuses; up's unset pilot stats and pp's unrollable skills are said in
the palette and as findings; a catalog workbook is named with its reason."""
from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from converter.check import check_source
from converter.cli import main
from converter.export.files import export_paths
from converter.export.model import Piece, Status
from converter.io import read_source

from .cases import SAMPLES
from .test_export import CASES, IDS, _checked, is_bcdice

SUIT = SAMPLES / "up" / "m-mobile-suit.json"
PILOT = SAMPLES / "pp" / "pilot_with_machine.xlsx"
_REFERENCE = re.compile(r"[{｛]\s*([^{}｛｝]+?)\s*[}｝]")


def _write(tmp_path: Path, name: str, doc: dict) -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    return path


def folded(name: str) -> str:
    """A name as Udonarium compares it (full-width letters and digits fold to half-width; case
    ignored); NFKC is at least as wide."""
    return unicodedata.normalize("NFKC", name).casefold()


def folded_expand(piece: Piece, command: str) -> str:
    """``command`` filled in as Udonarium fills it: names compared after width (and case)
    folding, the first variable of a folded name winning."""
    values: dict[str, str] = {}
    for v in piece.variables:
        values.setdefault(folded(v.name), v.value)
    for _ in range(8):
        command = _REFERENCE.sub(lambda m: values.get(folded(m.group(1)), m.group(0)), command)
    return command


def test_weapons_named_apart_only_by_width_roll_their_own_numbers(tmp_path: Path) -> None:
    """`Ｂライフル` and `Bライフル` keep apart after width folding: each line rolls its own weapon."""
    doc = json.loads(SUIT.read_text(encoding="utf-8"))
    doc["weapons"][0]["name"] = "Ｂライフル"  # 1D10+45 (beam)
    doc["weapons"][2]["name"] = "Bライフル"   # 1D10+10 (solid)
    piece = export_paths([_write(tmp_path, "unit.json", doc)])[0].piece
    names = [folded(v.name) for v in piece.variables]
    assert len(names) == len(set(names)), names
    damage = {line.label: folded_expand(piece, line.command) for line in piece.lines if "ダメージ" in line.label}
    assert damage["Ｂライフル ダメージ"] == "1D10+45" and damage["Bライフル ダメージ"] == "1D10+10"


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["Bライフル", "Ｂライフル", "bライフル", "ﾗｲﾌﾙ", "ライフル", "ライフル2", "HP", "ＨＰ"]),
                max_size=8))
def test_no_two_variables_fold_to_one_name(names: list[str]) -> None:
    """Whatever names come, no two variables (or a variable and a status) fold to one name."""
    piece = Piece("up", "x", "x", status=[Status("HP", 1, 1)])
    for name in names:
        piece.add_variable(name, "+0")
    taken = [folded(v.name) for v in piece.variables] + ["hp"]
    assert len(taken) == len(set(taken))


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_every_resource_has_a_maximum(case) -> None:
    """No status has maximum 0 (CCFOLIA and Udonarium show it full, or refuse to raise it);
    武運's maximum is the most its 武運決定 roll gives."""
    _, piece, _ = case
    assert all(s.max > 0 for s in piece.status), piece.status
    fortune = [s for s in piece.status if s.label == "武運"]
    if fortune:
        roll = _checked(piece)[1].derived["/derived/fortune"].roll
        assert fortune[0].max == roll.dice * roll.sides + roll.fixed


def test_stdout_with_several_pieces_is_refused_with_advice(capsys) -> None:
    """Two pieces to --stdout: exit 2 and nothing on standard output (a paste takes one piece)."""
    for target in ("ccfolia", "palette"):
        assert main(["export", str(SUIT), str(PILOT), "--to", target, "--stdout", "--lang", "en"]) == 2
        out, err = capsys.readouterr()
        assert out == "" and "one piece" in err and "-o" in err and "ガルディア試作二号機" in err


def test_stdout_with_one_piece_is_one_json_value(capsys) -> None:
    """One piece to --stdout: exactly one JSON value, parsed whole."""
    assert main(["export", str(PILOT), "--to", "ccfolia", "--stdout"]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and json.loads(out)["kind"] == "character"


def test_up_unset_pilot_stats_are_said_in_the_palette_and_as_a_finding(capsys, tmp_path: Path) -> None:
    """格闘 and 射撃 left at 0: a note before the first hit line and a warning the command prints."""
    piece = export_paths([SUIT])[0].piece
    assert [f.code for f in piece.findings] == ["EXPORT_UP_PILOT_UNSET"]
    first_hit = next(i for i, line in enumerate(piece.lines) if line.command.startswith("1D100<="))
    notes = [line.label for line in piece.lines[:first_hit] if line.is_note]
    assert len(notes) == 1 and "//格闘=" in notes[0] and "//射撃=" in notes[0]
    assert main(["export", str(SUIT), "--to", "palette", "-o", str(tmp_path)]) == 0
    assert "【格闘】【射撃】" in capsys.readouterr().out
    doc = json.loads(SUIT.read_text(encoding="utf-8"))
    doc["weapons"] = []
    bare = export_paths([_write(tmp_path, "bare.json", doc)])[0].piece
    assert bare.findings == [] and not any(line.is_note for line in bare.lines)  # no hit roll, no note


def test_a_catalog_workbook_is_named_with_its_reason(tmp_path: Path, capsys) -> None:
    """The mailgear catalog in a folder: not exported, because it is a catalog (use --catalog)."""
    assert main(["export", str(SAMPLES / "mailgear" / "catalog-example.xlsx"), "--to", "palette",
                 "-o", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if "catalog-example.xlsx" in x)
    assert "—" not in line and "カタログ" in line
    assert f"--catalog {SAMPLES / 'mailgear' / 'catalog-example.xlsx'}" in out


PP_DOC = {"system": "pp", "format": 1, "name": "テスト", "budget": 150,
          "attributes": {"body": 4, "reflex": 5, "sense": 5, "mind": 4, "social": 3},
          "skills": [{"name": "操縦", "level": 4},
                     {"name": "ハッキング", "level": 2, "specializations": [{"name": "軍用", "level": 3}]},
                     {"name": "知覚", "level": "x"}],
          "combat_boost": 3}


def test_every_pp_skill_has_a_palette_line_and_a_missing_attribute_is_asked_for(tmp_path: Path) -> None:
    """A skill the engine cannot roll keeps a ※ line saying what is missing; check asks for its 能力値."""
    path = _write(tmp_path, "pp.json", PP_DOC)
    piece = export_paths([path])[0].piece
    text = piece.palette_text()
    for skill in ("〈操縦〉", "〈ハッキング〉", "〈ハッキング〉（軍用）", "〈知覚〉"):
        assert any(line.label.startswith(skill) or line.label.startswith("※" + skill) for line in piece.lines), skill
    hacking = [line.label for line in piece.lines if "ハッキング" in line.label]
    assert len(hacking) == 2 and all(x.startswith("※") and "能力値" in x for x in hacking)
    assert any(line.label.startswith("※〈知覚〉") and "レベル" in line.label for line in piece.lines)
    assert "ハッキング=" not in text  # no variable for a roll that cannot be made
    for line in piece.lines:
        if not line.is_note:
            assert is_bcdice(piece.expand(line.command)), line
    report = check_source(read_source(path))
    asked = [f for f in report.findings if f.code == "PP_SKILL_NO_ATTRIBUTE"]
    assert [f.pointer for f in asked] == ["/skills/1/attribute"]
    assert "〈ハッキング〉" in asked[0].message("ja") and "能力値" in asked[0].hint("ja")
    chosen = dict(PP_DOC, skills=[dict(PP_DOC["skills"][1], attribute="mind")])
    assert not [f for f in check_source(read_source(_write(tmp_path, "chosen.json", chosen))).findings
                if f.code == "PP_SKILL_NO_ATTRIBUTE"]
