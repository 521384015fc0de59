"""Names users know for the code objects Dynamo compiles.

Models are often compiled through a decorator's inner function: transformers'
``can_return_tuple.<locals>.wrapper`` runs ``GPT2LMHeadModel.forward``, LLaMA's
forward runs through ``deprecate_kwarg.<locals>.wrapper.<locals>.wrapped_func``.
The code object says only ``wrapper``; the function it wraps is one of its free
variables, which the frame Dynamo is compiling holds. Resume functions are named
after the function and line they continue ("forward (resumed at line 28)").

This module is the one place that says what a function and a cache entry are called
(:func:`display_name`, :func:`entry_title`): ``unveil show``, the report, ``index.json``
(``title``), the headers of the dump's files and ``unveil.debug()`` print these names, and
torch's own names (``torch_dynamo_resume_in_forward_at_28``, ``__resume_at_70_3``) beside
them (:func:`with_torch_names`), never instead of them. No torch import: the report uses it.
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


def resume_place(co_name):
    """(function, line) a Dynamo resume function continues, from its name
    (``torch_dynamo_resume_in_forward_at_28`` -> ``("forward", "28")``), else None."""
    m = _RESUME.match(co_name or "")
    return (m.group(1), m.group(2)) if m else None


def display_name(co_name, qualname=None, wrapped=None, continues=None) -> str:
    """The one name a function goes by in everything unveil prints: the wrapped function and
    the decorator it runs through ("GPT2LMHeadModel.forward, via can_return_tuple.wrapper"),
    a resume function's place ("normalize (resumed at line 6)"), else its qualified name.

    ``continues``: the line a resume function goes on at, when it is not the break's line (each
    branch of an ``if`` Dynamo could not trace has a resume function: "toy (resumed at line 7,
    continues at line 10)" tells them apart)."""
    qualname = qualname or co_name
    place = resume_place(co_name)
    if wrapped:
        text = "%s, via %s" % (wrapped, short_qualname(qualname))
    elif place is not None:  # named as the function it continues is: Model.forward (resumed at line 28)
        owner = qualname.rpartition(".")[0] if qualname.endswith("." + co_name) else ""
        goes_on = ", continues at line %s" % continues if continues and str(continues) != place[1] else ""
        text = "%s%s (resumed at line %s%s)" % (owner + "." if owner else "", place[0], place[1], goes_on)
    else:
        text = qualname
    return printable(text)  # (headings are comments: a line break in a name would end one)


def title(code, wrapped=None) -> str:
    """:func:`display_name` of code object ``code`` (of a function Dynamo is compiling or has
    compiled: a resume function's line is read from Dynamo's records of it)."""
    continues = None
    if resume_place(code.co_name) is not None:
        from .stack_values import continues_at
        continues = continues_at(code)
    return display_name(code.co_name, getattr(code, "co_qualname", code.co_name), wrapped, continues)


def _shown_in(name, title_text) -> bool:
    """Whether display name ``title_text`` already shows ``name``: as a whole dotted name or its
    tail (``forward`` in ``Model.forward``; ``can_return_tuple.<locals>.wrapper`` in
    ``GPT2LMHeadModel.forward, via can_return_tuple.wrapper``)."""
    shown = set()
    for token in re.findall(r"[\w.<>]+", title_text):  # (``main.<locals>.h`` is one name)
        parts = short_qualname(token).split(".")
        shown.update(".".join(parts[k:]) for k in range(len(parts)))
    return short_qualname(name) in shown


def torch_names(title_text, *names) -> list:
    """torch's names of a function that its display name ``title_text`` does not show
    (code name, qualified name, ``__resume_at_*`` globals), each once, in the order given."""
    out = []
    for name in names:
        for n in ([name] if isinstance(name, str) else list(name or ())):
            if n and n not in out and not _shown_in(n, title_text):
                out.append(n)
    return out


def with_torch_names(title_text, *names) -> str:
    """``title_text``, then torch's names for it in brackets when they differ:
    ``normalize (resumed at line 6) [torch: torch_dynamo_resume_in_normalize_at_6, __resume_at_70_3]``."""
    extra = torch_names(title_text, *names)
    return "%s [torch: %s]" % (title_text, ", ".join(extra)) if extra else title_text


def entry_label(index, compile_id) -> str:
    """An entry under its function's heading: ``entry 1 [2/1]`` (the index is the ``<i>`` of
    its ``__transformed_code_<i>`` file, the compile id as torch prints it)."""
    cid = " [%s]" % compile_id if compile_id else ""
    return "entry %s%s" % (index, cid)


def entry_title(function_title, index, compile_id) -> str:
    """An entry on its own: ``normalize (resumed at line 7), entry 1 [2/1]``."""
    return "%s, %s" % (function_title, entry_label(index, compile_id))


def count(n, word, many=None) -> str:
    """``1 function``, ``2 functions``, ``1 entry``, ``3 entries``."""
    if many is None:
        many = word[:-1] + "ies" if word.endswith("y") and word[-2:-1] not in "aeiou" else word + "s"
    return "%d %s" % (n, word if n == 1 else many)


# -- names read back from index.json (unveil show, the README, the report) ------------------

def title_of(fn: dict) -> str:
    """The display name of a function of ``index.json`` (its ``title``; for dumps written
    before the index held one, worked out from its names as :func:`display_name` does)."""
    if fn.get("title"):
        return fn["title"]
    qualname = fn.get("qualname") or fn.get("name") or "?"
    return display_name(qualname.rsplit(".", 1)[-1], qualname)


def torch_names_of(fn: dict) -> list:
    """torch's names of a function of ``index.json`` that its display name does not show."""
    return torch_names(title_of(fn), fn.get("qualname"), fn.get("name"), fn.get("aliases"))


def heading_of(fn: dict) -> str:
    """``normalize (resumed at line 6) [torch: torch_dynamo_resume_in_normalize_at_6, __resume_at_70_3]``."""
    return with_torch_names(title_of(fn), fn.get("qualname"), fn.get("name"), fn.get("aliases"))


def by_torch_name(index: dict) -> dict:
    """{each name torch gives a function (``__resume_at_70_3``, code names): its index entry},
    to print the display name wherever the index refers to a function by torch's name
    (``resume_functions``, a graph break's ``function``)."""
    found = {}
    for fn in index.get("functions", []):
        for n in [fn.get("name"), fn.get("qualname")] + list(fn.get("aliases") or []):
            if n:
                found.setdefault(n, fn)
    return found


def refer_to(name, functions: dict) -> str:
    """A function the index names by torch's ``name``: its display name, ``name`` beside it."""
    fn = functions.get(name)
    return with_torch_names(title_of(fn), name) if fn is not None else name


# -- Dynamo's stack values ----------------------------------------------------------------

_STACK_REF = re.compile(r"\b___stack\d+\b")


def stack_value_text(info: dict) -> str:
    """``the value of m.item() at line 7`` for one of :func:`unveil.torch.stack_values.of_resume`'s
    values (``a value computed at line 7`` when only the line is known)."""
    line = " at line %s" % info["line"] if info.get("line") else ""
    if info.get("expression"):
        return "the value of %s%s" % (info["expression"], line)
    return "a value computed%s" % (line or " before the graph break")


def stack_names(text: str) -> list:
    """The names of Dynamo's stack values (``___stack0``) ``text`` mentions, each once."""
    return list(dict.fromkeys(_STACK_REF.findall(text))) if "___stack" in text else []


def with_stack_values(text: str, stack_values) -> str:
    """``text`` (a guard line, a recompile reason), then what each of Dynamo's stack values it
    names is: ``L['___stack0'] <= 0.5   [___stack0: the value of m.item() at line 7]``."""
    named = [n for n in stack_names(text) if n in (stack_values or {})]
    if not named:
        return text
    return "%s   [%s]" % (text, "; ".join("%s: %s" % (n, stack_value_text(stack_values[n])) for n in named))
