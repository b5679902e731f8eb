"""The `pp` workbook: a character paid in パイロットポイント and the machine sheet (layout,
lists and rules sheet, formulas); ``sheet.SHEET`` is what the one mechanism asks."""
