"""Calls with many arguments (issue 30, item 6). From 3.10 the compiler turns a call whose
positional arguments plus twice its keyword arguments need more than 30 stack slots into a star
call (CALL_FUNCTION_EX), its keywords built one by one (BUILD_MAP 0, MAP_ADD each) when there
are 16 or more of them: attrs' ``attrib``, dateutil's ``relativedelta``, docutils' ``publish_*``
call this way. The text must be the plain call, which compiles to the same bytecode."""
import pytest

from harness import check_behaviour, rebuild
from unveil.decompiler.measure import normalized


def _call_source(positional: int, keywords: int, rest: str, constants: bool) -> str:
    value = (lambda k: str(k)) if constants else (lambda k: "v + %d" % k)
    args = [value(k) for k in range(positional)]
    kws = ["k%d=%s" % (k, value(k)) for k in range(keywords)]
    if rest == "first":
        kws.insert(0, "**rest")
    elif rest == "middle":
        kws.insert(len(kws) // 2, "**rest")
    elif rest == "last":
        kws.append("**rest")
    return "def call(g, v, rest):\n    return g(%s)\n" % ", ".join(args + kws)


SHAPES = [(p, k, rest, c) for p in (0, 1, 10) for k in (15, 16, 40, 300)
          for rest in ("none", "first", "middle", "last") for c in (True, False)]
SHAPES += [(31, 0, "none", False), (40, 0, "none", True), (29, 1, "none", False)]


def _function(source):
    namespace = {}
    exec(compile(source, "<many arguments>", "exec"), namespace)
    return namespace["call"]


def _collect(*args, **kwargs):
    return args, kwargs


@pytest.mark.parametrize("positional,keywords,rest,constants", SHAPES,
                         ids=["%d-%d-%s-%s" % (p, k, r, "const" if c else "expr") for p, k, r, c in SHAPES])
def test_many_arguments(positional, keywords, rest, constants):
    source = _call_source(positional, keywords, rest, constants)
    fn = _function(source)
    src, new = rebuild(fn)
    assert normalized(fn.__code__) == normalized(new.__code__), src
    if rest == "none":
        # the keywords written as keywords, not a dict display (beside ``**rest``, a run of up
        # to 15 named keywords compiles like a display merged in: either text is the same code)
        assert "**{" not in src, src
    check_behaviour(fn, [(_collect, 5, {"extra": 1}), (_collect, 1, {"k3": 0})])
