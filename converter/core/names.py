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

#: How the sheet folds width: ``asc`` with ASC and UPPER; ``fold`` with SUBSTITUTE chains and
#: UPPER, which every spreadsheet computes alike (issue 18); ``none`` only drops characters.
EXCEL_WIDTH = ("asc", "fold", "none")
#: Excel nests at most 64 functions in a formula: one stage of a ``fold`` key holds at most this
#: many SUBSTITUTEs, leaving room for the IF, UPPER and MATCH around it.
STAGE_SUBSTITUTES = 52


@dataclass(frozen=True)
class NameKey:
    """How a system's names compare.

    ``dropped``: characters that never count (after NFKC on the Python side; every width of them
    on the Excel side); a space stands for all white space (a tab is CHAR(9) in Excel).
    ``fold_case``: case does not count. ``excel_width``: ``asc`` when the sheet folds width with
    ASC (and case with UPPER); ``fold`` when it maps each full-width ASCII character to ASCII and
    each half-width katakana (voiced pairs first) to full width as NFKC does, with SUBSTITUTEs
    (and case with UPPER), over several cells (:meth:`excel_stage`); ``none`` when it does not
    fold width, in which case ``excel_replaced`` lists the full-width characters the sheet maps
    to their half-width forms.
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
        """Excel: the key of the text in ``ref``, as nested SUBSTITUTEs (one formula: ``asc`` and
        ``none``; a ``fold`` key is too deep for one, see :meth:`excel_stage`)."""
        if self.excel_width == "fold":
            raise ValueError("a fold name key takes several cells: use excel_stage")
        expr = f"UPPER(ASC({ref}))" if self.excel_width == "asc" else ref
        for ch in self.excel_dropped():
            expr = f'SUBSTITUTE({expr},"{ch}","")'
        for old, new in self.excel_replaced:
            expr = f'SUBSTITUTE({expr},"{old}","{new}")'
        if " " in self.dropped:  # a formula string cannot hold a tab
            expr = f'SUBSTITUTE({expr},CHAR(9),"")'
        return expr

    def excel_value(self, value: object) -> str:
        """What :meth:`excel` (or the last stage) computes for a cell holding ``value`` (a key
        cell's cached result)."""
        if self.excel_width == "fold":
            return self.excel_stage_values(value)[-1]
        text = _cell_text(value)
        if self.excel_width == "asc":
            table = _asc_table()
            text = "".join(table.get(ch, ch) for ch in text).upper()
        for ch in self.excel_dropped():
            text = text.replace(ch, "")
        for old, new in self.excel_replaced:
            text = text.replace(old, new)
        return text.replace("\t", "") if " " in self.dropped else text

    # --- Excel, in stages: SUBSTITUTE chains every spreadsheet computes alike ------------------
    def excel_steps(self) -> tuple[tuple[str, str], ...]:
        """The ``fold`` key's replacements in order: (text, what it becomes). Half-width voiced
        katakana pairs first (ｶﾞ → ガ), then every other character whose NFKC form differs and
        is ASCII or katakana (Ａ → A, ｶ → カ), each dropped character (every form) last."""
        return _fold_steps(self.dropped)

    def excel_stages(self) -> int:
        """How many cells a key takes: 1, or for ``fold`` as many as the nesting limit asks."""
        if self.excel_width != "fold":
            return 1
        return -(-len(self.excel_steps()) // STAGE_SUBSTITUTES)

    def _stage_steps(self, k: int) -> tuple[tuple[str, str], ...]:
        steps, n = self.excel_steps(), self.excel_stages()
        size = -(-len(steps) // n)
        return steps[k * size:(k + 1) * size]

    def excel_stage(self, k: int, ref: str) -> str:
        """Excel: stage ``k`` (from 0) of the key of ``ref``: the name's cell for the first stage,
        the stage before's cell after it. The last stage's result is the key."""
        if self.excel_width != "fold":
            return self.excel(ref)
        before, after = _stage_frame(self._stage_steps(k), k == self.excel_stages() - 1 and self.fold_case)
        return before + ref + after

    def excel_stage_values(self, value: object) -> list[str]:
        """What each stage computes for a cell holding ``value`` (the stage cells' cached results)."""
        if self.excel_width != "fold":
            return [self.excel_value(value)]
        text, out = _cell_text(value), []
        if not text:  # an empty name's cell: every stage is empty (most of a sheet's rows)
            return [""] * self.excel_stages()
        for k in range(self.excel_stages()):
            for old, new in self._stage_steps(k):
                text = text.replace(old, new)
            if k == self.excel_stages() - 1 and self.fold_case:
                text = text.upper()
            out.append(text)
        return out


def _cell_text(value: object) -> str:
    """A cell's value as a text function reads it ("" for an empty cell)."""
    if value is None:
        return ""
    return value if isinstance(value, str) else _number_text(value)


@lru_cache(maxsize=None)
def _stage_frame(steps: tuple[tuple[str, str], ...], upper: bool) -> tuple[str, str]:
    """What a stage's formula writes before and after the cell it reads (built once: a sheet
    writes the same stage for every name of a column)."""
    before = "SUBSTITUTE(" * len(steps)
    after = "".join(f",{_excel_string(old)},{_excel_string(new)})" for old, new in steps)
    return ("UPPER(" + before, after + ")") if upper else (before, after)


def _excel_string(text: str) -> str:
    """A formula's string for ``text`` (a tab as CHAR(9): a formula string cannot hold one)."""
    if text == "\t":
        return "CHAR(9)"
    return '"' + text.replace('"', '""') + '"'


@lru_cache(maxsize=None)
def _fold_steps(dropped: str) -> tuple[tuple[str, str], ...]:
    """The ``fold`` replacements (see :meth:`NameKey.excel_steps`)."""
    voiced, single = [], []
    marks = ("\uff9e", "\uff9f")
    for code in range(0xFF61, 0xFFA0):  # half-width katakana and their marks
        half = chr(code)
        for mark in marks:
            pair = unicodedata.normalize("NFKC", half + mark)
            if len(pair) == 1:
                voiced.append((half + mark, pair))
        if half not in marks:
            single.append((half, unicodedata.normalize("NFKC", half)))
    # a mark left alone: the spacing full-width mark (NFKC's combining one would join the text)
    single += [("\uff9e", "\u309b"), ("\uff9f", "\u309c")]
    for code in range(0xFF01, 0xFF5F):  # full-width ASCII
        single.append((chr(code), chr(code - 0xFEE0)))
    single.append(("\u3000", " "))
    gone = _nfkc_set(dropped) | ({"\t"} if " " in dropped else set())
    steps = [(old, "" if new in gone else new) for old, new in (*voiced, *single)]
    steps += [(ch, "") for ch in sorted(gone, key=lambda c: (c == "\t", c))
              if ch not in {old for old, _ in steps}]
    return tuple(steps)


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
