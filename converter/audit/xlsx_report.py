"""The audit as an .xlsx workbook: a summary sheet (counts, the settings in force), then the
roster, every finding, the party and the duplicates, each a table the GM can sort and filter."""
from __future__ import annotations

from ..core.texts import texts
from ..imports.roster import frames_xlsx
from .report import AuditReport
from .tables import (duplicates_frame, findings_frame, party_frame, roster_frame, settings_rows,
                     summary_rows)


def xlsx_report_bytes(report: AuditReport, lang: str = "ja") -> bytes:
    import pandas

    t = texts(lang)
    overview = pandas.DataFrame(summary_rows(report, lang) + [("", "")] + settings_rows(report, lang),
                                columns=[t["audit_col_setting"], t["audit_col_value"]])
    sheets = [(t["audit_sheet_summary"], overview), (t["audit_sheet_roster"], roster_frame(report, lang)),
              (t["audit_sheet_findings"], findings_frame(report, lang)),
              (t["audit_sheet_party"], party_frame(report, lang)),
              (t["audit_sheet_duplicates"], duplicates_frame(report, lang))]
    return frames_xlsx(sheets, styled=True, unfiltered=[t["audit_sheet_summary"]])
