"""Hostile input, round two (issue 33), the reading side: special files, size caps, names,
duplicate keys, nested settings, messages that say what the file is, and one safe opening
shared by check and import. Each case is a real file written here and read back."""
from __future__ import annotations

import codecs
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from converter import check_path
from converter.audit.house import load_house
from converter.core.errors import InputError
from converter.io import files
from converter.io.files import load_json_document, write_atomic
from converter.legacy.profile import load_profile
from converter.legacy.sources import read_import

from .corpus import BASE, BOMB, _parts, _write

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "samples" / "up" / "m-mobile-suit.json"
HOMEMADE = ROOT / "samples" / "legacy" / "up-label-beside.xlsx"  # a homemade sheet: import reads it by labels
SHEET = "xl/worksheets/sheet1.xml"


def _homemade(path: Path, change) -> Path:
    """HOMEMADE with its first sheet's XML changed by ``change`` (bytes → bytes)."""
    with zipfile.ZipFile(HOMEMADE) as zf:
        parts = {n: zf.read(n) for n in zf.namelist()}
    parts[SHEET] = change(parts[SHEET])
    _write(path, parts)
    return path


def _codes(path: Path) -> list[str]:
    return [f.code for f in check_path(path).findings]


def _run(*args: str, cwd: Path, timeout: float = 60) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "converter", *args], cwd=cwd, capture_output=True,
                          timeout=timeout, env=env)


def _shift_jis_named(tmp_path: Path, name: str, source: Path) -> tuple[Path, bytes]:
    """A folder holding a copy of ``source`` whose file name is ``name`` in Shift_JIS bytes, as an
    old Japanese archive has it; the folder and the file's name as bytes."""
    folder = tmp_path / "sheets"
    folder.mkdir()
    raw = os.path.join(os.fsencode(folder), name.encode("cp932"))
    with open(raw, "wb") as fh:
        fh.write(source.read_bytes())
    return folder, raw


# --- 1: special files and size caps ---------------------------------------------------------------

@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_named_as_document_catalog_or_house_is_refused_at_once(tmp_path) -> None:
    """A FIFO named as a document, --catalog or --house is refused (exit 2) without waiting."""
    fifo = tmp_path / "f.json"
    os.mkfifo(fifo)
    doc = tmp_path / "d.json"
    doc.write_bytes(DOC.read_bytes())
    for args in (["check", str(fifo)], ["check", str(doc), "--catalog", str(fifo)]):
        done = _run(*args, cwd=tmp_path, timeout=30)
        assert done.returncode == 2, done.stderr
    assert "INPUT_SPECIAL_FILE" in _codes(fifo)
    house = tmp_path / "house.toml"
    os.mkfifo(house)
    with pytest.raises(InputError) as caught:
        load_house(house, ["up"])
    assert caught.value.code == "INPUT_SPECIAL_FILE"


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero here")
def test_a_document_linked_to_dev_zero_is_refused_not_read(tmp_path) -> None:
    """A JSON document or catalog that is a link to /dev/zero is a special file: refused, no memory grows."""
    link = tmp_path / "z.json"
    link.symlink_to("/dev/zero")
    assert "INPUT_SPECIAL_FILE" in _codes(link)
    done = _run("check", str(DOC), "--catalog", "/dev/zero", cwd=tmp_path, timeout=30)
    assert done.returncode == 2 and b"internal error" not in done.stderr


def test_a_file_over_its_cap_is_refused_naming_the_limit(tmp_path, monkeypatch) -> None:
    """A document past MAX_DOCUMENT_BYTES, or a settings file past its cap, is INPUT_FILE_TOO_LARGE."""
    from converter.io.files import read_limited

    monkeypatch.setattr(files, "MAX_DOCUMENT_BYTES", 1000)
    big = tmp_path / "big.json"
    big.write_text('{"system": "up", "pad": "' + "x" * 2000 + '"}')
    with pytest.raises(InputError) as caught:
        read_limited(big, 1000)
    assert caught.value.code == "INPUT_FILE_TOO_LARGE" and caught.value.params["limit"] == "1,000"
    house = tmp_path / "house.toml"
    house.write_text("name = '" + "x" * (files.MAX_SETTINGS_BYTES + 10) + "'\n")
    with pytest.raises(InputError) as caught:
        load_house(house, ["up"])
    assert caught.value.code == "INPUT_FILE_TOO_LARGE"


# --- 4: names -------------------------------------------------------------------------------------

def test_a_workbook_named_in_shift_jis_bytes_is_checked_and_imported(tmp_path) -> None:
    """A workbook whose name is Shift_JIS bytes is read (not 'damaged (OSError)') and imported."""
    name = os.path.join(os.fsencode(tmp_path), "ガルディア.xlsx".encode("cp932"))
    with open(name, "wb") as fh:
        fh.write(BASE.read_bytes())
    path = Path(os.fsdecode(name))
    report = check_path(path)
    assert report.valid, [f.code for f in report.findings]
    got = read_import(path)
    assert got[0][0].document is not None and got[0][0].document["system"] == "up"


def test_control_characters_and_foreign_bytes_in_names_are_shown_escaped(tmp_path) -> None:
    """An ESC or newline in a file name never reaches the terminal raw; a foreign byte shows as \\udc83."""
    from converter.core.source import shown_name

    assert shown_name("a\x1b[31mb\nc.json") == "a\\x1b[31mb\\nc.json"
    assert shown_name(os.fsdecode(b"\x83K.json")) == "\\udc83K.json"
    assert shown_name("普通の名前.xlsx") == "普通の名前.xlsx"
    odd = tmp_path / "e\x1b[31mred\nx.json"
    odd.write_bytes(DOC.read_bytes())
    done = _run("check", str(odd), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert b"\x1b" not in done.stdout and b"e\\x1b[31mred\\nx.json" in done.stdout


def test_a_lone_surrogate_in_a_document_is_read_as_a_replacement_with_a_warning(tmp_path) -> None:
    """A unit named "\\ud800" is read with U+FFFD there and a warning naming /name: writable everywhere."""
    doc = json.loads(DOC.read_text("utf-8"))
    text = json.dumps(doc, ensure_ascii=True).replace(json.dumps(doc["name"])[1:-1], "\\ud800", 1)
    path = tmp_path / "s.json"
    path.write_text(text)
    report = check_path(path)
    found = [f for f in report.findings if f.code == "INPUT_TEXT_NOT_CHARACTER"]
    assert found and found[0].pointer == "/name"
    read = load_json_document(path)
    assert read["name"] == "\ufffd"
    json.dumps(read, ensure_ascii=False).encode("utf-8")  # no lone surrogate is left to fail a writer


def test_write_atomic_writes_a_lone_surrogate_as_its_escape(tmp_path) -> None:
    """A report holding a name not in UTF-8 is written (never exit 3), the name as \\udc83."""
    name = os.fsdecode(b"\x83K.xlsx")
    out = write_atomic(tmp_path / "r.json", json.dumps({"file": name}, ensure_ascii=False))
    assert json.loads(out.read_bytes()) == {"file": name}


def test_a_name_of_80_katakana_is_written_though_its_temporary_would_be_too_long(tmp_path) -> None:
    """A legal 240-byte name: its temporary's name is cut by bytes (at a character's end) to fit 255."""
    target = tmp_path / ("ア" * 80 + ".json")
    assert len(os.fsencode(target.name)) == 245
    write_atomic(target, "{}\n")
    assert target.read_text() == "{}\n"
    assert [p.name for p in tmp_path.iterdir()] == [target.name]
    prefix = files._temp_prefix(target)
    assert len(os.fsencode(prefix)) + 12 <= 255 and prefix.encode("utf-8")


# --- 6: accepted silently before ------------------------------------------------------------------

def test_a_key_written_twice_in_one_object_is_refused(tmp_path) -> None:
    """{"budget":1500,"budget":99999}: INPUT_DUPLICATE_KEY naming the key, never the last one winning."""
    path = tmp_path / "dup.json"
    path.write_text('{"system": "up", "budget": 1500, "budget": 99999}')
    report = check_path(path)
    found = [f for f in report.findings if f.code == "INPUT_DUPLICATE_KEY"]
    assert found and found[0].params["key"] == "budget" and not report.valid


def test_a_zip_with_two_entries_of_one_name_is_refused(tmp_path) -> None:
    """Two xl/worksheets/sheet1.xml entries: INPUT_DAMAGED naming the part, in check and import alike."""
    parts = _parts()
    path = tmp_path / "twice.xlsx"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in parts.items():
            zf.writestr(name, data)
        with pytest.warns(UserWarning):
            zf.writestr("xl/worksheets/sheet1.xml", parts["xl/worksheets/sheet1.xml"])
    assert "INPUT_DAMAGED" in _codes(path)
    assert read_import(path)[0][0].findings[0].code == "INPUT_DAMAGED"


def test_house_numbers_beyond_two_to_the_53_are_refused(tmp_path) -> None:
    """A budget of 2^53 + 1 is HOUSE_INVALID naming budget.per_character; 2^53 itself is read."""
    path = tmp_path / "house.toml"
    path.write_text(f"[budget]\nper_character = {2 ** 53 + 1}\n")
    with pytest.raises(InputError) as caught:
        load_house(path, ["up"])
    assert caught.value.code == "HOUSE_INVALID" and caught.value.params["key"] == "budget.per_character"
    path.write_text(f"[budget]\nper_character = {2 ** 53}\n")
    assert load_house(path, ["up"]).budget_all == 2 ** 53


# --- 7: nesting -----------------------------------------------------------------------------------

def test_deeply_nested_house_and_profile_toml_are_clear_errors(tmp_path) -> None:
    """Arrays nested 5,000 deep in a house or profile file: HOUSE_INVALID / PROFILE_INVALID, never RecursionError."""
    deep = "x = " + "[" * 5000 + "]" * 5000 + "\n"
    house, profile = tmp_path / "house.toml", tmp_path / "p.toml"
    house.write_text(deep)
    profile.write_text('system = "up"\n' + deep)
    for load, path, code in ((lambda p: load_house(p, ["up"]), house, "HOUSE_INVALID"),
                             (load_profile, profile, "PROFILE_INVALID")):
        with pytest.raises(InputError) as caught:
            load(path)
        assert caught.value.code == code and "nested" in str(caught.value)


# --- 8: messages ----------------------------------------------------------------------------------

@pytest.mark.parametrize("suffix", [".xls", ".ods", ".xlsb"])
def test_a_workbook_named_to_check_as_xls_ods_or_xlsb_is_told_to_import(tmp_path, suffix: str) -> None:
    """check x.xls|.ods|.xlsb says what the file is and to use import, not 'save as UTF-8 (JSON)'."""
    path = tmp_path / f"x{suffix}"
    path.write_bytes(BASE.read_bytes() if suffix != ".xls" else b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(600))
    found = [f for f in check_path(path).findings if f.code == "INPUT_WRONG_FORMAT"]
    assert found, _codes(path)
    assert "import" in found[0].hint("en")


def test_a_5000_digit_integer_is_named_not_a_crash(tmp_path) -> None:
    """A 5,000-digit integer: INPUT_NUMBER_TOO_LONG with its digits, not INPUT_CRASHED quoting Python."""
    path = tmp_path / "n.json"
    path.write_text('{"system": "up", "budget": ' + "1" * 5000 + "}")
    found = [f for f in check_path(path).findings if f.code == "INPUT_NUMBER_TOO_LONG"]
    assert found and found[0].params["digits"] == "5,000"


def test_utf32_with_a_bom_is_named_as_utf32(tmp_path) -> None:
    """A document saved in UTF-32 (with its BOM) is INPUT_ENCODING_UNSUPPORTED, not 'a missing bracket'."""
    path = tmp_path / "u.json"
    path.write_bytes(DOC.read_text("utf-8").encode("utf-32"))
    assert path.read_bytes().startswith(codecs.BOM_UTF32_LE)
    assert "INPUT_ENCODING_UNSUPPORTED" in _codes(path)


def test_html_saved_as_xls_is_named_as_html_on_import(tmp_path) -> None:
    """An HTML table saved as .xls: INPUT_NOT_WORKBOOK naming HTML, not a Cfb error with hex bytes."""
    path = tmp_path / "h.xls"
    path.write_text("<html><body><table><tr><td>名前</td><td>x</td></tr></table></body></html>")
    source = read_import(path)[0][0]
    assert source.findings[0].code == "INPUT_NOT_WORKBOOK"
    assert "HTML" in source.findings[0].params["detail"] and "\\x3c" not in source.findings[0].params["detail"]


def test_a_half_written_sheet_is_damaged_naming_its_part_on_import(tmp_path) -> None:
    """A sheet XML cut in the middle: INPUT_DAMAGED naming the part, not LEGACY_UNREADABLE '(t)'."""
    path = _homemade(tmp_path / "half.xlsx", lambda xml: xml[: len(xml) // 2])
    code = read_import(path)[0][0].findings[0]
    assert code.code == "INPUT_DAMAGED" and "sheet1.xml" in code.params["detail"]


@pytest.mark.parametrize("target", ["../../../etc/passwd", "/etc/passwd", "worksheets/../../sheet1.xml"])
def test_a_relationship_outside_the_package_is_damaged_not_a_crash(tmp_path, target: str) -> None:
    """A sheet's relationship out of the package or to no part: INPUT_DAMAGED, never INPUT_CRASHED/KeyError."""
    from converter.io.sources import read_source

    parts = _parts()
    rels = parts["xl/_rels/workbook.xml.rels"].decode("utf-8")
    parts["xl/_rels/workbook.xml.rels"] = rels.replace('Target="worksheets/sheet1.xml"',
                                                       f'Target="{target}"', 1).encode("utf-8")
    path = tmp_path / "out.xlsx"
    _write(path, parts)
    for scan_first in (True, False):  # the library's way, and a worker's
        found = read_source(path, scan_first=scan_first).findings
        assert [f.code for f in found] == ["INPUT_DAMAGED"], found


def test_a_shift_jis_house_file_is_read(tmp_path) -> None:
    """A house rules file saved in Shift_JIS (as Windows Notepad did) is read, its name intact."""
    path = tmp_path / "house.toml"
    path.write_bytes('name = "水曜卓"\n[budget]\nper_character = 150\n'.encode("cp932"))
    house = load_house(path, ["up"])
    assert house.name == "水曜卓" and house.budget_all == 150


def test_a_profile_whose_sheets_match_nothing_says_so(tmp_path) -> None:
    """A profile whose sheets pattern matches no sheet: LEGACY_PROFILE_NO_SHEET naming both, not 'empty'."""
    profile = tmp_path / "p.toml"
    profile.write_text('system = "up"\nsheets = ["PC*"]\n')
    source = read_import(HOMEMADE, profile=load_profile(profile))[0][0]
    finding = source.findings[0]
    assert finding.code == "LEGACY_PROFILE_NO_SHEET" and finding.params["patterns"] == "PC*"


# --- 9: one safe opening --------------------------------------------------------------------------

def test_check_and_import_refuse_a_sheet_with_a_dtd_alike(tmp_path) -> None:
    """A homemade sheet with a DTD is refused by import as check refuses it (INPUT_DAMAGED), never read."""
    template = tmp_path / "dtd-template.xlsx"  # check's side: a template's sheet with the DTD
    parts = _parts()
    parts[SHEET] = parts[SHEET].replace(b"?>", b"?>" + BOMB.encode(), 1)
    _write(template, parts)
    assert "INPUT_DAMAGED" in _codes(template)
    path = _homemade(tmp_path / "dtd.xlsx", lambda xml: BOMB.encode() + xml.replace(b"<c ", b"<c t=\"str\" ", 0))
    got = read_import(path, scan_first=False)
    assert got[0][0].kind == "unreadable" and got[0][0].findings[0].code == "INPUT_DAMAGED"


def test_check_and_import_name_a_far_reaching_cell_alike(tmp_path) -> None:
    """A cell at XFD1048576: INPUT_TOO_LARGE naming it in check and in import (no native abort)."""
    far = b'<row r="1048576"><c r="XFD1048576" t="n"><v>1</v></c></row></sheetData>'
    path = _homemade(tmp_path / "far.xlsx", lambda xml: xml.replace(b"</sheetData>", far, 1))
    found = read_import(path, scan_first=False)[0][0].findings[0]
    assert found.code == "INPUT_TOO_LARGE" and "XFD1048576" in found.params["detail"]


def test_a_lone_surrogate_never_ends_export_or_convert_in_exit_3(tmp_path) -> None:
    """A unit named "X\\ud800Y" is exported (udonarium) and converted, exit 0 with a warning, never exit 3."""
    doc = json.loads(DOC.read_text("utf-8"))
    text = json.dumps(doc, ensure_ascii=True).replace(json.dumps(doc["name"])[1:-1], "X\\ud800Y", 1)
    (tmp_path / "s.json").write_text(text)
    for args in (["export", "s.json", "--to", "udonarium", "-o", "zips"], ["convert", "s.json", "--to", "pp", "-o", "c.json"]):
        done = _run(*args, cwd=tmp_path, timeout=120)
        assert done.returncode in (0, 1) and b"internal error" not in done.stderr, done.stderr
    assert any(p.suffix == ".zip" for p in (tmp_path / "zips").iterdir())


def test_an_audit_json_report_keeps_a_shift_jis_name(tmp_path) -> None:
    """audit of a folder holding a Shift_JIS-named sheet writes its JSON report (not exit 3); the name reads back."""
    folder, raw = _shift_jis_named(tmp_path, "ガンダム.json", DOC)
    done = _run("audit", str(folder), "-o", str(tmp_path / "a.json"), "--no-annotated", cwd=tmp_path, timeout=120)
    assert done.returncode in (0, 1), done.stderr
    report = json.loads((tmp_path / "a.json").read_bytes())
    assert [os.fsencode(f["path"]) for f in report["files"]] == [raw]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_conversion_mapping_that_is_a_fifo_or_nested_deep_is_refused(tmp_path) -> None:
    """convert --mapping: a FIFO is INPUT_SPECIAL_FILE at once, TOML nested 5,000 deep a clear error (exit 2)."""
    fifo, deep = tmp_path / "m.toml", tmp_path / "deep.toml"
    os.mkfifo(fifo)
    deep.write_text("x = " + "[" * 5000 + "]" * 5000 + "\n")
    for mapping, words in ((fifo, b"not a regular file"), (deep, b"nested too deeply")):
        done = _run("convert", str(DOC), "--to", "pp", "--mapping", str(mapping), "--lang", "en",
                    cwd=tmp_path, timeout=30)
        assert done.returncode == 2 and words in done.stderr + done.stdout, done.stderr


def test_an_error_naming_a_file_with_an_escape_shows_it_escaped(tmp_path) -> None:
    """An error line (exit 2) quoting a name with ESC and a newline prints them escaped, never raw."""
    odd = tmp_path / "p\x1b[31m\n.toml"
    odd.write_text('system = "nope"\n')
    done = _run("import", str(DOC), "-o", str(tmp_path / "out"), "--profile", str(odd), cwd=tmp_path)
    assert done.returncode == 2 and b"\x1b" not in done.stderr and b"p\\x1b[31m\\n.toml" in done.stderr, done.stderr


def test_import_and_every_audit_report_keep_a_shift_jis_name(tmp_path) -> None:
    """import and audit (JSON, HTML, xlsx, annotated copy) of a Shift_JIS-named workbook end in 0/1, never 3."""
    folder, _ = _shift_jis_named(tmp_path, "ガルディア\x1b[31m.xlsx", BASE)
    done = _run("import", str(folder), "-o", str(tmp_path / "imported"), cwd=tmp_path, timeout=120)
    assert done.returncode in (0, 1), done.stderr.decode("utf-8", "replace")
    assert b"\x1b[31m" not in done.stdout + done.stderr
    assert len(list((tmp_path / "imported").glob("*.json"))) >= 2  # the document and the report
    done = _run("audit", str(folder), "-o", str(tmp_path / "a.html"), "-o", str(tmp_path / "a.xlsx"),
                "-o", str(tmp_path / "a.json"), cwd=tmp_path, timeout=180)
    assert done.returncode in (0, 1), done.stderr.decode("utf-8", "replace")
    assert b"\x1b[31m" not in done.stdout + done.stderr
    assert all((tmp_path / n).stat().st_size > 0 for n in ("a.html", "a.xlsx", "a.json"))


def test_a_million_unknown_keys_give_one_short_finding(tmp_path) -> None:
    """SCHEMA_ADDITIONAL names the first 20 unknown fields and counts the rest: no 9 MB line."""
    doc = json.loads(DOC.read_text("utf-8"))
    doc.update({f"k{i}": 1 for i in range(100_000)})
    path = tmp_path / "many.json"
    path.write_text(json.dumps(doc), "utf-8")
    found = [f for f in check_path(path).findings if f.code == "SCHEMA_ADDITIONAL"]
    assert len(found) == 1
    assert found[0].params["fields"][-1] == "…(+99980)" and len(found[0].message("ja")) < 400
