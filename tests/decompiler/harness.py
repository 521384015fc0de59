"""Shared checks for decompiler tests: decompile, recompile the text, and
compare behaviour (and bytecode) with the original."""
import sys
import types

import unveil
from unveil.decompiler.measure import normalized


def rebuild(fn):
    """Decompile ``fn`` and return (source, the recompiled function)."""
    src = unveil.decompile(fn)
    ns = dict(fn.__globals__)
    exec(compile(src, "<decompiled %s>" % fn.__name__, "exec"), ns)
    name = fn.__code__.co_name
    if fn.__code__.co_freevars:
        outer = ns["__unveil_closure_" + name]
        new = outer()
        # give the rebuilt function the original's cells so it sees the same values
        new = types.FunctionType(new.__code__, fn.__globals__, name, fn.__defaults__, fn.__closure__)
    else:
        new = ns[name]
        new = types.FunctionType(new.__code__, fn.__globals__, name, fn.__defaults__, fn.__closure__)
    new.__kwdefaults__ = fn.__kwdefaults__
    return src, new


def outcome(fn, args):
    try:
        r = fn(*args)
        if isinstance(r, types.GeneratorType):
            r = list(r)
        return ("ok", r)
    except Exception as e:  # the exception type is part of the behaviour
        return ("raised", type(e))


def check_behaviour(fn, inputs):
    src, new = rebuild(fn)
    for args in inputs:
        want, got = outcome(fn, args), outcome(new, args)
        assert want == got, "%s%r: original %r, decompiled %r\n%s" % (
            fn.__name__, args, want, got, src)
    return src, new


def check_bytecode(fn):
    src, new = rebuild(fn)
    assert normalized(fn.__code__) == normalized(new.__code__), src
    return src
