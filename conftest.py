"""The test suite's two modes.

    python -m pytest                                # naive_bayes.py, the built file
    NAIVE_BAYES_FROM_SOURCES=1 python -m pytest     # the parts in nbsrc/
    python -m pytest -m "not slow"                  # the quick loop (either mode)

From the sources, ``naive_bayes`` is the module that tools/from_sources.py executes from
the parts (so tracebacks name ``nbsrc/NN_name.py``), the doctests are those of that
module, and the tests' own Python subprocesses run through tools/from_sources.py
(test_naive_bayes.python_command).
"""

import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent
FROM_SOURCES = os.environ.get("NAIVE_BAYES_FROM_SOURCES", "") not in ("", "0")

if FROM_SOURCES:
    sys.path.insert(0, str(ROOT / "tools"))
    import from_sources
    del sys.path[0]
    SOURCES_MODULE = from_sources.load()


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "slow: more than a second on two cores; the quick loop, python -m "
        "pytest -m \"not slow\", leaves these out")
    # The quick loop also draws fewer examples per property (Hypothesis' "quick"
    # profile, test_naive_bayes.py), unless a profile is named: every property still
    # runs, on 20 examples instead of 100.
    if "not slow" in (config.getoption("markexpr", "") or ""):
        os.environ.setdefault("HYPOTHESIS_PROFILE", "quick")
    if FROM_SOURCES:
        # The doctests are collected below from the module of the parts instead.
        config.option.doctestmodules = False


def pytest_report_header(config):
    if FROM_SOURCES:
        return "naive_bayes: from the parts in nbsrc/ (NAIVE_BAYES_FROM_SOURCES=1)"
    return "naive_bayes: the built file naive_bayes.py"


if FROM_SOURCES:
    from _pytest.doctest import DoctestModule

    class SourcesDoctests(DoctestModule):
        """The doctests of the module executed from the parts."""

        def _getobj(self):
            return SOURCES_MODULE

    class SourcesModule(pytest.Module):
        """naive_bayes.py as pytest collects a file named on its command line (or in
        testpaths): the module of the parts, not an import of the built file."""

        def _getobj(self):
            return SOURCES_MODULE

    def pytest_collect_file(file_path, parent):
        if file_path == ROOT / "naive_bayes.py":
            return SourcesDoctests.from_parent(parent, path=file_path)
        return None

    def pytest_pycollect_makemodule(module_path, parent):
        if module_path == ROOT / "naive_bayes.py":
            return SourcesModule.from_parent(parent, path=module_path)
        return None
