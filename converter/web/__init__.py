"""The browser page: its static site built from pinned assets, served locally, and the Python it runs."""
