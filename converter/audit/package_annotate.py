"""Annotated copies made by editing the workbook's package: the same fills, notes and 監査 sheet
as the openpyxl copy (``marks.py``'s texts and rows), at about a millisecond a workbook, and
every part the annotation does not change kept byte for byte (images, charts, shapes, VBA,
formulas' saved results, validations, conditional formats, names, protection...).

What changes (ECMA-376 Part 1, SpreadsheetML, transitional):
- ``xl/styles.xml``: one ``<fill>`` per severity; per (cell style, severity) a copy of the cell's
  ``<xf>`` with that fill; fonts and formats of the 監査 sheet;
- each annotated worksheet: its cells' ``s`` (a cell or row not there is inserted in order), a
  comments part and its VML drawing (the legacy shapes Excel shows notes with), their
  relationships and ``<legacyDrawing>`` at its place in CT_Worksheet;
- a new worksheet part, first in ``<sheets>``; ``localSheetId`` and ``activeTab`` moved by one
  so names and the player's active sheet stay where they were; ``[Content_Types].xml``;
- ``xl/calcChain.xml`` is dropped (a cache of calculation order that Excel rebuilds; its cells
  name sheets by position, which the new first sheet moves).
``docProps/app.xml`` (sheet titles for file browsers, rewritten by Excel on every save, read by
no spreadsheet when opening) is left as it was.

A package this cannot edit safely (strict OOXML, a prefixed main namespace, a sheet to annotate
that already has notes or a legacy drawing, rows or cells without references, no styles...)
raises :class:`EditRefused`; ``annotate`` then makes the openpyxl copy.
"""
from __future__ import annotations

import re
import xml.parsers.expat
from math import ceil
from pathlib import Path
from typing import Sequence

from ..core.findings import Finding, Severity
from ..io.xlsx_package import column_index, column_letters, open_package
from .marks import (AUDIT_WIDTHS, FILLS, NOTE_WIDTH, AuditLine, Place, audit_lines, audit_title,
                    link_location, note_height, note_text, placements, worst)
from .package_edit import REL_NS, EditRefused, PackageEdit, attributes, escape, with_attribute

MAIN_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
STRICT_NS = "http://purl.oclc.org/ooxml/spreadsheetml/main"
WORKBOOK = "xl/workbook.xml"
WORKSHEET_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"
COMMENTS_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.comments+xml"
VML_TYPE = "application/vnd.openxmlformats-officedocument.vmlDrawing"
#: CT_Worksheet's children that come after <legacyDrawing> (ECMA-376 Part 1, 18.3.1.99)
AFTER_LEGACY_DRAWING = ("legacyDrawingHF", "drawingHF", "picture", "oleObjects", "controls",
                        "webPublishItems", "tableParts", "extLst")
LINK_COLOUR = "FF0563C1"  # Office's hyperlink blue
XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'

_ROW = re.compile(r"<row\b[^>]*?(/?)>")
_CELL = re.compile(r"<c\b[^>]*?(/?)>")
_R_ROW = re.compile(r'\sr="(\d+)"')
_R_CELL = re.compile(r'\sr="([A-Za-z]{1,3})(\d+)"')
_STYLE = re.compile(r'\ss="(\d+)"')


def annotated_package(src: Path, findings: Sequence[Finding], lang: str) -> bytes:
    """The annotated copy of the .xlsx/.xlsm at ``src`` as bytes; EditRefused if it cannot be
    made by editing the package (the caller falls back to openpyxl)."""
    package = open_package(src, contents=False)
    try:
        edit = PackageEdit(package)
        book = _Workbook(edit)
        styles = _Styles(edit, book.part_of("styles"))
        by_cell, marked = placements(findings, book.sheets)
        vml_block = _free_vml_block(edit)
        for sheet in dict.fromkeys(s for s, _, _ in by_cell):
            here = {(r, c): found for (s, r, c), found in by_cell.items() if s == sheet}
            vml_block = _annotate_sheet(edit, book.sheets[sheet], here, styles, lang, vml_block)
        title = audit_title(book.sheets, lang)
        lines = audit_lines(src.name, findings, marked, lang, legacy=False)
        part = edit.free_name("xl/worksheets/sheet{}.xml")
        edit.add(part, _audit_sheet_xml(lines, styles), WORKSHEET_TYPE)
        book.insert_first(title, part)
        styles.save()
        edit.check_well_formed()
        return edit.to_bytes()
    finally:
        package.close()


def _root(text: str, local: str, part: str) -> re.Match[str]:
    """The root start tag of ``part``: ``local`` in SpreadsheetML's transitional namespace as
    the default one (strict OOXML, or a prefixed main namespace, is refused)."""
    m = re.search(r"<([\w:.-]+)(\s[^>]*)?>", re.sub(r"<\?.*?\?>|<!--.*?-->", lambda x: " " * len(x.group()),
                                                   text[:4096], flags=re.S))
    if m is None or m.group(1) != local:
        raise EditRefused(f"{part}: its root is not <{local}> in the default namespace")
    ns = attributes(m.group(2) or "").get("xmlns")
    if ns == STRICT_NS:
        raise EditRefused(f"{part}: strict OOXML")
    if ns != MAIN_NS:
        raise EditRefused(f"{part}: not SpreadsheetML's transitional namespace ({ns})")
    return m


def _found(pattern: str, text: str, flags: int = 0) -> re.Match[str]:
    """``re.search`` for an element this module read or wrote there before (EditRefused if not)."""
    m = re.search(pattern, text, flags)
    if m is None:
        raise EditRefused(f"{pattern}: not found")
    return m


def _prefix(root_tag: str, namespace: str) -> str | None:
    return next((name[6:] for name, value in attributes(root_tag).items()
                 if name.startswith("xmlns:") and value == namespace), None)


def _rel_id(root_tag: str, rid: str) -> str:
    """``r:id="rId3"`` with the part's own prefix for relationships, or one declared here."""
    prefix = _prefix(root_tag, REL_NS)
    return f'{prefix}:id="{rid}"' if prefix else f'xmlns:r="{REL_NS}" r:id="{rid}"'


class _Workbook:
    """xl/workbook.xml: its sheets (name → part, in order) and the new first sheet."""

    def __init__(self, edit: PackageEdit) -> None:
        self.edit = edit
        main = [r for r in edit.relationships("") if r.type == f"{REL_NS}/officeDocument"]
        if [r.target for r in main] != [WORKBOOK]:
            raise EditRefused("the package's workbook is not xl/workbook.xml (or strict OOXML)")
        self.text = edit.text(WORKBOOK)
        self.root = _root(self.text, "workbook", WORKBOOK).group(0)
        self.rels = {r.id: r for r in edit.relationships(WORKBOOK)}
        self.sheets: dict[str, str] = {}
        prefix = _prefix(self.root, REL_NS)
        for tag in re.findall(r"<sheet\s[^>]*>", self.text):
            a = attributes(tag)
            rel = self.rels.get(a.get(f"{prefix}:id", ""))
            if rel is None or rel.external or "name" not in a:
                raise EditRefused(f"sheet {a.get('name')!r} has no part")
            self.sheets[a["name"]] = rel.target

    def part_of(self, kind: str) -> str:
        found = [r.target for r in self.rels.values() if r.type == f"{REL_NS}/{kind}"]
        if len(found) != 1:
            raise EditRefused(f"the workbook has {len(found)} {kind} parts")
        return found[0]

    def insert_first(self, title: str, part: str) -> None:
        """The sheet at ``part`` first in <sheets>; sheet-local names and the active tab moved
        along; the calculation chain dropped."""
        edit, text = self.edit, self.text
        rid = edit.add_relationship(WORKBOOK, f"{REL_NS}/worksheet", part)
        ids = [int(i) for i in re.findall(r'<sheet\s[^>]*?sheetId="(\d+)"', text)]
        element = f'<sheet name="{escape(title, True)}" sheetId="{max(ids, default=0) + 1}" {_rel_id(self.root, rid)}/>'
        opening = re.search(r"<sheets\s*>", text)
        if opening is None:
            raise EditRefused(f"{WORKBOOK}: no <sheets>")
        text = text[:opening.end()] + element + text[opening.end():]
        text = re.sub(r'(<definedName\s[^>]*?localSheetId=")(\d+)"', lambda m: f'{m.group(1)}{int(m.group(2)) + 1}"',
                      text)
        if re.search(r"<workbookView\b", text):
            text = re.sub(r"<workbookView\b[^>]*>", _view_moved, text)
        else:  # no view: the player's first sheet stays the active one
            text = re.sub(r"<bookViews\s*/>", "", text)
            at = _found(r"<sheets\s*>", text).start()
            text = text[:at] + '<bookViews><workbookView activeTab="1"/></bookViews>' + text[at:]
        edit.replace(WORKBOOK, text)
        for rel in [r for r in self.rels.values() if r.type == f"{REL_NS}/calcChain"]:
            edit.remove_relationships_to(WORKBOOK, rel.target)
            if edit.exists(rel.target):
                edit.remove(rel.target)


def _view_moved(m: re.Match[str]) -> str:
    """A workbook view with its active tab (and first tab shown) one further along."""
    tag = m.group()
    a = attributes(tag)
    tag = with_attribute(tag, "activeTab", str(int(a.get("activeTab", "0")) + 1))
    if "firstSheet" in a:
        tag = with_attribute(tag, "firstSheet", str(int(a["firstSheet"]) + 1))
    return tag


class _Styles:
    """xl/styles.xml: fills, fonts and cell formats appended, counts kept right."""

    def __init__(self, edit: PackageEdit, part: str) -> None:
        self.edit, self.part = edit, part
        self.text = edit.text(part)
        _root(self.text, "styleSheet", part)
        self.lists: dict[str, tuple[list[str], list[str]]] = {}  # kind → (items, appended)
        for kind, item in (("fills", "fill"), ("fonts", "font"), ("cellXfs", "xf")):
            m = re.search(rf"<{kind}\b[^>]*>(.*?)</{kind}>", self.text, re.S)
            if m is None:
                raise EditRefused(f"{part}: no <{kind}> list")
            items = re.findall(rf"<{item}\b[^>]*/>|<{item}\b[^>]*>.*?</{item}>", m.group(1), re.S)
            if not items:
                raise EditRefused(f"{part}: an empty <{kind}> list")
            self.lists[kind] = (items, [])
        self._fills: dict[Severity, int] = {}
        self._fonts: dict[str, int] = {}
        self._xfs: dict[tuple, int] = {}

    def _append(self, kind: str, element: str) -> int:
        items, new = self.lists[kind]
        new.append(element)
        return len(items) + len(new) - 1

    def fill(self, severity: Severity) -> int:
        if severity not in self._fills:
            colour = FILLS[severity]
            self._fills[severity] = self._append("fills", f'<fill><patternFill patternType="solid"><fgColor '
                                                          f'rgb="{colour}"/><bgColor rgb="{colour}"/></patternFill></fill>')
        return self._fills[severity]

    def marked(self, style: int, severity: Severity) -> int:
        """The cell format ``style`` with the severity's fill."""
        key = ("marked", style, severity)
        if key not in self._xfs:
            xfs = self.lists["cellXfs"][0]
            if style >= len(xfs):
                raise EditRefused(f"{self.part}: a cell uses style {style}, past the {len(xfs)} formats")
            start = _found(r"^<xf\b[^>]*?(/?)>", xfs[style])
            tag = with_attribute(with_attribute(start.group(), "fillId", str(self.fill(severity))), "applyFill", "1")
            self._xfs[key] = self._append("cellXfs", tag + xfs[style][start.end():])
        return self._xfs[key]

    def _font(self, look: str) -> int:
        """The workbook's default font, bold (``bold``), bold 14 pt (``title``) or as a link."""
        if look not in self._fonts:
            base = self.lists["fonts"][0][0]
            inner = base[base.index(">") + 1:base.rindex("</font>")] if "</font>" in base else ""
            own = {}
            for name in ("b", "u", "sz", "color"):  # set in CT_Font's usual order, before the rest
                found = re.search(rf"<{name}\b[^>]*/>|<{name}\b[^>]*>.*?</{name}>", inner, re.S)
                own[name] = found.group() if found else ""
                inner = inner.replace(own[name], "", 1) if found else inner
            own["b"] = "<b/>" if look in ("bold", "title") else own["b"]
            own["sz"] = '<sz val="14"/>' if look == "title" else own["sz"]
            if look == "link":
                own["u"], own["color"] = "<u/>", f'<color rgb="{LINK_COLOUR}"/>'
            self._fonts[look] = self._append("fonts", f"<font>{''.join(own.values())}{inner}</font>")
        return self._fonts[look]

    def audit(self, look: str, fill: Severity | None) -> int:
        """A cell format of the 監査 sheet: a font (or the default) and a fill (or none)."""
        key = ("audit", look, fill)
        if key not in self._xfs:
            font = self._font(look) if look else 0
            fill_id = self.fill(fill) if fill is not None else 0
            applied = (' applyFont="1"' if look else "") + (' applyFill="1"' if fill is not None else "")
            self._xfs[key] = self._append("cellXfs", f'<xf numFmtId="0" fontId="{font}" fillId="{fill_id}" '
                                                     f'borderId="0" xfId="0"{applied}/>')
        return self._xfs[key]

    def save(self) -> None:
        text = self.text
        for kind, (items, new) in self.lists.items():
            if not new:
                continue
            m = _found(rf"(<{kind}\b[^>]*>)(.*?)</{kind}>", text, re.S)
            opening = with_attribute(m.group(1), "count", str(len(items) + len(new)))
            text = text[:m.start()] + opening + m.group(2) + "".join(new) + f"</{kind}>" + text[m.end():]
        self.edit.replace(self.part, text)


def _free_vml_block(edit: PackageEdit) -> int:
    """The first shape-id block (``o:idmap``'s data: shapes block×1024+n) no VML drawing uses."""
    used = [0]
    for info in edit.package.zip.infolist():
        if info.filename.lower().endswith(".vml"):
            for data in re.findall(r'<o:idmap\b[^>]*?data="([^"]*)"', edit.text(info.filename)):
                used += [int(n) for n in re.findall(r"\d+", data)]
    return max(used) + 1


def _annotate_sheet(edit: PackageEdit, part: str, cells: dict[tuple[int, int], list[Finding]],
                    styles: _Styles, lang: str, vml_block: int) -> int:
    """Fill and note ``cells`` of the worksheet at ``part``; the next free VML shape block."""
    if edit.content_type(part) != WORKSHEET_TYPE:
        raise EditRefused(f"{part} is not a worksheet (a chart, dialog or macro sheet)")
    text = edit.text(part)
    root = _root(text, "worksheet", part).group(0)
    rels = edit.relationships(part)
    if re.search(r"<(?:\w+:)?legacyDrawing\b", text) or any(r.type.endswith("/comments") for r in rels):
        raise EditRefused(f"{part} has notes or a legacy drawing already (not merged)")
    opening = re.search(r"<sheetData\b[^>]*?(/?)>", text)
    if opening is None:
        raise EditRefused(f"{part}: no <sheetData>")
    if opening.group(1):  # <sheetData/>: opened, to take rows
        text = text[:opening.start()] + "<sheetData></sheetData>" + text[opening.end():]
        body_start = body_end = opening.start() + len("<sheetData>")
    else:
        body_start = opening.end()
        body_end = text.find("</sheetData>", body_start)
        if body_end < 0:
            raise EditRefused(f"{part}: <sheetData> is not closed")
    close = body_end + len("</sheetData>")
    severities = {place: worst(found) for place, found in cells.items()}
    body = _filled(text[body_start:body_end], severities, styles, _column_styles(text[:body_start]), part)
    tail = text[close:]
    text = _dimension(text[:body_start], severities) + body + "</sheetData>"
    notes = [(r, c, note_text(cells[r, c], lang)) for r, c in sorted(cells)]
    comments = edit.free_name("xl/comments{}.xml")
    vml = edit.free_name("xl/drawings/vmlDrawing{}.vml")
    edit.add(comments, _comments_xml(notes), COMMENTS_TYPE)
    edit.add(vml, _vml_xml(notes, vml_block))
    edit.ensure_type(vml, VML_TYPE)
    edit.add_relationship(part, f"{REL_NS}/comments", comments)
    rid = edit.add_relationship(part, f"{REL_NS}/vmlDrawing", vml)
    edit.replace(part, text + _with_legacy_drawing(tail, f"<legacyDrawing {_rel_id(root, rid)}/>", part))
    return vml_block + ceil((len(notes) + 1) / 1024)


def _column_styles(head: str) -> dict[int, int]:
    """Column (1-based) → its <col> style, for the columns that have one."""
    out: dict[int, int] = {}
    for tag in re.findall(r"<col\s[^>]*>", head):
        a = attributes(tag)
        if a.get("style", "0") != "0":
            for c in range(int(a.get("min", "1")), min(int(a.get("max", "1")), 16384) + 1):
                out[c] = int(a["style"])
    return out


def _filled(body: str, severities: dict[tuple[int, int], Severity], styles: _Styles,
            col_styles: dict[int, int], part: str) -> str:
    """<sheetData>'s content with each cell of ``severities`` given its fill, cells and rows that
    are not there inserted in order."""
    rows: dict[int, dict[int, Severity]] = {}
    for (r, c), severity in severities.items():
        rows.setdefault(r, {})[c] = severity
    wanted = sorted(rows)
    out, last, w, previous = [], 0, 0, 0
    for m in _ROW.finditer(body):
        found = _R_ROW.search(m.group())
        if found is None:
            raise EditRefused(f"{part}: a row without its number")
        r = int(found.group(1))
        if r <= previous:
            raise EditRefused(f"{part}: rows out of order")
        previous = r
        while w < len(wanted) and wanted[w] < r:
            out += [body[last:m.start()], _new_row(wanted[w], rows[wanted[w]], styles, col_styles)]
            last = m.start()
            w += 1
        if w < len(wanted) and wanted[w] == r:
            end = m.end() if m.group(1) else body.find("</row>", m.end())
            if end < 0:
                raise EditRefused(f"{part}: row {r} is not closed")
            out += [body[last:m.start()], _edited_row(m.group(), body[m.end():end] if not m.group(1) else "",
                                                      r, rows[r], styles, col_styles, part)]
            last = end if m.group(1) else end + len("</row>")
            w += 1
    out.append(body[last:])
    out += [_new_row(r, rows[r], styles, col_styles) for r in wanted[w:]]
    return "".join(out)


def _new_row(r: int, columns: dict[int, Severity], styles: _Styles, col_styles: dict[int, int]) -> str:
    return f'<row r="{r}">' + "".join(
        f'<c r="{column_letters(c - 1)}{r}" s="{styles.marked(col_styles.get(c, 0), columns[c])}"/>'
        for c in sorted(columns)) + "</row>"


def _edited_row(tag: str, content: str, r: int, columns: dict[int, Severity], styles: _Styles,
                col_styles: dict[int, int], part: str) -> str:
    """A row with its cells of ``columns`` filled (inserted in order where absent: then the row's
    ``spans``, a hint of its columns, is dropped)."""
    a = attributes(tag)
    row_style = int(a["s"]) if a.get("customFormat") in ("1", "true") and "s" in a else None
    wanted = sorted(columns)
    out, last, w, previous = [], 0, 0, 0
    inserted = False

    def new_cell(c: int) -> str:
        base = row_style if row_style is not None else col_styles.get(c, 0)
        return f'<c r="{column_letters(c - 1)}{r}" s="{styles.marked(base, columns[c])}"/>'

    for m in _CELL.finditer(content):
        found = _R_CELL.search(m.group())
        if found is None or int(found.group(2)) != r:
            raise EditRefused(f"{part}: a cell of row {r} without its reference")
        c = column_index(found.group(1).upper()) + 1
        if c <= previous:
            raise EditRefused(f"{part}: cells of row {r} out of order")
        previous = c
        while w < len(wanted) and wanted[w] < c:
            out += [content[last:m.start()], new_cell(wanted[w])]
            last, inserted = m.start(), True
            w += 1
        if w < len(wanted) and wanted[w] == c:
            style = _STYLE.search(m.group())
            marked = styles.marked(int(style.group(1)) if style else 0, columns[c])
            out += [content[last:m.start()], with_attribute(m.group(), "s", str(marked))]
            last = m.end()
            w += 1
    out.append(content[last:])
    if w < len(wanted):
        out += [new_cell(c) for c in wanted[w:]]
        inserted = True
    opening = tag[:-2] + ">" if tag.endswith("/>") else tag
    if inserted:
        opening = with_attribute(opening, "spans", None)
    return opening + "".join(out) + "</row>"


def _dimension(head: str, severities: dict[tuple[int, int], Severity]) -> str:
    """The sheet's head with <dimension> grown to hold the marked cells."""
    m = re.search(r'(<dimension\s[^>]*?ref=")([A-Za-z]{1,3})(\d+)(?::([A-Za-z]{1,3})(\d+))?"', head)
    if m is None:
        return head
    c1, r1 = column_index(m.group(2).upper()) + 1, int(m.group(3))
    c2, r2 = (column_index(m.group(4).upper()) + 1, int(m.group(5))) if m.group(4) else (c1, r1)
    rows = [r for r, _ in severities] + [r1, r2]
    cols = [c for _, c in severities] + [c1, c2]
    ref = f"{column_letters(min(cols) - 1)}{min(rows)}:{column_letters(max(cols) - 1)}{max(rows)}"
    return head[:m.start()] + f'{m.group(1)}{ref}"' + head[m.end():]


def _with_legacy_drawing(tail: str, element: str, part: str) -> str:
    """The worksheet after </sheetData> with ``element`` before the first child CT_Worksheet
    orders after <legacyDrawing> (an mc:AlternateContent counts as what it holds)."""
    data = tail.encode("utf-8")
    prefix = b"<x>"
    children: list[tuple[str, int]] = []
    state = {"depth": 0}
    parser = xml.parsers.expat.ParserCreate()

    def start(name: str, _attrs: dict) -> None:
        state["depth"] += 1
        local = name.rsplit(":", 1)[-1]
        if state["depth"] == 2:
            children.append((local, parser.CurrentByteIndex - len(prefix)))
        elif state["depth"] == 4 and children and children[-1][0] == "AlternateContent":
            children[-1] = (local, children[-1][1])  # the first thing mc:Choice holds

    def end(_name: str) -> None:
        state["depth"] -= 1

    parser.StartElementHandler, parser.EndElementHandler = start, end
    close = data.rfind(b"</")
    try:
        parser.Parse(prefix + data[:close] + b"</x>", True)
    except xml.parsers.expat.ExpatError as exc:
        raise EditRefused(f"{part}: the worksheet's end does not parse ({exc})") from exc
    at = next((offset for local, offset in children if local in AFTER_LEGACY_DRAWING), close)
    return (data[:at] + element.encode("utf-8") + data[at:]).decode("utf-8")


def _comments_xml(notes: list[tuple[int, int, str]]) -> str:
    items = "".join(f'<comment ref="{column_letters(c - 1)}{r}" authorId="0"><text><t xml:space="preserve">'
                    f"{escape(text)}</t></text></comment>" for r, c, text in notes)
    return (f'{XML_HEAD}<comments xmlns="{MAIN_NS}"><authors><author>mechasheet</author></authors>'
            f"<commentList>{items}</commentList></comments>")


def _vml_xml(notes: list[tuple[int, int, str]], block: int) -> str:
    """The notes' legacy shapes (hidden until the cell is pointed at), as Excel writes them."""
    blocks = ",".join(str(block + i) for i in range(ceil((len(notes) + 1) / 1024)))
    shapes = []
    for n, (r, c, text) in enumerate(notes, 1):
        height = note_height(text)
        anchor = f"{c}, 15, {max(r - 2, 0)}, 10, {c + 5}, 15, {max(r - 2, 0) + height // 20 + 1}, 4"
        shapes.append(
            f'<v:shape id="_x0000_s{block * 1024 + n}" type="#_x0000_t202" style="position:absolute;'
            f"margin-left:59.25pt;margin-top:1.5pt;width:{NOTE_WIDTH}px;height:{height}px;z-index:{n};"
            'visibility:hidden" fillcolor="#ffffe1" o:insetmode="auto"><v:fill color2="#ffffe1"/>'
            '<v:shadow on="t" color="black" obscured="t"/><v:path o:connecttype="none"/>'
            '<v:textbox style="mso-direction-alt:auto"><div style="text-align:left"></div></v:textbox>'
            '<x:ClientData ObjectType="Note"><x:MoveWithCells/><x:SizeWithCells/>'
            f"<x:Anchor>{anchor}</x:Anchor><x:AutoFill>False</x:AutoFill>"
            f"<x:Row>{r - 1}</x:Row><x:Column>{c - 1}</x:Column></x:ClientData></v:shape>")
    return ('<xml xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office" '
            'xmlns:x="urn:schemas-microsoft-com:office:excel">'
            f'<o:shapelayout v:ext="edit"><o:idmap v:ext="edit" data="{blocks}"/></o:shapelayout>'
            '<v:shapetype id="_x0000_t202" coordsize="21600,21600" o:spt="202" path="m,l,21600r21600,l21600,xe">'
            '<v:stroke joinstyle="miter"/><v:path gradientshapeok="t" o:connecttype="rect"/></v:shapetype>'
            + "".join(shapes) + "</xml>")


def _audit_sheet_xml(lines: list[AuditLine], styles: _Styles) -> str:
    """The 監査 sheet: :func:`audit_lines` as inline strings and numbers, links by location."""
    rows, links = [], []
    for r, line in enumerate(lines, 1):
        cells = []
        for c, value in enumerate(line.values, 1):
            if value is None or value == "":
                continue
            look = line.look or ("link" if c == 3 and line.link is not None else "")
            s = styles.audit(look, line.fill if c == 1 else None)
            ref = f"{column_letters(c - 1)}{r}"
            style = f' s="{s}"' if s else ""
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                cells.append(f'<c r="{ref}"{style}><v>{value}</v></c>')
            else:
                cells.append(f'<c r="{ref}"{style} t="inlineStr"><is><t xml:space="preserve">{escape(str(value))}'
                             "</t></is></c>")
        if cells:
            rows.append(f'<row r="{r}">{"".join(cells)}</row>')
        if line.link is not None:
            links.append(f'<hyperlink ref="C{r}" location="{escape(link_location(line.link), True)}" '
                         f'display="{escape(str(line.values[2]), True)}"/>')
    cols = "".join(f'<col min="{i}" max="{i}" width="{w}" customWidth="1"/>' for i, w in enumerate(AUDIT_WIDTHS, 1))
    last = f"E{len(lines)}" if lines else "A1"
    return (f'{XML_HEAD}<worksheet xmlns="{MAIN_NS}"><dimension ref="A1:{last}"/>'
            '<sheetViews><sheetView workbookViewId="0"/></sheetViews><sheetFormatPr defaultRowHeight="15"/>'
            f'<cols>{cols}</cols><sheetData>{"".join(rows)}</sheetData>'
            + (f"<hyperlinks>{''.join(links)}</hyperlinks>" if links else "")
            + '<pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/></worksheet>')


__all__ = ["annotated_package", "EditRefused", "Place"]
