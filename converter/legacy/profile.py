"""Layout profiles: a small TOML file pinning fields of a layout the labels cannot settle.

A group whose sheets all share one homemade layout writes it down once::

    name = "club-2015"          # shown as the documents' origin
    system = "pp"
    sheets = ["PC*"]            # which sheets (shell patterns; default: every sheet)

    [cells]                     # a field read from one cell
    "/name" = "B2"
    "/attributes/body" = "C5"

    [labels]                    # more labels for a field, for this layout only
    "/combat_boost" = ["ＣＢ値"]

    [ranges]                    # a list read from a block of rows, columns in order
    "/skills" = { range = "B10:C20", columns = ["name", "level"] }

Every other field is still read by its labels. Standard library only.
"""
from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.errors import InputError
from ..io.files import load_toml
from ..io.xlsx_package import column_index

_A1 = re.compile(r"\$?([A-Za-z]{1,3})\$?(\d{1,7})")
SYSTEMS = ("up", "pp", "mailgear")


@dataclass(frozen=True)
class Profile:
    name: str
    system: str
    sheets: tuple[str, ...] = ()
    cells: dict[str, tuple[int, int]] = field(default_factory=dict)  # pointer → (row, col), zero-based
    labels: dict[str, tuple[str, ...]] = field(default_factory=dict)
    ranges: dict[str, tuple[tuple[int, int, int, int], tuple[str, ...]]] = field(default_factory=dict)

    def takes(self, sheet: str) -> bool:
        """Whether the profile reads the sheet named ``sheet``."""
        return not self.sheets or any(fnmatch.fnmatchcase(sheet, p) for p in self.sheets)


def load_profile(path: str | Path) -> Profile:
    """The profile at ``path``; InputError (PROFILE_INVALID, the file and the key named) when it
    cannot be read or says something this version does not understand."""
    p = Path(path)
    raw = load_toml(p, lambda key, why: _invalid(p, key, why))  # capped, a regular file only
    unknown = set(raw) - {"name", "system", "sheets", "cells", "labels", "ranges"}
    if unknown:
        raise _invalid(p, sorted(unknown)[0], "unknown key")
    system = raw.get("system")
    if system not in SYSTEMS:
        raise _invalid(p, "system", f"one of {', '.join(SYSTEMS)}")
    sheets = raw.get("sheets", [])
    if not isinstance(sheets, list) or not all(isinstance(s, str) for s in sheets):
        raise _invalid(p, "sheets", "a list of sheet name patterns")
    cells = {_pointer(p, "cells", pointer): _cell(p, f"cells.{pointer}", ref)
             for pointer, ref in _table(p, raw, "cells").items()}
    labels = {}
    for pointer, names in _table(p, raw, "labels").items():
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise _invalid(p, f"labels.{pointer}", "a list of labels")
        labels[_pointer(p, "labels", pointer)] = tuple(names)
    ranges = {}
    for pointer, spec in _table(p, raw, "ranges").items():
        key = f"ranges.{pointer}"
        if not isinstance(spec, dict) or not isinstance(spec.get("range"), str) or ":" not in spec["range"]:
            raise _invalid(p, key, 'a table like { range = "B10:C20", columns = ["name", "level"] }')
        columns = spec.get("columns")
        if not isinstance(columns, list) or not columns or not all(isinstance(c, str) for c in columns):
            raise _invalid(p, key + ".columns", "a list of column keys")
        top_left, bottom_right = spec["range"].split(":", 1)
        (r1, c1), (r2, c2) = _cell(p, key, top_left), _cell(p, key, bottom_right)
        ranges[_pointer(p, "ranges", pointer)] = ((min(r1, r2), min(c1, c2), max(r1, r2), max(c1, c2)),
                                                  tuple(columns))
    return _validated(p, Profile(str(raw.get("name") or p.stem), system, tuple(sheets), cells, labels, ranges))


def _validated(p: Path, profile: Profile) -> Profile:
    """``profile`` when every pointer is one its system reads (a typo such as ``/stats/bogus``,
    labels for a field read by no label, a range column no table has are PROFILE_INVALID at
    load, never a schema error on each document later)."""
    from .labels import system_labels

    spec = system_labels(profile.system)
    fields = {f.target for f in spec.fields}
    tables = {t.pointer: {c.target for c in t.columns} for t in spec.tables}
    for pointer in profile.cells:
        if pointer not in fields:
            raise _invalid(p, f"cells.{pointer}", f"a field {profile.system} reads from a cell ({_some(fields)})")
    for pointer in profile.labels:
        if pointer not in fields:
            raise _invalid(p, f"labels.{pointer}", f"a field {profile.system} reads by its label ({_some(fields)})")
    for pointer, (_, columns) in profile.ranges.items():
        if pointer not in tables:
            raise _invalid(p, f"ranges.{pointer}", f"a list {profile.system} reads ({_some(set(tables))})")
        for column in columns:
            if column not in tables[pointer]:
                raise _invalid(p, f"ranges.{pointer}.columns", f"columns of {pointer} ({_some(tables[pointer])})")
    return profile


def _some(names: set[str], most: int = 6) -> str:
    ordered = sorted(names)
    return ", ".join(ordered[:most]) + (", …" if len(ordered) > most else "")


def _table(p: Path, raw: dict[str, Any], key: str) -> dict[str, Any]:
    value = raw.get(key, {})
    if not isinstance(value, dict):
        raise _invalid(p, key, "a table")
    return value


def _pointer(p: Path, section: str, pointer: str) -> str:
    if not pointer.startswith("/") or pointer == "/":
        raise _invalid(p, f"{section}.{pointer}", 'a JSON pointer such as "/name"')
    return pointer


def _cell(p: Path, key: str, ref: Any) -> tuple[int, int]:
    match = _A1.fullmatch(ref.strip()) if isinstance(ref, str) else None
    if match is None:
        raise _invalid(p, key, 'a cell such as "B2"')
    return int(match.group(2)) - 1, column_index(match.group(1).upper())


def _invalid(p: Path, key: str, expected: str) -> InputError:
    return InputError(f"{p}: profile key {key!r}: {expected}", "PROFILE_INVALID", file=str(p), key=key or "-",
                      expected=expected)
