"""Many files at once: the worker pool (``pool``) and checking a folder with it (``checking``)."""
