"""An audit as ``mechasheet audit`` runs it: one options record in, one outcome out (pandoc's
``convertWithOpts``), so the command line only parses and prints.

In order: the report names, the rules readings, the house rules, the profile and the context
are read; the files are found (not, in a folder, the copies in the audit's annotated folder,
which are said); every output (the reports, the annotated copies) is checked
against the inputs, against each other and, without ``force``, against existing files; only
then is any file audited, the copies made and the reports written.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence

from ..core.errors import MechasheetError
from ..core.findings import Finding, Severity
from ..core.source import shown_name
from .report import AuditedFile, AuditReport

#: called once the audit is about to read files: the settings in force, as (setting, value),
#: and how many files it will read
OnStart = Callable[[list[tuple[str, str]], int], None]


@dataclass(frozen=True)
class AuditOptions:
    """What an audit is asked to do (the command line's options)."""

    paths: Sequence[str | Path]  # files and folders to audit
    reports: Sequence[str | Path]  # the reports to write: .json, .xlsx, .html
    house: str | Path | None = None  # the house rules file
    annotated: str | Path | None = None  # the copies' folder; None: "annotated" beside the first report
    copies: bool = True  # False: no annotated copies
    profile: str | Path | None = None  # a legacy profile for homemade workbooks
    rules: Sequence[str] = ()  # rules readings, NAME=VALUE
    catalog: str | Path | None = None  # the engines' context: a mailgear catalog,
    skills: str | Path | None = None  # a pp skill list
    jobs: int | None = None  # workers; None: one a core
    force: bool = False  # replace existing outputs (never an input)
    lang: str = "ja"
    isolate: bool = True  # False: every file read here, no worker process (the browser page)


@dataclass
class AuditOutcome:
    """What an audit did: its report, and the files it wrote."""

    report: AuditReport
    reports: list[Path] = field(default_factory=list)
    copies: list[Path] = field(default_factory=list)
    skipped: list[Path] = field(default_factory=list)  # found in a folder: this audit's own outputs
    annotated: Path | None = None  # the annotated copies' folder
    #: each member's findings as on_file saw them (by the report's id): what the folder's views
    #: (set checks, duplicates, house budgets, the party) added later is the rest
    streamed: dict[int, set[int]] = field(default_factory=dict)

    @property
    def exit_code(self) -> int:
        return self.report.exit_code


def run_audit(options: AuditOptions, *, on_start: OnStart | None = None,
              on_file: Callable[[AuditedFile], None] | None = None) -> AuditOutcome:
    """Audit the files ``options`` names and write its reports and annotated copies.

    Raises MechasheetError (NO_DOCUMENTS when no file is found; an InputError or OutputError
    for an unreadable setting or a refused output) before any file is read. ``on_file`` is
    called with each file audited, in input order."""
    from ..sheets.source import load_context
    from ..io.files import Inputs
    from ..io.sources import find_inputs, inside
    from ..legacy.profile import load_profile
    from ..rules import system_ids
    from ..rules.options import parse_rule_args
    from ..batch.pool import default_jobs
    from .folder import AUDIT_SUFFIXES, audit_paths
    from .house import HouseRules, load_house
    from .outputs import check_report_names, copy_targets, refuse_twice, write_annotated, write_reports
    from .tables import in_force

    reports = check_report_names(options.reports)
    rules = parse_rule_args(list(options.rules), system_ids())
    house = load_house(options.house, system_ids()) if options.house else HouseRules()
    parse_rule_args([f"{k}={v}" for k, v in house.rules.items()], system_ids())
    profile = load_profile(options.profile) if options.profile else None
    context = load_context(options.catalog, options.skills)
    folder = Path(options.annotated or reports[0].parent / "annotated") if options.copies else None

    def ours(p: Path) -> bool:
        """A copy in this audit's annotated folder (a report is never taken for one: a name given
        with -o may be a sheet of the folder, which is then refused as an input)."""
        return folder is not None and inside(p, folder)

    found = find_inputs(options.paths, AUDIT_SUFFIXES, ours=ours)
    files = found.files
    if not files:
        raise MechasheetError("no documents found in: " + ", ".join(map(str, options.paths)), "NO_DOCUMENTS",
                              paths=[str(p) for p in options.paths])
    inputs = Inputs(files)
    check_report_names(reports, inputs, options.force)
    targets = copy_targets(files, folder, inputs, options.force) if folder is not None else {}
    refuse_twice([*reports, *targets.values()])
    if on_start is not None:
        on_start(in_force(house, {**house.rules, **rules}), len(files))
    jobs = options.jobs or default_jobs()
    streamed: dict[int, set[int]] = {}

    def seen(audited: AuditedFile) -> None:
        for m in audited.members:
            streamed[id(m.report)] = {id(f) for f in m.report.findings}
        if on_file is not None:
            on_file(audited)

    report = audit_paths(files, house=house, options=rules, context=context, profile=profile, jobs=jobs,
                         on_file=seen, isolate=options.isolate)
    copies = write_annotated(report, targets, options.lang, force=options.force, jobs=jobs,
                             isolate=options.isolate) if targets else []
    written = write_reports(report, reports, options.lang, force=options.force, inputs=inputs)
    return AuditOutcome(report, written, copies, found.skipped, folder, streamed)


def listed(findings: list[Finding], quiet: bool) -> list[Finding]:
    """The findings the terminal lists: errors and warnings (``quiet``: errors only); the
    infos are in the reports."""
    keep = (Severity.ERROR,) if quiet else (Severity.ERROR, Severity.WARNING)
    return [f for f in findings if f.level in keep]


def closing_text(outcome: AuditOutcome, lang: str, quiet: bool = False) -> str:
    """What ``mechasheet audit`` prints last: what the folders held that this audit wrote
    (not read), the findings only the whole folder shows (duplicates, set checks, house budgets,
    the party; errors and warnings, errors only with ``quiet``) under each file's name, the
    files not annotated and what each copy lost (with its count), the summary, and every file
    written: the reports and each annotated copy."""
    from ..check.text import render_findings, text_options
    from ..core.texts import texts
    from ..io.sources import inside

    t, lines = texts(lang), []
    opts = text_options(lang, quiet=quiet)
    groups: dict[str, int] = {}  # the annotated folder's copies counted together, a report alone
    for p in outcome.skipped:
        key = str(outcome.annotated) if outcome.annotated is not None and inside(p, outcome.annotated) else str(p)
        groups[key] = groups.get(key, 0) + 1
    lines += [t["audit_skipped"].format(path=shown_name(path), n=n) for path, n in groups.items()]
    later: list[str] = []
    for audited in outcome.report.files:
        for m in audited.members:
            before = outcome.streamed.get(id(m.report), set())
            added = listed([f for f in m.report.findings if id(f) not in before], quiet)
            if added:
                later.append(shown_name(m.report.path) + ":")
                later.append(render_findings(added, opts).rstrip("\n"))
    if later:
        lines.append(t["audit_folder_findings"])
        lines += later
    for audited in outcome.report.files:
        if audited.annotation_failed:
            lines.append(t["audit_not_annotated"].format(path=shown_name(audited.path), reason=audited.annotation_failed))
        if audited.losses:
            losses = "、".join(t["audit_loss"].format(what=loss.text(lang), count=loss.count)
                              for loss in audited.losses)
            lines.append(t["audit_losses"].format(path=shown_name(audited.path), losses=losses))
    lines.append(t["audit_summary"].format(**outcome.report.summary()))
    lines += [t["audit_written"].format(path=shown_name(p)) for p in [*outcome.reports, *outcome.copies]]
    return "".join(line + "\n" for line in lines)
