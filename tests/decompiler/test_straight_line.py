"""Straight-line functions: expressions and simple statements."""
import pytest

from harness import check_behaviour, check_bytecode


def arith(a, b):
    c = a + b * 2 - a // 3
    d = (c % 7) ** 2
    return -d, +c, ~a, not b


def calls(a, b):
    x = max(a, b, key=abs)
    y = sorted([a, b], reverse=True)
    return x, y, str(a).upper()


def containers(a, b):
    t = (a, b)
    l = [a, b, *t]
    s = {a, b}
    d = {"a": a, "b": b}
    d2 = {**d, "c": 3}
    return t, l, s, d, d2


def subscripts(a, b):
    l = [a, b, a, b]
    l[0] = b
    del l[1]
    l[1:2] = [9]
    return l[::2], l[1:], l[-1]


def attributes(a, b):
    class _O:
        pass
    o = _O()
    o.x = a
    o.y = b
    o.x += 1
    return o.x, o.y


def unpacking(a, b):
    x, y = a, b
    y, x = x, y
    p, *q = [a, b, a]
    (m, n), k = (a, b), a
    return x, y, p, q, m, n, k


def augmented(a, b):
    a += b
    a *= 2
    b -= 1
    a //= 3
    return a, b


def comparisons(a, b):
    return a < b, a is b, a is not None, a in [b], b not in [a], a == b != 3


def fstrings(a, b):
    return f"{a}-{b!r}-{a:>5}-{b!s:{a}}"


def chained_assign(a, b):
    x = y = a + b
    return x, y


CASES = [arith, calls, containers, subscripts, attributes, unpacking, augmented,
         comparisons, fstrings, chained_assign]
INPUTS = [(1, 2), (5, 3), (0, 7), (-4, 9)]


@pytest.mark.parametrize("fn", CASES, ids=lambda f: f.__name__)
def test_same_behaviour(fn):
    check_behaviour(fn, INPUTS)


@pytest.mark.parametrize("fn", [arith, calls, containers, augmented, comparisons, unpacking],
                         ids=lambda f: f.__name__)
def test_same_bytecode(fn):
    check_bytecode(fn)
