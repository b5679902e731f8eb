"""Write the homemade ("legacy") sample sheets and the documents each must import to.

Each sample is a sheet laid out the way groups really keep them (labels beside or above values,
「ＨＰ：２５０」 in one cell, full-width digits, merged titles, several characters on one sheet,
.xls and .ods files), written from rows given here, with the document it encodes written by hand
in ``.expected/<name>.json`` (a hidden folder: the commands that search folders pass it over). tests/legacy/test_samples.py imports every sample and
compares. .xls and .ods are converted from .xlsx by LibreOffice (``soffice``), so their bytes are
not reproducible: run this only to change a sample, then commit what it wrote.

    python samples/legacy/make_legacy.py [NAME ...]
"""
from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from pathlib import Path

import openpyxl

HERE = Path(__file__).resolve().parent
UNDER = 0.8  # a value read under its label (converter/legacy/reader.py UNDER_LABEL)
GLUED = 0.7  # 「運動1」: a level glued to its name (GLUED_LEVEL)
ATTRIBUTES_UNDER = {f"/attributes/{a}": UNDER for a in ("body", "reflex", "sense", "mind", "social")}


def _write_xlsx(path: Path, sheets: dict[str, list[list]], merged: dict[str, list[str]] | None = None) -> None:
    wb = openpyxl.Workbook()
    wb.remove(wb.active)
    for name, rows in sheets.items():
        ws = wb.create_sheet(name)
        for r, row in enumerate(rows, 1):
            for c, value in enumerate(row, 1):
                if value is not None and value != "":
                    ws.cell(r, c, value)
        for ref in (merged or {}).get(name, []):
            ws.merge_cells(ref)
    wb.save(path)


def _convert(xlsx: Path, suffix: str) -> Path:
    """``xlsx`` converted by LibreOffice to ``suffix`` (xls, ods) beside it; the .xlsx removed."""
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["soffice", f"-env:UserInstallation=file://{tmp}/profile", "--headless",
                        "--convert-to", suffix, "--outdir", tmp, str(xlsx)], check=True,
                       capture_output=True, timeout=180)
        out = xlsx.with_suffix("." + suffix)
        shutil.copy(Path(tmp) / out.name, out)
    xlsx.unlink()
    return out


SAMPLES: list[dict] = []


def sample(name: str, fmt: str, sheets: dict[str, list[list]], documents: list[dict],
           merged: dict[str, list[str]] | None = None, note: str = "", profile: str | None = None) -> None:
    SAMPLES.append({"name": name, "format": fmt, "sheets": sheets, "documents": documents,
                    "merged": merged or {}, "note": note, "profile": profile})


def doc(system: str, sheet: str, body: dict, unmapped: dict | None = None, region: str | None = None,
        other_sheets: dict | None = None, guessed: dict | None = None) -> dict:
    """An expected document: its body, and what its extra.import must say besides the file
    (``guessed``: the fields read with less than full confidence, e.g. under their label)."""
    kept: dict = {"sheet": sheet}
    if region:
        kept["region"] = region
    if unmapped:
        kept["unmapped"] = unmapped
    if guessed:
        kept["guessed"] = dict(sorted(guessed.items()))
    if other_sheets:
        kept["other_sheets"] = other_sheets
    return {"system": system, "format": 1, **body, "extra": {"import": kept}}


# --- up ---------------------------------------------------------------------------------------------

sample("up-label-beside", "xlsx", {"機体データ": [
    ["スーパーロボット風 ユニットシート（2019年版）"],
    ["機体名", "ガンダムＭｋ－Ⅱ", None, "パイロット", "カミーユ"],
    ["サイズ", "Ｍ", None, "総ＵＰ", "1,500"],
    ["ＨＰ：２５０", "ＥＮ：６０", "装甲：２０"],
    ["パワー", "16", "運動性", "20", "移動力", "6"],
    ["移動タイプ", "陸・宇宙"],
    [],
    ["武装"],
    ["武器名", "種類", "射程", "ダメージ", "命中", "弾数", "ＵＰ", "備考"],
    ["ビームライフル", "射撃", "P4", "１Ｄ＋２０", "+10%", "弾数8", "200", "メイン"],
    ["ビームサーベル", "格闘", "1", "2D+15", "0", None, "160", None],
    [],
    ["合計", "1,364", "（前のセッションで計算）"],
]}, [doc("up", "機体データ", {
    "weapons": [
        {"name": "ビームライフル", "kind": "ranged", "range": 4, "post_move": True,
         "damage": {"dice": 1, "fixed": 20}, "accuracy": 10, "usage": {"type": "ammo", "amount": 8},
         "declared_cost": 200, "notes": "メイン"},
        {"name": "ビームサーベル", "kind": "melee", "range": 1, "damage": {"dice": 2, "fixed": 15},
         "accuracy": 0, "declared_cost": 160}],
    "name": "ガンダムＭｋ－Ⅱ", "pilot": "カミーユ", "budget": 1500, "size": "M",
    "stats": {"hp": 250, "en": 60, "armor": 20, "power": 16, "mobility": 20, "move": 6},
    "movement": ["land", "space"], "declared_total": 1364},
    {"A1": "スーパーロボット風 ユニットシート（2019年版）", "A8": "武装", "C13": "（前のセッションで計算）"})],
    merged={"機体データ": ["A1:E1", "B2:C2"]},
    note="labels beside their values, 「ＨＰ：２５０」 in one cell, full-width digits, 「1,364」, a merged title")

sample("up-stats-below", "ods", {"ユニット": [
    ["ユニット名", "ザンボット風", "", "総UP", 2000],
    ["ＨＰ", "ＥＮ", "装甲", "パワー", "運動性", "移動力"],
    [400, 80, 30, 30, 10, 5],
    ["サイズ", "Ｌ"],
    ["移動タイプ", "陸／宇宙"],
    ["地形適応", "空B 陸A 海B 宇A"],
    ["メモ", "合体前の形態"],
]}, [doc("up", "ユニット", {
    "name": "ザンボット風", "budget": 2000,
    "stats": {"hp": 400, "en": 80, "armor": 30, "power": 30, "mobility": 10, "move": 5},
    "size": "L", "movement": ["land", "space"], "terrain": {"air": "B", "land": "A", "sea": "B", "space": "A"},
    "notes": "合体前の形態"}, guessed={f"/stats/{s}": UNDER for s in ("hp", "en", "armor", "power", "mobility", "move")})],
    note="a horizontal stat table (values under their labels), 移動タイプ and 地形適応 in one cell, .ods")

sample("up-two-units", "xls", {"部隊": [
    ["機体名", "ジム", "総UP", 1000],
    ["サイズ", "M", "ＨＰ", 200],
    ["運動性", 15, "移動力", 6],
    ["移動タイプ", "陸宇"],
    [],
    ["機体名", "ボール", "総UP", 800],
    ["サイズ", "S", "ＨＰ", 150],
    ["運動性", 20, "移動力", 6],
    ["移動タイプ", "宇宙"],
]}, [doc("up", "部隊", {"name": "ジム", "budget": 1000, "size": "M", "stats": {"hp": 200, "mobility": 15, "move": 6},
                        "movement": ["land", "space"]}, region="A1:D4"),
     doc("up", "部隊", {"name": "ボール", "budget": 800, "size": "S", "stats": {"hp": 150, "mobility": 20, "move": 6},
                        "movement": ["space"]}, region="A6:D9")],
    note="two units on one sheet, one under the other, .xls (Excel 97-2003)")

# --- pp ---------------------------------------------------------------------------------------------

sample("pp-attributes-row", "xlsx", {"PC": [
    ["キャラクター名", "アキラ・ハヤセ", "PL", "たなか"],
    ["肉体", "反応", "感覚", "精神", "社会"],
    ["３", "４", "４", "３", "２"],
    ["技能", "〈操縦〉2", "〈機動回避〉２", "直接砲撃Lv1", "知識／戦術 Lv.1", "運動1"],
    ["コンバット・ブースト", 3],
    ["合計ＰＰ", "５０"],
    ["総ＰＰ", 50],
    ["メモ", "基礎訓練を受けたパイロット"],
]}, [doc("pp", "PC", {
    "name": "アキラ・ハヤセ", "player": "たなか", "budget": 50, "combat_boost": 3,
    "attributes": {"body": 3, "reflex": 4, "sense": 4, "mind": 3, "social": 2},
    "skills": [{"name": "〈操縦〉", "level": 2}, {"name": "〈機動回避〉", "level": 2},
               {"name": "直接砲撃", "level": 1}, {"name": "知識／戦術", "level": 1}, {"name": "運動", "level": 1}],
    "declared_total": 50, "notes": "基礎訓練を受けたパイロット"}, guessed={**ATTRIBUTES_UNDER, "/skills": GLUED})],
    note="attributes in a row with values under them, full-width digits, skills 「〈操縦〉2」 beside 技能")

sample("pp-side-by-side", "xlsx", {"卓": [
    ["ＰＣ一覧（第３話）"],
    ["名前", "ミナ", None, "名前", "ジョウ"],
    ["ＰＬ", "すずき", None, "ＰＬ", "さとう"],
    ["肉体", 2, None, "肉体", 5],
    ["反応", 4, None, "反応", 3],
    ["感覚", 3, None, "感覚", 2],
    ["精神", 3, None, "精神", 2],
    ["社会", 2, None, "社会", 1],
    ["ＣＢ", 3, None, "ＣＢ", 4],
]}, [doc("pp", "卓", {"name": "ミナ", "player": "すずき",
                      "attributes": {"body": 2, "reflex": 4, "sense": 3, "mind": 3, "social": 2}, "combat_boost": 3},
         {"A1": "ＰＣ一覧（第３話）"}, region="A1:B9"),
     doc("pp", "卓", {"name": "ジョウ", "player": "さとう",
                      "attributes": {"body": 5, "reflex": 3, "sense": 2, "mind": 2, "social": 1}, "combat_boost": 4},
         region="D2:E9")],
    merged={"卓": ["A1:E1"]},
    note="two characters side by side on one sheet")

sample("pp-skill-table", "ods", {"キャラクターシート": [
    ["PC名", "レイ", "プレイヤー", "やまだ"],
    ["肉体", "２", "反応", "５"],
    ["感覚", "５", "精神", "２"],
    ["社会", "１", "ＣＢ", "４"],
    [],
    ["技能名", "レベル", "備考"],
    ["操縦", "３", "エース"],
    ["機動回避", "２", None],
    ["知覚", "１", None],
    [],
    ["使用PP", "４８"],
]}, [doc("pp", "キャラクターシート", {
    "skills": [{"name": "操縦", "level": 3, "notes": "エース"}, {"name": "機動回避", "level": 2},
               {"name": "知覚", "level": 1}],
    "name": "レイ", "player": "やまだ", "attributes": {"body": 2, "reflex": 5, "sense": 5, "mind": 2, "social": 1},
    "combat_boost": 4, "declared_total": 48})],
    note="a skill table found by its header row, attributes two per row, .ods")

sample("pp-one-per-sheet", "xls", {
    "ケイ": [["キャラクター名", "ケイ"], ["肉体", 4], ["反応", 4], ["感覚", 3], ["精神", 2], ["社会", 2],
             ["技能", "操縦3、運動2"], ["総PP", 50]],
    "サブ": [["名前", "ロン"], ["肉体", 3], ["反応", 3]],
}, [doc("pp", "ケイ", {"name": "ケイ", "attributes": {"body": 4, "reflex": 4, "sense": 3, "mind": 2, "social": 2},
                       "skills": [{"name": "操縦", "level": 3}, {"name": "運動", "level": 2}], "budget": 50},
        guessed={"/skills": GLUED}),
    doc("pp", "サブ", {"name": "ロン", "attributes": {"body": 3, "reflex": 3}})],
    note="one character per sheet; the second has few labels and is read as the workbook's system, .xls")

# --- mailgear ---------------------------------------------------------------------------------------

sample("mailgear-pilot", "xlsx", {"メイルギア": [
    ["パイロット名", "ミナ・アサクラ", "プレイヤー", "サンプル"],
    ["経験", "０", "階級", "０"],
    ["機体名", "ファルケ", "ランク", "E"],
    ["センサー", 5, "機動力", 2],
    ["CR", 0, "SR", 1, "MR", 1, "LR", 2],
    ["スキル", "第六感Lv1、ミラクル Ｌｖ．２"],
    ["武運", "2D6+2"],
]}, [doc("mailgear", "メイルギア", {
    "pilot": {"name": "ミナ・アサクラ", "player": "サンプル", "experience": 0, "rank_points": 0},
    "gear": {"model": "ファルケ", "rank": "E",
             "stats": {"sensor": 5, "mobility": 2, "cr": 0, "sr": 1, "mr": 1, "lr": 2}},
    "skills": [{"id": "sixth_sense", "level": 1}, {"id": "miracle", "level": 2}]},
    {"A7": "武運", "B7": "2D6+2"})],
    note="skills 「第六感Lv1、ミラクル Ｌｖ．２」 in one cell; 武運 (derived, not an input) kept in extra")

sample("mailgear-equipment", "ods", {"PC": [
    ["名前", "ジン", "PL", "こばやし"],
    ["経験", 12, "階級", 3],
    ["メイルギア", "ヴォルフ", "専用機", "○"],
    ["スキル", "スキル名", "レベル"],
    [None, "天賦の才", 2],
    [None, "韋駄天", 1],
    [],
    ["装備名", "種類", "追加ダメージ", "消費EN", "備考"],
    ["ロングライフル", "武器", 4, 2, "両腕"],
    ["増加装甲", "オプション", None, None, "耐久＋5"],
]}, [doc("mailgear", "PC", {
    "skills": [{"id": "natural_talent", "level": 2}, {"id": "fleet_footed", "level": 1}],
    "equipment": [{"name": "ロングライフル", "kind": "weapon", "extra_damage": 4, "energy": 2, "notes": "両腕"},
                  {"name": "増加装甲", "kind": "option", "notes": "耐久＋5"}],
    "pilot": {"name": "ジン", "player": "こばやし", "experience": 12, "rank_points": 3},
    "gear": {"model": "ヴォルフ", "custom": True}},
    {"A4": "スキル"})],
    note="a skill table and an equipment table found by their header rows, .ods")

# --- a layout the labels cannot settle: read with samples/legacy/profiles/club-2015-pp.toml ----------

sample("pp-club-2015", "xlsx", {"PC-ユウ": [
    ["2015年度 部内キャンペーン"],
    [None, "ユウ・カザマ", None, "担当", "もりた"],
    [],
    ["体", "反", "感", "心", "社"],
    ["３", "４", "３", "３", "２"],
    ["ＣＢ値", 4],
    [],
    ["技", "操縦", "３"],
    [None, "機動格闘", "２"],
    [None, "知覚", "１"],
], "メモ": [["次回までに機体を決める"]]}, [doc("pp", "PC-ユウ", {
    "name": "ユウ・カザマ", "player": "もりた",
    "skills": [{"name": "操縦", "level": 3}, {"name": "機動格闘", "level": 2}, {"name": "知覚", "level": 1}],
    "attributes": {"body": 3, "reflex": 4, "sense": 3, "mind": 3, "social": 2}, "combat_boost": 4},
    {"A1": "2015年度 部内キャンペーン", "D2": "担当", "A8": "技"}, other_sheets={"メモ": {"A1": "次回までに機体を決める"}},
    guessed=ATTRIBUTES_UNDER)],
    note="read with profiles/club-2015-pp.toml: the name in a cell with no label, one-letter attribute "
         "labels, skills in a block with no header; the メモ sheet is not the profile's",
    profile="profiles/club-2015-pp.toml")

# --- our own template, an older version ------------------------------------------------------------
# up-template-v1.xlsx is a sheet filled in template up/1 (before up/2's Ｂ位置 column), copied from
# the repository's history; it imports through its defined names, not its labels.


def main(only: list[str] | None = None) -> None:
    """Write every sample, or those named (file stems)."""
    for s in SAMPLES:
        if only and s["name"] not in only:
            continue
        xlsx = HERE / f"{s['name']}.xlsx"
        _write_xlsx(xlsx, s["sheets"], s["merged"])
        if s["format"] != "xlsx":
            _convert(xlsx, s["format"])
        expected = {"note": s["note"], "documents": s["documents"]}
        if s["profile"]:
            expected["profile"] = s["profile"]
        (HERE / ".expected").mkdir(exist_ok=True)
        (HERE / ".expected" / f"{s['name']}.json").write_text(
            json.dumps(expected, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
        print(s["name"] + "." + s["format"])


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
