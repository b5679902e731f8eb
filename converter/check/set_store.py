"""Set members kept on disk while a streamed run goes on, so that its memory stays flat.

A streamed ``check`` prints each file as it finishes and keeps only what the summary and the set
checks need. For most documents that is their name; a document a partitioned set check compares
(up's transformation forms: the whole unit, compared with the other forms of its set) is kept
whole, tens of kilobytes each. Those go to a temporary file, with their set's key in memory; at
the end the set checks run one set at a time, each set read back, checked and let go; copies
of one document (its JSON beside its sheet, the same file twice) are stored and read back once.
Standard library only.
"""
from __future__ import annotations

import hashlib
import pickle
import tempfile
from typing import IO, Any

from ..rules import get_system, system_ids
from .checker import run_set_checks
from .report import CheckReport, FileReport


class SetStore:
    """The kept documents of partitioned set checks, by (system, set key), in a temporary file."""

    def __init__(self) -> None:
        self._file: IO[bytes] | None = None
        self._sets: dict[tuple[str, str], list[tuple[FileReport, int, int]]] = {}
        self._stored: dict[bytes, tuple[int, int]] = {}  # digest → where: copies stored once

    def keep(self, report: FileReport) -> None:
        """Move what ``report`` keeps for a partitioned set check to the file (a report of any
        other kind, or a document in no set, stays as it is)."""
        if report.system not in system_ids() or report.document is None or report.evaluation is None:
            return
        partition = get_system(report.system).set_partition
        key = partition(report.document) if partition is not None else None
        if key is None:
            return
        data = pickle.dumps((report.document, report.evaluation, report.cells, report.context),
                            protocol=pickle.HIGHEST_PROTOCOL)
        digest = hashlib.blake2b(data, digest_size=16).digest()
        if digest not in self._stored:
            if self._file is None:
                self._file = tempfile.TemporaryFile(prefix="mechasheet-sets-")
            self._stored[digest] = (self._file.seek(0, 2), len(data))
            self._file.write(data)
        offset, size = self._stored[digest]
        self._sets.setdefault((report.system, key), []).append((report, offset, size))
        report.document, report.evaluation, report.cells, report.context = None, None, {}, {}

    def run_set_checks(self, report: CheckReport) -> None:
        """The set checks of every kept set, one set at a time (read back, checked, let go)."""
        for members in self._sets.values():
            read: dict[int, tuple[Any, ...]] = {}  # one object for copies of one document (read only)
            for fr, offset, size in members:
                if offset not in read:
                    read[offset] = self._read(offset, size)
                fr.document, fr.evaluation, fr.cells, fr.context = read[offset]
            run_set_checks(report, [fr for fr, _, _ in members])
            for fr, _, _ in members:
                fr.document, fr.evaluation, fr.cells, fr.context = None, None, {}, {}
        self.close()

    def _read(self, offset: int, size: int) -> tuple[Any, ...]:
        assert self._file is not None
        self._file.seek(offset)
        return pickle.loads(self._file.read(size))

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None
        self._sets.clear()
        self._stored.clear()
