"""Recalculating workbooks in LibreOffice Calc (headless), the real spreadsheet engine of CI.

A private profile sets OOXMLRecalcMode to "always" so cached results can never mask a wrong
formula (LibreOffice 7.4 keeps stale cached values otherwise); all files convert in one call.
"""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path


from ..needs import missing

PROFILE_XCU = """<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="OOXMLRecalcMode" oor:op="fuse"><value>0</value></prop></item>
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="ODFRecalcMode" oor:op="fuse"><value>0</value></prop></item>
</oor:items>
"""


def soffice() -> str:
    """The soffice binary; skip without it, but fail under CI=true (CI must have it)."""
    exe = shutil.which("soffice") or shutil.which("libreoffice")
    if exe:
        return exe
    missing("LibreOffice (soffice)")


# PDF with a bookmark per sheet, so the pages each sheet prints on can be counted.
PDF_FILTER = 'pdf:calc_pdf_Export:{"ExportBookmarks":{"type":"boolean","value":"true"}}'


def recalculate(files: list[Path], outdir: Path, profile: Path) -> list[Path]:
    """Open each file in LibreOffice, recalculate every formula, save as .xlsx in ``outdir``."""
    return _convert(files, outdir, profile, "xlsx:Calc MS Excel 2007 XML", ".xlsx")


def export_pdf(files: list[Path], outdir: Path, profile: Path) -> list[Path]:
    """Each workbook printed to PDF by LibreOffice (recalculated, every visible sheet), in
    ``outdir``, in one LibreOffice run."""
    return _convert(files, outdir, profile, PDF_FILTER, ".pdf")


def _convert(files: list[Path], outdir: Path, profile: Path, target: str, suffix: str) -> list[Path]:
    """``files`` converted to ``target`` by one soffice process with the private profile."""
    exe = soffice()
    user = profile / "user"
    user.mkdir(parents=True, exist_ok=True)
    (user / "registrymodifications.xcu").write_text(PROFILE_XCU, encoding="utf-8")
    outdir.mkdir(parents=True, exist_ok=True)
    cmd = [exe, f"-env:UserInstallation={profile.as_uri()}", "--headless", "--norestore",
           "--convert-to", target, "--outdir", str(outdir), *map(str, files)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    out = [outdir / (f.stem + suffix) for f in files]
    missing = [p for p in out if not p.exists()]
    if proc.returncode or missing:
        raise AssertionError(f"soffice failed ({proc.returncode}): {proc.stdout}\n{proc.stderr}")
    return out
