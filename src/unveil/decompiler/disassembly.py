"""``dis.get_instructions`` in linear time, and each code object disassembled once.

The reader (read_opcodes.py), the bytecode checks (safety.py, lines.py), the proof
(opsem.py, measure.py) and the torch side all read instructions through
:func:`get_instructions`: dis's own is quadratic in the number of jumps, and inside
:func:`disassembly_kept` a code object read by several of them is disassembled once.
"""
import contextlib
import contextvars
import dis

from .versions import PY


def _every_offset(code):
    return range(0, len(code), 2)


def _linear_get_instructions():
    """``dis.get_instructions`` without its quadratic cost.

    ``dis.findlabels`` collects jump targets in a list with a membership test
    per jump (every version up to 3.13), and up to 3.10 each instruction is
    then looked up in that list: 10,000 ifs take 40 s on 3.8. The labels only
    serve ``is_jump_target`` and the ``L<n>`` names of 3.13's jump arguments,
    which are not read here; so this is a copy of dis's functions whose
    ``findlabels`` calls every offset a label (dis itself is left as it is)."""
    import types
    module = vars(dis)
    if not isinstance(module.get("findlabels"), types.FunctionType):
        return dis.get_instructions
    names = dict(module)
    for key, value in module.items():
        if isinstance(value, types.FunctionType) and value.__globals__ is module:
            copy = types.FunctionType(value.__code__, names, value.__name__, value.__defaults__,
                                      value.__closure__)
            copy.__kwdefaults__ = value.__kwdefaults__
            names[key] = copy
    names["findlabels"] = _every_offset
    return names["get_instructions"]


def _instructions_311(copy):
    """3.11: ``copy`` (dis.get_instructions as :func:`_linear_get_instructions` makes it) in
    one loop, the same ``Instruction`` tuples as a list. dis builds each through two
    generators and two named tuples' ``__new__`` in Python (for 10,000 ifs, a tenth of
    the decompile; the code is read once, see :func:`disassembly_kept`). Whatever this
    does not handle (other arguments, an exception from malformed bytecode) is left to
    ``copy``, so the result and the errors stay dis's own; tests/decompiler/test_disassembly.py
    compares the two on the standard library."""
    names = copy.__globals__
    instruction, positions_of = dis.Instruction, dis.Positions
    new = tuple.__new__
    deop_of = [names["_deoptop"](op) for op in range(256)]
    caches_of = [names["_inline_cache_entries"][d] for d in deop_of]
    opname_of = names["_all_opname"]
    have_argument, extended = dis.HAVE_ARGUMENT, dis.EXTENDED_ARG
    overflow = names["_INT_OVERFLOW"]
    hasconst, hasname, hasjabs, hasjrel = (frozenset(names[k]) for k in (
        "hasconst", "hasname", "hasjabs", "hasjrel"))
    haslocal_or_free = frozenset(names["haslocal"]) | frozenset(names["hasfree"])
    hascompare, cmp_op = frozenset(names["hascompare"]), names["cmp_op"]
    load_global, load_const = dis.opmap["LOAD_GLOBAL"], dis.opmap["LOAD_CONST"]
    backward = frozenset(op for op in range(256) if "JUMP_BACKWARD" in dis.opname[op])
    format_value, make_function, binary_op = (dis.opmap[k] for k in (
        "FORMAT_VALUE", "MAKE_FUNCTION", "BINARY_OP"))
    converters, function_flags, nb_ops = (names[k] for k in (
        "FORMAT_VALUE_CONVERTERS", "MAKE_FUNCTION_FLAGS", "_nb_ops"))
    unknown = names["UNKNOWN"]
    no_positions = (None, None, None, None)

    def read(code):
        raw = code.co_code
        linestarts = dict(dis.findlinestarts(code))
        positions = code.co_positions()
        consts, co_names, varname = code.co_consts, code.co_names, code._varname_from_oparg
        out = []
        extended_arg = 0
        caches = 0
        for offset in range(0, len(raw), 2):
            if caches:
                caches -= 1
                next(positions, None)
                continue
            op = raw[offset]
            deop = deop_of[op]
            caches = caches_of[deop]
            argval = None
            argrepr = ""
            if deop >= have_argument:
                arg = raw[offset + 1] | extended_arg
                extended_arg = (arg << 8) if deop == extended else 0
                if extended_arg >= overflow:
                    extended_arg -= 2 * overflow
                argval = arg
                if deop in hasconst:
                    if deop == load_const:
                        argval = consts[arg]
                        argrepr = repr(argval)
                    else:
                        argval = unknown  # (KW_NAMES)
                elif deop in hasname:
                    argval = argrepr = co_names[arg // 2 if deop == load_global else arg]
                    if deop == load_global and arg & 1 and argrepr:
                        argrepr = "NULL + " + argrepr
                elif deop in hasjabs:
                    argval = arg * 2
                    argrepr = "to " + repr(argval)
                elif deop in hasjrel:
                    argval = offset + 2 + (-arg if deop in backward else arg) * 2
                    argrepr = "to " + repr(argval)
                elif deop in haslocal_or_free:
                    argval = argrepr = varname(arg)
                elif deop in hascompare:
                    argval = argrepr = cmp_op[arg]
                elif deop == format_value:
                    argval, argrepr = converters[arg & 0x3]
                    argval = (argval, bool(arg & 0x4))
                    if argval[1]:
                        argrepr += (", " if argrepr else "") + "with format"
                elif deop == make_function:
                    argrepr = ", ".join(s for i, s in enumerate(function_flags) if arg & (1 << i))
                elif deop == binary_op:
                    argrepr = nb_ops[arg][1]
            else:
                arg = None
                extended_arg = 0
            out.append(new(instruction, (opname_of[op], op, arg, argval, argrepr, offset,
                                         linestarts.get(offset), True,
                                         new(positions_of, next(positions, no_positions)))))
        return out

    def get_instructions(x, **kwargs):
        if kwargs.get("show_caches", False) or kwargs.get("adaptive", False) \
                or kwargs.get("first_line") is not None or type(x) is not type(read.__code__):
            return copy(x, **kwargs)
        try:
            out = read(x)
        except Exception:  # noqa: BLE001 - dis says what is wrong, in its words
            out = None
        return copy(x, **kwargs) if out is None else out

    return get_instructions


_disassemble = _linear_get_instructions()
if PY == (3, 11) and _disassemble is not dis.get_instructions:
    _disassemble = _instructions_311(_disassemble)

#: code objects disassembled inside :func:`disassembly_kept` (None outside): id -> (code, instructions)
_KEPT = contextvars.ContextVar("unveil_disassembly", default=None)


@contextlib.contextmanager
def disassembly_kept():
    """Inside the block each code object is disassembled once: the bytecode check, the
    reader and the proof all read the function being decompiled, and ``dis`` builds an
    object per instruction (for 10,000 ifs, a third of the time of reading the code)."""
    if _KEPT.get() is not None:
        yield
        return
    token = _KEPT.set({})
    try:
        yield
    finally:
        _KEPT.reset(token)


def get_instructions(code, **kwargs):
    """``dis.get_instructions`` in linear time (use it instead of that), disassembled once
    per code object inside :func:`disassembly_kept`."""
    kept = _KEPT.get()
    if kept is None:
        return _disassemble(code, **kwargs)
    if kwargs.get("show_caches", True) is False:
        del kwargs["show_caches"]  # the default wherever the argument exists (3.11+)
    key = (id(code), tuple(sorted(kwargs.items())))
    hit = kept.get(key)
    if hit is None or hit[0] is not code:  # (the code is kept alive: its id is not reused)
        hit = kept[key] = (code, tuple(_disassemble(code, **kwargs)))
    return iter(hit[1])
