"""Names users know for the code objects Dynamo compiles.

Models are often compiled through a decorator's inner function: transformers'
``can_return_tuple.<locals>.wrapper`` runs ``GPT2LMHeadModel.forward``, LLaMA's
forward runs through ``deprecate_kwarg.<locals>.wrapper.<locals>.wrapped_func``.
The code object says only ``wrapper``; the function it wraps is one of its free
variables, which the frame Dynamo is compiling holds. Resume functions are named
after the function and line they continue ("resume of forward after line 28"),
one name wherever they appear.
"""
import re
import sys
import types

from .names import printable

_RESUME = re.compile(r"^torch_dynamo_resume_in_(.+)_at_(\d+)$")


def _frame_being_compiled(code, depth=40):
    """The frame Dynamo is compiling for ``code`` (its ``_compile`` holds it as ``frame``)."""
    f = sys._getframe(1)
    while f is not None and depth:
        candidate = f.f_locals.get("frame") if f.f_code.co_name == "_compile" else None
        if candidate is not None and getattr(candidate, "f_code", None) is code:
            return candidate
        f, depth = f.f_back, depth - 1
    return None


def wrapped_function(code):
    """The function a decorator's inner function ``code`` wraps (``GPT2LMHeadModel.forward``),
    read from the free variables of the frame being compiled; None when ``code`` closes over
    no function with a name users know. Call it from the bytecode hook."""
    if not code.co_freevars or "<locals>" not in getattr(code, "co_qualname", "<locals>"):
        return None
    try:
        frame = _frame_being_compiled(code)
        values = frame.f_locals if frame is not None else {}
        for name in code.co_freevars:
            fn = values.get(name)
            if isinstance(fn, (types.FunctionType, types.MethodType)):
                qualname = getattr(fn, "__qualname__", "")
                if qualname and "<locals>" not in qualname:
                    return fn
    except Exception:  # a name is a nicety: never fail the compile for it
        return None
    return None


def wrapped_function_name(code):
    """The qualified name of :func:`wrapped_function` (None when there is none)."""
    fn = wrapped_function(code)
    return fn.__qualname__ if fn is not None else None


def source_of(fn):
    """(file, first line) of the code of function ``fn`` -- under its decorators that say
    whom they wrap (``__wrapped__``) -- or None when it has no source file."""
    try:
        import inspect
        import os
        fn = inspect.unwrap(fn.__func__ if isinstance(fn, types.MethodType) else fn)
        code = getattr(fn, "__code__", None)
        if isinstance(code, types.CodeType) and os.path.isfile(code.co_filename):
            return code.co_filename, code.co_firstlineno
    except Exception:  # (a __wrapped__ loop, an odd object): no location
        pass
    return None


def short_qualname(qualname: str) -> str:
    """``can_return_tuple.<locals>.wrapper`` -> ``can_return_tuple.wrapper``."""
    return qualname.replace(".<locals>", "")


def resume_title(code):
    """"resume of forward after line 28" for Dynamo's ``torch_dynamo_resume_in_forward_at_28``."""
    m = _RESUME.match(code.co_name)
    if m is None:
        return None
    return "resume of %s after line %s" % (m.group(1), m.group(2))


def title(code, wrapped=None) -> str:
    """What a heading calls ``code``: the wrapped function and the decorator it runs
    through, a resume function's place, else its qualified name."""
    qualname = getattr(code, "co_qualname", code.co_name)
    if wrapped:
        text = "%s, via %s" % (wrapped, short_qualname(qualname))
    else:
        text = resume_title(code) or qualname
    return printable(text)  # (headings are comments: a line break in a name would end one)
