"""A hostile and damaged corpus, generated at test time (nothing large is committed).

Each builder writes one file into a folder and returns the finding code a check must report for
it. The files start from a real filled sheet (samples/up/m-mobile-suit.xlsx) and change one
thing: what an attacker or a careless copy would do to a workbook.
"""
from __future__ import annotations

import os
import random
import zipfile
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[2]
BASE = ROOT / "samples" / "up" / "m-mobile-suit.xlsx"

BOMB = ('<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">'
        '<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>')
XXE = '<!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>'


def _parts() -> dict[str, bytes]:
    with zipfile.ZipFile(BASE) as zf:
        return {n: zf.read(n) for n in zf.namelist()}


def _write(path: Path, parts: dict[str, bytes], compression=zipfile.ZIP_DEFLATED) -> None:
    with zipfile.ZipFile(path, "w", compression) as zf:
        for name, data in parts.items():
            zf.writestr(name, data)


def _with_doctype(part: str, doctype: str) -> Callable[[Path], str]:
    def build(path: Path) -> str:
        parts = _parts()
        text = parts[part].decode("utf-8")
        head, sep, rest = text.partition("?>")
        parts[part] = (head + sep + doctype + rest).encode("utf-8")
        _write(path, parts)
        return "INPUT_DAMAGED"
    return build


def _far_cell(sheet_part: str, ref: str, code: str) -> Callable[[Path], str]:
    def build(path: Path) -> str:
        parts = _parts()
        text = parts[sheet_part].decode("utf-8")
        row = "".join(ch for ch in ref if ch.isdigit())
        far = f'<row r="{row}"><c r="{ref}" t="n"><v>1</v></c></row></sheetData>'
        parts[sheet_part] = text.replace("</sheetData>", far, 1).encode("utf-8")
        _write(path, parts)
        return code
    return build


def _unread_sheet_with_far_cell(path: Path) -> str:
    """A sheet the user added (メモ) with one value at XFD1048576: never read, never allocated."""
    parts = _parts()
    parts["xl/worksheets/sheet9.xml"] = (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
        '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'
        '<row r="1048576"><c r="XFD1048576"><v>1</v></c></row></sheetData></worksheet>').encode("utf-8")
    wb = parts["xl/workbook.xml"].decode("utf-8")
    parts["xl/workbook.xml"] = wb.replace("</sheets>", '<sheet name="メモ" sheetId="9" r:id="rId99"/></sheets>').encode()
    rels = parts["xl/_rels/workbook.xml.rels"].decode("utf-8")
    parts["xl/_rels/workbook.xml.rels"] = rels.replace("</Relationships>", (
        '<Relationship Id="rId99" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
        'relationships/worksheet" Target="worksheets/sheet9.xml"/></Relationships>')).encode("utf-8")
    types = parts["[Content_Types].xml"].decode("utf-8")
    parts["[Content_Types].xml"] = types.replace("</Types>", (
        '<Override PartName="/xl/worksheets/sheet9.xml" ContentType="application/'
        'vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>')).encode("utf-8")
    _write(path, parts)
    return "OK"


def _many_rows(path: Path) -> str:
    parts = _parts()
    text = parts["xl/worksheets/sheet3.xml"].decode("utf-8")
    rows = "".join(f'<row r="{r}"><c r="A{r}"><v>1</v></c></row>' for r in range(100, 4_000_100))
    parts["xl/worksheets/sheet3.xml"] = text.replace("</sheetData>", rows + "</sheetData>", 1).encode("utf-8")
    _write(path, parts)
    return "INPUT_TOO_LARGE"


def _huge_shared_string(path: Path) -> str:
    parts = _parts()
    text = parts["xl/sharedStrings.xml"].decode("utf-8")
    parts["xl/sharedStrings.xml"] = text.replace("</sst>", "<si><t>" + "A" * 300_000_000 + "</t></si></sst>").encode()
    _write(path, parts)
    return "INPUT_TOO_LARGE"


def _many_names(path: Path) -> str:
    parts = _parts()
    text = parts["xl/workbook.xml"].decode("utf-8")
    names = "".join(f'<definedName name="n{i}">\'ユニット\'!$A$1</definedName>' for i in range(300_000))
    parts["xl/workbook.xml"] = text.replace("</definedNames>", names + "</definedNames>", 1).encode("utf-8")
    _write(path, parts)
    return "INPUT_TOO_LARGE"


def _truncated(path: Path) -> str:
    data = BASE.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    return "INPUT_DAMAGED"


def _half_written_part(path: Path) -> str:
    parts = _parts()
    parts["xl/worksheets/sheet1.xml"] = parts["xl/worksheets/sheet1.xml"][:5000]
    _write(path, parts)
    return "INPUT_DAMAGED"


def _encrypted(path: Path) -> str:
    # An OLE compound file holding an EncryptedPackage stream: what Excel saves with a password.
    header = bytes.fromhex("d0cf11e0a1b11ae1") + b"\0" * 504
    path.write_bytes(header + "EncryptedPackage".encode("utf-16-le") + os.urandom(2048))
    return "INPUT_ENCRYPTED"


def _legacy_xls(path: Path) -> str:
    path.write_bytes(bytes.fromhex("d0cf11e0a1b11ae1") + b"\0" * 504 + "Workbook".encode("utf-16-le")
                     + b"\0" * 1024)
    return "INPUT_LEGACY_FORMAT"


def _random_bytes(path: Path) -> str:
    path.write_bytes(random.Random(7).randbytes(50_000))
    return "INPUT_NOT_WORKBOOK"


def _csv(path: Path) -> str:
    path.write_text("名前,ＨＰ,ＥＮ\nガンダム,300,80\n", encoding="utf-8")
    return "INPUT_NOT_WORKBOOK"


def _html(path: Path) -> str:
    path.write_text("<html><body><table><tr><td>HP</td><td>300</td></tr></table></body></html>",
                    encoding="utf-8")
    return "INPUT_NOT_WORKBOOK"


def _bad_reference(path: Path) -> str:
    return _far_cell("xl/worksheets/sheet1.xml", "ZZZZZZ99999999", "INPUT_DAMAGED")(path)


def _zip_bomb_part(path: Path) -> str:
    parts = _parts()
    parts["xl/media/bomb.bin"] = b"\0" * 300_000_000
    _write(path, parts)
    return "INPUT_TOO_LARGE"


# Damaged real sheets: not hostile, just broken by hand; each is a finding with the field.
def _workbook_cut(start_marker: str, end_marker: str, replacement: str, code: str,
                  keep_start: bool = False) -> Callable[[Path], str]:
    """A builder replacing the text of xl/workbook.xml from ``start_marker`` to ``end_marker``."""
    def build(path: Path) -> str:
        parts = _parts()
        text = parts["xl/workbook.xml"].decode("utf-8")
        start = text.index(start_marker) + (len(start_marker) if keep_start else 0)
        end = text.index(end_marker, start) + (0 if keep_start else len(end_marker))
        parts["xl/workbook.xml"] = (text[:start] + replacement + text[end:]).encode("utf-8")
        _write(path, parts)
        return code
    return build


_name_removed = _workbook_cut('<definedName name="up.weapons.name"', "</definedName>", "", "SHEET_NAME_MISSING")
_name_ref_error = _workbook_cut('<definedName name="up.stats.hp">', "</definedName>", "#REF!", "SHEET_NAME_BROKEN",
                                keep_start=True)
_sheet_deleted = _workbook_cut('<sheet name="武装"', "/>", "", "SHEET_MISSING")


def _stretched_name(path: Path) -> str:
    """A table's first column named down to row 1048576 (B:B after inserting rows): read only as
    far as the sheet has cells, quickly."""
    parts = _parts()
    text = parts["xl/workbook.xml"].decode("utf-8")
    start = text.index('<definedName name="up.weapons.name">') + len('<definedName name="up.weapons.name">')
    end = text.index("</definedName>", start)
    ref = text[start:end]
    parts["xl/workbook.xml"] = (text[:start] + ref.rsplit("$", 1)[0] + "$1048576" + text[end:]).encode("utf-8")
    _write(path, parts)
    return "OK"


BUILDERS: dict[str, Callable[[Path], str]] = {
    "stretched-name.xlsx": _stretched_name,
    "bomb-workbook.xlsx": _with_doctype("xl/workbook.xml", BOMB),
    "bomb-sheet.xlsx": _with_doctype("xl/worksheets/sheet1.xml", BOMB),
    "bomb-strings.xlsx": _with_doctype("xl/sharedStrings.xml", BOMB),
    "bomb-custom.xlsx": _with_doctype("docProps/custom.xml", BOMB),
    "xxe-workbook.xlsx": _with_doctype("xl/workbook.xml", XXE),
    "far-cell-unread-sheet.xlsx": _unread_sheet_with_far_cell,
    "far-cell-read-sheet.xlsx": _far_cell("xl/worksheets/sheet1.xml", "ALL200000", "INPUT_TOO_LARGE"),
    "bad-reference.xlsx": _bad_reference,
    "four-million-rows.xlsx": _many_rows,
    "huge-shared-string.xlsx": _huge_shared_string,
    "many-names.xlsx": _many_names,
    "zip-bomb-part.xlsx": _zip_bomb_part,
    "truncated.xlsx": _truncated,
    "half-written-part.xlsx": _half_written_part,
    "encrypted.xlsx": _encrypted,
    "legacy.xlsx": _legacy_xls,
    "random-bytes.xlsx": _random_bytes,
    "csv-posing.xlsx": _csv,
    "html-posing.xlsx": _html,
    "name-removed.xlsx": _name_removed,
    "name-ref-error.xlsx": _name_ref_error,
    "sheet-deleted.xlsx": _sheet_deleted,
}


def build(folder: Path) -> dict[str, str]:
    """Write every file of the corpus into ``folder``; file name → the code its check reports
    (``OK``: the file is read, the hostile part never touched)."""
    folder.mkdir(parents=True, exist_ok=True)
    return {name: builder(folder / name) for name, builder in BUILDERS.items()}
