"""An ``assert`` decompiles to an ``assert`` (issue 11): the decompiled text
compiled with ``optimize=1`` (``python -O``) must drop it, as the original
source would, while an ``if ...: raise AssertionError`` written as such stays.
3.8 has no LOAD_ASSERTION_ERROR: there the two are told apart by lines."""
import sys

import pytest

import unveil
from assert_funcs import (assert_chain, assert_false, assert_in_loop, assert_message, assert_or,
                          assert_reads_deleted_cell, if_and_then_assert_and, if_chain_then_assert, if_raise,
                          if_raise_message, if_then_assert, if_then_assert_or, plain_assert)


def _optimized(fn):
    src = unveil.decompile(fn)
    ns = dict(fn.__globals__)
    exec(compile(src, "<decompiled %s>" % fn.__name__, "exec", optimize=1), ns)
    return ns[fn.__name__]


@pytest.mark.parametrize("fn", [plain_assert, assert_message, assert_chain, assert_or, assert_in_loop,
                                assert_false],
                         ids=lambda f: f.__name__)
def test_assert_vanishes_under_optimize(fn):
    log = []
    _optimized(fn)(0, log)  # would fail the assert
    assert log == ([] if fn is not assert_in_loop else [0, 1])


@pytest.mark.parametrize("fn", [if_raise, if_raise_message], ids=lambda f: f.__name__)
def test_if_raise_stays_under_optimize(fn):
    with pytest.raises(AssertionError):
        _optimized(fn)(0, [])


@pytest.mark.skipif(sys.version_info < (3, 9), reason="3.8 compiles it byte for byte as the hand-written "
                    "`if ...: raise AssertionError(...)` (no LOAD_ASSERTION_ERROR; the folded test leaves no line)")
def test_assert_under_if_stays_whole_under_optimize():
    # ``if log is not None:`` / ``assert 0, (x, ...)``: the if's test is not merged into the
    # assert, and the message is not computed ahead of it (x is deleted: reading it raises)
    # (3.9 keeps the folded test ``0``, merged with the if's: refused)
    try:
        optimized = _optimized(assert_reads_deleted_cell)
    except unveil.DecompilationError:
        assert sys.version_info < (3, 10)
        return
    assert optimized(1, []) == "done"


@pytest.mark.skipif(sys.version_info < (3, 12), reason="before 3.12 the assert's error carries the line its "
                    "test ended on: an if's test on the line above looks like the assert's own (README, python -O)")
def test_if_test_around_an_assert_still_runs_under_optimize():
    # ``assert not (log.append(...) or x < 100) or x`` would skip the if's test under -O:
    # the decompiler refuses rather than print it
    # (3.12+: the lines tell the if's test from the assert's, which stays inside the if)
    assert _optimized(if_then_assert)(0, []) == ["test"]


@pytest.mark.skipif(sys.version_info < (3, 12), reason="before 3.12 the assert's error carries the line its "
                    "test ended on: an if's test on the line above looks like the assert's own (README, python -O)")
@pytest.mark.parametrize("fn", [if_then_assert_or, if_and_then_assert_and, if_chain_then_assert],
                         ids=lambda f: f.__name__)
def test_if_around_an_assert_with_a_test_of_several_operands(fn):
    # the assert's own and/or stays whole inside the if; the if's test still runs under -O
    optimized = _optimized(fn)
    assert optimized(0, []) == ["test"]
    assert optimized(500, []) == ["test"]
