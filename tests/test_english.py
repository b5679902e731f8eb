"""One language per run, for what the engines say too: with ``--lang en`` every priced line's item
and rule, every derived value's label (and a value in words) and every finding's message and hint
is English; only the names the user typed (a weapon's, a skill's of a group's own list, a
catalog's) stay as written. The Japanese output is what it was: the engines build each text in
both languages, from the tables' ``label`` and ``label_en``; a finding carries each name it takes
from the tables as a ``<param>_ja`` / ``<param>_en`` pair.

Every sample and broken sample document is checked through the command line both ways (JSON
report, and text with ``--breakdown``); mailgear ones with the example catalog. Broken samples,
golden cases, generated and mangled documents (and catalogs) are checked through the engines.
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from converter import evaluate
from converter.cli import main
from converter.core.evaluation import CostLine, Derived, Evaluation, Roll
from converter.core.findings import Finding
from converter.sheets.source import load_catalog
from converter.rules.mailgear.catalog import as_catalog
from converter.rules.mailgear.tables import tables as mailgear_tables
from converter.rules.options import option_declarations
from converter.rules.tables_file import load_tables

from .mangled import paths, put
from .strategies import mailgear_catalog, mailgear_pilot, pp_character, up_unit

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = sorted(p for p in ROOT.glob("samples/*/*.json")
                 if p.parent.name not in ("legacy", "converted"))  # legacy: sheets; converted: conversions of these
BROKEN = sorted(ROOT.glob("samples/broken/*/*.json"))
CATALOG = ROOT / "samples" / "mailgear" / ".catalog" / "catalog-example.json"

# The same ranges as tests/test_catalog_messages.py: hiragana, katakana, CJK ideographs, CJK
# symbols and punctuation (「」、〜), full-width and half-width forms (ＵＰ, （）).
JAPANESE = re.compile("[\u3000-\u303f\u3040-\u309f\u30a0-\u30ff\u31f0-\u31ff\u3400-\u4dbf"
                      "\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]+")


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _context(path: Path) -> list[str]:
    return ["--catalog", str(CATALOG)] if path.parent.name == "mailgear" else []


def _typed(path: Path) -> list[str]:
    """What the user wrote: the document's strings (and, for mailgear, the catalog's), longest
    first, so that a name containing another is taken whole."""
    found = set(_strings(json.loads(path.read_text(encoding="utf-8"))))
    if _context(path):
        found |= set(_strings(dict(load_catalog(CATALOG).raw)))
    return sorted((s for s in found if JAPANESE.search(s)), key=len, reverse=True)


def _run(capsys, path: Path, *argv: str) -> str:
    code = main(["check", str(path), *_context(path), "--jobs", "1", *argv])
    out, err = capsys.readouterr()
    assert code == (1 if path in BROKEN else 0), err  # a broken sample has errors
    return out


def _report(capsys, path: Path, lang: str) -> dict[str, Any]:
    return json.loads(_run(capsys, path, "--format", "json", "--lang", lang))


def _document(report: dict[str, Any]) -> dict[str, Any]:
    return next(f for f in report["files"] if f["kind"] == "document")


def test_there_are_samples_of_every_system() -> None:
    """The samples and the broken samples cover all three systems."""
    assert {p.parent.name for p in SAMPLES} == {"up", "mailgear", "pp"}
    assert {p.parent.name for p in BROKEN} == {"up", "mailgear", "pp"}


# --- English: nothing Japanese but what the user typed --------------------------------------------

def _id(path: Path) -> str:
    return str(path.relative_to(ROOT / "samples").with_suffix(""))


@pytest.mark.parametrize("path", SAMPLES + BROKEN, ids=_id)
def test_json_report_in_english(capsys, path: Path) -> None:
    """The whole JSON report (findings' messages and hints too), less the exact strings the
    document holds, has no Japanese."""
    report = _report(capsys, path, "en")
    doc = _document(report)
    assert doc["breakdown"] or doc["derived"]
    if path in BROKEN:
        assert any(f["severity"] == "error" for f in doc["findings"])
    text = json.dumps(report, ensure_ascii=False)
    for typed in _typed(path):
        text = text.replace(typed, "")
    assert not JAPANESE.findall(text), JAPANESE.findall(text)


@pytest.mark.parametrize("path", SAMPLES + BROKEN, ids=_id)
def test_text_breakdown_in_english(capsys, path: Path) -> None:
    """Every Japanese run of the text report (a table may wrap a name) is part of a typed name."""
    out = _run(capsys, path, "--breakdown", "--lang", "en")
    typed = _typed(path)
    stray = [run for run in JAPANESE.findall(out) if not any(run in t for t in typed)]
    assert not stray, stray


@pytest.mark.parametrize("path", SAMPLES + BROKEN, ids=_id)
def test_the_languages_differ_in_words_only(capsys, path: Path) -> None:
    """Same lines, costs, totals, derived values (but a value in words) and findings."""
    ja, en = _report(capsys, path, "ja"), _report(capsys, path, "en")
    dj, de = _document(ja), _document(en)
    assert dj["totals"] == de["totals"] and dj["valid"] == de["valid"]
    assert [(x["pointer"], x["cost"]) for x in dj["breakdown"]] == \
        [(x["pointer"], x["cost"]) for x in de["breakdown"]]
    assert list(dj["derived"]) == list(de["derived"])
    for pointer, d in dj["derived"].items():
        e = de["derived"][pointer]
        assert (d["type"], d.get("roll")) == (e["type"], e.get("roll")), pointer
        if d["type"] != "text" and d["type"] != "roll":
            assert d["value"] == e["value"], pointer
    assert [(f["code"], f["pointer"]) for f in dj["findings"]] == \
        [(f["code"], f["pointer"]) for f in de["findings"]]


# --- the engines' texts, on every path: broken samples, golden cases, generated documents ------

def _english_texts(ev: Evaluation) -> list[str]:
    """The English texts of ``ev``: its lines' items and rules, its derived values' labels and
    values in words, its findings' messages and hints."""
    texts = [t for line in ev.lines for t in (line.item_in("en"), line.rule_in("en"))]
    texts += [t for d in ev.derived.values() for t in (d.label_in("en"), d.value_in("en"))
              if isinstance(t, str)]
    return texts + _finding_texts(ev.findings)


def _finding_texts(findings) -> list[str]:
    return [t for f in findings for t in (f.message("en"), f.hint("en"))]


def _stray_in_engine_texts(ev: Evaluation, *given: Any) -> list[str]:
    """Japanese in the English texts of ``ev`` (:func:`_english_texts`) that is not a string of
    ``given`` (the document, a catalog)."""
    return _stray_in(_english_texts(ev), *given)


def _stray_in(texts: list[str], *given: Any) -> list[str]:
    typed = sorted({s for g in given for s in _strings(g) if JAPANESE.search(s)}, key=len, reverse=True)
    stray = []
    for text in texts:
        for s in typed:
            text = text.replace(s, "")
        stray += JAPANESE.findall(text)
    return stray


def _readings(system: str) -> list[dict[str, str]]:
    """Every option's every reading, one at a time (the defaults first)."""
    return [{}] + [{name: value} for name, decl in option_declarations(system).items()
                   for value in decl["values"] if value != decl["default"]]


OTHER_DOCUMENTS = sorted(ROOT.glob("samples/broken/*/*.json")) + sorted(ROOT.glob("tests/golden/up/*.json")) \
    + sorted(ROOT.glob("tests/pp/golden/*.json"))


@pytest.mark.parametrize("path", OTHER_DOCUMENTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_engine_texts_of_other_documents_are_english(path: Path) -> None:
    """Broken samples and golden cases, under every reading (mailgear with and without the
    catalog): the engine's English texts, its findings' messages and hints included."""
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc = doc["document"] if "document" in doc and "system" not in doc else doc
    catalog = load_catalog(CATALOG)
    contexts = [{"catalog": catalog}, None] if doc.get("system") == "mailgear" else [None]
    for context in contexts:
        for options in _readings(doc["system"]):
            ev = evaluate(doc, options, context)
            stray = _stray_in_engine_texts(ev, doc, dict(catalog.raw) if context else {})
            assert not stray, (options, context is not None, stray)


def test_the_catalogs_findings_are_english() -> None:
    """The example catalog with its ladders out of order and rows listed twice: its findings
    name the catalog's tables in English."""
    raw = json.loads(CATALOG.read_text(encoding="utf-8"))
    for table in ("levels", "gear_ranks", "unit_levels", "models", "weapons", "options"):
        raw[table] = raw[table] + raw[table][:1]
    found = as_catalog(raw).findings
    assert {f.code for f in found} >= {"MG_CATALOG_ORDER", "MG_CATALOG_DUPLICATE"}
    assert not _stray_in(_finding_texts(found), raw)
    assert all(JAPANESE.search(f.message("ja")) for f in found)


_PROPERTY = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@_PROPERTY
@given(doc=up_unit(), reading=st.sampled_from(_readings("up")))
def test_up_engine_texts_are_english(doc: dict, reading: dict) -> None:
    """A generated up unit's English texts hold no Japanese but the names it typed."""
    assert not _stray_in_engine_texts(evaluate(doc, reading), doc)


@_PROPERTY
@given(doc=pp_character(), reading=st.sampled_from(_readings("pp")))
def test_pp_engine_texts_are_english(doc: dict, reading: dict) -> None:
    """A generated pp character's English texts hold no Japanese but the names it typed."""
    assert not _stray_in_engine_texts(evaluate(doc, reading), doc)


@_PROPERTY
@given(data=st.data(), reading=st.sampled_from(_readings("mailgear")))
def test_mailgear_engine_texts_are_english(data, reading: dict) -> None:
    """A generated mailgear pilot's English texts hold no Japanese but its or its catalog's names."""
    catalog = data.draw(mailgear_catalog())
    names = [row["name"] for table in ("models", "weapons", "options") for row in catalog.get(table, [])]
    doc = data.draw(mailgear_pilot(names))
    ev = evaluate(doc, reading, {"catalog": catalog})
    assert not _stray_in_engine_texts(ev, doc, catalog)


# Mangled documents: a sample or broken sample (or the example catalog) with one value anywhere
# replaced by any JSON, a table's Japanese name among them. The engine's findings on them may show
# that value cut short (a malformed item), so here each Japanese run of an English text need only
# lie inside one of the document's (or catalog's) own strings.

_JSON = st.recursive(st.none() | st.booleans() | st.integers(-20, 60) | st.text(max_size=6)
                     | st.sampled_from(["陸", "ＨＰ", "高揚", "熱血", "【肉体】", "Ｄ", "right", "land"]),
                     lambda inner: st.lists(inner, max_size=3)
                     | st.dictionaries(st.text(max_size=6), inner, max_size=3), max_leaves=6)
_DOCUMENTS = [json.loads(p.read_text(encoding="utf-8")) for p in SAMPLES + BROKEN]


@st.composite
def _mangled(draw, originals: list[dict]) -> dict:
    doc = json.loads(json.dumps(draw(st.sampled_from(originals))))
    for _ in range(draw(st.integers(1, 2))):
        put(doc, draw(st.sampled_from(paths(doc, skip=("system", "catalog")))), draw(_JSON))
    return doc


def _stray_runs(texts: list[str], *given: Any) -> list[str]:
    typed = [s for g in given for s in _strings(g) if JAPANESE.search(s)]
    return [run for text in texts for run in JAPANESE.findall(text) if not any(run in t for t in typed)]


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(doc=_mangled(_DOCUMENTS), data=st.data())
def test_engine_texts_of_mangled_documents_are_english(doc: dict, data) -> None:
    """Mangled documents and catalogs give English texts with no Japanese but the names they typed."""
    system = doc["system"]
    catalog = json.loads(CATALOG.read_text(encoding="utf-8")) if system == "mailgear" else {}
    if catalog and data.draw(st.booleans()):
        catalog = data.draw(_mangled([catalog]))
    reading = data.draw(st.sampled_from(_readings(system)))
    ev = evaluate(doc, reading, {"catalog": catalog} if catalog else None)
    texts = _english_texts(ev) + (_finding_texts(as_catalog(catalog).findings) if catalog else [])
    assert not _stray_runs(texts, doc, catalog)


# --- Japanese: unchanged ----------------------------------------------------------------------------

# (sample, pointer, Japanese item, Japanese rule, English item, English rule, cost)
LINES = [
    ("up/l-map-combo.json", "/weapons/2", "武器「グラビティウェーブ」",
     "(射程2 50 + ダメージ2D+20 90) × (ＥＮ30 −40%, 自機中心型 +100%, 気力制限（高揚） −20% +40%)",
     "Weapon 'グラビティウェーブ'",
     "(range 2 50 + damage 2D+20 90) × (EN 30 −40%, MAP self-centered +100%, morale limit (Elated) −20% +40%)",
     196),
    ("up/l-map-combo.json", "/weapons/1", "武器「プラズマキャノン（拡散モード）」",
     "撃ち分け（プラズマキャノンから1箇所変更）: max(442, 182) × 1/4",
     "Weapon 'プラズマキャノン（拡散モード）'",
     "variant of プラズマキャノン, 1 place(s) changed: max(442, 182) × 1/4", 111),
    ("up/lll-carrier.json", "/weapons/2", "武器「艦首大型ミサイル」",
     "射程8 170 + 射程2以内攻撃不可 -30 + ダメージ4D+30 220 + 弾数2 -160", "Weapon '艦首大型ミサイル'",
     "range 8 170 + no attack within range 2 -30 + damage 4D+30 220 + ammo 2 -160", 200),
    ("up/lll-carrier.json", "/abilities/0", "特殊能力「ビーム攪乱幕」",
     "(装甲+10 × 12 × 1/2) × (ＥＮ消費10 −30%)", "Ability 'ビーム攪乱幕'",
     "(armor +10 × 12 × 1/2) × (EN use 10 −30%)", 42),
    ("up/l-transform-land.json", "/transformation", "変形",
     "自形態1763 + 他形態1734+1730: 5227/50 + 100", "Transformation",
     "this form 1763 + other forms 1734+1730: 5227/50 + 100", 205),
    ("up/l-super-robot.json", "/size", "サイズ Ｌ", "基本ＵＰ", "Size L", "base UP", 500),
    ("up/l-super-robot.json", "/stats/hp", "ＨＰ 350→450", "+100 = 20段階 × 15", "HP 350→450",
     "+100 = 20 steps × 15", 300),
    ("up/l-super-robot.json", "/morale_boosts/0", "ガイオーパワー（パワー+10）", "150 −30%",
     "ガイオーパワー (Power +10)", "150 −30%", 105),
    ("up/l-super-robot.json", "/abilities/1", "特殊能力「闘魂ブロック」", "マインドブロック",
     "Ability '闘魂ブロック'", "Mind Block", 80),
    ("pp/veteran.json", "/attributes/social", "【社会】1→3（平均）", "新しい値ごと: 2+3",
     "Social 1→3 (average)", "each new value: 2+3", 5),
    ("pp/veteran.json", "/skills/0/level", "〈直接砲撃〉0→3（腕に覚えアリ）", "新しいレベル×2: 2+4+6",
     "Direct Fire 0→3 (skilled)", "new level × 2: 2+4+6", 12),
    ("pp/veteran.json", "/skills/0/specializations/0/level", "〈直接砲撃〉（ビーム兵器）3→5",
     "新しいレベルごと: 4+5", "Direct Fire (beam weapons) 3→5", "each new level: 4+5", 9),
    ("pp/veteran.json", "/combat_boost", "コンバット・ブースト 3→5", "+2 × 5", "Combat boost 3→5",
     "+2 × 5", 10),
    ("pp/veteran.json", "/feats/0", "特技「精密射撃」", "特技１つ 5", "Feat '精密射撃'", "one feat 5", 5),
]

# (sample, pointer, Japanese label, Japanese value, English label, English value)
DERIVED = [
    ("up/l-map-combo.json", "/weapons/0/full_cost", "プラズマキャノン: 撃ち分け前のＵＰ", 182,
     "プラズマキャノン: UP before the variant fraction", 182),
    ("up/lll-carrier.json", "/weapons_total", "武器ＵＰ合計", 485, "Weapons' UP total", 485),
    ("pp/veteran.json", "/derived/attributes/social/meaning", "【社会】の意味", "平均",
     "Social: meaning", "average"),
    ("pp/veteran.json", "/derived/skills/0/label", "〈直接砲撃〉の技能名", "直接砲撃",
     "Direct Fire: skill name", "Direct Fire"),
    ("pp/veteran.json", "/derived/skills/0/pool", "〈直接砲撃〉の判定", "5D10（各+3）",
     "Direct Fire: roll", "5D10 (+3 each)"),
    ("pp/veteran.json", "/derived/skills/0/specializations/0/pool", "〈直接砲撃〉（ビーム兵器）の判定",
     "5D10（各+5）", "Direct Fire (beam weapons): roll", "5D10 (+5 each)"),
    ("pp/pilot_with_machine.json", "/derived/machine/weapons/2/evasion_target",
     "コンバットナイフ: 回避目標値", 3, "コンバットナイフ: evasion target", 3),
    ("pp/pilot_with_machine.json", "/derived/machine/explosion_penetration", "機体の破壊: 貫通力",
     "9+1D10", "Machine destruction: penetration", "9+1D10"),
    ("pp/pilot_with_machine.json", "/derived/unit_initiative", "ユニット戦闘のイニシアティブ値", 14,
     "Initiative in unit combat", 14),
    ("mailgear/veteran-custom.json", "/derived/skill_bonuses/hot_blooded", "熱血（判定ボーナス）", "+1d",
     "Hot-Blooded (roll bonus)", "+1d"),
    ("mailgear/veteran-custom.json", "/derived/hit_cr", "命中（CR・距離1）", "+1d+5",
     "Hit (CR, range 1)", "+1d+5"),
    ("mailgear/veteran-custom.json", "/equipment/0/derived/damage", "パイルバンカー: ダメージ", "+11",
     "パイルバンカー: Damage", "+11"),
    ("mailgear/veteran-custom.json", "/derived/slots_used", "使用スロット", 6, "Slots used", 6),
]


# (broken sample, code, pointer, Japanese message, English message): a name from the tables in
# each language, the Japanese as it always was.
FINDINGS = [
    ("broken/up/stat-step-and-max.json", "UP_STAT_STEP", "/stats/hp",
     "ＨＰ 203: サイズＭの基本値 200 からの上昇分が 5 刻みではありません（近い値: 200、205）",
     "HP 203: the raise over size M's base 200 is not a multiple of 5 (nearest: 200, 205)"),
    ("broken/up/stat-step-and-max.json", "UP_STAT_MAX", "/stats/mobility",
     "運動性 40: サイズＭの上限 35（基本値 15 + 20）を超えています",
     "Mobility 40: above size M's maximum 35 (base 15 + 20)"),
    ("broken/up/accuracy-and-ammo.json", "UP_USAGE_AMOUNT", "/weapons/1/usage/amount",
     "弾数10 は表にありません（近い値: 8、12／表: 16、12、8、5、3、2、1）",
     "ammo 10 is not in the table (nearest: 8, 12; table: 16, 12, 8, 5, 3, 2, 1)"),
    ("broken/up/duplicate-movement.json", "UP_MOVEMENT_DUPLICATE", "/movement",
     "移動タイプ「陸」が重複しています", "movement type Land is listed twice"),
    ("broken/mailgear/skill-over-max.json", "MG_SKILL_OVER_MAX", "/skills/0/level",
     "韋駄天 のレベル 4 は最大レベル 3 を超えています（どんな方法でも最大を上回りません）",
     "Fleet-Footed level 4 is above its maximum 3 (nothing raises a skill past it)"),
    ("broken/pp/attribute_13.json", "PP_ATTRIBUTE_MAX", "/attributes/body",
     "【肉体】 13: 能力値の上限は 12（１００年に一度の天才）です",
     "Body 13: attributes go up to 12 (a genius of the century)"),
    ("broken/pp/damage_class_x.json", "PP_MACHINE_CHOICE", "/machine/weapons/1/damage",
     "破壊力「X」は選択肢にありません（L、M、S、D）", "damage class 'X' is not one of L, M, S, D"),
    ("broken/pp/skill_9.json", "PP_SKILL_MAX", "/skills/0/level",
     "〈操縦〉レベル 9: 技能レベルの上限は 8（伝説の達人）です",
     "Piloting level 9: skills go up to level 8 (a legendary master)"),
]


@pytest.mark.parametrize(("sample", "code", "pointer", "ja", "en"), FINDINGS,
                         ids=[f"{c[0]}:{c[1]}" for c in FINDINGS])
def test_a_finding_in_each_language(capsys, sample, code, pointer, ja, en):
    """A sample's finding reads as expected in the Japanese report and in the English one."""
    for lang, want in (("ja", ja), ("en", en)):
        found = _document(_report(capsys, ROOT / "samples" / sample, lang))["findings"]
        assert [f["message"] for f in found if (f["code"], f["pointer"]) == (code, pointer)] == [want]


@pytest.mark.parametrize(("sample", "pointer", "item", "rule", "item_en", "rule_en", "cost"), LINES,
                         ids=[f"{c[0]}{c[1]}" for c in LINES])
def test_a_priced_line_in_each_language(capsys, sample, pointer, item, rule, item_en, rule_en, cost):
    """The Japanese line is what it always was; the English one says the same."""
    for lang, want in (("ja", (item, rule)), ("en", (item_en, rule_en))):
        lines = {x["pointer"]: x for x in _document(_report(capsys, ROOT / "samples" / sample, lang))["breakdown"]}
        assert (lines[pointer]["item"], lines[pointer]["rule"], lines[pointer]["cost"]) == (*want, cost)


@pytest.mark.parametrize(("sample", "pointer", "label", "value", "label_en", "value_en"), DERIVED,
                         ids=[f"{c[0]}{c[1]}" for c in DERIVED])
def test_a_derived_value_in_each_language(capsys, sample, pointer, label, value, label_en, value_en):
    """A sample's derived value has its expected label and value in each language."""
    for lang, want in (("ja", (label, value)), ("en", (label_en, value_en))):
        derived = _document(_report(capsys, ROOT / "samples" / sample, lang))["derived"]
        assert (derived[pointer]["label"], derived[pointer]["value"]) == want


def test_the_japanese_text_breakdown(capsys) -> None:
    """The text breakdown uses the rules' Japanese words with --lang ja and English ones with --lang en."""
    out = _run(capsys, ROOT / "samples" / "pp" / "veteran.json", "--breakdown", "--lang", "ja")
    assert re.search(r"/attributes/social +【社会】1→3（平均） +新しい値ごと: 2\+3 +5", out)
    assert re.search(r"/derived/skills/0/pool +〈直接砲撃〉の判定 +5D10（各\+3）", out)
    out = _run(capsys, ROOT / "samples" / "pp" / "veteran.json", "--breakdown", "--lang", "en")
    assert re.search(r"/attributes/social +Social 1→3 \(average\) +each new value: 2\+3 +5", out)
    assert re.search(r"/derived/skills/0/pool +Direct Fire: roll +5D10 \(\+3 each\)", out)


# --- the mechanism --------------------------------------------------------------------------------

def test_a_text_without_english_falls_back_to_japanese() -> None:
    """Japanese is the default and the fallback; a language-neutral rule needs no English."""
    out = Evaluation()
    line = out.add("/x", "項目", "150 −30%", 105, item_en="item")
    assert (line.item, line.rule, line.item_en, line.rule_en) == ("項目", "150 −30%", "item", "")
    assert line.to_dict() == {"pointer": "/x", "item": "項目", "rule": "150 −30%", "cost": 105}
    assert line.to_dict("en") == {"pointer": "/x", "item": "item", "rule": "150 −30%", "cost": 105}
    assert CostLine("/y", "あ", "い", 1).to_dict("en")["item"] == "あ"
    d = out.derive("/d", "判定", "4D10（各+2）", Roll(4, 10, 0, 2), label_en="roll",
                   value_en="4D10 (+2 each)")
    assert d.to_dict()["value"] == "4D10（各+2）" and d.to_dict("en")["value"] == "4D10 (+2 each)"
    assert d.to_dict("en")["label"] == "roll" and out.value("/d") == "4D10（各+2）"
    assert Derived("/n", "数", 3).to_dict("en") == {"label": "数", "type": "integer", "value": 3}
    assert out.derive("/z", "空", None, label_en="empty").to_dict("en")["value"] is None


@pytest.mark.parametrize("system", ["up", "mailgear", "pp"])
def test_every_label_in_the_tables_has_its_english(system: str) -> None:
    """Each ``label`` (``meaning``, ``labels``) has an English one beside it, with no Japanese."""
    def walk(value: Any, where: str) -> Iterator[str]:
        if isinstance(value, dict):
            for key in ("label", "meaning"):
                if key in value:
                    en = value.get(f"{key}_en")
                    if not isinstance(en, str) or not en.strip() or JAPANESE.search(en):
                        yield f"{where}: {key} {value[key]!r} has {key}_en {en!r}"
            if isinstance(value.get("labels"), dict):
                en = value.get("labels_en") or {}
                if set(en) != set(value["labels"]) or any(JAPANESE.search(v) for v in en.values()):
                    yield f"{where}: labels_en {en!r}"
            for key, item in value.items():
                yield from walk(item, f"{where}.{key}")
        elif isinstance(value, list):
            for i, item in enumerate(value):
                yield from walk(item, f"{where}[{i}]")

    assert not list(walk(load_tables(system), system))


# --- findings whose parameters were Japanese words ------------------------------------------------

@pytest.mark.parametrize("field", ["speed", "name", "weight", "escape", "evasion_modifier"])
def test_machine_type_message_is_in_one_language(field: str) -> None:
    """PP_MACHINE_TYPE names its figure in each message's own language and no Japanese in English."""
    from converter.rules.pp.machine import check_machine
    from converter.rules.pp.tables import tables

    findings = list(check_machine({field: [1]}, tables()))
    assert [f.code for f in findings] == ["PP_MACHINE_TYPE"]
    f = findings[0]
    label, label_en = f.params["label_ja"], f.params["label_en"]  # the rules' own name of the figure
    assert not JAPANESE.search(f.message("en")), f.message("en")
    assert not JAPANESE.search(f.hint("en")), f.hint("en")
    assert label_en in f.message("en") and label_en in f.hint("en")
    assert label in f.message("ja") and JAPANESE.search(f.message("ja").replace(label, ""))


def test_machine_type_names_what_is_expected() -> None:
    """PP_MACHINE_TYPE quotes the value and says a whole number is expected, in each language."""
    from converter.rules.pp.machine import check_machine
    from converter.rules.pp.tables import tables

    f = next(iter(check_machine({"speed": "速い"}, tables())))
    assert f.message("ja") == 'スピード の値 "速い" は整数でなければなりません'
    assert f.message("en") == 'speed: "速い" must be a whole number'


@pytest.mark.parametrize("table", sorted(mailgear_tables().catalog_tables))
def test_catalog_table_missing_is_in_one_language(table: str) -> None:
    """A missing catalog table's English texts have no Japanese; the Japanese names the table."""
    from converter.rules.mailgear.catalog import missing_table

    f = missing_table(table, "/x")
    assert not JAPANESE.search(f.message("en")), f.message("en")
    assert not JAPANESE.search(f.hint("en")), f.hint("en")
    assert f.params["label"] in f.message("ja")


@pytest.mark.parametrize("matched", ["none", "match", "mismatch"])
def test_usage_reduction_inferred_is_in_one_language(matched: str) -> None:
    """UP_USAGE_REDUCTION_INFERRED has no Japanese in English; the Japanese says how the cost matched."""
    from converter.rules.up.weapons import _MATCHED

    ja, en = _MATCHED[matched]
    f = Finding("UP_USAGE_REDUCTION_INFERRED", "/w", {"choice": "−%", "matched": matched,
                                                       "matched_ja": ja, "matched_en": en})
    assert not JAPANESE.search(f.message("en")) and not JAPANESE.search(f.hint("en"))
    assert f"（記入されたコスト: {ja}）" in f.message("ja")
