"""Round trip of a class body's code object (issue 11, part 4): decompile the body alone,
compile the class statement back, and compare the body's normalized bytecode with the
original's.

What only says where the class stands is not compared: the ``__qualname__`` the compiler
stores (``f.<locals>.C`` in the original, the wrapper's name in the text), the qualified
names of its functions (3.8-3.10) and, on 3.13, ``__firstlineno__``."""
import types

import unveil
from unveil.decompiler.measure import find_code, normalized

#: names the compiler stores from where the class statement is, not from its body
PLACE = {"__qualname__", "__firstlineno__"}


def class_bodies(code):
    """Every class body's code object inside ``code`` (depth first)."""
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            if c.co_name != "<module>" and not c.co_flags & 0x1:  # CO_OPTIMIZED
                yield c
            yield from class_bodies(c)


def without_place(norm):
    """``norm`` (from :func:`normalized`) with the constants stored into PLACE names blanked."""
    out = list(norm)
    for k, (op, arg) in enumerate(out):
        after = out[k + 1] if k + 1 < len(out) else (None, None)
        if op in ("LOAD_CONST", "LOAD_SMALL_INT") and (after[0] == "STORE_NAME" and after[1] in PLACE
                                   or after[0] == "MAKE_FUNCTION" and arg[0] == "str"):
            out[k] = (op, "<place>")  # 3.8-3.10: a function's qualified name before MAKE_FUNCTION
        elif isinstance(arg, tuple) and arg and arg[0] == "code":
            out[k] = (op, ("code", without_place(arg[1])))
    return tuple(out)


def recompiled_body(body, header=""):
    """(decompiled text, the class body's code object compiled back from it after ``header``)."""
    text = unveil.decompile(body)
    module = compile(header + text, "<decompiled class %s>" % body.co_name, "exec")
    return text, find_code(module, body.co_name)


def round_trip_equal(body):
    text, new = recompiled_body(body)
    return new is not None and without_place(normalized(new)) == without_place(normalized(body))
