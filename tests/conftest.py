"""Settings for the whole suite.

Hypothesis's deadline (200 ms an example) is off: the suite runs a worker per core beside
LibreOffice and the formulas package, so an example's time says more about the machine's load
than about the code; the tests that care about speed are the benchmarks in bench/."""
from hypothesis import settings

settings.register_profile("mechasheet", deadline=None)
settings.load_profile("mechasheet")
