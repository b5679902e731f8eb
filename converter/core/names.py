"""Name keys: the form in which two spellings of one name compare equal, in Python and in Excel.

A player writes 「エリート・コース」, 「ｴﾘｰﾄｺｰｽ」 or 〈知識／戦術〉 for a name the rules table spells
otherwise. Each system declares in its tables how its names compare (``[name_key]``: which
characters do not count, whether case counts, how the sheet folds width); this one specification
renders the engine's Python key, the template's Excel formula, and, for the formula's cached
result, the Python value that formula computes. Standard library only.
"""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Mapping

#: Excel's ASC folds width: ``asc`` folds with ASC and UPPER; ``none`` only drops characters.
EXCEL_WIDTH = ("asc", "none")


@dataclass(frozen=True)
class NameKey:
    """How a system's names compare.

    ``dropped``: characters that never count (after NFKC on the Python side; every width of them
    on the Excel side); a space stands for all white space (a tab is CHAR(9) in Excel).
    ``fold_case``: case does not count. ``excel_width``: ``asc`` when the sheet folds width with
    ASC (and case with UPPER), ``none`` when it does not, in which case ``excel_replaced`` lists
    the full-width characters the sheet maps to their half-width forms.
    """

    dropped: str
    fold_case: bool = False
    excel_width: str = "none"
    excel_replaced: tuple[tuple[str, str], ...] = ()

    @classmethod
    def from_table(cls, raw: Mapping[str, Any]) -> "NameKey":
        width = raw.get("excel_width", "none")
        if width not in EXCEL_WIDTH:
            raise ValueError(f"name_key.excel_width must be one of {EXCEL_WIDTH}, not {width!r}")
        return cls(raw["dropped"], bool(raw.get("fold_case", False)), width,
                   tuple((a, b) for a, b in raw.get("excel_replaced", [])))

    # --- Python: the engine's key ------------------------------------------------------------
    def python(self, name: str) -> str:
        """The engine's key of ``name``: NFKC (width alike), case folded if asked, ``dropped``
        characters removed."""
        text = unicodedata.normalize("NFKC", name)
        if self.fold_case:
            text = text.casefold()
        dropped = _nfkc_set(self.dropped)
        spaces = " " in self.dropped
        return "".join(ch for ch in text if ch not in dropped and not (spaces and ch.isspace()))

    # --- Excel: the sheet's key ----------------------------------------------------------------
    def excel_dropped(self) -> list[str]:
        """The characters the Excel formula removes, as they stand after its width folding."""
        out: list[str] = []
        for ch in self.dropped:
            forms = [asc(ch)] if self.excel_width == "asc" else [ch, *_full_width_forms(ch)]
            if self.excel_width == "asc" and asc(ch) != ch and not ch.isascii():
                forms.append(ch)  # kept where a spreadsheet's ASC leaves it as it is
            for form in forms:
                if form not in out:
                    out.append(form)
        return out

    def excel(self, ref: str) -> str:
        """Excel: the key of the text in ``ref``, as nested SUBSTITUTEs."""
        expr = f"UPPER(ASC({ref}))" if self.excel_width == "asc" else ref
        for ch in self.excel_dropped():
            expr = f'SUBSTITUTE({expr},"{ch}","")'
        for old, new in self.excel_replaced:
            expr = f'SUBSTITUTE({expr},"{old}","{new}")'
        if " " in self.dropped:  # a formula string cannot hold a tab
            expr = f'SUBSTITUTE({expr},CHAR(9),"")'
        return expr

    def excel_value(self, value: object) -> str:
        """What :meth:`excel` computes for a cell holding ``value`` (a key cell's cached result)."""
        if value is None:
            return ""
        text = value if isinstance(value, str) else _number_text(value)
        if self.excel_width == "asc":
            table = _asc_table()
            text = "".join(table.get(ch, ch) for ch in text).upper()
        for ch in self.excel_dropped():
            text = text.replace(ch, "")
        for old, new in self.excel_replaced:
            text = text.replace(old, new)
        return text.replace("\t", "") if " " in self.dropped else text


@lru_cache(maxsize=None)
def _nfkc_set(chars: str) -> frozenset[str]:
    return frozenset(chars) | frozenset(unicodedata.normalize("NFKC", ch) for ch in chars)


def asc(ch: str) -> str:
    """Excel's ASC of one character (full-width ASCII and katakana to half width)."""
    return _asc_table().get(ch, ch)


def _full_width_forms(ch: str) -> list[str]:
    """Characters whose NFKC form is ``ch`` (＜ for <, ［ for [, the ideographic space for a space)."""
    return [full for full, half in _asc_table().items() if half == ch and full != ch]


def _number_text(value: object) -> str:
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


@lru_cache(maxsize=1)
def _asc_table() -> dict[str, str]:
    """Excel's ASC as a table: full-width ASCII and katakana to their half-width forms."""
    table: dict[str, str] = {}
    for code in range(0xFF61, 0xFFA0):
        half = chr(code)
        full = unicodedata.normalize("NFKC", half)
        if len(full) == 1 and full != half:
            table.setdefault(full, half)
    for code in range(0x30A0, 0x3100):
        ch = chr(code)
        parts = unicodedata.normalize("NFD", ch)
        if len(parts) == 2 and parts[0] in table and parts[1] in ("\u3099", "\u309a"):
            table[ch] = table[parts[0]] + ("\uff9e" if parts[1] == "\u3099" else "\uff9f")
    for code in range(0xFF01, 0xFF5F):
        table[chr(code)] = chr(code - 0xFEE0)
    table["\u3000"] = " "
    table["\uffe5"] = "\\"
    return table
