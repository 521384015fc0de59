"""The decompiler's disassembly (disassembly._disassemble) gives what dis gives.

On 3.11 it reads the bytecode in a loop of its own (disassembly._instructions_311, for
speed); elsewhere it is dis's code. Either way the instructions, and the errors on
malformed code, must be those of dis.get_instructions (with every offset a label, as
disassembly._linear_get_instructions has it)."""
import os
import sys
import types

import pytest

from unveil.decompiler import disassembly

BENCH = os.path.join(os.path.dirname(__file__), "..", "..", "bench")


def _codes(top):
    yield top
    for c in top.co_consts:
        if isinstance(c, types.CodeType):
            yield from _codes(c)


def _stdlib_codes(every=9):
    sys.path.insert(0, BENCH)
    try:
        import corpus
    finally:
        sys.path.remove(BENCH)
    for _, files in corpus.stdlib_modules()[::every]:
        for path in files:
            try:
                with open(path, "rb") as f:
                    top = compile(f.read(), path, "exec")
            except (SyntaxError, ValueError):
                continue
            yield from _codes(top)


def _read(get, code, **kwargs):
    """(instructions as plain tuples, None) or (None, (exception class, message))."""
    try:
        return [(type(i),) + tuple(i) for i in get(code, **kwargs)], None
    except Exception as e:  # noqa: BLE001 - compared, not handled
        return None, (type(e), str(e))


def _reference():
    return disassembly._linear_get_instructions()


@pytest.mark.parametrize("kwargs", [{}, {"show_caches": False}] if sys.version_info >= (3, 11) else [{}],
                         ids=lambda k: ",".join(k) or "default")
def test_stdlib_instructions_are_dis_own(kwargs):
    reference = _reference()
    n = 0
    for code in _stdlib_codes():
        assert _read(disassembly._disassemble, code, **kwargs) == _read(reference, code, **kwargs), code
        n += 1
    assert n > 1000


def _sample(a, b=2, *c, **d):
    e = f"{a!r:>{b}}" + str(b)
    g = [x for x in c if x]
    h = lambda: e  # noqa: E731
    print(a, b, sep=e, end=g)
    try:
        return a[b] + -b @ e is not None or os.sep.attr
    except (KeyError, IndexError) as err:
        del g
        return err, h, d
    finally:
        for i in range(3):
            if i:
                break


def test_malformed_code_gives_dis_errors():
    # arguments past their tables: dis raises, and so must the fast reader (the same error)
    code = _sample.__code__
    reference = _reference()
    variants = [code, code.replace(co_consts=()), code.replace(co_names=()),
                code.replace(co_consts=code.co_consts[:1], co_names=code.co_names[:1])]
    for bad in variants:
        got, error = _read(disassembly._disassemble, bad)
        assert (got, error) == _read(reference, bad)
    assert _read(disassembly._disassemble, variants[1])[1] is not None
