"""Homemade layouts with their ground truth (issue 36): one TOML file each, the sheet's cells as
written and, for each character or unit it holds, every value with the cell it sits in."""
