"""The bundled `mailgear` samples: the good ones pass (with and without the example catalog),
each broken one fails with exactly its code. Codes and figures are written here by hand from
seed 001, not taken from the engine."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from converter import check_document, check_paths
from converter.cli import main
from converter.core.findings import Severity
from converter.rules.mailgear import evaluate as price

from .conftest import EXAMPLE_CATALOG, example_catalog, ROOT

SAMPLES = ROOT / "samples" / "mailgear"
BROKEN = ROOT / "samples" / "broken" / "mailgear"

# file → derived values worked by hand in each file's notes
GOOD = {
    # ファルケ E: センサー 5 + 第六感 1; 機動力 2; LR 2; no skills on rolls.
    "starting-pilot.json": {"/derived/search_range": 6, "/derived/initiative": "+2",
                            "/derived/hit_lr": "+2", "/derived/fortune": "2d6",
                            "/equipment/0/derived/damage": "+5"},
    # ガルム C+ boosted CR/耐久/キャパシティ; 熱血 4 (+1d), 天賦の才 1, タフガイ 3 + 増加装甲;
    # 武運 2d6 + ミラクル 2 + 天賦の才 1 (武運決定 is a 判定).
    "veteran-custom.json": {"/derived/hit_cr": "+1d+5", "/derived/durability": 60 + 5 + 40,
                            "/derived/capacity": 14 + 4, "/derived/initiative": "+6",
                            "/derived/fortune": "2d6+3", "/derived/slots_used": 6,
                            "/equipment/0/derived/damage": "+11"},
    # ガルム B; ミラクル 4 and 天賦の才 2: 武運 2d6 + 1d + 2 = 3d6+2 (武運決定 is a 判定); a third
    # Ａ．Ｇ．Ｓ adds nothing: 鉄壁 1 + 2 = 3, 受け 3 + 3 + 2 = +8; ハイマニューバ・ユニット raises
    # スピード・スター, 韋駄天 and 機動力 at once: 先行判定 (4+1) + (2+1) + 2 = +10, 移動 5 + 1 + 1 = 7.
    "veteran-fortune.json": {"/derived/fortune": "3d6+2", "/derived/skills/iron_wall": 3,
                             "/derived/guard": "+8", "/derived/initiative": "+10", "/derived/move": 7,
                             "/derived/stats/mobility": 5, "/derived/slots_used": 6,
                             "/equipment/0/derived/damage": "+10"},
    # 鉄壁 2 + Ａ．Ｇ．Ｓ×2 = 4, 第六感 3 + 高感度センサー = 4: the cap exactly.
    "option-cap.json": {"/derived/skills/iron_wall": 4, "/derived/skills/sixth_sense": 4,
                        "/derived/guard": "+1d+4", "/derived/search_range": 3 + 4,
                        "/derived/search": "+1d+3"},
}
# good file → the warnings it has (「３つ装備したとしても＋３レベルにはなりません」: a third copy adds
# nothing, a warning, not an error); the others have none
WARNED = {"veteran-fortune.json": {("MG_OPTION_COPIES", "/equipment/4")}}
# file → the errors it must produce, and nothing else at error or warning level
BAD = {
    "seven-slots.json": {("MG_SLOTS_OVER", "/equipment")},
    "third-option.json": {("MG_OPTION_COPIES", "/equipment/4")},
    "skill-over-max.json": {("MG_SKILL_OVER_MAX", "/skills/0/level")},
    "four-boosts.json": {("MG_CUSTOM_BOOST_COUNT", "/gear/boosts")},
}
# Without a catalog, every sample has these info findings (one per table its checks need).
SKIPPED = {"levels", "gear_ranks", "models"}


def _load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _check(path: Path):
    return check_document(_load(path), None, str(path))


def test_folders_hold_exactly_these_samples() -> None:
    """Every sample file is listed here, so none goes unchecked; names are ASCII."""
    assert sorted(p.name for p in SAMPLES.glob("*.json")) == sorted(GOOD)
    assert sorted(p.name for p in BROKEN.glob("*.json")) == sorted(BAD)
    assert all(p.name.isascii() for p in [*SAMPLES.glob("*.json"), *BROKEN.glob("*.json")])


@pytest.mark.parametrize("name", sorted(GOOD))
def test_good_sample_passes_without_a_catalog(name: str) -> None:
    """No error or warning; the catalog checks are skipped with one info each; values as worked."""
    report = _check(SAMPLES / name)
    assert {(f.code, f.pointer) for f in report.findings if f.level is not Severity.INFO} == WARNED.get(name, set())
    assert report.valid
    skipped = {f.params["table"] for f in report.findings if f.code == "MG_CATALOG_TABLE_MISSING"}
    assert SKIPPED <= skipped <= SKIPPED | {"weapons", "options"}
    for key, value in GOOD[name].items():
        assert report.value(key) == value, key


@pytest.mark.parametrize("name", sorted(GOOD))
def test_good_sample_agrees_with_the_example_catalog(name: str) -> None:
    """Checked against the example catalog, a good sample has no finding at all."""
    result = price(_load(SAMPLES / name), catalog=example_catalog())
    assert {(f.code, f.pointer) for f in result.findings} == WARNED.get(name, set())


@pytest.mark.parametrize("name", sorted(BAD))
def test_broken_sample(name: str) -> None:
    """A broken sample fails with exactly its error (the schema's twin is folded in)."""
    report = _check(BROKEN / name)
    assert not report.valid
    assert {(f.code, f.pointer) for f in report.findings if f.level is Severity.ERROR} == BAD[name]
    assert [f.code for f in report.findings if f.level is Severity.WARNING] == []


def test_the_good_folder_checks_clean_from_the_command_line(capsys) -> None:
    """`mechasheet check samples/mailgear` exits 0: the JSON without a catalog (info findings
    only, and veteran-fortune's warning), and each filled sheet beside it with the catalog its
    catalog sheet holds."""
    assert main(["check", str(SAMPLES)]) == 0
    out = capsys.readouterr().out
    sheets = list(SAMPLES.glob("*.xlsx"))
    # The catalog notes of the JSON pilots are folded into one line (issue 11).
    assert out.count("問題なし") == len(GOOD) + len(sheets) and out.count("カタログにない表") == 1
    # a warned sample has no error either; its JSON and its sheet each print the warning
    assert out.count("MG_OPTION_COPIES") == 2 * len(WARNED)


def test_the_broken_folder_fails_with_its_codes(capsys) -> None:
    """`mechasheet check samples/broken/mailgear` exits 1 and prints each code."""
    assert main(["check", str(BROKEN)]) == 1
    out = capsys.readouterr().out
    for expected in BAD.values():
        for code, _ in expected:
            assert code in out


def test_the_example_catalog_is_not_taken_for_a_sheet() -> None:
    """The folder walker does not pick the example catalog up as a pilot sheet."""
    assert EXAMPLE_CATALOG.is_file()
    assert EXAMPLE_CATALOG not in {Path(f.path) for f in check_paths([SAMPLES]).files}
