"""Every sheet filled in an older version of a template still reads: the names a later version
added are absent, not damaged. tests/sheets/old_templates/<system>-<version>-<sample>.xlsx are
samples as that version wrote them (the sample's content of that day); each reads with no
finding, checks valid, and its document written into the current template reads back the same
(the helpers named `normalized` in the system tests say what a sheet cannot carry)."""
from __future__ import annotations

from pathlib import Path

import pytest

from converter import check_path
from converter.sheets import read_sheet, write_sheet
from converter.sheets.layout import load_layout

from . import test_mailgear_sheets, test_pp_sheets, test_up_sheets

OLD = sorted((Path(__file__).parent / "old_templates").glob("*.xlsx"))
NORMALIZED = {"up": test_up_sheets.normalized, "pp": test_pp_sheets.normalized,
              "mailgear": test_mailgear_sheets.normalized}


@pytest.mark.parametrize("path", OLD, ids=[p.stem for p in OLD])
def test_older_template_sheet_reads_and_moves_to_the_current_version(path: Path, tmp_path: Path) -> None:
    """An older template's sheet reads cleanly and rewrites to the current template as the same document."""
    system, version, _ = path.stem.split("-", 2)
    assert int(version) < load_layout(system).template_version
    doc, findings, _ = read_sheet(path)
    assert findings == []
    assert check_path(path).valid
    current = write_sheet(doc, tmp_path / "current.xlsx")
    again, findings, _ = read_sheet(current)
    assert findings == []
    assert NORMALIZED[system](again) == NORMALIZED[system](doc)


def test_every_older_version_has_a_fixture() -> None:
    """One filled sheet per older version of each template, so each stays readable."""
    have = {tuple(p.stem.split("-", 2)[:2]) for p in OLD}
    for system in NORMALIZED:
        current = load_layout(system).template_version
        assert {(system, str(v)) for v in range(1, current)} <= have
