"""Hostile and corrupt code objects: no injected code ever comes out, and whatever
goes wrong surfaces as ``DecompilationError``.

Where the line is drawn (also in README, "Untrusted input"): CPython itself can crash
on some corrupt code objects before unveil sees them, and such inputs are out of scope.

* 3.11+: every instruction is followed by its inline ``CACHE`` entries. A ``co_code``
  whose last instruction expects caches beyond the end makes CPython write past the
  buffer - in the code-object constructor on 3.12+ (quickening), in the ``co_code``
  getter that ``dis`` reads on 3.11+ (de-optimizing a copy). Random bytes of the right
  length segfault 3.12 and 3.13 within 200 samples. So on 3.11+ the fuzzed
  ``co_code`` keeps CPython's layout: real opcodes of the running version (no
  specialized, instrumented or pseudo opcodes, no ``ENTER_EXECUTOR``), each followed by
  as many zero ``CACHE`` words as it expects; opcodes, arguments and order are random.
  On 3.8-3.10 (no inline caches) ``co_code`` is random bytes as well.
* Names must be strings: ``code.replace(co_names=(1,))`` is a ``SystemError`` on 3.9+
  and aborts the interpreter on 3.8 ("non-string found in code slot"), so non-string
  names are tested where they can occur - in constants (keyword-argument names).
* Code objects are never run here: corrupt bytecode is undefined behaviour for the
  interpreter loop.
"""
import dis
import random
import sys
import types
import warnings

import pytest

import unveil
from unveil import DecompilationError
from unveil.decompiler.errors import UnsafeInput

PY311 = sys.version_info >= (3, 11)


class Sink:
    """What injected code would call; an output that runs it records a hit."""

    def __init__(self):
        self.hits = []

    def __call__(self, *args):
        self.hits.append(args)


def assert_no_injection(code, call_args=(), must_refuse=True):
    """Decompile ``code``: either refused with :class:`UnsafeInput`, or the text runs
    without ever calling the payload (defining the function and calling it)."""
    try:
        text = unveil.decompile(code)
    except unveil.DecompilationError as e:
        if must_refuse and not isinstance(e, UnsafeInput):
            raise
        return e  # refused: crafted input, or text that could not be proved
    assert not must_refuse, "not refused:\n" + text
    sink = Sink()
    namespace = {"PWNED": sink, "__name__": "hostile"}
    exec(compile(text, "<decompiled>", "exec"), namespace)
    for value in list(namespace.values()):
        if isinstance(value, types.FunctionType):
            try:
                value(*call_args)
            except Exception:
                pass
    assert sink.hits == [], text
    return text


def replace_const(code, old, new):
    """``code`` with the constant ``old`` replaced (in it and nested code objects)."""
    def swap(c):
        if isinstance(c, types.CodeType):
            return replace_const(c, old, new)
        if type(c) is type(old) and c == old:
            return new
        if type(c) is tuple:  # e.g. 3.10+'s flat tuple of annotations
            return tuple(swap(item) for item in c)
        return c
    return code.replace(co_consts=tuple(swap(c) for c in code.co_consts))


def replace_name(code, field, old, new):
    names = getattr(code, field)
    assert old in names, (old, names)
    return code.replace(**{field: tuple(new if n == old else n for n in names)})


# -- names ------------------------------------------------------------------

def f_local(a):
    x = a
    return x


def f_attr(o):
    return o.attr


def f_global():
    return some_global  # noqa: F821


def f_import():
    import os.path
    from json import dumps
    return os, dumps


def f_kwargs(g):
    return g(key=1)


def f_closure():
    a = 1

    def inner():
        return a
    return inner


def f_nested():
    def inner(b):
        return b
    return inner


NAME_CASES = [
    ("local statement", f_local, "co_varnames", "x", "x = 1; PWNED(); y"),
    ("argument", f_local, "co_varnames", "a", "a=PWNED()"),
    ("local with newline", f_local, "co_varnames", "x", "x\nPWNED()\ny"),
    ("keyword as local", f_local, "co_varnames", "x", "None"),
    ("attribute with newline", f_attr, "co_names", "attr", "attr\nPWNED()"),
    ("attribute with hash", f_attr, "co_names", "attr", "attr #"),
    ("keyword as attribute", f_attr, "co_names", "attr", "if"),
    ("global statement", f_global, "co_names", "some_global", "(PWNED())"),
    ("dotted import", f_import, "co_names", "os.path", "os;PWNED()"),
    ("from import", f_import, "co_names", "dumps", "dumps;PWNED()"),
    ("import module", f_import, "co_names", "json", "json import x;PWNED();from json"),
    ("cell", f_closure, "co_cellvars", "a", "a;PWNED()"),
    ("not NFKC", f_local, "co_varnames", "x", "\ufb01"),  # the parser reads it as "fi"
]


@pytest.mark.parametrize("label,fn,field,old,new", NAME_CASES, ids=[c[0] for c in NAME_CASES])
def test_crafted_name_is_refused(label, fn, field, old, new):
    code = replace_name(fn.__code__, field, old, new)
    if field == "co_cellvars":  # the nested function's free variable is the same cell
        inner = [c for c in code.co_consts if isinstance(c, types.CodeType)][0]
        code = replace_const(code, inner, inner.replace(co_freevars=(new,)))
    error = assert_no_injection(code, call_args=(1,) * code.co_argcount)
    assert repr(new) in str(error) or repr(new.split(".")[0]) in str(error)
    assert "\n" not in str(error)


@pytest.mark.parametrize("names", [("key=PWNED(),x",), ("if",), (1,)],
                         ids=["statement", "keyword", "not a str"])
def test_crafted_keyword_argument_name_is_refused(names):
    # keyword-argument names are a constant tuple: any object can be in it
    code = replace_const(f_kwargs.__code__, ("key",), names)
    assert_no_injection(code, call_args=(dict,))


def test_crafted_function_names_never_reach_the_text():
    # the decompiled function's own name is made an identifier; a nested def is written
    # under the name it is stored as
    outer = f_nested.__code__.replace(co_name="f():\n    PWNED()\ndef g")
    if hasattr(outer, "co_qualname"):
        outer = outer.replace(co_qualname=outer.co_name)
    assert_no_injection(outer, must_refuse=False)
    inner = [c for c in f_nested.__code__.co_consts if isinstance(c, types.CodeType)][0]
    bad = inner.replace(co_name="inner(b):\n    PWNED()\ndef x")
    if hasattr(bad, "co_qualname"):
        bad = bad.replace(co_qualname=bad.co_name)
    code = replace_const(f_nested.__code__, inner, bad)
    code = replace_const(code, "f_nested.<locals>.inner", bad.co_name)  # 3.8-3.10: the qualname const
    assert_no_injection(code, must_refuse=False)


# -- strings and constants ----------------------------------------------------

NASTY_STRINGS = ['"""\nPWNED()\n"""', "'''\nPWNED()\n'''", "\\", "'", '"', "{PWNED()}",
                 "}{", "\r\nPWNED()\r", "# \x00 \x0c \u2028 \x1b", "\\N{BULLET}"]


def f_doc():
    "doc"
    return 1


def f_fstring(x):
    return f"<{x!r}>"


def f_format_spec(x):
    return f"{x:>10}"


def f_literal():
    return "lit"


@pytest.mark.parametrize("nasty", NASTY_STRINGS)
def test_strings_become_literals_of_themselves(nasty):
    for fn, old, args in ((f_doc, "doc", ()), (f_fstring, "<", (7,)), (f_literal, "lit", ())):
        code = replace_const(fn.__code__, old, nasty)
        text = assert_no_injection(code, call_args=args, must_refuse=False)
        namespace = {}
        exec(text, namespace)
        new = namespace[fn.__name__]
        expected = types.FunctionType(code, {})  # safe to run: only its constants changed
        assert new(*args) == expected(*args)
        assert new.__doc__ == expected.__doc__


def test_format_spec_with_a_brace_is_refused():
    # in a format spec "{{" is not an escape but a nested replacement field
    code = replace_const(f_format_spec.__code__, ">10", "{PWNED()}")
    assert "format spec" in str(assert_no_injection(code, call_args=(1,)))


class EvilInt(int):
    def __repr__(self):
        return "PWNED()"


class EvilObject:
    def __repr__(self):
        return "PWNED()"


def f_const():
    return 12345


def test_constant_of_a_subclass_with_its_own_repr_is_refused():
    code = replace_const(f_const.__code__, 12345, EvilInt(5))
    assert "EvilInt" in str(assert_no_injection(code))
    code = replace_const(f_const.__code__, 12345, (1, (2, frozenset({EvilInt(3)}))))
    assert "EvilInt" in str(assert_no_injection(code))


def test_constant_spelled_as_a_tuple_display_is_still_checked():
    # a tuple constant holding ``...`` is written as a display of its items (the
    # unparsers would write ``Ellipsis``, a global name): each item is still checked
    for value in [(..., EvilInt(3)), (1, (..., (2, frozenset({EvilInt(3)}))))]:
        code = replace_const(f_const.__code__, 12345, value)
        assert "EvilInt" in str(assert_no_injection(code))
    code = replace_const(f_const.__code__, 12345, (1, (..., (2, 3))))
    namespace = {}
    exec(unveil.decompile(code), namespace)
    assert namespace["f_const"]() == (1, (..., (2, 3)))


def test_constant_of_a_foreign_type_is_never_written_by_its_repr():
    # only objects marshal can write become literals; another object (Dynamo's code
    # holds such constants) stays a placeholder name, never its repr
    code = replace_const(f_const.__code__, 12345, EvilObject())
    assert_no_injection(code, must_refuse=False)


def test_refusal_names_the_bad_name_and_the_function():
    code = replace_name(f_attr.__code__, "co_names", "attr", "a b")
    with pytest.raises(UnsafeInput) as info:
        unveil.Decompiler(code).decompile()
    assert "'a b'" in str(info.value) and "f_attr" in str(info.value)
    with pytest.raises(UnsafeInput):
        unveil.recompile(code)


# -- the boundary -------------------------------------------------------------

def test_internal_errors_surface_as_decompilation_error_with_cause(monkeypatch):
    from unveil.decompiler import expressions
    real = expressions.execute

    def boom(frame, ins):
        if ins.op.startswith("RETURN"):
            raise KeyError("boom")
        return real(frame, ins)
    monkeypatch.setattr(expressions, "execute", boom)
    for call in (unveil.decompile, lambda c: unveil.Decompiler(c).decompile(), unveil.recompile):
        with pytest.raises(DecompilationError) as info:
            call(f_local)
        error = info.value
        assert isinstance(error.__cause__, KeyError)
        assert "internal error: KeyError" in str(error)
        assert error.function == "f_local" and "f_local" in str(error)
        assert error.instruction.startswith("RETURN") and error.offset is not None


@pytest.mark.parametrize("exc", [KeyboardInterrupt, SystemExit, MemoryError])
def test_interpreter_level_exceptions_pass_through(monkeypatch, exc):
    from unveil.decompiler import expressions

    def stop(frame, ins):
        raise exc()
    monkeypatch.setattr(expressions, "execute", stop)
    with pytest.raises(exc):
        unveil.decompile(f_local)


# -- fuzz: corrupt code objects ----------------------------------------------

def sample_loops(a, b=2, *c, **d):
    x = [i for i in a if i]
    while a:
        if a > 1:
            break
        a -= 1
    else:
        b = b.attr
    return f"{x!r:>{b}}", c, d


def sample_try(a, b):
    try:
        y = b.attr + a[0]
    except (KeyError, IndexError) as e:
        y = e
    finally:
        b = None
    with a as z:
        y += z
    return y, b


def sample_calls(obj, items):
    total = 0
    for k, v in sorted(items.items(), key=lambda kv: kv[1]):
        total += obj.method(k, v, flag=True) if k else -v
    return {k: total for k in items}, not total, total or None


SAMPLES = [sample_loops, sample_try, sample_calls]


def _cache_entries(op):
    caches = getattr(dis, "_inline_cache_entries", None)
    if caches is None:
        return 0
    if hasattr(caches, "get"):  # 3.13: a dict by name (3.15: a frozendict)
        return caches.get(dis.opname[op], 0)
    return caches[op]


def _layout_safe_opcodes():
    """The opcodes of the running version a fuzzed co_code may hold (see the module
    docstring for why the others are out of scope)."""
    return sorted(v for k, v in dis.opmap.items() if v < 256 and not k.startswith("INSTRUMENTED_")
                  and k not in ("ENTER_EXECUTOR", "RESERVED", "CACHE"))


def _units(code):
    """co_code cut into instructions, each with its EXTENDED_ARG prefixes and caches."""
    raw = code.co_code
    units, k, start = [], 0, 0
    while k < len(raw):
        op = raw[k]
        k += 2
        if op == dis.opmap["EXTENDED_ARG"]:
            continue
        k += 2 * _cache_entries(op)
        units.append(raw[start:k])
        start = k
    if start < len(raw):
        units.append(raw[start:])
    return units


def random_code_bytes(rnd, length):
    """``length`` bytes of instructions in CPython's layout: random real opcodes and
    arguments, each opcode followed by its (zero) caches; short tails are NOPs."""
    ops = _layout_safe_opcodes()
    nop = dis.opmap["NOP"]
    out = bytearray()
    while len(out) < length:
        op = rnd.choice(ops)
        size = 2 + 2 * _cache_entries(op)
        if len(out) + size > length:
            op, size = nop, 2
        out += bytes([op, rnd.randrange(256)]) + bytes(size - 2)
    return bytes(out)


def _mutations(code, rnd):
    """(label, corrupt code object) pairs drawn from one original."""
    n = len(code.co_code)
    yield "random co_code", code.replace(co_code=random_code_bytes(rnd, n))
    if not PY311:
        yield "random bytes", code.replace(co_code=bytes(rnd.randrange(256) for _ in range(n)))
    units = _units(code)
    rnd.shuffle(units)
    yield "shuffled", code.replace(co_code=b"".join(units))
    yield "out-of-range argument", _out_of_range_arg(code, rnd)
    if PY311:
        table = code.co_exceptiontable
        if table:
            yield "truncated exception table", code.replace(co_exceptiontable=table[:rnd.randrange(len(table))])
            yield "random exception table", code.replace(
                co_exceptiontable=bytes(rnd.randrange(256) for _ in range(len(table))))
        yield "exception table for other code", code.replace(
            co_exceptiontable=rnd.choice(SAMPLES).__code__.co_exceptiontable)


def _out_of_range_arg(code, rnd):
    """``code`` with one instruction's constant, name or local index past its table."""
    tables = [(dis.hasconst, len(code.co_consts)), (dis.hasname, len(code.co_names)),
              (dis.haslocal, len(code.co_varnames))]
    raw = bytearray(code.co_code)
    candidates = [k for k in range(0, len(raw), 2)
                  if any(raw[k] in ops and size + 3 < 256 for ops, size in tables)
                  and (k == 0 or raw[k - 2] != dis.opmap["EXTENDED_ARG"])]
    if not candidates:
        return code
    k = rnd.choice(candidates)
    size = next(size for ops, size in tables if raw[k] in ops)
    raw[k + 1] = size + rnd.randrange(3)
    if PY311 and raw[k] == dis.opmap.get("LOAD_GLOBAL"):
        raw[k + 1] = min(255, 2 * raw[k + 1] + rnd.randrange(2))
    return code.replace(co_code=bytes(raw))


def _outcome(code):
    """'refused' or 'decompiled'; anything but DecompilationError fails the test."""
    try:
        text = unveil.decompile(code)
    except DecompilationError as e:
        assert str(e) and "\n" not in str(e)
        return "refused"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyntaxWarning)  # e.g. ``None[0]`` from random code
        compile(text, "<decompiled>", "exec")  # text that is handed out compiles
    return "decompiled"


@pytest.mark.parametrize("checked", [True, False], ids=["checked", "decompiler alone"])
def test_fuzzed_corrupt_code_objects_give_only_decompilation_error(monkeypatch, checked):
    if not checked:  # what reaches the decompiler's own stages surfaces as DecompilationError too
        from unveil.decompiler import api
        monkeypatch.setattr(api, "check_bytecode", lambda code: None)
    rnd = random.Random(12)
    outcomes = {}
    for _ in range(25):
        for fn in SAMPLES:
            for label, code in _mutations(fn.__code__, rnd):
                key = (label, _outcome(code))
                outcomes[key] = outcomes.get(key, 0) + 1
    assert any(outcome == "refused" for _, outcome in outcomes), outcomes


@pytest.mark.parametrize("stacksize", [0, 1, 10000])
def test_wrong_stacksize_changes_nothing(stacksize):
    # co_stacksize sizes the frame; it is no part of what the function does
    for fn in SAMPLES:
        assert unveil.decompile(fn.__code__.replace(co_stacksize=stacksize)) == unveil.decompile(fn.__code__)



ANNOTATED = "def outer():\n    def inner(a: 'int') -> 'str':\n        return a\n    return inner\n"


@pytest.mark.parametrize("old,new", [("int", "int\nPWNED()"), ("a", "a:int=PWNED(),b")],
                         ids=["annotation", "annotated name"])
def test_annotations_never_become_code(old, new):
    # annotations are built where the function is defined, from constants
    namespace = {}
    exec(ANNOTATED, namespace)
    outer = replace_const(namespace["outer"].__code__, old, new)
    try:
        text = unveil.decompile(outer)
    except DecompilationError:
        return
    assert_no_injection(outer, must_refuse=False)
    exec(text, namespace)
    crafted = types.FunctionType(outer, {})  # safe to run: only its constants changed
    assert namespace["outer"]().__annotations__ == crafted().__annotations__
