"""The hostile and damaged corpus (tests/hostile/corpus.py), checked alone and all together:
no abort, no traceback, every file reported with a clear finding, in bounded time."""
from __future__ import annotations

import time
from pathlib import Path

import pytest

from converter import check_path
from converter.batch.checking import check_files

from .corpus import BUILDERS, build


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> tuple[Path, dict[str, str]]:
    folder = tmp_path_factory.mktemp("hostile")
    return folder, build(folder)


@pytest.mark.parametrize("name", sorted(BUILDERS))
def test_each_file_alone_gets_its_finding(corpus, name: str) -> None:
    """Checked on its own, each file is reported with the code that says what is wrong."""
    folder, expected = corpus
    report = check_path(folder / name)
    codes = [f.code for f in report.findings]
    if expected[name] == "OK":
        assert report.kind == "document" and report.valid, codes
    else:
        assert expected[name] in codes, codes
        assert not report.valid


def test_the_whole_folder_in_one_run(corpus) -> None:
    """All together, with two jobs: every file reported, none crashed, within a minute."""
    folder, expected = corpus
    started = time.monotonic()
    report = check_files([folder], jobs=2)
    assert time.monotonic() - started < 60
    got = {Path(fr.path).name: [f.code for f in fr.findings] for fr in report.files}
    assert set(got) == set(expected)
    for name, code in expected.items():
        assert "INPUT_CRASHED" not in got[name], name
        assert code == "OK" or code in got[name], (name, got[name])
