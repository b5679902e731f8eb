"""Set members kept on disk while a streamed run goes on, so that its memory stays flat.

A streamed ``check`` prints each file as it finishes and keeps only what the summary and the set
checks need. What a set check reads (up's transformation forms, kept whole: tens of kilobytes
each; a mailgear pilot's figures for the party) goes to a temporary file, with its set's key in
memory: a partitioned system's set (up's transformation group), or all of a system's members
for one that reads them together (mailgear's party). At the end the set checks run one set at a
time, each set read back, checked and let go; copies of one document (its JSON beside its sheet,
the same file twice) are stored and read back once.
Standard library only.
"""
from __future__ import annotations

import hashlib
import pickle
from typing import Any

from ..core.spool import Spool
from ..rules import get_system
from .checker import read_by_set_checks, run_set_checks
from .report import CheckReport, FileReport


ALL = ""  # the one set of a system whose set checks read all its members together


class SetStore:
    """What the set checks read of each member, by (system, set key), in a temporary file."""

    def __init__(self) -> None:
        self._spool = Spool("mechasheet-sets-")
        self._sets: dict[tuple[str, str], list[tuple[FileReport, int]]] = {}  # each member's record
        self._stored: dict[bytes, int] = {}  # digest → its record: copies stored once

    def keep(self, report: FileReport) -> bool:
        """Move what ``report`` keeps for a set check to the file; whether it did (a report of
        any other kind, or a document in no set, stays as it is)."""
        if report.document is None or not read_by_set_checks(report):
            return False
        system = get_system(report.system)
        # A system whose set checks read every member (mailgear's party) has one set.
        key = system.set_partition(report.document) if system.set_partition is not None else ALL
        if key is None:
            return False
        # The context stays: its catalog is one object every report of a folder shares.
        data = pickle.dumps((report.document, report.evaluation, report.cells), protocol=pickle.HIGHEST_PROTOCOL)
        digest = hashlib.blake2b(data, digest_size=16).digest()
        if digest not in self._stored:
            self._stored[digest] = self._spool.append(data)
        self._sets.setdefault((report.system, key), []).append((report, self._stored[digest]))
        report.document, report.evaluation, report.cells = None, None, {}
        return True

    def run_set_checks(self, report: CheckReport) -> None:
        """The set checks of every kept set, one set at a time (read back, checked, let go)."""
        for members in self._sets.values():
            read: dict[int, tuple[Any, ...]] = {}  # one object for copies of one document (read only)
            for fr, record in members:
                if record not in read:
                    read[record] = pickle.loads(self._spool[record])
                fr.document, fr.evaluation, fr.cells = read[record]
            run_set_checks(report, [fr for fr, _ in members])
            for fr, _ in members:
                fr.document, fr.evaluation, fr.cells = None, None, {}
        self.close()

    def close(self) -> None:
        self._spool.close()
        self._sets.clear()
        self._stored.clear()


def run_all_set_checks(report: CheckReport, kept: SetStore | None) -> None:
    """A run's set checks: those of the sets ``kept`` on disk (one at a time), then those of the
    reports still whole in memory; the findings in input order, as one pass over every file
    gives them."""
    if kept is not None:
        kept.run_set_checks(report)
    run_set_checks(report)
    if kept is not None:
        order = {fr.path: i for i, fr in enumerate(report.files)}
        report.set_findings.sort(key=lambda item: order.get(item[0], len(order)))
