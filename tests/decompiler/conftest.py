import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))

from known_gaps import REFUSED  # noqa: E402

VERSION = "%d.%d" % sys.version_info[:2]


@pytest.hookimpl(hookwrapper=True)
def pytest_pyfunc_call(pyfuncitem):
    """A case listed in known_gaps.py for this version passes only by being refused
    with DecompilationError; one that passes otherwise fails (its gap closed)."""
    outcome = yield
    if VERSION not in REFUSED.get(_node_id(pyfuncitem), ()):
        return
    from unveil import DecompilationError
    excinfo = outcome.excinfo
    if excinfo is not None and issubclass(excinfo[0], DecompilationError):
        outcome.force_result(True)
    elif excinfo is None:
        outcome.force_exception(AssertionError(
            "%s is listed in known_gaps.py for %s but was not refused: take it off the list"
            % (pyfuncitem.nodeid, VERSION)))


def _node_id(item):
    return item.nodeid.split("tests/decompiler/", 1)[-1].join(("tests/decompiler/", ""))
