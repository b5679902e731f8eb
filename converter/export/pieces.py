"""Building a :class:`~converter.export.model.Piece` from a checked document: the system's data
(``systems.toml``) says which derived values go where; the system's own module adds what is
listed per item (weapons, skills). Every number is read from the Evaluation (or, for a value the
document holds and the engine checks, from the document); nothing is computed here.
"""
from __future__ import annotations

import tomllib
from functools import lru_cache
from importlib import resources
from typing import Any, Callable, Mapping

from ..core.evaluation import Derived, Evaluation
from ..core.pointers import get
from ..rules.tables_file import load_tables
from .model import Line, Param, Piece, Status, Variable, roll_addend, roll_expression, signed

@lru_cache(maxsize=None)
def system_data(system: str) -> dict[str, Any]:
    """The export data of ``system`` (a section of ``systems.toml``)."""
    text = resources.files(__package__).joinpath("systems.toml").read_text("utf-8")
    return tomllib.loads(text)[system]


class Reading:
    """One checked document as the exporter reads it: its derived values and the document."""

    def __init__(self, system: str, document: Mapping[str, Any], evaluation: Evaluation) -> None:
        self.system = system
        self.document = document
        self.evaluation = evaluation

    def derived(self, pointer: str) -> Derived | None:
        return self.evaluation.derived.get(pointer)

    def document_value(self, pointer: str) -> Any:
        return get(self.document, pointer)

    def raw(self, ref: Mapping[str, Any]) -> Any:
        """What ``ref`` names (derived, document, table or a set value); None when absent."""
        if "derived" in ref:
            d = self.derived(ref["derived"])
            return None if d is None else d
        if "document" in ref:
            return self.document_value(ref["document"])
        if "value" in ref:
            return ref["value"]
        if "table" in ref:
            rows = load_tables(self.system)[ref["table"]]
            return next((r[ref["field"]] for r in rows if r.get("id") == ref["id"]), None)
        raise ValueError(f"systems.toml: a value needs derived, document, value or table: {ref}")

    def text(self, ref: Mapping[str, Any]) -> str | None:
        """``ref``'s value written in its ``form`` (value, signed, addend, expression, fixed,
        highest)."""
        got = self.raw(ref)
        if got is None:
            return None
        form = ref.get("form", "value")
        if isinstance(got, Derived):
            if form == "addend" and got.roll is not None:
                return roll_addend(got.roll)
            if form == "expression" and got.roll is not None:
                return roll_expression(got.roll)
            if form == "fixed" and got.roll is not None:
                return str(got.roll.fixed)
            if form == "highest" and got.roll is not None:  # every die at its top face
                return str(got.roll.dice * got.roll.sides + got.roll.fixed)
            got = got.value
        if form == "signed" and isinstance(got, int):
            return signed(got)
        return str(got)

    def number(self, ref: Mapping[str, Any] | int) -> int | None:
        if isinstance(ref, int):
            return ref
        text = self.text(ref)
        try:
            return None if text is None else int(text)
        except ValueError:
            return None

    def label(self, ref: Mapping[str, Any]) -> str:
        """``ref``'s own label, else the engine's label of its derived value."""
        if "label" in ref:
            return ref["label"]
        d = self.derived(ref.get("derived", ""))
        return d.label if d is not None else ref.get("derived", "")


def build_piece(reading: Reading, source: str, name_fallback: str,
                per_item: Callable[[Reading, Piece, Mapping[str, Any]], None] | None = None) -> Piece:
    """The piece of one document: the data's entries, then the system's per-item lines."""
    data = system_data(reading.system)
    name = next((str(v) for p in data["name"] if (v := reading.document_value(p))), name_fallback)
    piece = Piece(reading.system, name, source, dicebot=data["dicebot"])
    piece.initiative = next((n for ref in data["initiative"] if (n := reading.number(ref)) is not None), 0)
    memo = [f"{m['label']}: {v}" for m in data["memo"] if (v := reading.text(m)) not in (None, "")]
    notes = reading.document_value("/notes")
    piece.memo = "\n".join(memo + ([str(notes)] if notes else []))
    entries = list(data["status"])
    if reading.document_value("/machine") is not None:
        entries += data.get("machine_status", [])
    for s in entries:
        value = reading.number(s)
        if value is None:
            continue
        top = reading.number(s["max"]) if "max" in s else value
        if top is None or ("max" in s and top <= 0):  # its own maximum unknown: no resource
            continue
        piece.status.append(Status(s["label"], value, top, s.get("derived", s.get("document", ""))))
    for p in data["params"]:
        text = reading.text(p)
        if text is not None:
            piece.params.append(Param(reading.label(p), text, p.get("derived", p.get("document", ""))))
    for prefix in data.get("params_under", []):
        for d in reading.evaluation.derived_under(prefix):
            piece.params.append(Param(d.label, str(d.value), d.pointer))
    for v in data["variables"]:
        text = reading.text(v)
        if text is not None:
            piece.variables.append(Variable(v["name"], text, v.get("derived", "")))
    lines = [Line(ln.get("command", ""), ln["label"], ln.get("derived", "")) for ln in data["lines"]
             if "derived" not in ln or reading.derived(ln["derived"]) is not None]
    piece.lines += [ln for ln in lines if not ln.is_note]
    if per_item is not None:
        per_item(reading, piece, data)
    piece.lines += [ln for ln in lines if ln.is_note]  # notes last, under every roll
    return piece
