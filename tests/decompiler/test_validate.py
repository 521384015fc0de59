"""The translation validator (validate.py) on its own: pairs of functions written by hand,
the same program in another layout (must be proved) or a different program (must be
refused). Runs under every interpreter 3.8-3.13."""
import sys

import pytest

from unveil.decompiler.validate import NotEquivalent, check


def code_of(src):
    namespace = {}
    exec(compile(src, "<validate test>", "exec"), namespace)
    fn = next(v for k, v in namespace.items() if k == "f")
    return fn.__code__


SAME = {
    "inverted branch": ("def f(a, b):\n    if a:\n        return b\n    return 0\n",
                        "def f(a, b):\n    if not a:\n        return 0\n    return b\n"),
    "temporary": ("def f(a):\n    return g(a) + 1\n",
                  "def f(a):\n    t = g(a)\n    return t + 1\n"),
    "is not": ("def f(a):\n    x = [a]\n    if x is a:\n        return 1\n    return x\n",
               "def f(a):\n    x = [a]\n    if x is not a:\n        return x\n    return 1\n"),
    "star call of a known list": ("def f(a):\n    return g(*[a, 1])\n",
                                  "def f(a):\n    return g(a, 1)\n"),
    "conditional expression": ("def f(a, b, c):\n    return b if a else c\n",
                               "def f(a, b, c):\n    if a:\n        return b\n    return c\n"),
}

DIFFERENT = {
    "extra call": ("def f(a):\n    g(a)\n    return a\n",
                   "def f(a):\n    g(a)\n    g(a)\n    return a\n"),
    "calls reordered": ("def f(a):\n    return (g(a), h(a))\n",
                        "def f(a):\n    y = h(a)\n    return (g(a), y)\n"),
    "operand evaluated twice": ("def f(a, b, c):\n    return a < g(b) < c\n",
                                "def f(a, b, c):\n    return a < g(b) and g(b) < c\n"),
    "code moved into the except clause": (
        "def f(d):\n    try:\n        return d['k']\n    except KeyError:\n        pass\n    return g()\n",
        "def f(d):\n    try:\n        return d['k']\n    except KeyError:\n        return g()\n"),
    "finally body run twice": (
        "def f(a, log):\n    try:\n        g(a)\n    finally:\n        log.append(1)\n",
        "def f(a, log):\n    try:\n        g(a)\n    finally:\n        log.append(1)\n    log.append(1)\n"),
    "dropped break": (
        "def f(xs, log):\n    for x in xs:\n        log.append(x)\n        break\n    return log\n",
        "def f(xs, log):\n    for x in xs:\n        log.append(x)\n    return log\n"),
    "other branch taken": ("def f(a, b):\n    if a:\n        return b\n    return 0\n",
                           "def f(a, b):\n    if a:\n        return 0\n    return b\n"),
    "identity of a list": ("def f(a):\n    x = [a]\n    if x is a:\n        return 1\n    return x\n",
                           "def f(a):\n    x = [a]\n    if x is a:\n        return x\n    return 1\n"),
    "list contents": ("def f(a, b):\n    return g([a, b])\n", "def f(a, b):\n    return g([b, a])\n"),
    # the outer code differs in layout only (a temporary), so the proof is the symbolic
    # run; the comprehensions are each side's first <listcomp> yet their bodies differ
    "comprehension body behind a layout change": (
        "def f(xs):\n    t = [x < 0 for x in xs]\n    return t\n",
        "def f(xs):\n    return [x < 1 for x in xs]\n"),
    "lambda body behind a layout change": (
        "def f(a):\n    t = g(lambda p: p + a)\n    return t\n",
        "def f(a):\n    return g(lambda p: a + p)\n"),
    # a list one side holds across a loop and the other makes afterwards: pairing the lists
    # at the loop's head must not make one list stand for two, or for a changed one
    "one list across a loop, two after it": (
        "def f(a, xs, log):\n    l = [a]\n    for x in xs:\n        log.append(x)\n    return g(l, l)\n",
        "def f(a, xs, log):\n    for x in xs:\n        log.append(x)\n    return g([a], [a])\n"),
    "list changed in a loop on one side": (
        "def f(a, xs, log):\n    l = [a]\n    for x in xs:\n        l.append(x)\n    return g(l)\n",
        "def f(a, xs, log):\n    for x in xs:\n        log.append(x)\n    return g([a])\n"),
    "loop that never ends": ("def f(n):\n    while n:\n        n = g(n)\n    return n\n",
                             "def f(n):\n    while n:\n        g(n)\n    return n\n"),
}
if sys.version_info >= (3, 9):  # 3.8 compiles both to the same bytecode
    DIFFERENT["assert as if/raise"] = ("def f(a):\n    assert a\n    return a\n",
                                       "def f(a):\n    if not a:\n        raise AssertionError\n    return a\n")


@pytest.mark.parametrize("name", sorted(SAME))
def test_same_program_is_proved(name):
    like, new = SAME[name]
    check(code_of(like), code_of(new))


@pytest.mark.parametrize("name", sorted(DIFFERENT))
def test_different_program_is_refused(name):
    like, new = DIFFERENT[name]
    with pytest.raises(NotEquivalent):
        check(code_of(like), code_of(new))
