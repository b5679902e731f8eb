"""The command line: parses arguments, calls the library, prints. No rule logic lives here.

Heavy libraries are imported inside the commands so that ``mechasheet --help`` stays fast.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any, Sequence

from .core.errors import MechasheetError
from .core.texts import argv_lang, default_lang, help_formatter, localized_parser, texts

# 0 no error; 1 rule or schema errors; 2 an input unreadable or output refused; 3 a bug of ours;
# 130 interrupted (Ctrl-C), as shells report a SIGINT.
EXIT_OK, EXIT_FINDINGS, EXIT_INPUT, EXIT_INTERNAL, EXIT_INTERRUPTED = 0, 1, 2, 3, 130
REPORT_BUGS = "https://github.com/mechasheet/mechasheet/issues"


def _parser(lang: str = "ja") -> argparse.ArgumentParser:
    """The parser, every help text in ``lang``."""
    from .core.version import __version__
    from .rules import system_ids

    t = texts(lang)
    p = localized_parser(argparse.ArgumentParser(prog="mechasheet", description=t["description"],
                                                 add_help=False, formatter_class=help_formatter(t)), t)
    p.add_argument("--version", action="version", version=f"mechasheet {__version__}", help=t["version"])
    p.add_argument("--debug", action="store_true", help=t["debug"])
    # also before the command (`mechasheet --lang en check x`): argv_lang read it, and every
    # command's --lang defaults to it
    p.add_argument("--lang", type=str.lower, choices=("ja", "en"), default=lang, help=t["lang"])
    sub = p.add_subparsers(dest="command", required=True, metavar=t["usage_commands"])

    def jobs(text: str) -> int:
        """--jobs N: a whole number of at least 1 (said in the run's language)."""
        value = int(text)
        if value < 1:
            raise argparse.ArgumentTypeError(t["jobs_at_least_one"])
        return value

    def existing(text: str) -> str:
        """A file or folder that is there (an audit or import of nothing is refused, not reported)."""
        if text != "-" and not os.path.exists(text):
            raise argparse.ArgumentTypeError(t["path_missing"].format(path=text))
        return text

    # The options several commands share, in one wording: flags and add_argument's keywords (the
    # help a text's key); a command names them "name" or "name:help key".
    shared: dict[str, tuple[tuple[str, ...], dict[str, Any]]] = {
        "force": (("--force",), {"action": "store_true", "help": "force"}),
        "rule": (("--rule",), {"action": "append", "default": [], "metavar": "NAME=VALUE", "help": "rule"}),
        "lang": (("--lang",), {"type": str.lower, "choices": ("ja", "en"), "default": lang, "help": "lang"}),
        "jobs": (("--jobs",), {"type": jobs, "default": None, "metavar": "N", "help": "check_jobs"}),
        "profile": (("--profile",), {"metavar": "FILE", "help": "import_profile"}),
        "catalog": (("--catalog",), {"metavar": "FILE", "help": "check_catalog"}),
        "skills": (("--skills",), {"metavar": "FILE", "help": "check_skills"}),
        "formulas": (("--formulas",), {"type": str.lower, "choices": ("native", "xlwings"), "default": "native",
                                       "help": "excel_formulas"}),
        "format": (("--format",), {"choices": ("text", "json"), "default": "text"}),
        "output": (("-o", "--output"), {}),
    }

    def command(name: str, *options: str | tuple[str, ...], examples: bool = False,
                **own: dict[str, Any]) -> argparse.ArgumentParser:
        """A command and its arguments in help order: shared names, or (flags..., help key) with
        ``own[first flag]`` its further keywords (a positional's own keywords under its name)."""
        c = localized_parser(sub.add_parser(name, help=t[name], description=t[name], add_help=False,
                                            epilog=t[f"{name}_examples"] if examples else None,
                                            formatter_class=help_formatter(t, raw=examples)), t)
        for option in options:
            if isinstance(option, str):
                key, _, help_key = option.partition(":")
                flags, kw = shared[key]
                kw = {**kw, "help": help_key or kw["help"], **own.get(key, {})}
            else:
                flags, kw = option[:-1], {"help": option[-1], **own.get(option[0].lstrip("-"), {})}
            c.add_argument(*flags, **{**kw, "help": t[kw["help"]]})
        return c

    paths = {"nargs": "+", "metavar": "PATH"}
    systems = tuple(system_ids())
    command("check", ("paths", "check_paths"), "format:check_format", "jobs", ("--breakdown", "check_breakdown"),
            ("--quiet", "check_quiet"), "rule", "lang", "catalog", "skills", examples=True, paths=paths,
            format={"choices": ("text", "json", "jsonl")},
            breakdown={"action": "store_true"}, quiet={"action": "store_true"})
    command("import", ("paths", "import_paths"), "output:import_output", ("--system", "import_system"),
            ("--templates", "import_templates"), "profile", "jobs:import_jobs", ("--quiet", "import_quiet"),
            "force", "rule", "lang",
            examples=True, paths={**paths, "type": existing}, output={"metavar": "OUTDIR", "required": True},
            system={"type": str.lower, "choices": systems}, templates={"action": "store_true"},
            quiet={"action": "store_true"})
    command("audit", ("paths", "audit_paths"), "output:audit_output", ("--house", "audit_house"),
            ("--annotated", "audit_annotated"), ("--no-annotated", "audit_no_annotated"), "profile", "jobs",
            ("--quiet", "audit_quiet"), "force", "rule", "lang", "catalog", "skills", examples=True,
            paths={**paths, "type": existing},
            output={"action": "append", "required": True, "metavar": "REPORT"}, house={"metavar": "FILE"},
            annotated={"metavar": "DIR"}, quiet={"action": "store_true"},
            **{"no-annotated": {"action": "store_true"}})
    command("schema", ("system", "schema_system"), "lang",
            system={"type": str.lower, "choices": (*systems, *REPORT_SCHEMAS), "metavar": "SCHEMA"})
    command("template", ("system", "template_system"), "output:template_output", "force", "lang", "formulas",
            output={"metavar": "PATH"}, system={"type": str.lower, "choices": systems, "metavar": "SYSTEM"})
    command("write", ("document", "write_document"), "output:write_output", "force", "rule", "lang",
            "catalog:write_catalog", "skills:write_skills", "formulas",
            document={"metavar": "DOC.json"}, output={"metavar": "SHEET.xlsx"})
    command("read", ("sheet", "read_sheet"), "output:read_output", "force", "lang",
            sheet={"metavar": "SHEET.xlsx"}, output={"metavar": "DOC.json"})
    command("rules", "lang")
    command("recompute", ("sheet", "recompute_sheet"), "output:recompute_output", "format:recompute_format",
            "force", "lang", sheet={"metavar": "SHEET.xlsx"}, output={"required": True, "metavar": "OUT.xlsx"})
    command("convert", ("src", "convert_src"), ("--to", "convert_to"), "output:convert_output", "force", "lang",
            ("--mapping", "convert_mapping"), "catalog:convert_catalog", "format:convert_format",
            src={"metavar": "SRC"}, to={"required": True, "type": str.lower, "choices": systems},
            output={"metavar": "OUT.json|OUT.xlsx"}, mapping={"metavar": "FILE"})
    command("export", ("paths", "export_paths"), ("--to", "export_to"), ("--stdout", "export_stdout"),
            "output:export_output", "force", "lang", "profile", "catalog", "skills",
            paths={"nargs": "+", "metavar": "SHEET_OR_DOC"},
            to={"required": True, "type": str.lower, "choices": ("ccfolia", "udonarium", "palette")},
            stdout={"action": "store_true"}, output={"metavar": "OUTDIR"})
    command("web", "output:web_output", ("--serve", "web_serve"), ("--port", "web_port"), "force:web_force", "lang",
            examples=True, output={"metavar": "SITE"}, serve={"action": "store_true"},
            port={"type": int, "default": 0, "metavar": "N"})
    return p


def _color(stream) -> bool:
    """Colour only on a terminal, and never when NO_COLOR is set (no-color.org)."""
    return bool(getattr(stream, "isatty", lambda: False)()) and not os.environ.get("NO_COLOR")


def _cmd_check(args: argparse.Namespace) -> int:
    """Check files, printing each file's report as soon as it is ready (text, JSON Lines), or
    the whole report at the end (JSON); a progress bar on a terminal for longer runs."""
    from .check.text import Progress, render_file, render_tail, text_options
    from .rules import system_ids
    from .rules.options import parse_rule_args
    from .batch.checking import check_files
    from .batch.pool import default_jobs
    from .sheets.source import load_context

    opts = text_options(args.lang, breakdown=args.breakdown, quiet=args.quiet, color=_color(sys.stdout))

    def on_report(fr) -> None:
        if args.format == "text":
            sys.stdout.write(render_file(fr, opts))
        elif args.format == "jsonl":
            sys.stdout.write(json.dumps(fr.to_dict(args.lang), ensure_ascii=False) + "\n")
        sys.stdout.flush()
        progress.advance()

    with Progress() as progress:
        report = check_files(args.paths, parse_rule_args(args.rule, system_ids()),
                             load_context(args.catalog, args.skills),
                             jobs=args.jobs or default_jobs(), on_report=on_report, on_found=progress.found,
                             catalog_file=args.catalog, required=True)
    if args.format == "json":
        sys.stdout.write(json.dumps(report.to_dict(args.lang), ensure_ascii=False, indent=2) + "\n")
    elif args.format == "jsonl":
        head = {k: v for k, v in report.to_dict(args.lang).items() if k != "files"}
        head["set_findings"] = [{"path": path, **f.to_dict(args.lang)} for path, f in report.set_findings]
        sys.stdout.write(json.dumps({"kind": "run", **head}, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(render_tail(report, opts))
    if report.unreadable:
        return EXIT_INPUT
    return EXIT_OK if report.valid else EXIT_FINDINGS


def _cmd_import(args: argparse.Namespace) -> int:
    """Import workbooks into OUTDIR, a line per character or unit as each file is done (with its
    errors and warnings; --quiet: only those with errors), then the counts and the files
    written; exit 0 when every file was imported without an error, 1 when some could not be or
    an imported sheet has errors, 2 when none could. A SIGTERM ends it as Ctrl-C does."""
    from .check.text import Progress, text_options
    from .imports.importer import Entry, import_files
    from .legacy.profile import load_profile
    from .rules import system_ids
    from .rules.options import parse_rule_args
    from .batch.pool import default_jobs, terminated_as_interrupt

    opts = text_options(args.lang, quiet=args.quiet, color=_color(sys.stdout))

    def on_entry(entry: Entry) -> None:
        sys.stdout.write(entry.text(opts))
        sys.stdout.flush()
        progress.advance()

    with terminated_as_interrupt():
        with Progress() as progress:
            report = import_files(args.paths, args.output, system=args.system,
                                  options=parse_rule_args(args.rule, system_ids()),
                                  profile=load_profile(args.profile) if args.profile else None,
                                  jobs=args.jobs or default_jobs(), templates=args.templates, force=args.force,
                                  on_entry=on_entry, on_found=progress.found, required=True)
    sys.stdout.write(report.summary_text(args.lang))
    return report.exit_code


def _cmd_audit(args: argparse.Namespace) -> int:
    """Audit a folder for the GM: each file with errors or warnings as it is done (--quiet: with
    errors), then what the whole folder shows, the counts and every file written (reports and
    annotated copies); exit 0 without errors, 1 with some, 2 when nothing could be read. A
    SIGTERM ends it as Ctrl-C does."""
    from dataclasses import replace

    from .audit.run import AuditOptions, closing_text, listed, run_audit
    from .batch.pool import terminated_as_interrupt
    from .check.text import Progress, render_file, text_options

    t = texts(args.lang)
    opts = text_options(args.lang, color=_color(sys.stdout))
    options = AuditOptions(args.paths, args.output, house=args.house, annotated=args.annotated,
                           copies=not args.no_annotated, profile=args.profile, rules=args.rule,
                           catalog=args.catalog, skills=args.skills, jobs=args.jobs, force=args.force,
                           lang=args.lang)

    def on_start(settings: list[tuple[str, str]], total: int) -> None:
        for setting, value in settings:
            sys.stdout.write(t["audit_setting"].format(setting=setting, value=value) + "\n")
        progress.found(total)

    def on_file(audited: Any) -> None:
        for m in audited.members:
            shown = listed(m.report.findings, args.quiet)
            if shown or m.report.kind == "unreadable":
                sys.stdout.write(render_file(replace(m.report, findings=shown or m.report.findings), opts))
        sys.stdout.flush()
        progress.advance()

    with terminated_as_interrupt():
        with Progress() as progress:
            outcome = run_audit(options, on_start=on_start, on_file=on_file)
    sys.stdout.write(closing_text(outcome, args.lang, quiet=args.quiet))
    return outcome.exit_code


#: the schemas `mechasheet schema` prints besides the systems' documents: name → (module, function)
REPORT_SCHEMAS = {"mailgear-catalog": (".rules.mailgear.catalog", "catalog_schema_text"),
                  "report": (".check.schema", "report_schema_text"),
                  "import-report": (".imports.importer", "import_report_schema_text"),
                  "audit-report": (".audit.report", "audit_schema_text")}


def _cmd_schema(args: argparse.Namespace) -> int:
    import importlib

    if args.system in REPORT_SCHEMAS:
        module, function = REPORT_SCHEMAS[args.system]
        sys.stdout.write(getattr(importlib.import_module(module, __package__), function)())
    else:
        sys.stdout.write(importlib.import_module(".check.schema", __package__).schema_text(args.system))
    return EXIT_OK


def _cmd_rules(args: argparse.Namespace) -> int:
    from .rules.options import options_text

    sys.stdout.write(options_text(args.lang))
    return EXIT_OK


def _cmd_template(args: argparse.Namespace) -> int:
    from .sheets import write_template

    out = write_template(args.system, args.output or f"templates/{args.system}.xlsx", args.force,
                         formulas=args.formulas)
    sys.stdout.write(f"{out}\n")
    return EXIT_OK


def _cmd_write(args: argparse.Namespace) -> int:
    from .sheets import write_document_file

    out = write_document_file(args.document, args.output, args.force, args.rule, args.catalog, args.skills,
                              args.formulas, args.lang)
    sys.stdout.write(f"{out}\n")
    return EXIT_OK


def _cmd_read(args: argparse.Namespace) -> int:
    from .check.text import render_findings, text_options
    from .io.files import write_atomic
    from .sheets import read_document_text

    text, findings = read_document_text(args.sheet)
    sys.stderr.write(render_findings(findings, text_options(args.lang, color=_color(sys.stderr))))
    if args.output:
        sys.stdout.write(f"{write_atomic(args.output, text, args.force, inputs=[args.sheet])}\n")
    else:
        sys.stdout.write(text)
    return _errors_exit(findings)


def _errors_exit(findings: list) -> int:
    return EXIT_FINDINGS if any(f.level.value == "error" for f in findings) else EXIT_OK


def _cmd_recompute(args: argparse.Namespace) -> int:
    """A copy of SHEET with every computed cell set by the engine; each changed cell printed
    (old → new), what reading the sheet found on standard error; SHEET is never touched."""
    from .check.text import render_findings, text_options
    from .sheets.recompute import changes_text, recompute_file

    done, written = recompute_file(args.sheet, args.output, args.force)
    sys.stderr.write(render_findings(done.findings, text_options(args.lang, color=_color(sys.stderr))))
    sys.stdout.write(changes_text(done, written, args.lang, args.format))
    return _errors_exit(done.findings)


def _cmd_convert(args: argparse.Namespace) -> int:
    """Convert SRC into --to's system: the account printed, the document written with -o; exit 1
    when the target's engine finds errors (decisions the GM must make first) or the conversion
    itself has an error finding (e.g. a source with errors)."""
    from .convert.files import convert_file, result_text

    result, written = convert_file(args.src, args.to, args.output, args.mapping, args.catalog, args.force,
                                   args.lang)
    sys.stdout.write(result_text(result, written, args.lang, args.format))
    valid = result.report is None or result.report.valid
    return EXIT_OK if valid and not _errors_exit(result.findings) else EXIT_FINDINGS


def _cmd_export(args: argparse.Namespace) -> int:
    """Export each character or unit as --to gives it: files under -o, or printed (--stdout);
    exit 1 when an input held nothing to export."""
    from .export.files import export_files, export_lines

    t = texts(args.lang)
    if not args.output and not args.stdout:
        sys.stderr.write(f"mechasheet: {t['export_needs_output']}\n")
        return EXIT_INPUT
    done, written, text = export_files(args.paths, args.to, args.output, args.profile, args.catalog, args.skills,
                                       args.force, to_stdout=args.stdout)
    sys.stdout.write(text)
    (sys.stderr if args.stdout else sys.stdout).write(export_lines(done, written, args.lang))
    return EXIT_OK if len(written) == len(done) else EXIT_FINDINGS


def _cmd_web(args: argparse.Namespace) -> int:
    from .web.build import run_web

    return run_web(args.output, serve_it=args.serve, port=args.port, force=args.force, lang=args.lang,
                   stdout=sys.stdout, stderr=sys.stderr)


COMMANDS = {"convert": _cmd_convert, "export": _cmd_export, "check": _cmd_check, "import": _cmd_import,
            "audit": _cmd_audit, "schema": _cmd_schema, "rules": _cmd_rules, "template": _cmd_template,
            "write": _cmd_write, "read": _cmd_read, "recompute": _cmd_recompute, "web": _cmd_web}


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; every outcome is an exit code, never a traceback (unless --debug)."""
    # No command does linear algebra: the BLAS thread pool numpy starts when the roster's or the
    # audit's pandas is first imported would only spin up (0.1 s of CPU a run). A user's own
    # setting stands.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    for stream in (sys.stdout, sys.stderr):  # a file name or text no encoding can print
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    args = _parser(argv_lang(sys.argv[1:] if argv is None else list(argv))).parse_args(argv)
    try:
        return COMMANDS[args.command](args)
    except MechasheetError as exc:
        lang = getattr(args, "lang", None) or default_lang()
        hint = f"\n  → {exc.finding.hint(lang)}" if exc.finding is not None else ""
        sys.stderr.write(f"mechasheet: {exc.message(lang)}{hint}\n")
        return exc.exit_code
    except BrokenPipeError:
        return EXIT_OK
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED  # quietly: output files are written whole or not at all
    except Exception as exc:  # a bug of ours: one line, the traceback only when asked
        if args.debug:
            import traceback

            traceback.print_exc()
        sys.stderr.write(f"mechasheet: internal error ({type(exc).__name__}: {exc}); "
                         f"please report it at {REPORT_BUGS} (--debug prints the traceback)\n")
        return EXIT_INTERNAL


if __name__ == "__main__":
    raise SystemExit(main())
