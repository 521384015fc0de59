"""The values the proof computes with (see :mod:`.validate` for the model).

A symbolic value is a tuple whose first item says what it is: ``("c", type, repr)`` a
constant, ``("arg", k)`` an argument, ``("r", event, k)`` / ``("t", event, k)`` the k-th
result of an event (``t``: a bool), ``("v", n)`` / ``("vb", n)`` / ``("v?", n)`` a
variable made at a join, ``("L", k)`` a list the frame built that no other code has
seen, ... :data:`ATOMS` are opaque, :data:`GROUND` are known; the other kinds are built
from their parts. This module holds the constructors and tests every other part of the
proof shares; of the proof it imports only :mod:`.opsem`'s NULL.
"""
import ast
import types

from .opsem import NULL


UNBOUND = ("unbound",)
NONE = ("c", "NoneType", "None")
TRUE = ("c", "bool", "True")
FALSE = ("c", "bool", "False")
LASTI = ("lasti",)
NULL_VALUE = ("null",)


def const(value, codes):
    """The symbolic value of a constant; nested code objects are numbered per name
    (in ``codes``) so the n-th nested ``g`` of one side pairs with the n-th of the other."""
    if value is NULL:
        return ("null",)
    if isinstance(value, types.CodeType):
        if not any(c is value for c in codes):
            codes.append(value)
        same = [c for c in codes if c.co_name == value.co_name]
        return ("code", value.co_name, next(k for k, c in enumerate(same) if c is value))
    if isinstance(value, tuple):
        return ("c", "tuple", tuple(const(v, codes) for v in value))
    if type(value) is slice:  # 3.14 folds a slice of constants: the value BUILD_SLICE makes
        parts = (value.start, value.stop) if value.step is None else (value.start, value.stop, value.step)
        return ("slice",) + tuple(const(v, codes) for v in parts)
    if isinstance(value, frozenset):  # iteration order is not part of the value
        return ("c", "frozenset", tuple(sorted((const(v, codes) for v in value), key=repr)))
    kind = type(value)
    return ("c", kind.__name__ if kind.__module__ == "builtins" else kind.__module__ + "." + kind.__qualname__,
            repr(value))


def is_bool(v) -> bool:
    """Whether ``v`` is certainly a bool (testing it runs no code)."""
    return v[0] in ("t", "vb", "is", "not") or v in (TRUE, FALSE)


def tuple_value(items):
    """A tuple of these values; of constants only, the constant tuple (the compiler folds
    one into the other)."""
    items = tuple(items)
    return ("c", "tuple", items) if all(v[0] == "c" for v in items) else ("tuple",) + items


def truth_of_const(v):
    """``bool()`` of a constant of a builtin type, or None when unknown."""
    if v[0] != "c":
        return None
    if v[1] in ("tuple", "frozenset"):
        return bool(v[2])
    if v[1] == "ellipsis":
        return True
    if v[1] in ("NoneType", "bool", "int", "float", "complex", "str", "bytes"):
        try:
            return bool(ast.literal_eval(v[2]))
        except (ValueError, SyntaxError):  # nan, inf: their reprs are not literals
            return True
    return None


def unpart(v):
    """<=3.10: the exception behind one of the (tb, value, type) entries."""
    return v[2] if v[0] == "part" else v


def world_value(event, name):
    """What the cell ``name`` holds after event number ``event`` (0: on entry) ran code
    that may hold it: unknown, the same on both sides, possibly unbound."""
    return ("v?", ("w", event, name))


def is_world_value(v) -> bool:
    return v[0] == "v?" and isinstance(v[1], tuple) and v[1][0] == "w"


ATOMS = frozenset({"r", "t", "exc", "arg", "v", "vb", "v?", "esc", "gout"})  # opaque values
GROUND = frozenset({"c", "null", "unbound", "cell", "lasti", "code", "global", "fin"})


def _walk(values):
    for v in values:
        if isinstance(v, tuple) and v:
            yield v
            if v[0] not in ATOMS and v[0] not in GROUND:
                yield from _walk(x for x in v[1:] if isinstance(x, tuple))
