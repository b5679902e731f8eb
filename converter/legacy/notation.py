"""The value notations of homemade sheets: numbers, percents, dice, ranges, levels and marks as
people type them into cells.

The importer tries these on every cell of thousands of sheets, so each returns None when the
text is not its notation and never raises, whatever it is given (None, bool, numbers, dates,
any text). It keeps the original text beside what it read; ``norm`` is for parsing only.
Standard library only.

Notations, as written in sheets:

- ``norm``: NFKC (full-width digits, letters, ＋ ： ％ （）), waves ～ 〜 ∼ 〰 ⁓ → ``~``, dashes
  − – — ― ‐ ‑ ‒ → ``-``; ー before a digit is a minus unless it follows kana or kanji (「１ー３」,
  「ー２０」, 「2Dー1」; 「パワー3」 keeps it); △ ▲ leading a number are a minus (Japanese
  bookkeeping: 「△20」 is −20); spaces collapsed to one.
- ``parse_int``: 「1,364」 1364, 「１３６４」, 「＋１０」 10, 「−20」 / 「△20」 / 「▲20」 -20,
  「1200 UP」, 「50点」, 「30pt」, 「7マス」, 「250（改修後）」 250, 「12.0」 12 (「12.5」 is not an int),
  「±0」 0.
- ``parse_number``: as parse_int, and 「12.5」 12.5, 「8.5t」 8.5; an integral value is an int.
- ``parse_percent``: 「＋１０％」 10, 「-30%」 -30, 「10」 10, 「−５０％」 -50; an Excel percent
  cell's 0.1 is 10.
- ``parse_dice`` / ``parse_dice_full``: 「２Ｄ＋１５」 (2, 15), 「2D10+15」 (2, 15) / (2, 10, 15),
  「1d+45」 (1, 45), 「７Ｄ」 (7, 0), 「3D6-1」 (3, -1); 「2d6+1d」 is none of them.
- ``parse_range`` (min, max, post-move): 「P5」 / 「Ｐ５」 (None, 5, True), 「射程1～3」 / 「1〜3」 /
  「1-3」 (1, 3, None), 「5」 (None, 5, None), 「射程：4（P）」 / 「3(P)」 / 「1～3P」 post-move.
- ``parse_level``: 「熱血Lv2」, 「鉄壁 Ｌｖ．３」, 「熱血 2」, 「〈操縦〉3」, 「熱血(2)」, 「熱血Ｌｖ２」,
  「熱血：2」 → (name as written, level). A level needs a marker, a space, a colon, parentheses or
  a closing bracket before it: 「ガンダム2」 is a name, not ガンダム at level 2.
- ``split_label_value``: 「ＨＰ：２５０」 → ("ＨＰ", "２５０"), 「装甲 ２０」 → ("装甲", "２０"), the
  original text of both parts; 「熱血Lv2」 is a level, not a pair.
- ``parse_bool``: ○ ◯ 〇 ● ◎ ✓ ✔ ☑ あり 有 有り yes true 1 / × ✕ ✗ ✘ ☓ なし 無 無し - ー no false 0.

「熱血 2」 and 「装甲 20」 are written alike: both are a level and a label with its value. The
importer knows from the sheet's labels which it expects and asks that parser.
"""
from __future__ import annotations

import math
import re
import unicodedata
from functools import lru_cache
from typing import Any

# Removed before NFKC, so that what they separated normalises as it will the next time.
_INVISIBLE = str.maketrans("", "", "\u200b\u200c\u200d\u2060\ufeff")
# After NFKC: the waves NFKC leaves alone, and the dashes that can only be a minus or a range dash.
_FOLD = str.maketrans(dict.fromkeys("〜∼〰⁓", "~") | dict.fromkeys("−–—―‐‑‒", "-"))
# ー lengthens the kana or kanji before it (パワー3); before a digit anywhere else it is a minus
# or a range dash (ー20, 1ー3, 2Dー1).
_LONG_MINUS = re.compile(r"(?<![\u3040-\u30ff\u31f0-\u31ff\u3400-\u9fff])ー(?=[0-9])")
_PLUS_MINUS_ZERO = re.compile(r"±\s*(?=0(?![0-9]))")
_TRIANGLE_MINUS = re.compile(r"(?<![^\s:=(])[△▲]\s*(?=[0-9])")

_INT = r"(?:[0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)"
_SIGNED = rf"(?P<sign>[+-])?\s?(?P<int>{_INT})(?P<frac>\.[0-9]+)?"
_REMARK = r"(?:\s?\([^()]*\))?"
_NUMBER = re.compile(rf"{_SIGNED}(?:\s?(?:UP|PP|pts?|点|ポイント|マス|sq|t|トン|kg|m|km|発|回))?{_REMARK}", re.I)
_PERCENT = re.compile(rf"{_SIGNED}(?:\s?%)?{_REMARK}")
_DICE = re.compile(
    rf"(?P<dice>[0-9]+)\s?D(?P<sides>[0-9]+)?(?:\s?(?P<sign>[+-])\s?(?P<fixed>{_INT}))?{_REMARK}",
    re.I)
_RANGE = re.compile(
    r"(?:射程\s?[:=]?\s?)?(?P<pre>P\s?)?(?:(?P<min>[0-9]+)\s?[~-]\s?)?(?P<max>[0-9]+)(?:\s?マス)?"
    rf"(?:\s?(?P<post>\(\s?P\s?\)|P))?{_REMARK}", re.I)

# Levels are read on the original text, so that the name keeps its characters: the classes name
# the widths NFKC would fold. Bounded spaces keep the search linear on a long cell.
_WIDE_DIGITS = "[0-9０-９]{1,6}"
_LV = "[LlＬｌ][VvＶｖ][.．]?"
_LEVEL = re.compile(
    rf"(?P<sep>\s{{0,8}}(?:[:：=＝]\s{{0,8}})?)"
    rf"(?:(?P<lv>{_LV})\s{{0,8}}(?P<marked>{_WIDE_DIGITS})"
    rf"|[(（]\s{{0,8}}(?:{_LV}\s{{0,8}})?(?P<enclosed>{_WIDE_DIGITS})\s{{0,8}}[)）]"
    rf"|(?P<bare>{_WIDE_DIGITS}))\Z")
_CLOSING = frozenset("〉＞>】」』］]》")
_SEPARATOR = re.compile("[:：=＝﹕︓﹦]")
_SPACES = re.compile(r"\s+")
_VALUE_MAX = 64  # a value beside a label on one cell is short; longer tails are not tried

_TRUE = frozenset({"○", "◯", "〇", "●", "◎", "✓", "✔", "☑", "あり", "有", "有り", "yes", "true", "1"})
_FALSE = frozenset({"×", "✕", "✗", "✘", "☓", "なし", "無", "無し", "-", "ー", "no", "false", "0"})


def norm(value: Any) -> str:
    """The text parsers match: widths, waves, dashes and minus marks folded, spaces collapsed."""
    if value is None:
        return ""
    try:
        text = str(value)
    except Exception:  # an object's own __str__ may fail; a cell reads as empty then
        return ""
    text = unicodedata.normalize("NFKC", text.translate(_INVISIBLE)).translate(_FOLD)
    if "ー" in text:
        text = _LONG_MINUS.sub("-", text)
    if "±" in text:  # 「±0」: no change either way
        text = _PLUS_MINUS_ZERO.sub("0", text)
    if "△" in text or "▲" in text:
        text = _TRIANGLE_MINUS.sub("-", text)
    return " ".join(text.split())


def _whole(digits: str) -> int | None:
    """int() of matched digits; None past Python's digit limit (a pasted garbage cell)."""
    try:
        return int(digits.replace(",", ""))
    except ValueError:
        return None


def _signed(match: re.Match[str]) -> int | float | None:
    """The number a _SIGNED match spells: an int unless its decimals are not all zero."""
    frac = match["frac"]
    if frac and frac.strip(".0"):
        real = float(match["int"].replace(",", "") + frac)
        number: int | float | None = real if math.isfinite(real) else None
    else:
        number = _whole(match["int"])
    if number is None:
        return None
    return -number if match["sign"] == "-" else number


def parse_number(value: Any) -> int | float | None:
    """A number as typed (units and a remark in parentheses allowed); integral values are ints."""
    if isinstance(value, str):
        match = _NUMBER.fullmatch(norm(value))
        return _signed(match) if match else None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if isinstance(value, float):
        if not math.isfinite(value):
            return None
        return int(value) if value.is_integer() else value
    return value


def parse_int(value: Any) -> int | None:
    """A whole number as typed; 「12.0」 is 12, 「12.5」 and True are not whole numbers."""
    number = parse_number(value)
    return number if isinstance(number, int) else None


def parse_percent(value: Any) -> int | None:
    """Whole percents; a float in (-1, 1) is an Excel cell formatted as percent (0.1 is 10 %)."""
    if isinstance(value, float) and value and -1 < value < 1:
        return round(value * 100)
    if isinstance(value, str):
        match = _PERCENT.fullmatch(norm(value))
        number = _signed(match) if match else None
    else:
        number = parse_number(value)
    return number if isinstance(number, int) else None


def parse_dice_full(value: Any) -> tuple[int, int | None, int] | None:
    """(dice, sides or None, fixed) of 「2D10+15」 style damage; 「７Ｄ」 has no fixed part (0)."""
    if not isinstance(value, str):
        return None
    match = _DICE.fullmatch(norm(value))
    if not match:
        return None
    dice = _whole(match["dice"])
    sides = _whole(match["sides"]) if match["sides"] else None
    fixed = _whole(match["fixed"]) if match["fixed"] else 0
    if dice is None or fixed is None or (match["sides"] and sides is None):
        return None
    return dice, sides, -fixed if match["sign"] == "-" else fixed


def parse_dice(value: Any) -> tuple[int, int] | None:
    """(dice, fixed): our documents' damage; the die size some sheets write is dropped."""
    full = parse_dice_full(value)
    return (full[0], full[2]) if full else None


def parse_range(value: Any) -> tuple[int | None, int, bool | None] | None:
    """(min or None, max, True when marked post-move (P) else None); a bare number is the max."""
    if not isinstance(value, str):
        number = parse_int(value)
        return (None, number, None) if number is not None and number >= 0 else None
    match = _RANGE.fullmatch(norm(value))
    if not match:
        return None
    low = _whole(match["min"]) if match["min"] else None
    high = _whole(match["max"])
    if high is None or (match["min"] and (low is None or low > high)):
        return None
    return low, high, True if match["pre"] or match["post"] else None


def _level(text: str) -> tuple[str, int, bool] | None:
    """(name as written, level, whether an Lv marker said so) of stripped original text."""
    match = _LEVEL.search(text)
    if not match:
        return None
    name = text[: match.start()].rstrip()
    digits = match["marked"] or match["enclosed"] or match["bare"]
    if match["bare"] and not match["sep"] and (not name or name[-1] not in _CLOSING):
        return None  # 「ガンダム2」: digits glued to a name are part of it
    if not any(c.isalnum() for c in name) or _is_value(name):
        return None
    return name, int(digits), bool(match["lv"])


def parse_level(value: Any) -> tuple[str, int] | None:
    """(name, level) of a skill as typed; the name as written (brackets kept) for the caller's key."""
    if not isinstance(value, str):
        return None
    found = _level(value.strip())
    return (found[0], found[1]) if found else None


def _is_value(text: str) -> bool:
    """Whether text reads as a number, percent, dice or range: a value, never a label."""
    normal = norm(text)
    return any(p.fullmatch(normal) for p in (_NUMBER, _PERCENT, _DICE, _RANGE))


def _is_label(text: str) -> bool:
    return any(c.isalpha() for c in text) and not _is_value(text)


def split_label_value(value: Any) -> tuple[str, str] | None:
    """(label, value) as written in one cell: 「ＨＰ：２５０」, 「装甲 ２０」; None unless both are there."""
    return _split(value) if isinstance(value, str) else None


# Remembered (a pure function): the importer asks of each text cell several times (detection,
# regions, fields), and a folder's sheets repeat the same labels.
@lru_cache(maxsize=4096)
def _split(value: str) -> tuple[str, str] | None:
    text = value.strip()
    separator = _SEPARATOR.search(text)
    if separator:
        label, rest = text[: separator.start()].strip(), text[separator.end():].strip()
        return (label, rest) if rest and _is_label(label) else None
    level = _level(text)
    if level and level[2]:
        return None  # 「熱血 Lv 2」 is a level, not the label 「熱血 Lv」
    for space in _SPACES.finditer(text):
        rest = text[space.end():]
        if len(rest) <= _VALUE_MAX and _is_value(rest):
            label = text[: space.start()]
            if _is_label(label):
                return label, rest
    return None


def parse_bool(value: Any) -> bool | None:
    """A yes/no mark (○ あり / × なし -), a bool, or 1/0; anything else is not a mark."""
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        return bool(value) if value in (0, 1) else None
    if not isinstance(value, str):
        return None
    text = norm(value).casefold()
    return True if text in _TRUE else False if text in _FALSE else None
