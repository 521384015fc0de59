"""An ``assert`` decompiles to an ``assert`` (issue 11): compiled with
``-O`` (optimize=1) the decompiled text, like the original, runs neither the
test nor the message."""
import sys

import pytest

import unveil

# compiled here, not written as functions of this module: pytest rewrites
# the asserts of test modules
SOURCE = '''
def chained_assert(g):
    assert 0 <= g() < 10
    return "after"

def chained_assert_msg(g):
    assert 0 <= g() < 10, g()
    return "after"

def plain_assert(g):
    assert g(), g()
    return "after"
'''
NAMES = ("chained_assert", "chained_assert_msg", "plain_assert")


def _function(src, name, optimize):
    ns = {}
    exec(compile(src, "<test>", "exec", optimize=optimize), ns)
    return ns[name]


# 3.8 compiles ``assert`` as ``if not test: raise AssertionError`` with the
# global name (no LOAD_ASSERTION_ERROR): the two are the same bytecode
NO_ASSERT_OPCODE = sys.version_info < (3, 9)


@pytest.mark.parametrize("name", NAMES)
def test_assert_vanishes_under_optimize(name):
    if NO_ASSERT_OPCODE:
        pytest.skip("3.8: an assert is the same bytecode as if/raise")
    original = _function(SOURCE, name, 0)
    decompiled = _function(unveil.decompile(original), name, 1)
    calls = []

    def g():
        calls.append(1)
        return 99  # fails every assert when it is evaluated

    assert decompiled(g) == "after", name
    assert calls == [], name


# the last case's body is an assert whose test (an ``and`` ending in a chained
# comparison) reads like a guard: a guard would still run under -O
# (bench/fuzz.py 5000:1060)
MATCH_SOURCE = '''
def last_case_assert(g, x=(0, 1)):
    match x:
        case 0:
            return "zero"
        case [0, v]:
            assert 0 != v and not (0 < g() < 100)
    return "after"
'''


@pytest.mark.skipif(sys.version_info < (3, 10), reason="match needs 3.10+")
def test_match_case_assert_vanishes_under_optimize():
    original = _function(MATCH_SOURCE, "last_case_assert", 0)
    decompiled = _function(unveil.decompile(original), "last_case_assert", 1)
    calls = []

    def g():
        calls.append(1)
        return 99  # fails the assert when it is evaluated

    assert decompiled(g) == "after"
    assert calls == []
