"""The core every layer shares, standard library only (it also runs under Pyodide): findings and
their catalog, errors with exit codes, JSON pointers, name keys, the evaluation result, Sources
and set checks."""
