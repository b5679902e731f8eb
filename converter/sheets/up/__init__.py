"""The `up` workbook: a unit priced in ＵＰ (layout, lists and rules sheet, formulas, the
engine's value of each computed cell); ``sheet.SHEET`` is what the one mechanism asks."""
