"""The core every layer shares: pointers, name keys, the evaluation result, the severity policy."""
from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from converter.core import pointers
from converter.core.evaluation import Evaluation, Roll
from converter.core.findings import Finding, Severity
from converter.rules.mailgear.tables import tables as mailgear_tables
from converter.rules.options import apply_policy, severity_policy
from converter.rules.pp.tables import tables as pp_tables

parts = st.lists(st.one_of(st.text(max_size=6), st.integers(0, 20).map(str)), max_size=5)


@given(parts)
def test_pointer_parse_inverts_build(path: list[str]) -> None:
    """pointer() escapes ~ and /; parse() gives the parts back."""
    assert pointers.parse(pointers.pointer(*path)) == path


def test_get_put_and_nearest() -> None:
    """put creates objects and lists on the way; get never raises; nearest climbs to a parent."""
    doc: dict = {}
    assert pointers.put(doc, "/weapons/0/effects/0/id", "snipe")
    assert doc == {"weapons": [{"effects": [{"id": "snipe"}]}]}
    assert pointers.get(doc, "/weapons/0/effects/0/id") == "snipe"
    assert pointers.get(doc, "/weapons/3/name", "-") == "-"
    assert pointers.get(doc, "/weapons/0/effects/0/id/x") is None
    assert not pointers.put({"a": 1}, "/a/b", 2)  # through a number: refused, nothing changed
    assert pointers.put(doc, "/weapons/0/name", "x", overwrite=False)
    assert not pointers.put(doc, "/weapons/0/name", "y", overwrite=False)
    assert pointers.get(doc, "/weapons/0/name") == "x"
    cells = {"/weapons/0": "武装!B12", "": "ユニット!A1"}
    assert pointers.nearest("/weapons/0/damage/dice", cells) == "武装!B12"
    assert pointers.nearest("/stats/hp", cells) == "ユニット!A1"


def test_mailgear_name_key_python_and_excel() -> None:
    """エリート・コース in every width and spacing: one key in the engine and one in the sheet."""
    names = mailgear_tables().names
    spellings = ["エリート・コース", "エリートコース", "ｴﾘｰﾄ･ｺｰｽ", "エリート コース", "エリート\tコース"]
    assert {names.python(s) for s in spellings} == {"エリートコース"}
    assert len({names.excel_value(s) for s in spellings}) == 1
    assert {names.python(s) for s in ("Ａ．Ｇ．Ｓ", "A.G.S", "a-g-s")} == {"ags"}
    assert len({names.excel_value(s) for s in ("Ａ．Ｇ．Ｓ", "A.G.S", "a-g-s")}) == 1


def test_mailgear_name_key_folds_in_stages_without_asc() -> None:
    """The sheet's key folds width with SUBSTITUTEs (no ASC), over cells each within Excel's 64
    nested functions, and groups names exactly as the engine does (voiced and マ-row katakana too)."""
    names = mailgear_tables().names
    n = names.excel_stages()
    stages = [names.excel_stage(k, "A1" if k == 0 else f"B{k}") for k in range(n)]
    assert n > 1 and not any("ASC(" in f for f in stages)
    assert all(f.count("(") <= 60 for f in stages)  # every function of a stage nests in the one before
    assert len(names.excel_steps()) > 150  # full-width ASCII and half-width katakana, one by one
    spellings = ["ガンダム", "ｶﾞﾝﾀﾞﾑ", "ガン・ダム", "マミムメモ", "ﾏﾐﾑﾒﾓ", "パンチ", "ﾊﾟﾝﾁ", "ヴァ", "ｳﾞｧ",
                 "ＡＢＣ１", "abc1", "ａｂｃ　１", "がんだむ", "ガンタム", "ハンチ", "（改）", "(改)"]
    for a in spellings:
        for b in spellings:
            assert (names.python(a) == names.python(b)) == (names.excel_value(a) == names.excel_value(b)), (a, b)
    values = names.excel_stage_values("ｶﾞﾝﾀﾞﾑ")
    assert len(values) == n and values[-1] == names.excel_value("ガンダム")


def test_pp_name_key_python_and_excel() -> None:
    """〈知識／戦術〉, ＜知識/戦術＞ and 知識/戦術: one skill for the engine and for the sheet's lookup."""
    names = pp_tables().names
    spellings = ["〈知識／戦術〉", "＜知識/戦術＞", "知識/戦術", " 知識／戦術 ", "【知識/戦術】"]
    assert {names.python(s) for s in spellings} == {"知識/戦術"}
    assert {names.excel_value(s) for s in spellings} == {"知識/戦術"}
    # Width and case (issue 16.9): ＡＩ, ａｉ, 〈ai〉 and AI are one skill, in the engine as in the sheet,
    # which folds width with SUBSTITUTEs (ｵﾍﾟﾚｰｼｮﾝ and オペレーション alike too).
    for group in (["ＡＩ", "ａｉ", "〈ai〉", "AI"], ["ｵﾍﾟﾚｰｼｮﾝ", "オペレーション"]):
        assert len({names.python(s) for s in group}) == 1, group
        assert len({names.excel_value(s) for s in group}) == 1, group


def test_pp_name_key_folds_in_stages_without_asc() -> None:
    """pp/5's key folds width with SUBSTITUTEs (no ASC, issue 18), over cells each within Excel's
    64 nested functions, and groups skill names exactly as the engine does: voiced and マ-row
    half-width katakana, full-width letters, brackets and spaces of either width."""
    names = pp_tables().names
    n = names.excel_stages()
    stages = [names.excel_stage(k, "A1" if k == 0 else f"B{k}") for k in range(n)]
    assert n > 1 and not any("ASC(" in f for f in stages)
    assert all(f.count("(") <= 60 for f in stages)
    assert stages[-1].startswith("UPPER(")
    spellings = ["ドッグファイト", "ﾄﾞｯｸﾞﾌｧｲﾄ", "〈ドッグ ファイト〉", "トッグファイト", "ﾄｯｸﾞﾌｧｲﾄ",
                 "マニピュレーター", "ﾏﾆﾋﾟｭﾚｰﾀｰ", "［ﾏﾆﾋﾟｭﾚｰﾀｰ］", "マニヒュレーター", "ECM", "ｅｃｍ", "＜Ｅｃｍ＞",
                 "ＥＣＭ　", "知識／戦術", "【知識/戦術】", "知識・戦術", "｢知識/戦術｣"]
    for a in spellings:
        for b in spellings:
            assert (names.python(a) == names.python(b)) == (names.excel_value(a) == names.excel_value(b)), (a, b)
    values = names.excel_stage_values("ﾄﾞｯｸﾞﾌｧｲﾄ")
    assert len(values) == n and values[-1] == names.excel_value("ドッグファイト") == "ドッグファイト"


def test_evaluation_is_complete_until_something_is_skipped() -> None:
    """complete is computed from what could not be evaluated; derived values keep their parts."""
    ev = Evaluation()
    ev.add("/size", "サイズ Ｍ", "基本ＵＰ", 400)
    d = ev.derive("/weapons/0/effective_damage", "ダメージ", "2D10+35", Roll(2, 10, 35))
    assert ev.complete and ev.total == 400 and ev.value(d.pointer) == "2D10+35"
    assert d.to_dict() == {"label": "ダメージ", "type": "roll", "value": "2D10+35",
                           "roll": {"dice": 2, "sides": 10, "fixed": 35, "each": 0}}
    ev.skip("/weapons/1")
    assert not ev.complete and ev.unevaluated == ["/weapons/1"]


def test_severity_policy_comes_from_the_tables() -> None:
    """weapon_cap error|warning|off: the finding raised, kept or dropped in one place."""
    assert severity_policy("up", {"weapon_cap": "error"})["UP_WEAPON_OVER_CAP"] == "error"
    cap = Finding("UP_WEAPON_OVER_CAP", "/weapons/0")
    other = Finding("UP_STAT_STEP", "/stats/hp")
    assert [f.level for f in apply_policy("up", {"weapon_cap": "error"}, [cap, other])] == [
        Severity.ERROR, Severity.ERROR]
    assert apply_policy("up", {"weapon_cap": "off"}, [cap, other]) == [other]
    assert apply_policy("up", {"weapon_cap": "warning"}, [cap])[0].level is Severity.WARNING
    assert severity_policy("pp", {"unknown_skills": "reject"})["PP_SPECIALIZATION_UNKNOWN"] == "error"
