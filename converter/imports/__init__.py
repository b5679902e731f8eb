"""Homemade and older sheets brought in: the import run (``importer``) and its roster (``roster``)."""
