"""Udonarium (ユドナリウム): a piece as a character save, a zip holding one ``<character>`` XML
that Udonarium loads when the zip is dropped onto its table.

The XML is built with the standard library (xml.etree): ``<data name="character">`` holds
``image``, ``common`` (name, size) and ``detail`` groups (resources as ``numberResource`` with
their ``currentValue``, params, the memo as a ``note``); ``<chat-palette dicebot="...">`` holds
the palette with its ``//name=value`` variables, which Udonarium reads itself."""
from __future__ import annotations

import io
import xml.etree.ElementTree as ET
import zipfile

from .model import Piece
from .pieces import system_data

#: a fixed time for the zip entries: the same piece gives the same bytes (golden tests)
_ZIP_TIME = (2024, 1, 1, 0, 0, 0)


def _data(parent: ET.Element, name: str, text: str | int | None = None, **attributes: str) -> ET.Element:
    element = ET.SubElement(parent, "data", {**attributes, "name": name})
    element.text = "" if text is None else str(text)
    return element


def character(piece: Piece) -> ET.Element:
    """The ``<character>`` element of ``piece``."""
    groups = system_data("udonarium")["groups"]
    root = ET.Element("character", {"location.name": "table", "location.x": "0", "location.y": "0",
                                    "posZ": "0", "rotate": "0", "roll": "0"})
    top = _data(root, "character")
    image = _data(top, "image")
    _data(image, "imageIdentifier", type="image")
    common = _data(top, "common")
    _data(common, "name", piece.name)
    _data(common, "size", 1)
    detail = _data(top, "detail")
    resources = _data(detail, groups["resources"])
    for s in piece.status:
        _data(resources, s.label, s.max, type="numberResource", currentValue=str(s.value))
    params = _data(detail, groups["params"])
    _data(params, groups["initiative"], piece.initiative)
    for p in piece.params:
        _data(params, p.label, p.value)
    info = _data(detail, groups["info"])
    _data(info, groups["memo"], piece.memo, type="note")
    palette = ET.SubElement(root, "chat-palette", {"dicebot": piece.dicebot})
    palette.text = piece.palette_text()
    return root


def character_xml(piece: Piece) -> bytes:
    """The character's XML file, UTF-8 with its declaration."""
    root = character(piece)
    ET.indent(root)
    body = ET.tostring(root, encoding="unicode", short_empty_elements=False)
    return f'<?xml version="1.0" encoding="UTF-8"?>\n{body}\n'.encode("utf-8")


def zip_bytes(piece: Piece, stem: str) -> bytes:
    """The zip Udonarium loads: ``<stem>.xml`` inside."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        entry = zipfile.ZipInfo(f"{stem}.xml", _ZIP_TIME)
        entry.compress_type = zipfile.ZIP_DEFLATED
        zf.writestr(entry, character_xml(piece))
    return buffer.getvalue()
