"""Differential tests (issue 3): every construct a function body can hold,
run original vs decompiled on several inputs; results and raised exception
types must match.  Cases live in cases_*.py; version-specific syntax is in
cases_py310.py (match) and cases_py311.py (except*), imported only where the
running interpreter supports it."""
import sys

import pytest

from harness import check_behaviour
from drive import check_driven, needs_driving

import cases_basic
import cases_control
import cases_exceptions
import cases_functions
import cases_async
import cases_fuzz
import cases_branches
import cases_chains
import cases_values
import cases_trees

MODULES = [cases_basic, cases_control, cases_exceptions, cases_functions, cases_async, cases_fuzz,
           cases_branches, cases_chains, cases_values, cases_trees]
if sys.version_info >= (3, 10):
    import cases_py310
    MODULES.append(cases_py310)
if sys.version_info >= (3, 11):
    import cases_py311
    MODULES.append(cases_py311)
if sys.version_info < (3, 11):
    import cases_legacy
    MODULES.append(cases_legacy)


def _collect():
    params, seen = [], set()
    for mod in MODULES:
        short = mod.__name__[len("cases_"):]
        for fn, inputs in mod.CASES:
            name = "%s:%s" % (short, fn.__name__)
            ident, n = name, 1
            while ident in seen:
                n += 1
                ident = "%s#%d" % (name, n)
            seen.add(ident)
            params.append(pytest.param(fn, inputs, id=ident))
    return params


ALL_CASES = _collect()


@pytest.mark.parametrize("fn, inputs", ALL_CASES)
def test_differential(fn, inputs):
    # a refusal is accepted only for the cases in known_gaps.py (see conftest.py)
    if needs_driving(fn):
        check_driven(fn, inputs)
    else:
        check_behaviour(fn, inputs)
