"""The `mailgear` workbook: a pilot and the pilot's mail gear, the rules sheet and the group's
catalog sheet (layout, view, formulas, catalog sheet); ``sheet.SHEET`` is what the one mechanism
asks."""
