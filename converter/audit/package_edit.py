"""Editing an .xlsx/.xlsm package in place of a spreadsheet library: parts read through the safe
opener, changed as text, and written into a new zip whose untouched entries are the original's
bytes (local header, compressed data and central record copied as they are: same names, order
and compression).

XML is never serialised again from a tree: a parser would rename namespace prefixes, and Excel
refuses a part whose ``mc:Ignorable`` names a prefix that is gone. Parts are located by parsing
or by patterns and changed by splicing strings. Anything this module cannot edit safely raises
:class:`EditRefused` (with why) so the caller can take another way.
"""
from __future__ import annotations

import posixpath
import re
import struct
import zlib
from dataclasses import dataclass
from html import unescape

from ..io.files import utf8
from ..io.xlsx_package import Package, PackageError, parse_xml

REL_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PACKAGE_REL_NS = "http://schemas.openxmlformats.org/package/2006/relationships"
CONTENT_TYPES = "[Content_Types].xml"

_LOCAL = struct.Struct("<4s2B4HL2L2H")  # a local file header (APPNOTE 4.3.7)
_CENTRAL = struct.Struct("<4s4B4HL2L5H2L")  # a central directory record (APPNOTE 4.3.12)
_END = struct.Struct("<4s4H2LH")  # the end of central directory record (APPNOTE 4.3.16)
_ATTRIBUTE = re.compile(r"([\w:.-]+)\s*=\s*(?:\"([^\"]*)\"|'([^']*)')")
COMPRESSION = 1  # deflate level of the parts written: a third of level 6's time, a fifth larger
_XML_ILLEGAL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


class EditRefused(Exception):
    """The package holds something this editor does not change safely; the message says what."""


@dataclass(frozen=True)
class Relationship:
    id: str
    type: str
    target: str  # the part it points at (a package path), or the raw target when external
    external: bool


def escape(text: str, quote: bool = False) -> str:
    """``text`` as XML character data (or a double-quoted attribute value), characters XML 1.0
    cannot hold dropped."""
    text = _XML_ILLEGAL.sub("", text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return text.replace('"', "&quot;") if quote else text


def attributes(tag: str) -> dict[str, str]:
    """A start tag's attributes (qualified names as written), entities resolved."""
    return {k: unescape(a if a else b) for k, a, b in _ATTRIBUTE.findall(tag)}


def with_attribute(tag: str, name: str, value: str | None) -> str:
    """The start tag ``tag`` with attribute ``name`` set to ``value`` (removed when None)."""
    pattern = re.compile(r"\s" + re.escape(name) + r"\s*=\s*(?:\"[^\"]*\"|'[^']*')")
    tag = pattern.sub("", tag, count=1)
    if value is None:
        return tag
    end = len(tag) - (2 if tag.endswith("/>") else 1)
    return f'{tag[:end]} {name}="{escape(value, True)}"{tag[end:]}'


def relationships_part(part: str) -> str:
    """``xl/worksheets/sheet1.xml`` → ``xl/worksheets/_rels/sheet1.xml.rels``."""
    folder, name = posixpath.split(part)
    return posixpath.join(folder, "_rels", f"{name}.rels")


class PackageEdit:
    """A package's parts as text, changed, added and removed; :meth:`to_bytes` writes the zip."""

    def __init__(self, package: Package) -> None:
        self.package = package
        self._raw = package.path.read_bytes()
        self._infos = package.zip.infolist()
        self._names = {i.filename.lower(): i.filename for i in self._infos}
        if len(self._names) != len(self._infos):
            raise EditRefused("two zip entries share a name")
        self._text: dict[str, str] = {}
        self._changed: dict[str, bytes] = {}
        self._added: dict[str, bytes] = {}
        self._removed: set[str] = set()
        self._parsed: dict[str, tuple[str, list[Relationship]]] = {}  # relationships by their part's text
        for info in self._infos:
            if info.flag_bits & 0x1 or info.compress_type not in (0, 8) or _has_zip64(info.extra):
                raise EditRefused(f"zip entry {info.filename} is encrypted, zip64 or compressed by "
                                  f"method {info.compress_type}")

    # --- parts ---------------------------------------------------------------------------------
    def exists(self, name: str) -> bool:
        """Part names compare without case (OPC); a removed part is gone, an added one is there."""
        low = name.lower()
        return (low in self._names and self._names[low] not in self._removed) or \
            any(n.lower() == low for n in self._added)

    def text(self, name: str) -> str:
        """A part's text (UTF-8; anything else is refused), as edited so far."""
        if name in self._text:
            return self._text[name]
        data = self.package.read_part(name)  # capped, no DTD
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise EditRefused(f"{name} is not UTF-8") from exc
        self._text[name] = text
        return text

    def replace(self, name: str, text: str) -> None:
        self._text[name] = text
        data = utf8(text)  # a file name's foreign bytes (in the audit sheet) as their escapes
        if name in self._added:
            self._added[name] = data
        else:
            self._changed[name] = data

    def add(self, name: str, text: str, content_type: str | None = None) -> None:
        """A new part (refused if its name is taken), with its content type's Override."""
        if self.exists(name):
            raise EditRefused(f"part {name} exists already")
        self._text[name] = text
        self._added[name] = utf8(text)
        if content_type is not None:
            self.add_override(name, content_type)

    def remove(self, name: str) -> None:
        """Drop a part and its content type's Override (its relationships are the caller's)."""
        self._removed.add(self._names[name.lower()])
        types = self.text(CONTENT_TYPES)
        types = re.sub(r'<Override\s[^>]*PartName="/' + re.escape(name) + r'"[^>]*/>', "", types, flags=re.I)
        self.replace(CONTENT_TYPES, types)

    def free_name(self, pattern: str) -> str:
        """The first ``pattern.format(n)`` (n = 1, 2, ...) no part has."""
        n = 1
        while self.exists(pattern.format(n)):
            n += 1
        return pattern.format(n)

    def content_type(self, name: str) -> str | None:
        types = self.text(CONTENT_TYPES)
        for tag in re.findall(r"<Override\s[^>]*>", types):
            a = attributes(tag)
            if a.get("PartName", "").lower() == "/" + name.lower():
                return a.get("ContentType")
        ext = posixpath.splitext(name)[1].lstrip(".").lower()
        for tag in re.findall(r"<Default\s[^>]*>", types):
            a = attributes(tag)
            if a.get("Extension", "").lower() == ext:
                return a.get("ContentType")
        return None

    def add_override(self, name: str, content_type: str) -> None:
        self._insert_type(f'<Override PartName="/{escape(name, True)}" ContentType="{content_type}"/>')

    def ensure_type(self, name: str, content_type: str) -> None:
        """``name``'s content type: by its extension's Default when there is none yet (as Excel
        writes vml), else by an Override when the Default says something else."""
        ext = posixpath.splitext(name)[1].lstrip(".")
        if self.content_type(name) == content_type:
            return
        has_default = any(attributes(t).get("Extension", "").lower() == ext.lower()
                          for t in re.findall(r"<Default\s[^>]*>", self.text(CONTENT_TYPES)))
        if has_default:
            self.add_override(name, content_type)
        else:
            self._insert_type(f'<Default Extension="{ext}" ContentType="{content_type}"/>', first=True)

    def _insert_type(self, element: str, first: bool = False) -> None:
        types = self.text(CONTENT_TYPES)
        if first:
            at = re.search(r"<Types\b[^>]*>", types)
            if at is None:
                raise EditRefused("[Content_Types].xml has no <Types>")
            self.replace(CONTENT_TYPES, types[:at.end()] + element + types[at.end():])
            return
        end = types.rfind("</Types>")
        if end < 0:
            raise EditRefused("[Content_Types].xml has no </Types>")
        self.replace(CONTENT_TYPES, types[:end] + element + types[end:])

    # --- relationships -------------------------------------------------------------------------
    def relationships(self, source: str) -> list[Relationship]:
        """The relationships of part ``source`` (``""`` for the package's own)."""
        rels = relationships_part(source) if source else "_rels/.rels"
        if not self.exists(rels):
            return []
        text = self.text(rels)
        cached = self._parsed.get(rels)
        if cached is not None and cached[0] is text:
            return list(cached[1])
        out = []
        folder = posixpath.dirname(source)
        for tag in re.findall(r"<Relationship\s[^>]*>", text):
            a = attributes(tag)
            target, external = a.get("Target", ""), a.get("TargetMode") == "External"
            if not external:
                target = target.lstrip("/") if target.startswith("/") else \
                    posixpath.normpath(posixpath.join(folder, target))
            out.append(Relationship(a.get("Id", ""), a.get("Type", ""), target, external))
        self._parsed[rels] = (text, out)
        return list(out)

    def add_relationship(self, source: str, kind: str, target: str, first: bool = False) -> str:
        """A new relationship from ``source`` to part ``target`` of type ``kind`` (the
        relationships part created when there is none); its new Id."""
        rels = relationships_part(source)
        taken = {r.id for r in self.relationships(source)}
        n = len(taken) + 1
        while f"rId{n}" in taken:
            n += 1
        rid = f"rId{n}"
        element = (f'<Relationship Id="{rid}" Type="{kind}" '
                   f'Target="{escape(posixpath.relpath(target, posixpath.dirname(source) or "."), True)}"/>')
        if not self.exists(rels):
            self.add(rels, '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
                           f'<Relationships xmlns="{PACKAGE_REL_NS}">{element}</Relationships>')
            return rid
        text = self.text(rels)
        at = re.search(r"<Relationships\b[^>]*>", text) if first else None
        if at is not None:
            self.replace(rels, text[:at.end()] + element + text[at.end():])
        else:
            end = text.rfind("</Relationships>")
            if end < 0:
                raise EditRefused(f"{rels} has no </Relationships>")
            self.replace(rels, text[:end] + element + text[end:])
        return rid

    def remove_relationships_to(self, source: str, target: str) -> None:
        rels = relationships_part(source)
        gone = {r.id for r in self.relationships(source) if not r.external and r.target == target}
        if not gone:
            return
        text = self.text(rels)
        for tag in re.findall(r"<Relationship\s[^>]*>", text):
            if attributes(tag).get("Id") in gone:
                text = text.replace(tag, "", 1)
        self.replace(rels, text)

    # --- writing -------------------------------------------------------------------------------
    def check_well_formed(self) -> None:
        """Every part written (changed or added) parses as XML; else the edit is refused."""
        for name, data in (*self._changed.items(), *self._added.items()):
            try:
                parse_xml(data, self.package.path, name)
            except PackageError as exc:
                raise EditRefused(f"the edited {name} would not be well-formed XML ({exc})") from exc

    def to_bytes(self) -> bytes:
        """The new zip: each untouched entry's bytes as they were, changed parts recompressed
        in place with their own method, removed ones gone, added ones at the end."""
        out = bytearray()
        central = bytearray()
        count = 0
        records = _central_records(self._raw, self._infos)
        for info in self._infos:
            if info.filename in self._removed:
                continue
            offset = len(out)
            if info.filename in self._changed:
                local, record = _entry(info.filename, self._changed[info.filename], info.compress_type,
                                       info.date_time, offset, info.external_attr, info.create_system)
                out += local
                central += record
            else:
                out += _raw_local(self._raw, info)
                moved = bytearray(records[info.filename])
                struct.pack_into("<L", moved, 42, offset)
                central += moved
            count += 1
        stamp = self._infos[0].date_time if self._infos else (1980, 1, 1, 0, 0, 0)
        for name, data in self._added.items():
            local, record = _entry(name, data, 8, stamp, len(out), 0o600 << 16, 3)
            out += local
            central += record
            count += 1
        if count > 0xFFFF or len(out) > 0xFFFFFFFF:
            raise EditRefused("the copy would need zip64")
        comment = self.package.zip.comment
        return bytes(out + central + _END.pack(b"PK\x05\x06", 0, 0, count, count, len(central), len(out),
                                               len(comment)) + comment)


def _has_zip64(extra: bytes) -> bool:
    i = 0
    while i + 4 <= len(extra):
        kind, size = struct.unpack_from("<HH", extra, i)
        if kind == 0x0001:
            return True
        i += 4 + size
    return False


def _central_records(raw: bytes, infos: list) -> dict[str, bytes]:
    """Each entry's central directory record as it is in the file, by name."""
    end = raw.rfind(b"PK\x05\x06")
    if end < 0:
        raise EditRefused("no end of central directory")
    _, _, _, _, total, size, start, _ = _END.unpack_from(raw, end)
    out: dict[str, bytes] = {}
    at = start
    for info in infos:
        if raw[at:at + 4] != b"PK\x01\x02":
            raise EditRefused("the central directory is not where the zip says")
        n, m, k = struct.unpack_from("<3H", raw, at + 28)
        length = _CENTRAL.size + n + m + k
        out[info.filename] = raw[at:at + length]
        at += length
    if len(out) != total:
        raise EditRefused("the central directory's count differs from its entries")
    return out


def _raw_local(raw: bytes, info) -> bytes:
    """An entry's local header, data and data descriptor, as they are in the file."""
    at = info.header_offset
    if raw[at:at + 4] != b"PK\x03\x04":
        raise EditRefused(f"zip entry {info.filename}: no local header where the directory says")
    n, m = struct.unpack_from("<HH", raw, at + 26)
    end = at + _LOCAL.size + n + m + info.compress_size
    if info.flag_bits & 0x08:  # a data descriptor follows, with or without its signature
        end += 16 if raw[end:end + 4] == b"PK\x07\x08" else 12
    if end > len(raw):
        raise EditRefused(f"zip entry {info.filename} is cut short")
    return raw[at:end]


def _entry(name: str, data: bytes, method: int, date_time: tuple, offset: int, external: int,
           system: int) -> tuple[bytes, bytes]:
    """A new entry's local header with data, and its central directory record."""
    encoded = name.encode("utf-8")
    flags = 0x800 if not name.isascii() else 0
    if method == 8:
        packer = zlib.compressobj(COMPRESSION, zlib.DEFLATED, -15)
        body = packer.compress(data) + packer.flush()
    else:
        body = data
    y, mo, d, h, mi, s = date_time
    dos_date, dos_time = (max(y, 1980) - 1980) << 9 | mo << 5 | d, h << 11 | mi << 5 | s // 2
    crc = zlib.crc32(data)
    local = _LOCAL.pack(b"PK\x03\x04", 20, 0, flags, method, dos_time, dos_date, crc, len(body), len(data),
                        len(encoded), 0) + encoded + body
    record = _CENTRAL.pack(b"PK\x01\x02", 20, system, 20, 0, flags, method, dos_time, dos_date, crc, len(body),
                           len(data), len(encoded), 0, 0, 0, 0, external, offset) + encoded
    return local, record

