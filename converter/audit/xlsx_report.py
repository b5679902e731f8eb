"""The audit as an .xlsx workbook: a summary sheet (counts, the settings in force), then the
roster, every finding, the party and the duplicates, each a table the GM can sort and filter."""
from __future__ import annotations

import io

from ..core.texts import texts
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
    buffer = io.BytesIO()
    with pandas.ExcelWriter(buffer, engine="xlsxwriter") as writer:
        for name, frame in sheets:
            frame.to_excel(writer, sheet_name=name, index=False)
            sheet = writer.sheets[name]
            rows, cols = frame.shape
            if rows and name != t["audit_sheet_summary"]:
                sheet.autofilter(0, 0, rows, cols - 1)
            sheet.freeze_panes(1, 0)
            for c, column in enumerate(frame.columns):
                width = max([len(str(column))] + [len(str(v)) for v in frame.iloc[:200, c]])
                sheet.set_column(c, c, min(60, max(8, width * 1.6)))
    return buffer.getvalue()
