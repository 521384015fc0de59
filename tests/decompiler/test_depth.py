"""Deep and long input: long runs decompile exactly; input nested deeper than
the decompiler's walks (or the unparser) can follow is refused with
DecompilationError naming the real reason (never RecursionError, never "the
walk did not terminate"). No timing here: bench/scale.py measures the cost."""

import pytest

import unveil
from unveil.decompiler import DecompilationError

from harness import check_behaviour, check_bytecode


def make(src, name="f"):
    """The function ``name`` defined by ``src`` (skip when CPython itself refuses it)."""
    ns = {"g": abs}
    try:
        exec(compile(src, "<generated>", "exec"), ns)
    except (SyntaxError, RecursionError, MemoryError) as e:
        pytest.skip("CPython does not compile it: %s" % type(e).__name__)
    return ns[name]


def lines(stmts):
    return "".join("    %s\n" % s for s in stmts)


# ---------------------------------------------------------------- long runs
def test_many_sequential_ifs():
    f = make("def f(x, y):\n" + lines("if x > %d:\n        y = y + %d" % (k, k) for k in range(1000))
             + "    return y\n")
    check_bytecode(f)
    check_behaviour(f, [(-1, 0), (500, 1), (2000, 2)])


def test_many_asserts():
    f = make("def f(x):\n" + lines("assert x != %d, 'not %d'" % (k, k) for k in range(300))
             + "    return x\n")
    check_bytecode(f)
    check_behaviour(f, [(5,), (-1,), (299,), (300,)])


@pytest.mark.parametrize("op", ["and", "or"])
def test_long_boolean_test(op):
    # (2000 terms: more than the recursion limit's 1000 frames, a walk over the
    # chain that recurses per term fails here)
    n = 2000
    names = ["x[%d]" % k for k in range(n)]
    f = make("def f(x):\n    if %s:\n        return 1\n    return 2\n" % (" %s " % op).join(names))
    check_bytecode(f)
    check_behaviour(f, [([1] * n,), ([0] * n,), ([1] * 150 + [0] + [1] * (n - 151),),
                        ([0] * (n - 1) + [1],)])


@pytest.mark.parametrize("op", ["and", "or"])
def test_long_while_test(op):
    # (a loop's test is negated and compared link by link where the loop is entered
    # through a copy of it: a walk per term past the recursion limit was refused with
    # the wrong reason)
    n = 2000
    names = ["x[%d]" % k for k in range(n)]
    f = make("def f(x, y):\n    while %s:\n        x = y.pop()\n    return x\n"
             % (" %s " % op).join(names))
    ones, zeros = [1] * n, [0] * n
    one_zero = [1] * 150 + [0] + [1] * (n - 151)
    check_behaviour(f, [(zeros, []), (ones, [zeros]), (one_zero, [ones, zeros]),
                        ([0] * (n - 1) + [1], [zeros, one_zero])])


def test_many_loops_and_trys():
    f = make("def f(x, y):\n" + lines(
        "for i in x:\n        y = y + i\n    try:\n        y = y + x[%d]\n"
        "    except IndexError:\n        y = -%d" % (k, k) for k in range(200)) + "    y = y * 2\n    return y\n")
    check_bytecode(f)
    check_behaviour(f, [([1, 2], 0), (list(range(300)), 1)])


def calls_to_decompile(f):
    """How many Python functions the decompile of ``f`` calls: a count of its work that,
    unlike time, is the same on every run. (Not generators: the profiler counts each
    resumption, one per item, as a call.)"""
    import inspect
    import sys
    count = [0]

    def profile(frame, event, arg):
        count[0] += event == "call" and not frame.f_code.co_flags & inspect.CO_GENERATOR

    sys.setprofile(profile)
    try:
        unveil.decompile(f)
    finally:
        sys.setprofile(None)
    return count[0]


def nested(header, body, n, after=""):
    out = "def f(x, y):\n"
    for k in range(n):
        out += "    " * (k + 1) + header.format(k) + "\n"
    return out + "    " * (n + 1) + body + "\n" + after(n) + "    return y\n"


def handlers(n):
    return "".join("    " * (k + 1) + "except IndexError:\n" + "    " * (k + 2) + "y = %d\n" % k
                   for k in reversed(range(n)))


@pytest.mark.parametrize("header, body, after", [
    ("while x > {}:", "x = x - 1", lambda n: ""),
    ("for i{} in x:", "y = y + 1", lambda n: ""),
    ("try:", "y = x[0]", handlers),
], ids=["while", "for", "try"])
def test_nested_statements_cost_the_same_per_level(header, body, after):
    """Each level of nesting adds the same work, not work in proportion to the levels
    around it (a loop's bottom test once looked back through every inner loop's, and
    each try's region tested every enclosing try's handler). 19 levels: the most the
    compiler nests."""
    small, large = (calls_to_decompile(make(nested(header, body, n, after))) for n in (10, 19))
    assert large / small < (19 / 10) ** 1.1, (small, large)


# ------------------------------------------------------------ depth refusals
def exact_or_refused(f, reason, inputs):
    """Decompiling ``f`` either gives code that behaves the same on ``inputs``
    (some versions lay the code out so that the walks stay shallow) or
    raises DecompilationError naming ``reason`` (never RecursionError, never
    "the walk did not terminate")."""
    try:
        unveil.decompile(f)
    except DecompilationError as e:
        assert reason in str(e) and "did not terminate" not in str(e), str(e)
        return "refused"
    check_behaviour(f, inputs)
    return "decompiled"


def test_long_elif_chain():
    arms = ["if x == 0:\n        y = 0"] + ["elif x == %d:\n        y = %d" % (k, k) for k in range(1, 1000)]
    f = make("def f(x, y):\n" + lines(arms) + "    return y\n")
    exact_or_refused(f, "nesting deeper than", [(0, -1), (500, -1), (999, -1), (1000, -1)])


def test_nested_conditional_expression():
    e = "x"
    for k in range(199):
        e = "%d if x == %d else %s" % (k, k, e)
    f = make("def f(x):\n    return %s\n" % e)
    exact_or_refused(f, "nesting deeper than", [(0,), (100,), (198,), (500,)])


@pytest.mark.parametrize("op", ["and", "or"])
def test_long_boolean_value(op):
    value = (" %s " % op).join("x[%d]" % k for k in range(200))
    f = make("def f(x):\n    y = %s\n    return y\n" % value)
    # (each operand is walked inside the one before: refused on every version, with
    # the real reason; 3.13's jumps past 255 units have an EXTENDED_ARG before them)
    assert exact_or_refused(f, "nesting deeper than", []) == "refused"


def test_nested_lambdas():
    f = make("def f(x):\n    return %sx\n" % ("lambda: " * 99))
    assert exact_or_refused(f, "nesting deeper than", []) == "refused"


@pytest.mark.parametrize("chain", ["-" * 500 + "x", "x" + ".real" * 500])
def test_deep_expression(chain):
    f = make("def f(x):\n    return %s\n" % chain)
    assert exact_or_refused(f, "source nested deeper than", []) == "refused"


def test_moderate_depth_still_decompiles():
    e = "x"
    for k in range(30):
        e = "%d if x == %d else %s" % (k, k, e)
    f = make("def f(x):\n    return %s\n" % e)
    check_behaviour(f, [(k,) for k in range(-1, 32)])
    g = make("def f(x):\n    return %sx\n" % ("lambda: " * 20))
    h = make("def f(x):\n    return %sx\n" % ("-" * 100))
    check_bytecode(g)
    check_bytecode(h)
    check_behaviour(h, [(3,), (-2,)])


# ------------------------------------------------------------ the scale bench
def test_scale_bench_reports_each_size_and_its_round_trip():
    """bench/scale.py runs each size in a child and reports the least of its rounds, with
    the round trip's verdict and the growth exponent (not its figures: those are timing)."""
    import os
    import re
    import subprocess
    import sys
    bench = os.path.join(os.path.dirname(__file__), "..", "..", "bench", "scale.py")
    out = subprocess.run([sys.executable, bench, "--family", "if", "--family", "lambda",
                          "--sizes", "10,150", "--repeat", "2", "--warm-up", "0.1"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
                         timeout=300, check=True).stdout
    assert "least of 2 rounds" in out
    rows = {line.split()[0]: line for line in out.splitlines()[4:] if line and not line.startswith(" ")}
    # sequential ifs: both sizes decompile to equal bytecode, and an exponent is given
    assert re.match(r"if\s+\d+\.\d+s\s+\d+\.\d+s\s+-?\d+\.\d\d$", rows["if"]), rows["if"]
    # 150 nested lambdas are deeper than the decompiler follows: refused with its time
    assert re.search(r"\d+\.\d+s refused\s+-?\d+\.\d\d$", rows["lambda"]), rows["lambda"]
    assert "lambda n=150 refused: nesting deeper than" in out
