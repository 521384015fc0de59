"""A with block whose body never falls through can still continue after the
block: when __exit__ swallows the exception. The code after it must not be
lost (it used to be: wrong source that compiles)."""
from contextlib import suppress

import pytest

from harness import check_behaviour


def return_in_suppressing_with(s):
    with suppress(ValueError):
        y = int(s)
        return y
    return "suppressed"


def raise_in_suppressing_with(s):
    log = []
    with suppress(KeyError):
        log.append(s)
        raise KeyError(s)
    log.append("after")
    return log


def loop_with_return(xs):
    for x in xs:
        with suppress(ZeroDivisionError):
            return 1 // x
    return None


@pytest.mark.parametrize("fn, inputs", [
    (return_in_suppressing_with, [("3",), ("x",)]),
    (raise_in_suppressing_with, [("a",), ("b",)]),
    (loop_with_return, [([0, 0, 2],), ([0],), ([],)]),
], ids=lambda v: getattr(v, "__name__", ""))
def test_code_after_a_with_that_returns(fn, inputs):
    check_behaviour(fn, inputs)  # the inputs take both the normal and the swallowed path
