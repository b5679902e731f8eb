"""The project's own wheel for the page, built from the installed ``converter`` package itself
(an editable checkout or an installed wheel alike), so the page runs exactly the code the
command line runs. Deterministic: the same files give the same bytes (fixed times, sorted entries)."""
from __future__ import annotations

import base64
import csv
import hashlib
import io
import zipfile
from pathlib import Path

from ..core.version import __version__

#: the ``converter`` package folder this module belongs to
PACKAGE = Path(__file__).resolve().parents[1]
NAME = "mechasheet"
#: zip's earliest time: the same on every build
EPOCH = (1980, 1, 1, 0, 0, 0)
METADATA = """\
Metadata-Version: 2.1
Name: {name}
Version: {version}
Summary: Rule checks and audits of Japanese mecha TRPG sheets (the copy a browser page loads)
Requires-Python: >=3.11
"""
WHEEL = """\
Wheel-Version: 1.0
Generator: mechasheet (converter.web.wheel)
Root-Is-Purelib: true
Tag: py3-none-any
"""


def wheel_name(version: str = __version__) -> str:
    """The wheel's file name: ``mechasheet-<version>-py3-none-any.whl``."""
    return f"{NAME}-{version}-py3-none-any.whl"


def package_files(package: Path = PACKAGE) -> list[Path]:
    """Every file of the package in a stable order, but compiled files (``__pycache__``, .pyc)
    and hidden ones (an editor's swap file, .DS_Store)."""
    return sorted((p for p in package.rglob("*")
                   if p.is_file() and p.suffix not in (".pyc", ".pyo")
                   and not any(part == "__pycache__" or part.startswith(".")
                               for part in p.relative_to(package).parts)),
                  key=lambda p: p.relative_to(package).as_posix())


def _record_hash(data: bytes) -> str:
    """RECORD's digest form: ``sha256=`` and the urlsafe base64 digest without padding."""
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")


def _entry(name: str) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name, date_time=EPOCH)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.create_system = 3  # Unix, whichever system builds it
    info.external_attr = 0o100644 << 16
    return info


def project_wheel(package: Path = PACKAGE, version: str = __version__) -> tuple[str, bytes]:
    """(file name, bytes) of the wheel holding ``package`` as ``converter/`` and a
    ``mechasheet-<version>.dist-info`` (METADATA, WHEEL, RECORD)."""
    dist_info = f"{NAME}-{version}.dist-info"
    entries = [(f"{package.name}/{p.relative_to(package).as_posix()}", p.read_bytes())
               for p in package_files(package)]
    entries += [(f"{dist_info}/METADATA", METADATA.format(name=NAME, version=version).encode()),
                (f"{dist_info}/WHEEL", WHEEL.encode())]
    record = io.StringIO()
    writer = csv.writer(record, lineterminator="\n")
    for name, data in entries:
        writer.writerow([name, _record_hash(data), len(data)])
    writer.writerow([f"{dist_info}/RECORD", "", ""])
    entries.append((f"{dist_info}/RECORD", record.getvalue().encode()))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        for name, data in entries:
            zf.writestr(_entry(name), data, compresslevel=9)
    return wheel_name(version), buffer.getvalue()
