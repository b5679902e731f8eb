"""The Python the browser page runs under Pyodide: one JSON text in, one JSON text out.

The page's Web Worker writes the dropped files under a root (``/in``), calls a ``Session``
method with a request, and gets ``{"ok": VALUE}`` or ``{"error": {"code", "message", "hint"}}``
back; nothing here raises into JavaScript. Every method calls the library function the command
line calls for the same work (``batch.checking.check_files``, ``audit.run.run_audit``,
``sheets.write_template``, ``sheets.write_document_file``, ``convert.files.convert_file``,
``export.files.export_files``), with ``root`` as the working directory so that paths read as
they do when the command is run from that folder, and everything in this one process (Pyodide
has no worker processes). Files to download are written under ``out`` (``/out``).
docs/web.md ("What the page runs") says which options are controls and what stays CLI-only.
"""
from __future__ import annotations

import json
import os
import shutil
from contextlib import AbstractContextManager, chdir, nullcontext
from pathlib import Path
from typing import Any, Callable

from ..core.errors import MechasheetError

#: what a method is handed: the request, parsed
Request = dict[str, Any]
#: ``on_progress(done, total, path)``: a JavaScript function in the page, called positionally
Progress = Callable[[int, int, str], Any]

ZIP, XLSX, JSON_MIME = ("application/zip", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
                        "application/json")
AUDIT_REPORT, AUDIT_COPIES = "audit.json", "annotated"  # `mechasheet audit -o audit.json`'s names


#: what a check and an audit import on their first run: under Pyodide each module is compiled
#: from source then (no bytecode for its Python in the wheel), seconds the first drop would wait
WARM_MODULES = ("converter.batch.checking", "converter.audit.folder", "converter.audit.drift",
                "converter.audit.html_report", "converter.sheets.source", "converter.sheets.reader",
                "converter.legacy.sources", "converter.check.context", "python_calamine")


def warm() -> str:
    """``{"ok": true}`` once the modules a check and an audit import are imported and each
    system's schema and engine have run once on an empty document: the worker calls it after
    start-up, so the first dropped files do not wait for it."""
    def work(req: Request) -> bool:
        import importlib

        from ..check import check_document
        from ..rules import system_ids

        for name in WARM_MODULES:
            importlib.import_module(name)
        for system in system_ids():
            check_document({"system": system})
        return True

    return _answer("{}", work, chdir=False)


def rules(request: str = "{}") -> str:
    """Every system's rules readings, what ``mechasheet rules`` lists, so the page offers each
    as a choice: ``[{"system", "name", "label", "default", "values": {value: label}}]`` in the
    request's language, in the listing's order."""
    def work(req: Request) -> list[dict[str, Any]]:
        from ..rules import system_ids
        from ..rules.options import option_declarations

        en = _lang(req) == "en"
        return [{"system": system, "name": name, "label": decl.get("label_en", decl["label"]) if en else decl["label"],
                 "default": decl["default"],
                 "values": dict(decl.get("values_en", decl["values"]) if en else decl["values"])}
                for system in system_ids() for name, decl in option_declarations(system).items()]

    return _answer(request, work, chdir=False)


def version() -> str:
    """``{"ok": "<mechasheet version>"}``: the page shows which engine it runs."""
    from ..core.version import __version__

    return _dumps({"ok": __version__})


class Session:
    """One per worker: the options of the last check and what it found, so the English switch
    re-renders the report without reading the files again."""

    def __init__(self, out: str | Path = "/out") -> None:
        self.out = Path(os.path.abspath(out))  # the methods run in a request's root
        self._check: Any = None  # the last CheckReport
        self._audit: Any = None  # the last check's AuditReport (its party view)
        self._request: Request = {}  # the last check's request (a party asked for later)

    # --- the methods the worker calls ------------------------------------------------------------

    def check(self, request: str, on_progress: Progress | None = None) -> str:
        """``{"report": R, "party": P}``: R exactly as ``mechasheet check PATHS --format json``
        prints it (with the request's --rule, --catalog, --skills, --lang), P each system's
        party view as the audit computes it (the house rules given), as tables. With
        ``"party": false`` the files are not read the audit's way now: P is null, and
        :meth:`party` reads them when asked (the cards shown first)."""
        return _answer(request, lambda req: self._run_check(req, on_progress))

    def report(self, request: str) -> str:
        """The last check's report again, in ``request["lang"]``."""
        return _answer(request, lambda req: self._last().to_dict(_lang(req)), chdir=False)

    def party(self, request: str, on_progress: Progress | None = None) -> str:
        """The last check's party tables, in ``request["lang"]`` (its files read the audit's
        way first if that check did not)."""
        return _answer(request, lambda req: party_tables(self._audit_of_last(on_progress), _lang(req)),
                       chdir=False)

    def audit_report(self, request: str, on_progress: Progress | None = None) -> str:
        """The last check's files as the audit reads them, ``{"ok": A}``: the dict ``mechasheet
        audit PATHS -o audit.json --no-annotated`` writes (a homemade workbook's characters read
        by their labels, each with its totals and findings: the cards the check cannot give)."""
        return _answer(request, lambda req: self._audit_of_last(on_progress).to_dict(_lang(req)), chdir=False)

    def audit(self, request: str, on_progress: Progress | None = None) -> str:
        """A zip of ``audit.json`` (the bytes ``mechasheet audit PATHS -o audit.json`` writes)
        and ``annotated/`` (the copies it writes beside that report)."""
        return _answer(request, lambda req: self._run_audit(req, on_progress))

    def template(self, request: str) -> str:
        """``mechasheet template SYSTEM [--formulas F]``'s workbook, to download."""
        return _answer(request, self._template, chdir=False)

    def filled(self, request: str) -> str:
        """``mechasheet write DOC.json``'s workbook (the request's --rule, --catalog, --skills,
        --formulas), to download."""
        return _answer(request, self._filled)

    def convert(self, request: str) -> str:
        """``mechasheet convert PATH --to SYSTEM [--mapping FILE] [--catalog FILE]``: the
        document, the account as text, the conversion as JSON, and the document as a file to
        download."""
        return _answer(request, self._convert)

    def ccfolia(self, request: str) -> str:
        """Each piece of ``mechasheet export PATH --to ccfolia`` as the one JSON value the copy
        button puts on the clipboard."""
        return _answer(request, self._ccfolia)

    def udonarium(self, request: str) -> str:
        """The zip ``mechasheet export PATH --to udonarium`` writes (every zip when the input
        holds several characters or units: ``files``)."""
        return _answer(request, self._udonarium)

    # --- the work ----------------------------------------------------------------------------------

    def _last(self) -> Any:
        if self._check is None:
            raise RuntimeError("no check has run yet")
        return self._check

    def _run_check(self, req: Request, on_progress: Progress | None) -> dict[str, Any]:
        from ..batch.checking import check_files
        from ..sheets.source import load_context

        paths, lang, rules = _paths(req), _lang(req), _rules(req)
        with_party = req.get("party", True) is not False
        house = _house(req)  # a bad house rules file refused before any file is read
        context = load_context(req.get("catalog"), req.get("skills"))
        counts = {"done": 0, "total": self._audit_count(paths) if with_party else 0}

        def found(n: int) -> None:
            counts["total"] += n

        def step(fr: Any) -> None:
            counts["done"] += 1
            if on_progress is not None:
                on_progress(counts["done"], counts["total"], fr.path)

        report = check_files(paths, rules, context, jobs=1, on_report=step, on_found=found,
                             catalog_file=req.get("catalog"), required=True, isolate=False)
        self._check, self._audit, self._request = report, None, {**req, "root": os.getcwd()}
        if not with_party:
            return {"report": report.to_dict(lang), "party": None}
        self._audit = self._audited(req, rules, house, context, step)
        return {"report": report.to_dict(lang), "party": party_tables(self._audit, lang)}

    @staticmethod
    def _audit_count(paths: list[str]) -> int:
        from ..audit.folder import AUDIT_SUFFIXES
        from ..io.sources import expand_paths

        return len(expand_paths(paths, AUDIT_SUFFIXES))

    def _audited(self, req: Request, rules: dict[str, str], house: Any, context: dict[str, Any],
                 step: Callable[[Any], None]) -> Any:
        """The request's files read and checked the audit's way, with the folder's views."""
        from ..audit.folder import audit_paths

        return audit_paths(_paths(req), house=house, options=rules, context=context, profile=_profile(req),
                           on_file=step, isolate=False)

    def _audit_of_last(self, on_progress: Progress | None) -> Any:
        """The last check's files read the audit's way (now, if that check left it for later)."""
        self._last()  # a check first
        if self._audit is None:
            from ..sheets.source import load_context

            req = self._request
            with _working_dir(req["root"]):
                total, done = self._audit_count(_paths(req)), [0]

                def step(f: Any) -> None:
                    done[0] += 1
                    if on_progress is not None:
                        on_progress(done[0], total, f.path)

                context = load_context(req.get("catalog"), req.get("skills"))
                self._audit = self._audited(req, _rules(req), _house(req), context, step)
        return self._audit

    def _run_audit(self, req: Request, on_progress: Progress | None) -> dict[str, str]:
        import zipfile

        from ..audit.run import AuditOptions, run_audit

        root = Path.cwd()
        report, folder = root / AUDIT_REPORT, root / AUDIT_COPIES
        had_report, had_folder = report.exists(), folder.exists()
        total = [0]

        def started(settings: list[tuple[str, str]], n: int) -> None:
            total[0] = n

        def audited(f: Any) -> None:
            if on_progress is not None:
                on_progress(len(seen) + 1, total[0], f.path)
            seen.append(f.path)

        seen: list[str] = []
        options = AuditOptions(_paths(req), [AUDIT_REPORT], house=req.get("house"), profile=req.get("profile"),
                               rules=_rule_args(req), catalog=req.get("catalog"), skills=req.get("skills"),
                               jobs=1, lang=_lang(req), isolate=False)
        # The outputs land where the command would write them (beside the inputs, named as it
        # names them, so that audit.json says the copies' paths as it does), then move into the
        # zip; what this run wrote is removed again, what was there before is left as it was.
        copies: list[Path] = []
        try:
            outcome = run_audit(options, on_start=started, on_file=audited)
            copies = outcome.copies
            target = self._target("audit.zip")
            with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as z:
                z.write(report, AUDIT_REPORT)
                for copy in copies:
                    z.write(copy, copy.as_posix())
        finally:
            if not had_report:
                report.unlink(missing_ok=True)
            if not had_folder:
                shutil.rmtree(folder, ignore_errors=True)
            else:
                for copy in copies:
                    copy.unlink(missing_ok=True)
        return _file(target, ZIP)

    def _template(self, req: Request) -> dict[str, str]:
        from ..sheets import write_template

        system = str(req.get("system") or "")
        _known_system(system)
        return _file(write_template(system, self._target(f"{system}.xlsx"), True, formulas=_formulas(req)), XLSX)

    def _filled(self, req: Request) -> dict[str, str]:
        from ..sheets import write_document_file

        path = _path(req)
        out = write_document_file(path, self._target(Path(path).stem + ".xlsx"), True, _rule_args(req),
                                  req.get("catalog"), req.get("skills"), _formulas(req), _lang(req))
        return _file(out, XLSX)

    def _convert(self, req: Request) -> dict[str, Any]:
        from ..convert.files import convert_file, render_text

        path, to, lang = _path(req), str(req.get("to") or ""), _lang(req)
        _known_system(to)
        result, written = convert_file(path, to, self._target(f"{Path(path).stem}.{to}.json"), req.get("mapping"),
                                       req.get("catalog"), True, lang)
        assert written is not None
        return {"document": result.document, "text": render_text(result, lang),
                "conversion": result.to_dict(lang), **_file(written, JSON_MIME)}

    def _ccfolia(self, req: Request) -> dict[str, Any]:
        done, written = self._export(req, "ccfolia")
        return {"pieces": [p.read_text("utf-8").rstrip("\n") for p in written],
                "names": [p.stem for p in written], "skipped": _skipped(done, _lang(req))}

    def _udonarium(self, req: Request) -> dict[str, Any]:
        done, written = self._export(req, "udonarium")
        if not written:  # nothing to play: the first reason, as the command's line says it
            why = next((f for e in done for f in e.findings), None)
            if why is None:
                raise MechasheetError(f"{_path(req)}: nothing to export")
            raise MechasheetError(why.message("en"), why.code, **why.params)
        files = [_file(p, ZIP) for p in written]
        return {**files[0], "files": files, "skipped": _skipped(done, _lang(req))}

    def _export(self, req: Request, target: str) -> tuple[list[Any], list[Path]]:
        from ..export.files import export_files

        folder = self._target(target)  # its own folder: a piece named like another download
        shutil.rmtree(folder, ignore_errors=True)
        done, written, _ = export_files([_path(req)], target, str(folder), req.get("profile"), req.get("catalog"),
                                        req.get("skills"), True)
        return done, [p for p in written if p is not None]

    def _target(self, name: str) -> Path:
        """Where a download named ``name`` is written (absolute: the methods run in ``root``)."""
        self.out.mkdir(parents=True, exist_ok=True)
        return self.out / name


def party_tables(audit: Any, lang: str = "ja") -> list[dict[str, Any]]:
    """Each system's party view as a table: the caption the audit's HTML report gives it (the
    figure, the median, the tolerance, the outliers, who is not counted) as its title, the
    columns of the xlsx report's party sheet (less the system), a row per member."""
    if audit is None:
        return []
    from ..audit.html_report import party_captions
    from ..audit.tables import PARTY_COLUMNS, headers, party_rows

    columns = [c for c in PARTY_COLUMNS if c != "system"]
    rows = party_rows(audit, lang)
    return [{"system": system, "title": caption, "columns": headers(tuple(columns), lang),
             "rows": [[row[c] for c in columns] for row in rows if row["system"] == system]}
            for system, _view, caption, _bars in party_captions(audit, lang)]


def _skipped(done: list[Any], lang: str) -> list[dict[str, Any]]:
    """The inputs of an export that gave no piece, and why (their findings)."""
    return [{"path": e.path, "findings": [f.to_dict(lang) for f in e.findings]} for e in done if e.piece is None]


# --- requests and answers ----------------------------------------------------------------------------

def _answer(request: str, work: Callable[[Request], Any], chdir: bool = True) -> str:
    """``work(request)`` as ``{"ok": value}``, run in the request's root; any exception as
    ``{"error": ...}`` (a MechasheetError with its code and texts in the request's language,
    anything else INTERNAL)."""
    lang = "ja"
    try:
        req = json.loads(request) if request else {}
        if not isinstance(req, dict):
            raise TypeError(f"a request is a JSON object, not {type(req).__name__}")
        lang = _lang(req)
        with _working_dir(req.get("root") if chdir else None):
            return _dumps({"ok": work(req)})
    except MechasheetError as exc:
        finding = exc.finding
        return _dumps({"error": {"code": exc.code or "INTERNAL", "message": exc.message(lang),
                                 "hint": finding.hint(lang) if finding is not None else ""}})
    except RecursionError:
        return _internal("RecursionError: nested too deeply")
    except Exception as exc:  # a bug of ours, or of the page's request: said, never raised into JS
        return _internal(f"{type(exc).__name__}: {exc}")


def _internal(message: str) -> str:
    """A bug of ours (or a request the page should not send): the exception, as the CLI's
    "internal error" line names it."""
    return _dumps({"error": {"code": "INTERNAL", "message": message, "hint": ""}})


def _dumps(value: Any) -> str:
    """JSON text for JavaScript: ASCII escapes, so a file name that is not UTF-8 (a lone
    surrogate) crosses into JavaScript as the string ``JSON.parse`` gives back."""
    return json.dumps(value)


def _working_dir(root: str | None) -> AbstractContextManager[Any]:
    """Within: ``root`` the working directory (the paths of a request are relative to it)."""
    return chdir(root) if root else nullcontext()


def _lang(req: Request) -> str:
    lang = str(req.get("lang") or "ja").lower()
    return lang if lang in ("ja", "en") else "ja"


def _paths(req: Request) -> list[str]:
    paths = req.get("paths")
    if isinstance(paths, str):
        return [paths]
    return [str(p) for p in paths or []]


def _path(req: Request) -> str:
    path = req.get("path")
    if not path:
        raise TypeError("this request needs a path")
    return str(path)


def _rule_args(req: Request) -> list[str]:
    """The request's ``rules``, as ``--rule NAME=VALUE`` arguments."""
    rules = req.get("rules") or []
    return [rules] if isinstance(rules, str) else [str(r) for r in rules]


def _rules(req: Request) -> dict[str, str]:
    """The request's ``rules`` read as ``--rule`` reads them (an unknown one: RULE_UNKNOWN...)."""
    from ..rules import system_ids
    from ..rules.options import parse_rule_args

    return parse_rule_args(_rule_args(req), system_ids())


def _house(req: Request) -> Any:
    """The house rules the request names (their readings checked as ``--rule``'s), or none."""
    from ..audit.house import HouseRules, load_house
    from ..rules import system_ids
    from ..rules.options import parse_rule_args

    if not req.get("house"):
        return HouseRules()
    house = load_house(req["house"], system_ids())
    parse_rule_args([f"{k}={v}" for k, v in house.rules.items()], system_ids())
    return house


def _profile(req: Request) -> Any:
    from ..legacy.profile import load_profile

    return load_profile(req["profile"]) if req.get("profile") else None


def _formulas(req: Request) -> str:
    formulas = str(req.get("formulas") or "native").lower()
    if formulas not in ("native", "xlwings"):
        raise TypeError(f"formulas is native or xlwings, not {formulas}")
    return formulas


def _known_system(system: str) -> None:
    from ..rules import system_ids

    if system not in system_ids():
        raise TypeError(f"no system named {system!r} (one of {', '.join(system_ids())})")


def _file(path: Path, mime: str) -> dict[str, str]:
    return {"file": str(path), "name": path.name, "mime": mime}
