"""Importing legacy sheets: homemade layouts read by their labels."""
