"""What a filled workbook keeps beyond its cells, for every system: the differences between a
document and what its sheet reads back, stored in the data sheet and applied on reading.

A sheet cannot show everything a document may hold: a key no cell maps, a row that is no
object, a skill written as both id and name, bands out of table order, a derived value the
sheet computes instead. When a document is written, the writer reads the finished workbook back
with the normal reader and hands both to :func:`differences` (the document as the system states
it on purpose: ``SystemSheet.normal``). Each difference is an entry with ``at`` (a pointer),
``was`` (the document's value) and ``reads`` (what the sheet reads there), absent where there is
none:

``set``
    a value the sheet reads differently, not at all, or where the document has none;
``insert`` / ``remove``
    a list item the sheet does not read, put back at its index / one it reads that the
    document lacks (lists of different lengths are first paired item by item);
``computed``
    a written value equal to what a computed cell shows (``SystemSheet.computed_cell``:
    mailgear's derived values): read back as the cell then computes it.

On reading, :func:`restore` applies an entry only where the sheet still reads what it read when
the workbook was written (``with`` lists further places that must read the same: the others a
cell feeds, as a skill cell gives both ``id`` and ``name``, or the item an insert replaced), so a
value a user edited in its cell wins; kept content that no longer fits goes under
``extra._kept``, never dropped. Pointers are those of the document as read (list items at their
index there); an insert's index is the written document's. A system declares what it shows; how
content is kept is this module's alone, and so is where it is stored (:func:`write`,
:func:`stored`: one JSON text down the data sheet's column B, named ``<system>.extra``, in as
many cells as it takes).
"""
from __future__ import annotations

import copy
import json
import re
from typing import TYPE_CHECKING, Any, Mapping

from ..core.pointers import get, parent, parse, pointer, walk

if TYPE_CHECKING:
    from .cells import CellReader, NamedCells
    from .system_sheet import SystemSheet


class _Absent:
    """No value at a place (distinct from a JSON null)."""

    def __repr__(self) -> str:
        return "ABSENT"


ABSENT: Any = _Absent()
KEPT = "_kept"  # extra's key for kept values that no longer fit
CELL_CHARACTERS = 32_767  # what one Excel cell holds (UTF-16 code units)


# --- storage (the one place that knows where kept content lives) ---------------------------------

def write(wb, ws, data_sheet: str, system: str, text: str) -> None:
    """The kept content (``text``; '' for none) down the data sheet's column B from its second
    row, as many cells as it takes (a cell holds 32,767 characters), named ``<system>.extra``."""
    chunks = split_for_cells(text) or [""]
    ws.write_string(1, 0, "extra")
    for k, chunk in enumerate(chunks):
        ws.write_string(1 + k, 1, chunk)
    wb.define_name(f"{system}.extra", f"='{data_sheet}'!$B$2:$B${1 + len(chunks)}")


def split_for_cells(text: str) -> list[str]:
    """``text`` in pieces no Excel cell would cut (CELL_CHARACTERS UTF-16 units each, a
    character outside the BMP never split)."""
    out: list[str] = []
    start, units = 0, 0
    for i, ch in enumerate(text):
        width = 2 if ord(ch) > 0xFFFF else 1
        if units + width > CELL_CHARACTERS:
            out.append(text[start:i])
            start, units = i, 0
        units += width
    if start < len(text):
        out.append(text[start:])
    return out


def stored(named: "NamedCells", system: str) -> Any:
    """The kept content a workbook holds, parsed: a list of entries, a legacy object (a workbook
    written before entries), or ``{"_unparsed": text}``; None when there is none."""
    name = f"{system}.extra"
    text = "".join("" if v is None else str(v)
                   for v in (named.raw(name, i) for i in range(named.length(name))))
    if text == "":
        return None
    try:
        return json.loads(text)
    except (TypeError, ValueError):
        return {"_unparsed": text}


def encode(entries: list[dict[str, Any]]) -> str:
    """The entries as the data sheet stores them ('' for none). A lone surrogate (from JSON's
    "\\ud800") is written as its escape, which XML cannot carry raw but JSON reads back the same."""
    if not entries:
        return ""
    text = json.dumps(entries, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


_SURROGATE = re.compile("[\ud800-\udfff]")


# --- writing: what differs ------------------------------------------------------------------------

def differences(sheet: "SystemSheet", doc: Mapping[str, Any], read: Mapping[str, Any],
                rd: "CellReader") -> list[dict[str, Any]]:
    """The entries that turn ``read`` (what the written workbook reads back as, ``rd`` its
    reader) into ``doc`` (the document as the sheet should state it: ``sheet.normal``)."""
    target = copy.deepcopy(dict(doc))
    out: list[dict[str, Any]] = []
    # Written values equal to what their computed cell shows: read from the cell.
    for ptr in [p for p, v in walk(target) if p and not isinstance(v, (dict, list))]:
        where = sheet.computed_cell(ptr)
        if where is None:
            continue
        holder = get(target, parent(ptr))
        key = parse(ptr)[-1]
        if isinstance(holder, dict) and _same(computed_value(rd, where), holder[key]):
            del holder[key]
            out.append({"op": "computed", "at": ptr})
    _Differ(read, rd.cells, out).diff(target, read, "", None, False)
    return out


def computed_value(rd: "CellReader", where: tuple[str, int | None]) -> Any:
    """What a computed cell shows, as a document value (whole numbers as int, blank as absent)."""
    value = rd.raw(*where)
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return ABSENT if value is None or value == "" else value


class _Differ:
    """Walks a document and its reading side by side, appending entries."""

    def __init__(self, read: Mapping[str, Any], cells: Mapping[str, str], out: list[dict[str, Any]]) -> None:
        self.read = read
        self.cells = cells
        self.by_cell: dict[str, list[str]] = {}
        for ptr, cell in cells.items():
            self.by_cell.setdefault(cell, []).append(ptr)
        self.out = out

    def diff(self, was: Any, reads: Any, at: str, item: str | None, is_item: bool) -> None:
        """``item``: the innermost list item strictly above ``at`` (None outside lists)."""
        if _same(was, reads):
            return
        inner = at if is_item else item
        if isinstance(was, dict) and isinstance(reads, dict):
            self.diff_objects(was, reads, at, inner)
        elif isinstance(was, list) and isinstance(reads, list):
            self.diff_lists(was, reads, at, item, inner)
        else:
            self.set(at, item, was, reads)

    def diff_objects(self, was: dict[str, Any], reads: dict[str, Any], at: str, inner: str | None) -> None:
        """Key by key; a key only one side has is set (or absent) there."""
        for key, value in was.items():
            here = at + pointer(key)
            if key in reads:
                self.diff(value, reads[key], here, inner, False)
            elif isinstance(value, list) and value:
                self.diff(value, [], here, inner, False)  # items of a list the sheet lacks
            else:
                self.set(here, inner, value, ABSENT)
        for key, value in reads.items():
            if key not in was:
                self.set(at + pointer(key), inner, ABSENT, value)

    def diff_lists(self, was: list[Any], reads: list[Any], at: str, item: str | None,
                   inner: str | None) -> None:
        """Paired items compared; an item read but not written is removed, one written but not
        read is inserted."""
        pairs = _align(was, reads)
        for i, j in pairs:
            self.diff(was[i], reads[j], f"{at}/{j}", inner, True)
        matched = {j for _, j in pairs}
        removed = [[f"{at}/{j}", value] for j, value in enumerate(reads) if j not in matched]
        self.out += [{"op": "remove", "at": ptr, "reads": value} for ptr, value in removed]
        placed = {i for i, _ in pairs}
        for i, value in enumerate(was):
            if i in placed:
                continue
            # An item the sheet shows elsewhere in the list (moved, or a duplicate) yields to
            # any edit of the list; one it does not show only to an edit of what replaced it.
            shown = any(_same(value, r) for r in reads)
            places = ((self.witness(at, item) or []) if shown else []) + removed
            entry = {"op": "insert", "at": f"{at}/{i}", "was": value}
            if places:
                entry["with"] = places
            self.out.append(entry)

    def set(self, at: str, item: str | None, was: Any, reads: Any) -> None:
        entry: dict[str, Any] = {"op": "set", "at": at}
        if was is not ABSENT:
            entry["was"] = was
        if reads is not ABSENT:
            entry["reads"] = reads
        witness = self.witness(at, item)
        others = [w for w in witness or [] if w[0] != at]
        if others:
            entry["with"] = others
        self.out.append(entry)

    def witness(self, at: str, item: str | None) -> list[list[Any]] | None:
        """The places the cell showing ``at`` feeds (``at`` included), each with what it reads:
        the cell of ``at`` or of its nearest parent inside the same list item. None when no
        cell shows it (a key the sheet does not know)."""
        floor = len(parse(item)) if item is not None else 0
        cell, ptr = None, at
        while ptr and len(parse(ptr)) > floor:
            cell = self.cells.get(ptr)
            if cell:
                break
            ptr = parent(ptr)
        if not cell:
            return None
        places = sorted({at} | {p for p in self.by_cell[cell]
                                if len(parse(p)) > floor and (item is None or p.startswith(item + "/"))})
        return [_place_value(p, get(self.read, p, ABSENT)) for p in places]


def _place_value(ptr: str, value: Any) -> list[Any]:
    return [ptr] if value is ABSENT else [ptr, value]


def _align(was: list[Any], reads: list[Any]) -> list[tuple[int, int]]:
    """Pairs (i, j): ``was[i]`` is what ``reads[j]`` was written from. Lists of one length pair
    by index (a table's rows stay in their rows); otherwise the order-keeping pairing that
    matches the most alike items (a blank row or an unshown item leaves a gap)."""
    n, m = len(was), len(reads)
    if n == m:
        return [(i, i) for i in range(n)]
    like = [[_likeness(a, b) for b in reads] for a in was]
    best = [[0.0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            score = max(best[i + 1][j], best[i][j + 1])
            if like[i][j] > 0:
                score = max(score, like[i][j] + best[i + 1][j + 1])
            best[i][j] = score
    pairs, i, j = [], 0, 0
    while i < n and j < m:
        if like[i][j] > 0 and best[i][j] == like[i][j] + best[i + 1][j + 1]:
            pairs.append((i, j))
            i, j = i + 1, j + 1
        elif best[i][j] == best[i + 1][j]:
            i += 1
        else:
            j += 1
    return pairs


def _likeness(a: Any, b: Any) -> float:
    """1 for the same value; for two objects, under one half by the share of equal keys."""
    if _same(a, b):
        return 1.0
    if isinstance(a, dict) and isinstance(b, dict) and (a or b):
        keys = a.keys() | b.keys()
        return 0.5 * sum(1 for k in a if k in b and _same(a[k], b[k])) / len(keys)
    return 0.0


def _same(a: Any, b: Any) -> bool:
    """Equal as JSON values, types included (1, 1.0 and True differ)."""
    if a is ABSENT or b is ABSENT:
        return a is b
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float) and a != a:
        return b != b
    return a == b


# --- reading: applying what was kept ------------------------------------------------------------

def restore(sheet: "SystemSheet", doc: dict[str, Any], rd: "CellReader") -> None:
    """Apply the workbook's kept content to ``doc`` (what its cells read); what no longer fits
    goes under ``extra._kept``."""
    kept = stored(rd.named, sheet.system)
    if kept is None:
        return
    if not isinstance(kept, list):
        _legacy(doc, kept)
        return
    entries = [e for e in kept if _well_formed(e)]
    holding = [(e, _holds(e, doc)) for e in entries]  # against the cells' reading, before any change
    left = [e for e in kept if not _well_formed(e)]
    left += _restore_sets(doc, holding) + _restore_lists(doc, holding)
    _restore_computed(sheet, doc, rd, entries)
    if left:
        _extra(doc).setdefault(KEPT, []).extend(left)


_Holding = list[tuple[dict[str, Any], bool]]  # each entry, and whether the sheet still reads as written


def _restore_sets(doc: dict[str, Any], holding: _Holding) -> list[dict[str, Any]]:
    """Apply each set entry that holds; the written value of one that does not is left over."""
    return [{"at": e["at"], "was": e["was"]} for e, ok in holding
            if e["op"] == "set" and not (ok and _apply_set(doc, e)) and "was" in e]


def _restore_lists(doc: dict[str, Any], holding: _Holding) -> list[dict[str, Any]]:
    """Apply the insert and remove entries list by list, inner lists first (so that the outer
    lists' indices still hold); the items of inserts that do not hold are left over."""
    lists: dict[str, _Holding] = {}
    for e, ok in holding:
        if e["op"] in ("insert", "remove"):
            lists.setdefault(parent(e["at"]), []).append((e, ok))
    left: list[dict[str, Any]] = []
    for at in sorted(lists, key=lambda p: -len(parse(p))):
        left += _restore_list(doc, at, lists[at])
    return left


def _restore_list(doc: dict[str, Any], at: str, ops: _Holding) -> list[dict[str, Any]]:
    """One list's removes (last index first), then its inserts (first index first)."""
    if get(doc, at, ABSENT) is ABSENT and any(ok for e, ok in ops if e["op"] == "insert"):
        _put(doc, at, [])  # a list the sheet reads nothing of
    items = get(doc, at)
    for e, ok in sorted((x for x in ops if x[0]["op"] == "remove"), key=lambda x: -_index(x[0])):
        if ok and isinstance(items, list) and _index(e) < len(items):
            del items[_index(e)]
    left = []
    for e, ok in sorted((x for x in ops if x[0]["op"] == "insert"), key=lambda x: _index(x[0])):
        if ok and isinstance(items, list) and _index(e) <= len(items):
            items.insert(_index(e), e["was"])
        else:
            left.append({"at": e["at"], "was": e["was"]})
    return left


def _restore_computed(sheet: "SystemSheet", doc: dict[str, Any], rd: "CellReader",
                      entries: list[dict[str, Any]]) -> None:
    """Each computed entry's value as its cell now shows it (nothing where the cell is blank)."""
    for e in entries:
        if e["op"] == "computed":
            where = sheet.computed_cell(e["at"])
            value = computed_value(rd, where) if where is not None else ABSENT
            if value is not ABSENT:
                _put(doc, e["at"], value)


def _well_formed(e: Any) -> bool:
    if not isinstance(e, dict) or not isinstance(e.get("at"), str) or not e["at"].startswith("/"):
        return False
    op = e.get("op")
    if op in ("insert", "remove"):
        return parse(e["at"])[-1].isdigit() and ("was" in e if op == "insert" else "reads" in e)
    return op in ("set", "computed")


def _index(e: Mapping[str, Any]) -> int:
    return int(parse(e["at"])[-1])


def _holds(e: Mapping[str, Any], doc: Mapping[str, Any]) -> bool:
    """Whether the sheet still reads what it read when the workbook was written."""
    places = list(e.get("with") or [])
    if e["op"] in ("set", "remove"):
        places.append([e["at"], e["reads"]] if "reads" in e else [e["at"]])
    for place in places:
        if not isinstance(place, list) or not place or not isinstance(place[0], str):
            return False
        if not _same(get(doc, place[0], ABSENT), place[1] if len(place) > 1 else ABSENT):
            return False
    return True


def _apply_set(doc: dict[str, Any], e: Mapping[str, Any]) -> bool:
    if "was" in e:
        return _put(doc, e["at"], copy.deepcopy(e["was"]))
    holder = get(doc, parent(e["at"]))
    key = parse(e["at"])[-1]
    if isinstance(holder, dict) and key in holder:
        del holder[key]
    return True


def _put(doc: dict[str, Any], ptr: str, value: Any) -> bool:
    """``value`` at ``ptr``, creating objects where the way is missing (never lists: a list
    index must exist); False, ``doc`` unchanged below the missing part, where there is no way."""
    parts = parse(ptr)
    node: Any = doc
    for part in parts[:-1]:
        if isinstance(node, dict):
            if not isinstance(node.get(part), (dict, list)):
                if part in node:
                    return False  # a value the sheet reads is in the way
                node[part] = {}
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return False
    last = parts[-1]
    if isinstance(node, dict):
        node[last] = value
        return True
    if isinstance(node, list) and last.isdigit() and int(last) < len(node):
        node[int(last)] = value
        return True
    return False


def _extra(doc: dict[str, Any]) -> dict[str, Any]:
    """The document's ``extra`` object (made one if it is something else, which it keeps)."""
    extra = doc.get("extra")
    if not isinstance(extra, dict):
        extra = doc["extra"] = {} if "extra" not in doc else {"_extra": extra}
    return extra


def _legacy(doc: dict[str, Any], kept: Any) -> None:
    """Kept content in an older form (one object): its ``_unmapped`` top-level keys where the
    cells gave none, the rest under ``extra`` as it was."""
    if not isinstance(kept, dict):
        _extra(doc)["_unparsed"] = kept
        return
    kept = dict(kept)
    unmapped = kept.pop("_unmapped", {})
    if kept:
        _extra(doc).update(kept)
    if isinstance(unmapped, dict):
        for key, value in unmapped.items():
            doc.setdefault(key, value)
