"""The round-trip measure of DESIGN.md section 3.

Normalized bytecode: opname and argument per instruction, jumps as instruction
indices, NOP/EXTENDED_ARG/CACHE/RESUME/NOT_TAKEN dropped, 3.13's fused local loads and
stores split in two, 3.14's borrowed local loads read as plain ones, nested code objects
compared the same way. Used by the tests and by ``bench/corpus.py``.
"""
import dis
import types

from .disassembly import get_instructions
from .versions import SUPERINSTRUCTIONS

DROPPED = {"NOP", "EXTENDED_ARG", "CACHE", "RESUME", "NOT_TAKEN"}


#: 3.13's fused pairs of local loads and stores are compared split (SUPERINSTRUCTIONS: the
#: compiler fuses two only on one line). 3.14's borrowed loads (LOAD_FAST_BORROW) skip a
#: reference count where the compiler sees the value outlive its use; that analysis runs on
#: the layout of basic blocks, which line numbers change too: a borrowed load is compared as
#: the plain load it does.
PLAIN_LOAD = {"LOAD_FAST_BORROW": "LOAD_FAST"}


def normalized(code):
    """A comparable form of ``code``'s bytecode."""
    # (dis.get_instructions is quadratic in the number of jumps; see disassembly.py)
    ins = [i for i in get_instructions(code) if i.opname not in DROPPED]
    index, k = {}, 0
    for i in ins:
        index[i.offset] = k
        k += 2 if i.opname in SUPERINSTRUCTIONS else 1
    out = []
    for i in ins:
        if i.opname in SUPERINSTRUCTIONS:
            out.extend(zip(SUPERINSTRUCTIONS[i.opname], i.argval))
            continue
        if i.opcode in dis.hasjrel or i.opcode in dis.hasjabs:
            arg = ("jump", index.get(i.argval, i.argval))
        elif isinstance(i.argval, types.CodeType):
            arg = ("code", normalized(i.argval))
        elif i.opname in ("LOAD_CONST", "RETURN_CONST"):
            arg = (type(i.argval).__name__, repr(i.argval))
        elif i.arg is None:
            arg = None
        else:
            # (dis gives many arguments no text: a count, ``in``/``not in``, ``is``/``is not``)
            arg = i.argrepr or i.arg
        out.append((PLAIN_LOAD.get(i.opname, i.opname), arg))
    return tuple(out)


def find_code(container, name):
    """The code object called ``name`` inside ``container`` (depth first)."""
    for c in container.co_consts:
        if isinstance(c, types.CodeType):
            if c.co_name == name:
                return c
            found = find_code(c, name)
            if found is not None:
                return found
    return None
