"""Shared checks for decompiler tests: decompile, recompile the text, and
compare behaviour (and bytecode) with the original."""
import copy
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


def separate_copies(args):
    """Two copies of ``args``, one for each run: a list passed in as a log of effects
    must not be shared (both runs appending to one list, the comparison would see the
    same object twice and miss effects in another order). The originals, shared, where
    copies do not compare equal (objects compared by identity) or cannot be made."""
    try:
        a, b = copy.deepcopy(args), copy.deepcopy(args)
        if a == b:
            return a, b
    except Exception:
        pass
    return args, args


def outcome(fn, args):
    """What calling ``fn`` did: its result or exception type, and the arguments
    afterwards (what it changed in them)."""
    try:
        r = fn(*args)
        if isinstance(r, types.GeneratorType):
            r = list(r)
        return ("ok", r, args)
    except Exception as e:  # the exception type is part of the behaviour
        return ("raised", type(e), args)


def check_behaviour(fn, inputs):
    src, new = rebuild(fn)
    for args in inputs:
        mine, theirs = separate_copies(args)
        want, got = outcome(fn, mine), outcome(new, theirs)
        assert want == got, "%s%r: original %r, decompiled %r\n%s" % (
            fn.__name__, args, want, got, src)
    return src, new


def check_bytecode(fn):
    src, new = rebuild(fn)
    assert normalized(fn.__code__) == normalized(new.__code__), src
    return src
