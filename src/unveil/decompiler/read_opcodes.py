"""Reading, step 1: raw instructions -> normalized :class:`~.stream.Instr`, one by one.

:func:`translate` maps each instruction ``dis`` gives (disassembly.py) to the
version-independent ones instructions.py's docstring lists: operators, calls, NULL
pushes, f-string pieces, superinstructions split, 3.14+'s hidden stack entries
(slots.py) left out, and the few multi-instruction sequences that read as one
(3.14's with-statement entry, a builtin's inlined fast path, PEP 649's bookkeeping of
annotated statements). Jump targets are still byte offsets; read_rewrites.py resolves
them and rewrites what spans several instructions.
"""
import dis
import functools
from typing import Dict, List, Optional

from .disassembly import get_instructions
from .slots import hidden_slots, pushes_hidden_null
from .stream import Instr
from .versions import (GENEXPR_GETS_ITS_ITERATOR, HIDES_SLOTS, LOADS_CELLS_WITH_LOAD_FAST,
                       MARKS_CONDITIONAL_ANNOTATIONS, MARKS_LAZY_IMPORTS, PY, SUPERINSTRUCTIONS,
                       common_constant)

#: Operator text for the <=3.10 operator opcodes.
_OLD_BINARY = {
    "POWER": "**", "MULTIPLY": "*", "MATRIX_MULTIPLY": "@", "FLOOR_DIVIDE": "//",
    "TRUE_DIVIDE": "/", "MODULO": "%", "ADD": "+", "SUBTRACT": "-", "LSHIFT": "<<",
    "RSHIFT": ">>", "AND": "&", "XOR": "^", "OR": "|",
}


def _raw(code):
    """Raw instructions with ``CACHE`` entries hidden and their line numbers."""
    kwargs = {"show_caches": False} if PY >= (3, 11) and PY < (3, 13) else {}
    line = None
    for ins in get_instructions(code, **kwargs):
        if PY >= (3, 13):
            ln = ins.line_number
        else:
            ln = ins.starts_line
        if ln is not None:
            line = ln
        yield ins, line


@functools.lru_cache(maxsize=None)  # (asked once per instruction; a few dozen names)
def _binary_name(opname):
    if opname.startswith("BINARY_") and opname[7:] in _OLD_BINARY:
        return _OLD_BINARY[opname[7:]]
    if opname.startswith("INPLACE_") and opname[8:] in _OLD_BINARY:
        return _OLD_BINARY[opname[8:]] + "="
    return None


#: instructions that translate keeps as they are (its last branch), on every version
_PLAIN = frozenset({
    "LOAD_FAST", "STORE_FAST", "LOAD_CONST", "LOAD_NAME", "STORE_NAME", "STORE_ATTR",
    "STORE_SUBSCR", "LOAD_DEREF", "STORE_DEREF", "STORE_GLOBAL", "BUILD_TUPLE", "BUILD_LIST",
    "BUILD_MAP", "BUILD_CONST_KEY_MAP", "BUILD_STRING", "RETURN_VALUE", "POP_TOP", "COPY", "SWAP"})


def _holds_slice(value) -> bool:
    return type(value) is slice or type(value) is tuple and any(type(x) is slice for x in value)


def _build_constant_slices(value, emit) -> None:
    """Emit the loads and builds that make ``value``, a slice or a tuple holding slices."""
    if type(value) is tuple:
        for item in value:
            _build_constant_slices(item, emit)
        emit("BUILD_TUPLE", len(value))
    elif type(value) is slice:
        parts = (value.start, value.stop) if value.step is None else (value.start, value.stop, value.step)
        for part in parts:
            emit("LOAD_CONST", part)
        emit("BUILD_SLICE", len(parts))
    else:
        emit("LOAD_CONST", value)


def _with_entry(raw, pos) -> Optional[str]:
    """3.14+: ``BEFORE_WITH`` or ``BEFORE_ASYNC_WITH`` when ``raw[pos:pos + 6]`` enters a with
    statement (``COPY 1; LOAD_SPECIAL __exit__; SWAP 2; SWAP 3; LOAD_SPECIAL __enter__; CALL 0``:
    the exit method and its self stay below the result of ``__enter__``), else None."""
    seq = [(r[0].opname, r[0].argrepr if r[0].opname == "LOAD_SPECIAL" else r[0].arg) for r in raw[pos:pos + 6]]
    if seq == [("COPY", 1), ("LOAD_SPECIAL", "__exit__"), ("SWAP", 2), ("SWAP", 3),
               ("LOAD_SPECIAL", "__enter__"), ("CALL", 0)]:
        return "BEFORE_WITH"
    if seq == [("COPY", 1), ("LOAD_SPECIAL", "__aexit__"), ("SWAP", 2), ("SWAP", 3),
               ("LOAD_SPECIAL", "__aenter__"), ("CALL", 0)]:
        return "BEFORE_ASYNC_WITH"
    return None


def _builtin_fast_path_end(raw, pos) -> Optional[int]:
    """3.14+: where the call ``all(<genexpr>)`` (``any``, ``tuple``; 3.15: ``list``, ``set``)
    that starts after ``raw[pos]`` (the load of the name) goes on when the name is not the
    builtin, else None. The compiler inlines the generator's loop for the builtin:
    ``COPY 1; LOAD_COMMON_CONSTANT all; IS_OP 0; POP_JUMP_IF_FALSE slow; POP_TOP; <loop>``,
    ``slow: PUSH_NULL; <genexpr>; CALL 1``. The slow way is the call as written (and the
    proof compares the compiler's output for it, fast path included)."""
    seq = raw[pos + 1:pos + 5]
    if (len(seq) < 4 or [r[0].opname for r in seq] != ["COPY", "LOAD_COMMON_CONSTANT", "IS_OP", "POP_JUMP_IF_FALSE"]
            or seq[0][0].arg != 1 or seq[2][0].arg != 0
            or common_constant(seq[1][0].arg)[1] != raw[pos][0].argval):
        return None
    target = seq[3][0].argval
    for k in range(pos + 5, len(raw)):
        if raw[k][0].offset == target:
            return k if raw[k][0].opname == "PUSH_NULL" else None
    return None


_CONDITIONAL_ANNOTATIONS = "__conditional_annotations__"


class AnnotationRecord:
    """ANNOTATED's argument: the ``number`` of the annotated statement. Any two are equal:
    the compiler numbers each inlined copy of a finally body's statement anew, and the
    structurer must see the copies as the same code."""
    __slots__ = ("number",)

    def __init__(self, number):
        self.number = number

    def __eq__(self, other):
        return isinstance(other, AnnotationRecord)

    def __hash__(self):
        return 0

    def __repr__(self):
        return "#%d" % self.number


def _annotations_step(raw, pos):
    """3.14+: ((the instruction it reads as, its argument), where reading goes on) for the
    compiler's bookkeeping of which annotated statements ran (MARKS_CONDITIONAL_ANNOTATIONS)
    starting at ``raw[pos]``, else None."""
    seq, ends = [], []
    for k in range(pos, min(len(raw), pos + 8)):  # (EXTENDED_ARGs aside, at most four)
        if raw[k][0].opname != "EXTENDED_ARG":
            seq.append(raw[k][0])
            ends.append(k + 1)
            if len(seq) == 4:
                break
    ops = [i.opname for i in seq]
    if (ops[:2] in (["BUILD_SET", "STORE_NAME"], ["BUILD_SET", "STORE_DEREF"]) and seq[0].arg == 0
            and seq[1].argval == _CONDITIONAL_ANNOTATIONS):
        return ("SETUP_ANNOTATIONS", None), ends[1]
    if (ops[0] in ("LOAD_NAME", "LOAD_DEREF") and ops[1:] in (["LOAD_SMALL_INT", "SET_ADD", "POP_TOP"],
                                                              ["LOAD_CONST", "SET_ADD", "POP_TOP"])
            and seq[0].argval == _CONDITIONAL_ANNOTATIONS and type(seq[1].argval) is int
            and seq[2].arg == 1):
        return ("ANNOTATED", AnnotationRecord(seq[1].argval)), ends[3]
    return None


def _fold_hidden(name, arg, state):
    """3.14+: the instruction ``name``/``arg`` as it reads on a stack without the hidden
    entries of ``state`` (slots.py): the new ``(name, arg)``, or None when it only moves or
    drops a hidden entry."""
    if state is None or not state[1]:
        return name, arg
    depth, hidden = state
    if name == "POP_TOP":
        return None if depth - 1 in hidden else (name, arg)
    if name == "SWAP":
        top, other = depth - 1, depth - arg
        if top in hidden or other in hidden:
            # the two entries of one pair trade places (``return x`` in a with statement
            # moves the value below the pair: ``SWAP 3; SWAP 2``): the same one entry
            return None if arg == 2 else (name, arg)
        return name, arg - sum(1 for p in hidden if other < p < top)
    if name == "COPY":
        return name, arg - sum(1 for p in hidden if depth - arg < p)
    return name, arg


def _shadowing_end(raw, pos):
    """3.13+: where the inlined comprehension whose prologue saves a variable at ``pos``
    (``LOAD_FAST_AND_CLEAR``) ends its loop: the target of the first FOR_ITER after it. In
    between, the comprehension's variable of that name is a plain local sharing the slot of
    the function's cell (``{g(i): 1 for i in a}`` where a nested def reads another ``i``)."""
    return next((raw[k][0].argval for k in range(pos + 1, len(raw)) if raw[k][0].opname == "FOR_ITER"), -1)


def translate(code):
    """Map raw instructions to normalized ones (targets still byte offsets); and, 3.14+,
    offset -> the hidden stack entries there (slots.py; None before 3.14)."""
    out: List[Instr] = []
    kw_names = None  # 3.11/3.12 KW_NAMES waiting for its CALL
    raw = list(_raw(code))
    raw_instrs = [r[0] for r in raw] if HIDES_SLOTS else None
    states = hidden_slots(code, raw_instrs) if HIDES_SLOTS else None
    cells = frozenset(code.co_cellvars + code.co_freevars) if LOADS_CELLS_WITH_LOAD_FAST else frozenset()
    # a cell's name that an inlined comprehension binds as a plain local: up to the offset where
    # its loop ends, LOAD_FAST of the name loads that local's value, not the cell (see _shadowing_end)
    shadowed: Dict[str, int] = {}

    def emit(op, arg=None, target=None):
        out.append(Instr(op, arg, ins.offset, line, target))

    skip_pop = False
    resume_at = 0  # (instructions before it were read as part of an earlier one)
    for pos, (ins, line) in enumerate(raw):
        if pos < resume_at:
            continue
        name, arg, val = ins.opname, ins.arg, ins.argval
        step = _annotations_step(raw, pos) if MARKS_CONDITIONAL_ANNOTATIONS and name in (
            "BUILD_SET", "LOAD_NAME", "LOAD_DEREF") else None
        if step is not None:
            emit(*step[0])
            resume_at = step[1]
            continue
        if states is not None:
            # (a class body's annotations read builtins with LOAD_FROM_DICT_OR_GLOBALS)
            slow = _builtin_fast_path_end(raw, pos) if name in (
                "LOAD_GLOBAL", "LOAD_NAME", "LOAD_FROM_DICT_OR_GLOBALS") else None
            if slow is not None:
                emit(name, val)
                resume_at = slow
                continue
            entry = _with_entry(raw, pos) if name == "COPY" else None
            if entry is not None:
                emit(entry)
                resume_at = pos + 6
                continue
            folded = _fold_hidden(name, arg, states[pos])
            if folded is None or pushes_hidden_null(raw_instrs, pos):
                continue
            if folded[1] != arg:
                emit(folded[0], folded[1])
                continue
            if name == "CALL" and states[pos] is not None and states[pos][0] - arg - 1 in states[pos][1]:
                # the call of a with statement's __exit__ (and its self): 3.13's layout reads the
                # self slot as the first argument, None, the way 3.13 calls the one-entry exit
                emit("CALL", (arg - 1, None, 2))
                continue
        if name == "RETURN_GENERATOR":
            skip_pop = True  # 3.11+: the POP_TOP after it drops the generator itself
            continue
        if skip_pop and name == "POP_TOP":
            skip_pop = False
            continue
        # (the name asked first: a constant, Dynamo's included, may be unhashable)
        if cells and name in ("LOAD_FAST_AND_CLEAR", "MAKE_CELL") and val in cells:
            if name == "LOAD_FAST_AND_CLEAR":
                shadowed[val] = _shadowing_end(raw, pos)
            else:
                shadowed.pop(val, None)  # (the comprehension's own variable is a cell: a closure takes it)
        if name in ("NOP", "RESUME", "PRECALL", "CACHE", "EXTENDED_ARG", "GEN_START",
                    "RETURN_GENERATOR", "COPY_FREE_VARS", "MAKE_CELL",
                    "END_FOR_NOP", "NOT_TAKEN", "TRACE_RECORD"):
            continue
        if (cells and name in ("LOAD_FAST", "LOAD_FAST_BORROW") and val in cells
                and not ins.offset < shadowed.get(val, -1)):
            emit("LOAD_CLOSURE", val)  # (the cell, for a closure tuple: its value is LOAD_DEREF's)
            continue
        if name in _PLAIN:  # (asked first: most instructions are of these)
            if name == "LOAD_CONST" and _holds_slice(val):
                # 3.14 folds ``a[1:n]``'s (``a[1:2, ::2]``'s) constant bounds into a slice
                # constant (a tuple of them): built as 3.13 does
                _build_constant_slices(val, emit)
                continue
            emit(name, val if ins.arg is not None else None)
            continue
        if name == "TO_BOOL":
            # 3.13 converts before every test and ``not``; only a conversion
            # whose result is a value (``not not x``) says something
            q = pos + 1
            while q < len(raw) and raw[q][0].opname in ("EXTENDED_ARG", "CACHE"):
                q += 1  # (a jump farther than 255 units has its EXTENDED_ARG first)
            nxt = raw[q][0].opname if q < len(raw) else ""
            if nxt in ("POP_JUMP_IF_FALSE", "POP_JUMP_IF_TRUE", "UNARY_NOT"):
                continue
            emit("TO_BOOL")
            continue
        op = _binary_name(name)
        if op is not None:
            emit("BINARY_OP", op)
        elif name == "BINARY_OP":
            if ins.argrepr == "[]":
                emit("BINARY_SUBSCR")  # 3.14+
            else:
                emit("BINARY_OP", ins.argrepr)
        elif name == "LOAD_GLOBAL":
            if PY >= (3, 11) and arg & 1:
                if PY >= (3, 13):
                    emit("LOAD_GLOBAL", val)
                    emit("PUSH_NULL")
                else:
                    emit("PUSH_NULL")
                    emit("LOAD_GLOBAL", val)
            else:
                emit("LOAD_GLOBAL", val)
        elif name == "LOAD_ATTR" and PY >= (3, 12) and arg & 1:
            emit("LOAD_METHOD", val)
        elif name == "LOAD_METHOD":
            emit("LOAD_METHOD", val)
        elif name == "LOAD_SUPER_ATTR":
            # arg bit 0: method load, bit 1: two-argument super() form
            emit("LOAD_SUPER_ATTR", (val, bool(arg & 1), bool(arg & 2)))
        elif name in SUPERINSTRUCTIONS:
            for op, v in zip(SUPERINSTRUCTIONS[name], val):
                emit(op, v)
        elif name in ("LOAD_FAST_CHECK", "LOAD_FAST_BORROW"):
            emit("LOAD_FAST", val)
        elif name == "RETURN_CONST":
            emit("LOAD_CONST", val)
            emit("RETURN_VALUE")
        elif name == "LOAD_SMALL_INT":
            emit("LOAD_CONST", val)
        elif name == "LOAD_COMMON_CONSTANT":
            value, builtin = common_constant(arg)
            if value is AssertionError:
                emit("LOAD_ASSERTION_ERROR")
            elif builtin is None:
                emit("LOAD_CONST", value)  # (3.15)
            else:
                emit("LOAD_GLOBAL", builtin)
        elif name == "POP_ITER":
            emit("POP_TOP")  # (3.15: the iterator's hidden index went with it)
        elif name in ("GET_ITER", "GET_AITER") and (
                GENEXPR_GETS_ITS_ITERATOR and out and out[-1].op == "LOAD_FAST" and out[-1].arg == ".0"):
            continue  # (the generator's own ``.0``: read as the iterator it was up to 3.14)
        elif name == "GET_ITER":
            emit("GET_YIELD_FROM_ITER" if arg == 3 else "GET_ITER")  # (3.15's argument)
        elif name == "END_ASYNC_FOR":
            emit("END_ASYNC_FOR")  # (3.14's argument points back at the loop's SEND)
        elif name == "KW_NAMES":
            kw_names = code.co_consts[arg]
        elif name in ("CALL_FUNCTION", "CALL_FUNCTION_KW"):
            names = None
            if name == "CALL_FUNCTION_KW":
                names = out.pop().arg  # the LOAD_CONST of the keyword names
            emit("CALL", (arg - (len(names) if names else 0), names, 1))
        elif name == "CALL_METHOD":
            emit("CALL", (arg, None, 2))
        elif name == "CALL":
            names = kw_names
            kw_names = None
            emit("CALL", (arg - (len(names) if names else 0), names, 2))
        elif name == "CALL_KW" and out and out[-1].op == "LOAD_CONST" and type(out[-1].arg) is tuple:
            names = out.pop().arg
            emit("CALL", (arg - len(names), names, 2))
        elif name == "CALL_KW":
            # Dynamo loads the names early and moves values over them: read from the stack
            emit("CALL_KW", (arg, 2))
        elif name == "CALL_FUNCTION_EX":
            # (3.14 always reads a keyword slot: a NULL when there are none, which the
            # call's reader drops; Dynamo pushes that NULL anywhere before the call)
            has_kw = bool(arg & 1) if PY < (3, 14) else True
            emit("CALL_FUNCTION_EX", (has_kw, 2 if PY >= (3, 11) else 1))
        elif name == "MAKE_FUNCTION":
            if PY >= (3, 13):
                emit("MAKE_FUNCTION", (0, False))
            else:
                emit("MAKE_FUNCTION", (arg, PY < (3, 11)))
        elif name == "SET_FUNCTION_ATTRIBUTE":
            # 3.13 sets one attribute at a time on the function above it;
            # fold into the MAKE_FUNCTION it follows.
            mk = out.pop()
            mk.arg = (mk.arg[0] | arg, False)
            out.append(mk)
        elif name == "FORMAT_VALUE":
            conv = {0: -1, 1: 115, 2: 114, 3: 97}[arg & 3]
            emit("FORMAT_VALUE", (conv, bool(arg & 4)))
        elif name == "CONVERT_VALUE":
            emit("CONVERT_VALUE", {1: 115, 2: 114, 3: 97}[arg])
        elif name == "FORMAT_SIMPLE":
            emit("FORMAT_VALUE", (-1, False))  # a CONVERT_VALUE before it sets the conversion
        elif name == "FORMAT_WITH_SPEC":
            emit("FORMAT_VALUE", (-1, True))
        elif name in ("POP_JUMP_FORWARD_IF_FALSE", "POP_JUMP_BACKWARD_IF_FALSE"):
            emit("POP_JUMP_IF_FALSE", None, val)
        elif name in ("POP_JUMP_FORWARD_IF_TRUE", "POP_JUMP_BACKWARD_IF_TRUE"):
            emit("POP_JUMP_IF_TRUE", None, val)
        elif name in ("POP_JUMP_FORWARD_IF_NONE", "POP_JUMP_BACKWARD_IF_NONE"):
            emit("POP_JUMP_IF_NONE", None, val)
        elif name in ("POP_JUMP_FORWARD_IF_NOT_NONE", "POP_JUMP_BACKWARD_IF_NOT_NONE"):
            emit("POP_JUMP_IF_NOT_NONE", None, val)
        elif name in ("POP_JUMP_IF_FALSE", "POP_JUMP_IF_TRUE", "POP_JUMP_IF_NONE",
                      "POP_JUMP_IF_NOT_NONE", "JUMP_IF_FALSE_OR_POP",
                      "JUMP_IF_TRUE_OR_POP", "JUMP_IF_NOT_EXC_MATCH", "SEND",
                      "SETUP_FINALLY", "SETUP_WITH", "SETUP_ASYNC_WITH", "CALL_FINALLY"):
            emit(name, None, val)
        elif name in ("JUMP_FORWARD", "JUMP_ABSOLUTE", "JUMP_BACKWARD",
                      "JUMP_BACKWARD_NO_INTERRUPT", "JUMP", "JUMP_NO_INTERRUPT"):
            emit("JUMP", None, val)
        elif name == "FOR_ITER":
            emit("FOR_ITER", None, val)
        elif name == "DUP_TOP":
            emit("COPY", 1)
        elif name == "DUP_TOP_TWO":
            emit("COPY", 2)
            emit("COPY", 2)
        elif name == "ROT_TWO":
            emit("SWAP", 2)
        elif name == "ROT_THREE":
            emit("ROT", 3)
        elif name == "ROT_FOUR":
            emit("ROT", 4)
        elif name == "ROT_N":
            emit("ROT", arg)
        elif name == "COMPARE_OP":
            cmp = val if isinstance(val, str) else dis.cmp_op[arg]
            if cmp.startswith("bool(") and cmp.endswith(")"):
                cmp = cmp[5:-1]
            if cmp in ("in", "not in"):
                emit("CONTAINS_OP", int(cmp == "not in"))
            elif cmp in ("is", "is not"):
                emit("IS_OP", int(cmp == "is not"))
            elif cmp == "exception match":
                emit("CHECK_EXC_MATCH")
            else:
                emit("COMPARE_OP", cmp)
        elif name == "CALL_INTRINSIC_1":
            emit("CALL_INTRINSIC_1", ins.argrepr)
        elif name == "CALL_INTRINSIC_2" and ins.argrepr == "INTRINSIC_PREP_RERAISE_STAR":
            emit("PREP_RERAISE_STAR")  # 3.12+: the 3.11 instruction became an intrinsic
        elif name == "ASYNC_GEN_WRAP":  # 3.11: the 3.12+ intrinsic's forerunner
            emit("CALL_INTRINSIC_1", "INTRINSIC_ASYNC_GEN_WRAP")
        elif name == "LOAD_CLOSURE":
            emit("LOAD_CLOSURE", val)
        elif name in ("UNARY_POSITIVE", "UNARY_NEGATIVE", "UNARY_INVERT", "UNARY_NOT"):
            emit(name)
        elif name == "BUILD_SLICE":
            emit("BUILD_SLICE", arg)
        elif name == "LIST_TO_TUPLE":
            emit("CALL_INTRINSIC_1", "INTRINSIC_LIST_TO_TUPLE")
        elif name in ("BUILD_LIST_UNPACK", "BUILD_TUPLE_UNPACK", "BUILD_SET_UNPACK",
                      "BUILD_TUPLE_UNPACK_WITH_CALL", "BUILD_MAP_UNPACK",
                      "BUILD_MAP_UNPACK_WITH_CALL"):
            emit(name, arg)
        elif name == "END_FOR":
            continue  # folded into FOR_ITER's target below
        elif name == "IMPORT_NAME" and MARKS_LAZY_IMPORTS and arg & 1:
            emit("LAZY_IMPORT_NAME", val)
        elif name == "YIELD_VALUE":
            emit("YIELD_VALUE")  # 3.12+'s argument is a stack depth, not a value
        else:
            emit(name, val if ins.arg is not None else None)
    if states is None:
        return out, None
    return out, {r[0].offset: st for r, st in zip(raw, states)}
