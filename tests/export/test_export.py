"""Export to online play (issue 17): every sample and legacy sample gives the golden CCFOLIA JSON,
Udonarium XML and palette; each output parsed back holds the engine's derived values; every
palette command, its variables filled in, is a BCDice command of the small grammar below."""
from __future__ import annotations

import io
import json
import re
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import pytest

from converter.check import check_source
from converter.core.evaluation import Evaluation
from converter.core.pointers import get
from converter.export.ccfolia import clipboard
from converter.export.files import export_paths
from converter.export.model import Piece
from converter.export.udonarium import zip_bytes
from converter.io import read_source
from converter.legacy.profile import load_profile
from converter.legacy.sources import read_import
from converter.rules.tables_file import load_tables

from .cases import GOLDEN, PROFILES, SAMPLES, SUFFIXES, golden_cases, inputs, rendered

CASES = golden_cases()
IDS = [name for name, _, _ in CASES]

# --- the BCDice commands the palettes use (docs.bcdice.org: 加算ダイス, 上方無限ロール) ---------
_NUMBER = r"\d+"
_DICE = r"\d+D\d+"
_ARITH = rf"{_NUMBER}(?:[+-]{_NUMBER})*"
#: 加算ダイス: dice and numbers added or subtracted, an optional target (itself arithmetic)
ADD_DICE = re.compile(rf"{_DICE}(?:[+-](?:{_DICE}|{_NUMBER}))*(?:(?:>=|<=|>|<){_ARITH})?")
#: 上方無限ロール: xUy[振り足し] plus a modifier on each die group, an optional target
UPPER_DICE = re.compile(rf"{_NUMBER}U{_NUMBER}\[{_NUMBER}\](?:[+-]{_NUMBER})?(?:>={_ARITH})?")
#: Udonarium's palette variable line (chat-palette.ts: `//name=value`, a name without = { } or spaces)
VARIABLE_LINE = re.compile(r"^\s*[/／]{2}([^=＝{}｛｝\s]+)\s*[=＝]\s*(.+?)\s*$")
_REFERENCE = re.compile(r"[{｛]\s*([^{}｛｝]+?)\s*[}｝]")


def is_bcdice(command: str) -> bool:
    """Whether ``command`` (variables filled in) is one of the grammar's commands."""
    return bool(ADD_DICE.fullmatch(command) or UPPER_DICE.fullmatch(command))


def expand(command: str, values: dict[str, str]) -> str:
    for _ in range(8):
        command = _REFERENCE.sub(lambda m: values.get(m.group(1), m.group(0)), command)
    return command


def dice_terms(expression: str) -> tuple[dict[int, int], int]:
    """An added-dice expression as {sides: dice} and its fixed sum (the target left out)."""
    body = re.split(r">=|<=|>|<", expression)[0]
    dice: dict[int, int] = {}
    fixed = 0
    for sign, term in re.findall(r"([+-]?)(\d+D\d+|\d+)", body):
        k = -1 if sign == "-" else 1
        if "D" in term:
            n, sides = map(int, term.split("D"))
            dice[sides] = dice.get(sides, 0) + k * n
        else:
            fixed += k * int(term)
    return dice, fixed


def evaluations(path: Path) -> list[tuple[dict, Evaluation]]:
    """Each document of ``path`` checked again here, independently of the exporter."""
    if path.suffix == ".json":
        sources = [read_source(path)]
    else:
        profile = load_profile(PROFILES[path.name]) if path.name in PROFILES else None
        sources = [s for s, _ in read_import(path, profile=profile)]
    reports = [check_source(s) for s in sources]
    return [(r.document, r.evaluation) for r in reports]


CHECKED = {str(p): evaluations(p) for p in inputs()}


def _checked(piece: Piece) -> tuple[dict, Evaluation]:
    """The document and evaluation behind ``piece`` (pieces of one input in reading order)."""
    same_input = [c for c in CASES if c[1].source == piece.source]
    return CHECKED[piece.source][[c[1] for c in same_input].index(piece)]


# --- golden files ----------------------------------------------------------------------------------

def test_every_sample_and_legacy_sample_is_a_case() -> None:
    """Each sample document of the three systems and each legacy workbook gives at least one piece."""
    sources = {piece.source for _, piece, _ in CASES}
    assert sources == {str(p) for p in inputs()}
    assert {piece.system for _, piece, _ in CASES} == {"up", "mailgear", "pp"}


@pytest.mark.parametrize("target", sorted(SUFFIXES))
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_golden(case, target: str) -> None:
    """A fresh export equals the committed golden file (python -m tests.export.cases rewrites them)."""
    name, piece, stem = case
    golden = GOLDEN / target / f"{name}{SUFFIXES[target]}"
    assert rendered(piece, target, stem) == golden.read_text(encoding="utf-8")


def test_no_golden_file_is_left_over() -> None:
    """Every golden file belongs to a case (a removed sample takes its files with it)."""
    expected = {GOLDEN / t / f"{name}{s}" for name, _, _ in CASES for t, s in SUFFIXES.items()}
    assert set(GOLDEN.rglob("*.*")) == expected


# --- the engine's values, read back from each target -------------------------------------------------

def expected_status(piece: Piece, doc: dict, ev: Evaluation) -> dict[str, tuple[int, int]]:
    """The resources each system's piece must carry, computed here from the document and the
    engine's derived values: label → (value, max)."""
    if piece.system == "up":
        stats = doc.get("stats") or {}
        out = {label: (stats[key],) * 2 for label, key in (("HP", "hp"), ("EN", "en")) if key in stats}
        for w in doc.get("weapons", []):
            usage = w.get("usage") or {}
            if usage.get("type") == "ammo":
                out[f"{w['name']}弾数"] = (usage["amount"],) * 2
        return out
    if piece.system == "mailgear":
        out = {"耐久": (ev.value("/derived/durability"),) * 2, "エネルギー": (ev.value("/derived/energy"),) * 2}
        return {k: v for k, v in out.items() if v[0] is not None}
    wrecked = next(r["gauges"] for r in load_tables("pp")["damage_classes"] if r["id"] == "D")
    out = {"ダメージゲージ": (0, wrecked), "コンバット・ブースト": (ev.value("/derived/combat_boost"),) * 2}
    if doc.get("machine") is not None:
        out["機体ダメージゲージ"] = (0, wrecked)
    return out


def expected_initiative(piece: Piece, ev: Evaluation) -> int:
    if piece.system == "mailgear":
        roll = ev.derived.get("/derived/initiative")
        return roll.roll.fixed if roll is not None else 0
    if piece.system == "pp":
        return ev.value("/derived/unit_initiative", ev.value("/derived/initiative", 0))
    return 0  # seed 000 has no initiative


def check_param(system: str, label: str, value: str, doc: dict, ev: Evaluation) -> None:
    """A param is the engine's derived value of that label, or (up's stats, pp's machine) the
    document's value the engine checked."""
    documented = {"up": {"装甲": "/stats/armor", "パワー": "/stats/power", "運動性": "/stats/mobility",
                         "移動力": "/stats/move"},
                  "pp": {"スピード": "/machine/speed", "装甲値": "/machine/armor",
                         "耐久性": "/machine/durability", "頑丈さ": "/machine/toughness"}}.get(system, {})
    if label in documented:
        assert value == str(get(doc, documented[label]))
        return
    by_label = [d for d in ev.derived.values() if d.label == label]
    assert by_label, f"param {label} is no derived value"
    assert value == str(by_label[0].value)


def check_line(piece: Piece, command: str, pointer: str, expanded: str, ev: Evaluation) -> None:
    """The expanded command rolls the engine's derived roll at ``pointer``."""
    derived = ev.derived[pointer]
    if piece.system == "pp" and "U" in expanded:
        n, sides, _, bonus = re.fullmatch(r"(\d+)U(\d+)\[(\d+)\]([+-]\d+)?>=.*", expanded).groups()
        assert (int(n), int(sides)) == (derived.roll.dice, derived.roll.sides)
        assert int(bonus or 0) == derived.roll.each
        return
    if piece.system == "pp":  # 「１Ｄ１０＋イニシアティブ値」
        assert dice_terms(expanded) == ({10: 1}, derived.value)
        return
    if piece.system == "up" and "<=" in expanded:
        target = expanded.split("<=")[1]
        pilot, accuracy = re.fullmatch(r"(\d+)([+-]\d+)", target).groups()
        assert int(accuracy) == derived.value and int(pilot) == 0
        return
    dice, fixed = dice_terms(expanded)
    roll = derived.roll
    if piece.system == "mailgear" and pointer != "/derived/fortune":
        rolls = load_tables("mailgear")["rolls"]
        want = {roll.sides: rolls["base_dice"] + roll.dice}  # 「２ｄ」＋ the derived bonus
    else:
        want = {roll.sides: roll.dice}
    assert (dice, fixed) == (want, roll.fixed), (command, expanded)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_ccfolia_json_has_the_clipboard_shape_and_the_derived_values(case) -> None:
    """CCFOLIA's clipboard character: kind, data with name, memo, initiative, externalUrl,
    status {label, value, max}, params {label, value: text}, commands; the numbers the engine's."""
    _, piece, _ = case
    doc, ev = _checked(piece)
    data = json.loads(rendered(piece, "ccfolia", "x"))
    assert data["kind"] == "character"
    d = data["data"]
    assert set(d) == {"name", "memo", "initiative", "externalUrl", "status", "params", "commands"}
    assert d["name"] == piece.name and isinstance(d["memo"], str) and d["externalUrl"] == ""
    assert d["initiative"] == expected_initiative(piece, ev)
    for s in d["status"]:
        assert set(s) == {"label", "value", "max"} and all(isinstance(s[k], int) for k in ("value", "max"))
    status = {s["label"]: (s["value"], s["max"]) for s in d["status"]}
    for label, want in expected_status(piece, doc, ev).items():
        assert status.pop(label) == want
    assert all(label == "武運" or label.endswith("耐久") for label in status), status  # mailgear's own
    labels = [p["label"] for p in d["params"]] + list(status)
    assert len(labels) == len(set(labels))
    values = {p["label"]: p["value"] for p in d["params"]} | {s["label"]: str(s["value"]) for s in d["status"]}
    variables = {v.name for v in piece.variables}
    for p in d["params"]:
        assert set(p) == {"label", "value"} and isinstance(p["value"], str)
        if p["label"] not in variables:
            check_param(piece.system, p["label"], p["value"], doc, ev)
    commands = d["commands"].split("\n") if d["commands"] else []
    assert commands == [line.text for line in piece.lines]
    for line in piece.lines:
        if line.is_note:
            continue
        expanded = expand(line.command, values)  # as CCFOLIA fills {label} from params and status
        assert is_bcdice(expanded), expanded
        if line.pointer:
            check_line(piece, line.command, line.pointer, expanded, ev)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_udonarium_zip_parses_back_to_the_derived_values(case) -> None:
    """The zip holds one character XML with image, common (name, size), detail (resources as
    numberResource with currentValue, params, the memo as a note) and a chat palette whose every
    variable and line, read as Udonarium reads them, roll the engine's derived values."""
    _, piece, stem = case
    doc, ev = _checked(piece)
    with zipfile.ZipFile(io.BytesIO(zip_bytes(piece, stem))) as zf:
        assert zf.namelist() == [f"{stem}.xml"]
        root = ET.fromstring(zf.read(f"{stem}.xml"))
    assert root.tag == "character" and root.get("location.name") == "table"
    top = root.find("data[@name='character']")
    assert [c.get("name") for c in top] == ["image", "common", "detail"]
    assert top.find("data[@name='image']/data[@name='imageIdentifier']").get("type") == "image"
    assert top.find("data[@name='common']/data[@name='name']").text == piece.name
    assert top.find("data[@name='common']/data[@name='size']").text == "1"
    groups = list(top.find("data[@name='detail']"))
    resources = {e.get("name"): (int(e.get("currentValue")), int(e.text)) for e in groups[0]
                 if e.get("type") == "numberResource"}
    assert len(resources) == len(groups[0])
    for label, want in expected_status(piece, doc, ev).items():
        assert resources.pop(label) == want
    assert all(label == "武運" or label.endswith("耐久") for label in resources)
    params = {e.get("name"): e.text for e in groups[1]}
    assert int(params.pop("イニシアティブ")) == expected_initiative(piece, ev)
    for label, value in params.items():
        check_param(piece.system, label, value, doc, ev)
    notes = [e for e in groups[2] if e.get("type") == "note"]
    assert [n.text or "" for n in notes] == [piece.memo]
    palette = root.find("chat-palette")
    assert palette.get("dicebot") == "DiceBot"
    variables: dict[str, str] = {}
    lines = []
    for text in palette.text.splitlines():
        m = VARIABLE_LINE.match(text)
        if m:
            variables[m.group(1)] = m.group(2)
        else:
            lines.append(text)
    assert variables == {v.name: v.value for v in piece.variables}
    # Udonarium fills {name} from the palette's variables, then the character's own data
    values = {**{k: str(v[0]) for k, v in resources.items()}, **params, **variables}
    values.update({label: str(v[0]) for label, v in expected_status(piece, doc, ev).items()})
    assert lines == [line.text for line in piece.lines]
    for line in piece.lines:
        if line.is_note:
            continue
        expanded = expand(line.command, values)
        assert is_bcdice(expanded), expanded
        if line.pointer:
            check_line(piece, line.command, line.pointer, expanded, ev)
        else:
            assert line.command == "1D6"  # 武運 spent 4: ＋１ｄ


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_palette_variables_are_the_derived_values(case) -> None:
    """Every palette variable that names a derived value writes it: a number as is or signed,
    a roll as its addend or whole expression."""
    _, piece, _ = case
    _, ev = _checked(piece)
    for v in piece.variables:
        if not v.pointer.startswith("/derived") and "/derived/" not in v.pointer and "/effective_" not in v.pointer:
            assert v.name in ("格闘", "射撃", "振り足し値", "目標値"), v  # set by the player
            continue
        d = ev.derived[v.pointer]
        if d.roll is not None and "D" in v.value:
            dice, fixed = dice_terms(v.value.lstrip("+"))
            assert (dice, fixed) == ({d.roll.sides: d.roll.dice}, d.roll.fixed)
        elif d.roll is not None and d.roll.dice == 0 and not isinstance(d.value, int):
            assert int(v.value) == d.roll.fixed  # a bonus without dice: +5
        else:
            assert int(v.value) == d.value


def test_the_grammar_refuses_what_bcdice_would_not_take() -> None:
    """The grammar is no rubber stamp: an unfilled variable, a doubled sign, a bad pool fail."""
    for good in ("2D6+1D6+5", "2D6-1", "1D100<=0+10", "4U10[10]+2>=7", "2D6+3", "1D10+17"):
        assert is_bcdice(good), good
    for bad in ("2D6{命中CR}", "2D6+-2", "2D6++3", "4U10+2>=7", "4U10[10]+2>={目標値}", "1D", ""):
        assert not is_bcdice(bad), bad


def test_mailgear_palettes_cover_every_roll_the_issue_names() -> None:
    """A mailgear pilot with weapons gets 先行判定, each range band, damage, 受け, カウンター,
    武運, and the note on doubles and ピンゾロ."""
    piece = export_paths([SAMPLES / "mailgear" / "veteran-custom.json"])[0].piece
    text = piece.palette_text()
    for word in ("先行判定", "距離1", "距離2〜4", "距離5〜7", "距離8〜10", "ダメージ", "受け", "カウンター",
                 "武運決定", "ピンゾロ"):
        assert word in text, word


def test_ccfolia_object_is_json_without_python_only_values() -> None:
    """The clipboard object round-trips through JSON unchanged."""
    for _, piece, _ in CASES[:5]:
        data = clipboard(piece)
        assert json.loads(json.dumps(data, ensure_ascii=False)) == data
