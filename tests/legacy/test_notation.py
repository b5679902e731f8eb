"""The value notations of homemade sheets: the notations quoted from real sheets read as meant, and
any value rendered in the many ways people type it (widths, commas, signs, units, spaces) reads
back to itself. No parser raises on anything a cell can hold."""
from __future__ import annotations

import ast
import datetime
from pathlib import Path

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from converter.legacy import notation
from converter.legacy.notation import (norm, parse_bool, parse_dice, parse_dice_full, parse_int,
                                       parse_level, parse_number, parse_percent, parse_range,
                                       split_label_value)

FULL_WIDTH = str.maketrans("0123456789,", "０１２３４５６７８９，")
SPACES = ("", " ", "　")
DASHES = ("-", "－", "−", "–", "—", "―", "‐", "‑", "ー")
MINUS = (*DASHES, "△", "▲")  # the triangles only lead a number, never follow a die
PLUS = ("", "+", "＋")
NAMES = st.text(alphabet="熱血鉄壁集中ひらめき操縦射撃アイウエオｶﾞｯﾂABCDxyz ", min_size=1, max_size=8)


@pytest.mark.parametrize(("text", "expected"), [
    ("1,364", 1364), ("１３６４", 1364), ("１，３６４", 1364), ("+10", 10), ("＋１０", 10),
    ("−20", -20), ("△20", -20), ("▲20", -20), ("ー２０", -20), ("250（改修後）", 250),
    ("1200 UP", 1200), ("1200ＵＰ", 1200), ("30PP", 30), ("50点", 50), ("12pt", 12),
    ("5ポイント", 5), ("12.0", 12), (12.0, 12), (7, 7), ("　２５０　", 250), ("7マス", 7), ("７マス", 7),
    ("±0", 0), ("±5", None), ("±05", None), ("8.5t", None),
    ("12.5", None), (12.5, None), (True, None), ("1,2", None), ("10%", None), ("HP250", None),
    ("パワー3", None), ("", None), (None, None), (float("nan"), None), ("1" * 5000, None),
])
def test_int(text: object, expected: int | None) -> None:
    """Whole numbers as typed, with a unit word or a remark beside them; 「△20」 is −20."""
    assert parse_int(text) == expected


def test_number_keeps_decimals_and_makes_integral_values_ints() -> None:
    """Numbers read with decimals, full-width digits and △; whole values are ints, overflow is None."""
    assert parse_number("12.5") == 12.5
    assert parse_number("１，３６４．５") == 1364.5
    assert parse_number("△0.5") == -0.5
    assert type(parse_number("12.00")) is int and type(parse_number(3.0)) is int
    assert parse_number(float("inf")) is None and parse_number("9" * 400 + ".5") is None
    assert parse_number("8.5t") == 8.5 and parse_number("12 トン") == 12 and parse_number("8.5tt") is None


@pytest.mark.parametrize(("text", "expected"), [
    ("＋１０％", 10), ("-30%", -30), ("10", 10), ("−５０％", -50), ("△10％", -10), (0.1, 10),
    (-0.3, -30), (0.25, 25), (20, 20), (20.0, 20), ("12.5%", None), ("10 UP", None), (1.5, None),
])
def test_percent(text: object, expected: int | None) -> None:
    """A float inside (−1, 1) is an Excel percent cell's value: 0.1 shows as 10 %."""
    assert parse_percent(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("２Ｄ＋１５", (2, None, 15)), ("2D10+15", (2, 10, 15)), ("1d+45", (1, None, 45)),
    ("７Ｄ", (7, None, 0)), ("3D6-1", (3, 6, -1)), ("3D6－1", (3, 6, -1)), ("2D + 1,000", (2, None, 1000)),
    ("2d6+1d", None), ("D6", None), ("2D 15", None), ("15", None), (2, None),
])
def test_dice(text: object, expected: tuple[int, int | None, int] | None) -> None:
    """parse_dice is parse_dice_full without the die size our documents do not keep."""
    assert parse_dice_full(text) == expected
    assert parse_dice(text) == (expected and (expected[0], expected[2]))


@pytest.mark.parametrize(("text", "expected"), [
    ("P5", (None, 5, True)), ("Ｐ５", (None, 5, True)), ("射程1～3", (1, 3, None)), ("2マス", (None, 2, None)),
    ("1～4マス", (1, 4, None)),
    ("1〜3", (1, 3, None)), ("1-3", (1, 3, None)), ("２～４", (2, 4, None)), ("１ー３", (1, 3, None)),
    ("5", (None, 5, None)), (5, (None, 5, None)), ("射程：4（P）", (None, 4, True)),
    ("3(P)", (None, 3, True)), ("1～3P", (1, 3, True)), ("射程 P1~3", (1, 3, True)),
    ("3-1", None), (-1, None), ("P", None), ("射程", None), (2.5, None),
])
def test_range(text: object, expected: tuple[int | None, int, bool | None] | None) -> None:
    """(min, max, post-move): P before or after the number marks post-move; min above max is not a range."""
    assert parse_range(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("熱血Lv2", ("熱血", 2)), ("鉄壁 Ｌｖ．３", ("鉄壁", 3)), ("熱血 2", ("熱血", 2)), ("〈操縦〉3", ("〈操縦〉", 3)),
    ("熱血(2)", ("熱血", 2)), ("熱血Ｌｖ２", ("熱血", 2)), ("熱血：2", ("熱血", 2)), ("熱血 LV. 2", ("熱血", 2)),
    ("熱血（Lv2）", ("熱血", 2)), ("　熱血Lv2　", ("熱血", 2)), ("熱血Lv0", ("熱血", 0)),
])
def test_level_notations(text: str, expected: tuple[str, int]) -> None:
    """Every way the sheets write a skill's level gives its name and level."""
    assert parse_level(text) == expected


def test_level_keeps_the_name_as_written() -> None:
    """The caller matches names with its own key, so brackets and widths stay."""
    assert parse_level("〈操縦〉3") == ("〈操縦〉", 3)
    assert parse_level("＜操縦＞３") == ("＜操縦＞", 3)
    assert parse_level("【熱血】 2") == ("【熱血】", 2)
    assert parse_level("ｶﾞｯﾂ Lv1") == ("ｶﾞｯﾂ", 1)
    assert parse_level("ビーム ライフル 2") == ("ビーム ライフル", 2)


@pytest.mark.parametrize("text", ["熱血", "Lv2", "ガンダム2", "2 3", "〈〉3", "熱血Lv", "熱血 Lv 1234567", 2])
def test_not_a_level(text: object) -> None:
    """No name, no level, or digits glued to a name (「ガンダム2」 is a name)."""
    assert parse_level(text) is None


@pytest.mark.parametrize(("text", "expected"), [
    ("ＨＰ：２５０", ("ＨＰ", "２５０")), ("HP 250", ("HP", "250")), ("装甲 ２０", ("装甲", "２０")),
    ("装甲　２０", ("装甲", "２０")), ("射程：4（P）", ("射程", "4（P）")), ("EN = 150", ("EN", "150")),
    ("ビーム ライフル 2D+15", ("ビーム ライフル", "2D+15")), ("運動性 +10％", ("運動性", "+10％")),
    ("HP 250 （改修後）", ("HP", "250 （改修後）")), ("射程 1～3", ("射程", "1～3")),
    ("熱血Lv2", None), ("熱血 Lv 2", None), ("鉄壁 Ｌｖ．３", None), ("：２５０", None), ("HP：", None),
    ("12:30", None), ("1200 UP", None), ("HP", None), ("250", None), ("2D 15", None), (250, None),
    (datetime.datetime(2024, 1, 1, 12, 30), None),
])
def test_split_label_value(text: object, expected: tuple[str, str] | None) -> None:
    """Both parts as written: the importer keeps the original text beside what it reads."""
    assert split_label_value(text) == expected


@pytest.mark.parametrize("text", ["○", "◯", "〇", "●", "✓", "あり", "有", "yes", "YES", "Ｔｒｕｅ", True, 1, 1.0])
def test_true(text: object) -> None:
    """Each mark meaning yes (○, あり, yes, True, 1) reads as True."""
    assert parse_bool(text) is True


@pytest.mark.parametrize("text", ["×", "✕", "なし", "無", "-", "－", "―", "ー", "no", "false", False, 0, 0.0])
def test_false(text: object) -> None:
    """Each mark meaning no (×, なし, -, no, False, 0) reads as False."""
    assert parse_bool(text) is False


@pytest.mark.parametrize("text", ["", "maybe", "○×", 2, None, datetime.date(2024, 1, 1)])
def test_not_a_mark(text: object) -> None:
    """A value that is no single mark reads as None."""
    assert parse_bool(text) is None


@pytest.mark.parametrize(("text", "expected"), [
    ("１ー３", "1-3"), ("ー２０", "-20"), ("パワー３", "パワー3"), ("HP：ー20", "HP:-20"), ("2Dー1", "2D-1"),
    ("△ 20", "-20"), ("A△20", "A△20"), ("1〜3", "1~3"), ("1∼3", "1~3"), ("　ＨＰ \u3000２５０ ", "HP 250"),
    ("2\u200b5", "25"), (None, ""), (12, "12"),
])
def test_norm(text: object, expected: str) -> None:
    """ー and △ are minus signs only where a number follows, so words keep their long vowels."""
    assert norm(text) == expected


def _sign(draw: st.DrawFn, n: int, minus: tuple[str, ...] = MINUS, plus: tuple[str, ...] = PLUS) -> str:
    """A sign as typed for n, maybe spaced from its digits (but ー, a long vowel when spaced)."""
    mark = draw(st.sampled_from(minus if n < 0 else plus))
    return mark if mark in ("", "ー") else mark + draw(st.sampled_from(SPACES))


def _digits(draw: st.DrawFn, n: int, commas: bool = False) -> str:
    text = f"{abs(n):,}" if commas and draw(st.booleans()) else str(abs(n))
    return text.translate(FULL_WIDTH) if draw(st.booleans()) else text


def _pad(draw: st.DrawFn, text: str) -> str:
    return draw(st.sampled_from(SPACES)) + text + draw(st.sampled_from(SPACES))


@st.composite
def ints(draw: st.DrawFn) -> tuple[int, str]:
    n = draw(st.integers(-10**7, 10**7))
    unit = draw(st.sampled_from(("", "UP", " ＵＰ", "PP", "ＰＰ", "点", " pt", "ポイント")))
    remark = draw(st.sampled_from(("", "（改修後）", " (予定)")))
    return n, _pad(draw, _sign(draw, n) + _digits(draw, n, commas=True) + unit + remark)


@st.composite
def percents(draw: st.DrawFn) -> tuple[int, str]:
    n = draw(st.integers(-1000, 1000))
    mark = draw(st.sampled_from(("", "%", "％", " %")))
    return n, _pad(draw, _sign(draw, n) + _digits(draw, n, commas=True) + mark)


@st.composite
def dice(draw: st.DrawFn) -> tuple[tuple[int, int | None, int], str]:
    count, fixed = draw(st.integers(1, 20)), draw(st.integers(-100, 5000))
    sides = draw(st.none() | st.integers(2, 100))
    text = _digits(draw, count) + draw(st.sampled_from("DdＤｄ"))
    text += "" if sides is None else _digits(draw, sides)
    if fixed or draw(st.booleans()):
        text += draw(st.sampled_from(SPACES)) + _sign(draw, fixed, DASHES, ("+", "＋"))
        text += _digits(draw, fixed, commas=True)
    return (count, sides, fixed), _pad(draw, text)


@st.composite
def ranges(draw: st.DrawFn) -> tuple[tuple[int | None, int, bool | None], str]:
    high = draw(st.integers(0, 99))
    low = draw(st.none() | st.integers(0, high))
    post = draw(st.sampled_from((None, True)))
    text = _digits(draw, high)
    if low is not None:
        dash = draw(st.sampled_from(("~", "～", "〜", "∼", "〰", "-", "－", "−", "ー", "‐", " ～ ", " - ")))
        text = _digits(draw, low) + dash + text
    if post:
        marks = ("P", "Ｐ", "p", "P ", "Ｐ　")
        after = ("P", "Ｐ", "(P)", "（Ｐ）", " (P)", "　（P）")
        text = draw(st.sampled_from(marks)) + text if draw(st.booleans()) else text + draw(st.sampled_from(after))
    label = draw(st.sampled_from(("", "射程", "射程：", "射程 ", "射程　: ")))
    return (low, high, post), _pad(draw, label + text)


@st.composite
def levels(draw: st.DrawFn) -> tuple[tuple[str, int], str]:
    name = draw(NAMES.map(str.strip).filter(lambda s: any(c.isalpha() for c in s)))
    level = draw(st.integers(0, 99))
    digits = _digits(draw, level)
    space = draw(st.sampled_from(SPACES))
    form = draw(st.sampled_from(("lv", "space", "bracket", "parens", "colon")))
    if form == "bracket":
        opening, closing = draw(st.sampled_from(("〈〉", "＜＞", "<>", "【】")))
        name = opening + name + closing
        text = name + space + digits
    elif form == "lv":
        text = name + space + draw(st.sampled_from(("Lv", "LV", "lv", "Lv.", "Ｌｖ", "Ｌｖ．", "ＬＶ"))) + space + digits
    elif form == "parens":
        opening, closing = draw(st.sampled_from(("()", "（）")))
        text = name + space + opening + digits + closing
    elif form == "colon":
        text = name + space + draw(st.sampled_from(":：=")) + space + digits
    else:
        text = name + draw(st.sampled_from((" ", "　", "  "))) + digits
    return (name, level), _pad(draw, text)


@given(ints())
def test_ints_read_back(case: tuple[int, str]) -> None:
    """Every written form of an integer reads back as that integer."""
    n, text = case
    assert parse_int(text) == n and parse_number(text) == n


@given(percents())
def test_percents_read_back(case: tuple[int, str]) -> None:
    """Every written form of a percentage reads back as its whole number."""
    n, text = case
    assert parse_percent(text) == n


@given(st.integers(-99, 99).filter(bool))
def test_excel_percent_cells_read_back(n: int) -> None:
    """An Excel percent cell (a fraction) reads back as its whole percentage."""
    assert parse_percent(n / 100) == n


@given(dice())
def test_dice_read_back(case: tuple[tuple[int, int | None, int], str]) -> None:
    """Every written form of a dice roll reads back as its (count, sides, fixed bonus)."""
    expected, text = case
    assert parse_dice_full(text) == expected


@given(ranges())
def test_ranges_read_back(case: tuple[tuple[int | None, int, bool | None], str]) -> None:
    """Every written form of a range reads back as its (low, high, usable after moving)."""
    expected, text = case
    assert parse_range(text) == expected


@given(levels())
def test_levels_read_back(case: tuple[tuple[str, int], str]) -> None:
    """Every written form of a named level reads back as its (name, level)."""
    expected, text = case
    assert parse_level(text) == expected


@given(NAMES.map(str.strip).filter(lambda s: any(c.isalpha() for c in s)),
       st.sampled_from((":", "：", "=", "＝", " ：", "： ", " ", "　", "  ")),
       st.one_of(ints(), percents(), dice(), ranges()))
def test_label_and_value_split_as_written(label: str, separator: str, case: tuple[object, str]) -> None:
    """Whatever value follows a label, the two parts come back as written, spaces trimmed."""
    value = case[1].strip()
    assume(separator.strip() or not any(c in value for c in ":："))  # else the value's own colon splits
    assert split_label_value(label + separator + value) == (label, value)


cell_values = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(),
                        st.datetimes(), st.dates(), st.times(), st.binary(max_size=4),
                        st.text(alphabet="0123456789０１２３４５６７８９DdPpLv.,:：～ー△+-%（）()〈〉 　熱血", max_size=12))
PARSERS = (norm, parse_int, parse_number, parse_percent, parse_dice, parse_dice_full, parse_range,
           parse_level, split_label_value, parse_bool)


@given(cell_values)
def test_no_parser_raises(value: object) -> None:
    """A parser answers None for what is not its notation, whatever the cell held."""
    for parse in PARSERS:
        parse(value)
    assert isinstance(norm(value), str)


@given(st.text())
def test_norm_is_stable(text: str) -> None:
    """Normalised text normalises to itself: a parser reads text and its normal form alike."""
    assert norm(norm(text)) == norm(text)


def test_standard_library_only() -> None:
    """The parsers run anywhere the engine runs: they import nothing but the standard library."""
    tree = ast.parse(Path(notation.__file__).read_text(encoding="utf-8"))
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert imported <= {"__future__", "functools", "math", "re", "typing", "unicodedata"}
