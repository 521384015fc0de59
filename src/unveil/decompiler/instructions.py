"""One version-independent instruction stream for CPython 3.8-3.15.

Every difference between bytecode versions that the later stages would otherwise
have to test ``sys.version_info`` for is settled here:

* operators: ``BINARY_ADD``/``INPLACE_ADD`` (<=3.10) and ``BINARY_OP`` (3.11+)
  all become ``BINARY_OP`` with the operator's source text (``"+"``, ``"+="``);
* calls: ``CALL_FUNCTION``/``CALL_FUNCTION_KW``/``CALL_METHOD`` (<=3.10),
  ``PRECALL``/``KW_NAMES``/``CALL`` (3.11, 3.12) and ``CALL``/``CALL_KW`` (3.13)
  all become ``CALL`` with ``(argc, kwnames, slots)``, where ``slots`` is how
  many stack entries hold the callable (2 when a NULL or ``self`` sits beside it);
* NULL pushes folded into ``LOAD_GLOBAL``/``LOAD_ATTR`` low bits become an
  explicit ``PUSH_NULL``; method loads become ``LOAD_METHOD`` (pushing the bound
  callable and a NULL);
* jumps carry the *index* of their target instruction; 3.12's
  ``POP_JUMP_IF_X over JUMP_BACKWARD`` becomes one backward conditional jump,
  3.12+'s ``COPY 1; POP_JUMP_IF_X; POP_TOP`` becomes ``JUMP_IF_X_OR_POP``;
* stack shuffles become ``COPY n``/``SWAP n``/``ROT n``; superinstructions are
  split; ``TO_BOOL``, ``RESUME``, ``NOP``, ``PRECALL``, ``CACHE``, ``GEN_START``
  and ``RETURN_GENERATOR`` are dropped; ``RETURN_CONST`` is split;
* f-string pieces become ``FORMAT_VALUE`` with ``(conversion, has_spec)``
  (3.13's separate ``CONVERT_VALUE`` stays: it wraps the value below the spec);
* ``MAKE_FUNCTION`` carries ``(flags, has_qualname)``, 3.13's
  ``SET_FUNCTION_ATTRIBUTE`` folded in;
* 3.14+: ``LOAD_FAST_BORROW`` is ``LOAD_FAST``, ``LOAD_SMALL_INT`` and 3.15's immutable
  ``LOAD_COMMON_CONSTANT`` are ``LOAD_CONST``, ``BINARY_OP []`` is ``BINARY_SUBSCR``,
  ``POP_ITER`` is ``POP_TOP``, the ``LOAD_SPECIAL`` sequence that enters a with statement
  is ``BEFORE_WITH``, and the second entry of a with's ``__exit__`` (its self) or of a
  3.15 iterator (its index) is left out of the stack (slots.py);
* exception regions: the 3.11+ exception table, or the ``SETUP_*``/``POP_BLOCK``
  block stack of <=3.10 propagated along the control flow, become one list of
  :class:`Handler` ranges.
"""
import bisect
import contextlib
import contextvars
import dis
import functools
import sys
from typing import Dict, List, NamedTuple, Optional

from .slots import hidden_below, hidden_slots, pushes_hidden_null

PY = sys.version_info[:2]

#: 3.14+ keeps some values as two stack entries where earlier versions keep one (slots.py)
HIDES_SLOTS = PY >= (3, 14)

#: 3.13+ loads a cell itself (for a closure tuple) with LOAD_FAST, as LOAD_CLOSURE did
LOADS_CELLS_WITH_LOAD_FAST = PY >= (3, 13)

#: 3.14+ threads an and/or's jump past the enclosing or/and's test that its value is sure
#: to fail, as <=3.11 did (see _unthread_known_truth)
THREADS_DECIDED_TESTS = PY >= (3, 14)

#: 3.14 leaves the test of an and/or operand out of the exception table when that and/or is
#: itself an operand of the same operator, and not its last (``(a or b) or c``: an exception
#: from ``bool(a)`` skips the handler around it; CPython 3.14.10's compiler, 3.13 and 3.15 cover
#: it). The text must nest such an and/or for the recompiled code to do the same (see
#: _nested_operand_tests).
LEAVES_NESTED_TESTS_UNCOVERED = PY == (3, 14)

#: 3.15 calls a generator expression's function with the outermost iterable itself, and
#: the generator gets its iterator (``LOAD_FAST .0; GET_ITER`` before RETURN_GENERATOR); so
#: does a list/set/dict comprehension the compiler does not inline (in an annotation scope)
GENEXPR_GETS_ITS_ITERATOR = PY >= (3, 15)

#: 3.14+ (PEP 649): a module's annotations (a class body's, when one of them is under an if or
#: a try) are those whose statement has run: the body makes a set (``BUILD_SET 0; STORE_NAME
#: __conditional_annotations__``, read as <=3.13's SETUP_ANNOTATIONS) and adds each annotated
#: statement's number to it after the statement (``LOAD_NAME __conditional_annotations__;
#: LOAD_CONST n; SET_ADD 1; POP_TOP``, read as ``ANNOTATED n``); its ``__annotate__`` function
#: returns the annotations whose number is in the set
MARKS_CONDITIONAL_ANNOTATIONS = PY >= (3, 14)

#: 3.15 (PEP 810): IMPORT_NAME's argument is the name's index above two flags: 1, a ``lazy
#: import``, read as LAZY_IMPORT_NAME; 2, an import the compiler keeps eager whatever
#: ``__lazy_modules__`` says (in a function, a class body, a try, ``import *``), which follows
#: from where the statement stands
MARKS_LAZY_IMPORTS = PY >= (3, 15)

#: 3.14+: what LOAD_COMMON_CONSTANT's argument names
COMMON_CONSTANTS = tuple(getattr(__import__("opcode"), "_common_constants", ()))

#: 3.13+'s superinstructions and the two instructions each does (the compiler fuses two only
#: on one line: whether they are fused says where lines break, not what the code does)
SUPERINSTRUCTIONS = {"LOAD_FAST_LOAD_FAST": ("LOAD_FAST", "LOAD_FAST"),
                     "LOAD_FAST_BORROW_LOAD_FAST_BORROW": ("LOAD_FAST", "LOAD_FAST"),
                     "STORE_FAST_LOAD_FAST": ("STORE_FAST", "LOAD_FAST"),
                     "STORE_FAST_STORE_FAST": ("STORE_FAST", "STORE_FAST")}


def common_constant(arg):
    """(the value, the builtin's name or None) that ``LOAD_COMMON_CONSTANT arg`` loads: a
    builtin (AssertionError, all, ...) has its name; 3.15's literals (None, '', -1, ...) none."""
    value = COMMON_CONSTANTS[arg]
    literal = value is None or isinstance(value, (bool, int, str))
    return value, None if literal else value.__name__

#: 3.10+ copies small exit blocks (the implicit ``return None``) into every
#: branch that reaches them; before, such a ``return`` in a branch was source.
COPIES_EXIT_BLOCKS = PY >= (3, 10)

#: 3.10+ optimizes the value of a walrus (constant folding, a list display as a
#: ``for``'s iterable or ``in``'s operand made a tuple) as any other; 3.8/3.9 leave
#: everything under a ``NamedExpr`` as written.
OPTIMIZES_WALRUS_VALUE = PY >= (3, 10)

#: <=3.10: a conditional jump falling into a lone jump is an if statement
#: whose body is that jump (``pass``, ``continue``, ``break``); ``and``/``or``
#: never lay out so. 3.11+ may end an ``and``/``or`` link with such a jump.
LONE_JUMP_IS_BODY = PY <= (3, 10)

#: <=3.10: a ``while c:`` loop's body is where its test falls through; a
#: test that falls into the way out is an ``if`` in a ``while True:`` body.
WHILE_BODY_FALLS_FROM_TEST = PY <= (3, 10)

#: 3.10+ drops an and/or that its constant first operand decides (``(1 or x)`` is ``1``),
#: after the constant folding of the source: an operation on its value stays in the bytecode.
DROPS_DECIDED_BOOL_OPS = PY >= (3, 10)

#: 3.10+ compiles ``while c:`` with a copy of its test at the bottom of the body, where
#: the body's end falls (or jumps); only a written ``continue`` jumps to the top test.
WHILE_TEST_COPIED_AT_BOTTOM = PY >= (3, 10)

#: <=3.10: ``break`` out of a for loop drops the iterator (``POP_TOP``) right
#: before its jump; a jump out of the body without it goes to code that drops
#: it itself (a ``return`` the jump was threaded to).
BREAK_POPS_ITERATOR = PY <= (3, 10)

#: 3.11+ compiles ``'%s-%r' % (a, b)`` (a str constant, a tuple display, only
#: %s/%r/%a) as an f-string: each value is formatted before the next is computed.
#: A ``%`` the bytecode does as an operator must not be printed in that form.
FOLDS_PERCENT_FORMAT = PY >= (3, 11)

#: 3.12+ moves exception handlers (cold code) to the end of the function, in
#: the order they were compiled: a try's else clause and the code after the
#: statement then both follow the body, and only the place of their own
#: handlers (before or after the try's) tells them apart.
HANDLERS_LAID_OUT_LAST = PY >= (3, 12)

#: 3.13 drops a store to a local that the next store to it overwrites: the values of
#: ``x, x = a, b`` are stored as ``STORE_FAST x; POP_TOP`` (``x, y, y = a, b, c`` as
#: ``STORE_FAST y; POP_TOP; STORE_FAST x``), the dropped value popped after its twin.
DROPS_OVERWRITTEN_STORE = PY >= (3, 13)

#: 3.14 folds a slice whose bounds are all constants in the source into one slice constant:
#: BINARY_SLICE/STORE_SLICE of constant bounds came from bounds the compiler folded later (``a[0 + 2:]``)
FOLDS_CONSTANT_SLICES = PY >= (3, 14)

#: 3.10+ compiles a call whose positional arguments plus twice its keyword arguments exceed
#: this many stack slots as a star call (CALL_FUNCTION_EX), keywords built with BUILD_MAP 0 +
#: MAP_ADD when there are more than half as many (CPython's STACK_USE_GUIDELINE); None: never.
CALL_STACK_GUIDELINE = 30 if PY >= (3, 10) else None

#: Operator text for the <=3.10 operator opcodes.
_OLD_BINARY = {
    "POWER": "**", "MULTIPLY": "*", "MATRIX_MULTIPLY": "@", "FLOOR_DIVIDE": "//",
    "TRUE_DIVIDE": "/", "MODULO": "%", "ADD": "+", "SUBTRACT": "-", "LSHIFT": "<<",
    "RSHIFT": ">>", "AND": "&", "XOR": "^", "OR": "|",
}

_CONDITIONAL_JUMPS = {
    "POP_JUMP_IF_FALSE", "POP_JUMP_IF_TRUE", "POP_JUMP_IF_NONE",
    "POP_JUMP_IF_NOT_NONE", "JUMP_IF_FALSE_OR_POP", "JUMP_IF_TRUE_OR_POP",
    "JUMP_IF_NOT_EXC_MATCH",
}
JUMPS = _CONDITIONAL_JUMPS | {"JUMP", "FOR_ITER", "SEND", "SETUP_FINALLY",
                              "SETUP_WITH", "SETUP_ASYNC_WITH", "CALL_FINALLY"}
CONDITIONAL_JUMPS = frozenset(_CONDITIONAL_JUMPS)
#: Instructions after which control never falls through to the next one.
TERMINATORS = frozenset({"JUMP", "RETURN_VALUE", "RAISE_VARARGS", "RERAISE"})

NEGATED_JUMP = {
    "POP_JUMP_IF_FALSE": "POP_JUMP_IF_TRUE", "POP_JUMP_IF_TRUE": "POP_JUMP_IF_FALSE",
    "POP_JUMP_IF_NONE": "POP_JUMP_IF_NOT_NONE", "POP_JUMP_IF_NOT_NONE": "POP_JUMP_IF_NONE",
}


class Instr:
    """One normalized instruction.

    ``target`` is the index of the jump target (or ``None``); ``offset`` is the
    original byte offset of the first raw instruction it came from, used in
    error messages.
    """

    __slots__ = ("op", "arg", "offset", "line", "target", "index")

    def __init__(self, op, arg=None, offset=0, line=None, target=None):
        self.op = op
        self.arg = arg
        self.offset = offset
        self.line = line
        self.target = target  # byte offset until resolved, then an index
        self.index = -1

    def __repr__(self):
        t = " -> %d" % self.target if self.target is not None else ""
        return "%d@%d %s %r%s" % (self.index, self.offset, self.op, self.arg, t)


class Handler(NamedTuple):
    """Instructions ``start <= i < end`` raise into ``target`` with the value
    stack cut to ``depth`` entries (plus the exception pushed by the handler)."""
    start: int
    end: int
    target: int
    depth: int
    lasti: bool


class Program(NamedTuple):
    code: object
    instrs: List[Instr]
    handlers: List[Handler]


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


#: instructions that _translate keeps as they are (its last branch), on every version
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


def _translate(code):
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


def _resolve(code, out: List[Instr]) -> List[Instr]:
    """Turn byte-offset targets into indices and apply stream-level rewrites."""
    by_offset: Dict[int, int] = {}
    for i, ins in enumerate(out):
        by_offset.setdefault(ins.offset, i)
    # Offsets of dropped instructions map to the next kept one.
    ordered = sorted(by_offset)

    def index_of(off):
        if off in by_offset:
            return by_offset[off]
        k = bisect.bisect_left(ordered, off)
        return by_offset[ordered[k]] if k < len(ordered) else len(out)

    raws = None
    for ins in out:
        if ins.target is not None:
            tgt = ins.target
            if ins.op == "FOR_ITER" and PY >= (3, 12):
                if raws is None:
                    raws = list(get_instructions(code))
                    position = {r.offset: k for k, r in enumerate(raws)}
                tgt = _after_end_for(raws, position, tgt)
            ins.target = index_of(tgt)
    for i, ins in enumerate(out):
        ins.index = i
    return out


def _after_end_for(raws, position, off):
    """3.12+: FOR_ITER's target is END_FOR (3.13: END_FOR, POP_TOP); the loop
    really exits after them. (``raws``: the code's raw instructions, in order;
    ``position``: offset -> place in ``raws``.)"""
    k = position.get(off)
    if k is not None and raws[k].opname == "END_FOR":
        nxt = raws[k + 1] if k + 1 < len(raws) else None
        if PY >= (3, 13) and nxt is not None and nxt.opname in ("POP_TOP", "POP_ITER"):
            nxt = raws[k + 2] if k + 2 < len(raws) else None
        return nxt.offset if nxt is not None else off + 1_000_000
    return off


def _rewrite(instrs: List[Instr]) -> List[Instr]:
    """Stream rewrites that make 3.12+ look like earlier versions."""
    targeted = {ins.target for ins in instrs if ins.target is not None}
    out: List[Instr] = []
    i = 0
    remap: Dict[int, int] = {}
    n = len(instrs)
    # the ops the rewrites below start at (asked first: at most instructions none starts)
    heads = {"COPY", "PUSH_EXC_INFO", "LIST_APPEND"} | (set() if LONE_JUMP_IS_BODY else set(NEGATED_JUMP))
    while i < n:
        ins = instrs[i]
        remap[i] = len(out)
        if ins.op not in heads:
            out.append(ins)
            i += 1
            continue
        # COPY 1; POP_JUMP_IF_X L; POP_TOP  ->  JUMP_IF_X_OR_POP L
        if (ins.op == "COPY" and ins.arg == 1 and i + 2 < n
                and instrs[i + 1].op in ("POP_JUMP_IF_FALSE", "POP_JUMP_IF_TRUE")
                and instrs[i + 2].op == "POP_TOP"
                and (i + 1) not in targeted and (i + 2) not in targeted
                and instrs[i + 1].target > i + 2):
            j = instrs[i + 1]
            op = "JUMP_IF_FALSE_OR_POP" if j.op == "POP_JUMP_IF_FALSE" else "JUMP_IF_TRUE_OR_POP"
            new = Instr(op, None, ins.offset, ins.line, j.target)
            remap[i + 1] = remap[i + 2] = len(out)
            out.append(new)
            i += 3
            continue
        # 3.11 enters an except* handler with PUSH_EXC_INFO; COPY 1; BUILD_LIST 0;
        # SWAP 2, 3.12+ with PUSH_EXC_INFO; BUILD_LIST 0; COPY 2 (same stack)
        if (ins.op == "PUSH_EXC_INFO" and i + 3 < n
                and [(x.op, x.arg) for x in instrs[i + 1:i + 4]]
                == [("COPY", 1), ("BUILD_LIST", 0), ("SWAP", 2)]
                and not targeted & {i + 1, i + 2, i + 3}):
            out.append(ins)
            remap[i + 1] = remap[i + 2] = len(out)
            out.append(Instr("BUILD_LIST", 0, instrs[i + 2].offset, instrs[i + 2].line))
            remap[i + 3] = len(out)
            out.append(Instr("COPY", 2, instrs[i + 3].offset, instrs[i + 3].line))
            i += 4
            continue
        # 3.13 copies the ``LIST_APPEND 1`` that starts an except*'s
        # re-raise step to every jump there; the jumps go to the one copy
        # before PREP_RERAISE_STAR instead, as 3.11 and 3.12 do
        if (ins.op == "LIST_APPEND" and ins.arg == 1 and i + 1 < n
                and instrs[i + 1].op == "JUMP" and (i + 1) not in targeted
                and _shared_star_append(instrs, instrs[i + 1].target)):
            j = instrs[i + 1]
            remap[i + 1] = len(out)
            out.append(Instr("JUMP", None, j.offset, j.line, j.target - 1))
            i += 2
            continue
        # POP_JUMP_IF_X L; JUMP_BACKWARD H; L:  ->  POP_JUMP_IF_NOT_X H
        # (<=3.10 has backward conditional jumps: this layout is the source's
        # ``if x: continue``, see LONE_JUMP_IS_BODY)
        if (not LONE_JUMP_IS_BODY and ins.op in NEGATED_JUMP and i + 1 < n and ins.target == i + 2
                and instrs[i + 1].op == "JUMP" and instrs[i + 1].target <= i
                and (i + 1) not in targeted):
            new = Instr(NEGATED_JUMP[ins.op], None, ins.offset, ins.line, instrs[i + 1].target)
            remap[i + 1] = len(out)
            out.append(new)
            i += 2
            continue
        out.append(ins)
        i += 1
    remap[n] = len(out)
    for ins in out:
        if ins.target is not None:
            ins.target = remap.get(ins.target, len(out))
    for k, ins in enumerate(out):
        ins.index = k
    return out, remap


def _mark_asserts(instrs: List[Instr]) -> None:
    """3.8 has no ``LOAD_ASSERTION_ERROR``: ``assert`` loads the global
    ``AssertionError`` and raises it, as ``if not x: raise AssertionError``
    does. Telling them apart matters (``python -O`` drops the assert): the
    assert's raise stays on its test's line, an if body's raise starts a
    line of its own. Such a load becomes ``LOAD_ASSERTION_ERROR``."""
    for k, ins in enumerate(instrs):
        if ins.op != "LOAD_GLOBAL" or ins.arg != "AssertionError":
            continue
        r = k + 1
        while r < len(instrs) and instrs[r].target is None and instrs[r].op not in (
                "RAISE_VARARGS", "RETURN_VALUE", "RERAISE"):
            r += 1
        if r >= len(instrs) or instrs[r].op != "RAISE_VARARGS" or instrs[r].arg != 1:
            continue
        if r != k + 1 and not (instrs[r - 1].op == "CALL" and instrs[r - 1].arg[:2] == (1, None)):
            continue  # (an assert's message is the one argument of the call)
        test = next((j for j in range(k - 1, -1, -1) if instrs[j].op in _CONDITIONAL_JUMPS), None)
        if (test is None or ins.line is None or instrs[test].line is None
                or ins.line > instrs[test].line or not k <= r < len(instrs)):
            continue
        t = instrs[test].target
        if t is not None and k <= t <= r:
            continue  # the test jumps into the raise: no assert's
        instrs[k] = Instr("LOAD_ASSERTION_ERROR", None, ins.offset, ins.line)
        instrs[k].index = k


#: 3.12+: LOAD_ASSERTION_ERROR carries the assert statement's first line (before: the
#: line the compiler last visited, where the assert's test ended)
ASSERT_ERROR_ON_STATEMENT_LINE = PY >= (3, 12)


def _mark_asserts_on_own_line(instrs: List[Instr]) -> None:
    """``if c:`` / ``assert 0, m`` and ``assert not c, m`` compile alike (the compiler
    drops a constant test), but under ``python -O`` the first still evaluates ``c``.
    Lines tell them apart: an assert's own test ends on or after its first line.
    An assert on a line after the test before it gets the argument "own line":
    that test is an ``if``'s, not to be merged into the assert. An assert with a
    test of its own that a test on an earlier line jumps past gets "under if":
    a test merged from both could not be told apart (structure.make_if refuses)."""
    for k, ins in enumerate(instrs):
        if ins.op != "LOAD_ASSERTION_ERROR" or ins.line is None:
            continue
        test = next((j for j in range(k - 1, -1, -1) if instrs[j].op in _CONDITIONAL_JUMPS), None)
        if test is None or instrs[test].line is None:
            continue
        if instrs[test].line < ins.line:
            ins.arg = "own line"
            continue
        # (a test on an earlier line that jumps where the assert's own test goes when it
        # holds: an enclosing if's, whose body ends with the assert; before 3.12 the assert's
        # error has the line its test ended on, so a test over several lines looks alike)
        if ASSERT_ERROR_ON_STATEMENT_LINE and any(x.op in _CONDITIONAL_JUMPS and x.line is not None and x.line < ins.line
               and x.target is not None and x.target == instrs[test].target for x in instrs[:test]):
            ins.arg = "under if"


def _shared_star_append(instrs: List[Instr], target: int) -> bool:
    """Whether ``target`` is an except*'s PREP_RERAISE_STAR with the
    ``LIST_APPEND 1`` it needs right before it."""
    return (0 < target < len(instrs) and instrs[target].op == "PREP_RERAISE_STAR"
            and instrs[target - 1].op == "LIST_APPEND" and instrs[target - 1].arg == 1)


def _exception_table(code, by_offset_index, hidden) -> List[Handler]:
    """3.11+: the exception table as index ranges (``hidden``: see :func:`_translate`)."""
    entries = dis._parse_exception_table(code)
    out = []
    for e in entries:
        start = by_offset_index(e.start)
        end = by_offset_index(e.end)
        target = by_offset_index(e.target)
        depth = e.depth if hidden is None else e.depth - hidden_below(hidden.get(e.start), e.depth)
        if start < end:
            out.append(Handler(start, end, target, depth, e.lasti))
    return out


def _cover_fused_jumps(handlers: List[Handler], instrs: List[Instr]) -> List[Handler]:
    """3.12+: a backward conditional jump is always a fused ``POP_JUMP_IF_X;
    JUMP_BACKWARD`` pair (see :func:`_rewrite`), and the table may leave one
    half of the pair uncovered (3.12 the JUMP_BACKWARD, 3.13 the conditional
    jump).  A range that ends at such a jump, when no other range covers it,
    takes it in, so the condition stays in one block with what computes it.

    3.13 may also leave a lone jump out between two ranges of one handler (an
    ``assert``'s test: ``L1 to L2 -> L6``, ``L3 to L6 -> L6`` with the jump
    alone at L2; the jump back to an inlined comprehension's loop); the range
    before it takes it in as well, so the code around it is one region. Only
    for a handler no statement wrote (a generator's, a comprehension's): a
    ``break`` out of a try's body is such a jump too, and it leaves the try.
    A lone conditional jump between two ranges of a try statement's handler
    is taken in too: 3.13 threads a conditional jump to a ``JUMP`` (an ``if``
    or ``assert`` ending a match case or an if's body) by writing a new
    instruction, which loses the handler that 3.12's in-place threading
    keeps; a conditional jump never leaves a try by itself. So is a run of
    such jumps whose ``JUMP`` goes to code of the same try (``assert b or
    2``: ``POP_JUMP_IF_TRUE L; JUMP L``), which no ``break`` does."""
    starts = {h.start for h in handlers}
    key = lambda h: (h.start, h.target, h.depth, h.lasti)
    same_after = {key(h) for h in handlers
                  if h.target < len(instrs) and instrs[h.target].op != "PUSH_EXC_INFO"}
    any_after = {key(h) for h in handlers}
    out = []
    for h in handlers:
        j = instrs[h.end] if h.end < len(instrs) else None
        after = (h.end + 1, h.target, h.depth, h.lasti)
        if (j is not None and (j.op in NEGATED_JUMP or j.op == "JUMP") and j.target is not None
                and h.end not in starts
                and (j.op != "JUMP" and (j.target <= h.end or after in any_after)
                     or after in same_after)):
            h = h._replace(end=h.end + 1)
        else:
            h = h._replace(end=_threaded_jumps_end(h, handlers, instrs, starts, any_after))
        out.append(h)
    return out


def _threaded_jumps_end(h, handlers, instrs, starts, any_after, limit=3):
    """Where range ``h`` ends once it takes in the run of jumps after it
    that 3.13's jump threading left uncovered (see _cover_fused_jumps): a
    range of the same handler resumes right after the run, and each
    ``JUMP`` of the run goes to code that handler covers, forward."""
    if h.end >= len(instrs) or instrs[h.end].target is None:
        return h.end
    same = [r for r in handlers if (r.target, r.depth, r.lasti) == (h.target, h.depth, h.lasti)]
    k = h.end
    while (k < len(instrs) and k - h.end < limit and k not in starts
           and (instrs[k].op in NEGATED_JUMP or instrs[k].op == "JUMP") and instrs[k].target is not None):
        t = instrs[k].target
        if instrs[k].op == "JUMP" and not (t > k and any(r.start <= t < r.end for r in same)):
            return h.end
        k += 1
    if k > h.end and (k, h.target, h.depth, h.lasti) in any_after:
        return k
    return h.end


def _block_stack_handlers(instrs: List[Instr]) -> List[Handler]:
    """<=3.10: derive exception ranges from SETUP_*/POP_BLOCK by following the
    control flow (the block stack at an instruction is the same on every path
    that reaches it), so a POP_BLOCK before a ``break`` does not end the
    region early for the code after it.  ``depth`` is -1: the structurer knows
    the stack at the SETUP instruction itself."""
    n = len(instrs)
    state: List[Optional[tuple]] = [None] * (n + 1)
    state[0] = ()
    work = [0]
    while work:
        i = work.pop()
        if i >= n:
            continue
        ins = instrs[i]
        blocks = state[i]
        op = ins.op
        succ = []
        if op in ("SETUP_FINALLY", "SETUP_WITH", "SETUP_ASYNC_WITH"):
            succ.append((i + 1, blocks + (ins.target,)))
            succ.append((ins.target, blocks))  # the handler runs outside its block
        elif op == "POP_BLOCK":
            succ.append((i + 1, blocks[:-1]))
        else:
            if op not in TERMINATORS:
                succ.append((i + 1, blocks))
            if ins.target is not None:
                succ.append((ins.target, blocks))
        for j, b in succ:
            if j <= n and state[j] is None:
                state[j] = b
                work.append(j)
    handlers = []
    i = 0
    while i < n:
        b = state[i]
        if b:
            j = i
            while j + 1 < n and state[j + 1] == b:
                j += 1
            handlers.append(Handler(i, j + 1, b[-1], -1, False))
            i = j + 1
        else:
            i += 1
    return handlers


#: the and/or that a test threaded into (see _unthread_short_circuits)
_THREADED = {("POP_JUMP_IF_FALSE", "JUMP_IF_TRUE_OR_POP"): "JUMP_IF_FALSE_OR_POP",
             ("POP_JUMP_IF_TRUE", "JUMP_IF_FALSE_OR_POP"): "JUMP_IF_TRUE_OR_POP"}


def _unthread_short_circuits(instrs: List[Instr]) -> None:
    """<=3.11: the peephole optimizer threads an and/or's jump to the right
    operand of an enclosing or/and whose test the value is sure to fail:
    ``(c and b) or y`` jumps from ``c`` (false) past the ``or``'s test straight
    to ``y``, popping ``c``; ``(a or b) and y`` from ``a`` (true) to ``y``. The
    jump goes back to the test it skipped, keeping the value (which that test
    then pops, falling to the same place), so the and/or reads as the source
    wrote it; 3.12+ does not thread these. A POP_JUMP_IF_FALSE to the
    instruction after a JUMP_IF_TRUE_OR_POP always is such a jump: only an
    and/or's value is tested at that depth there."""
    for k, ins in enumerate(instrs):
        t = ins.target
        if t is None or not 0 < t < len(instrs) or t - 1 == k:
            continue
        op = _THREADED.get((ins.op, instrs[t - 1].op))
        if op is not None:
            new = Instr(op, "threaded", ins.offset, ins.line, t - 1)  # (the text lets it be threaded again)
            new.index = ins.index
            instrs[k] = new


def _unthread_known_truth(instrs: List[Instr]) -> None:
    """3.14+: ``(a or b) and c`` jumps from ``a`` (true) past the ``and``'s test, whose
    ``COPY 1; POP_JUMP_IF_FALSE`` would fall through for it, to that test's ``POP_TOP``
    (before ``c``); ``(a and b) or c`` likewise. The jump goes back to the test it skipped,
    keeping the value, so both and/or read as the source wrote them (as
    :func:`_unthread_short_circuits` does for <=3.11's layout, before _rewrite here)."""
    n = len(instrs)
    for k in range(1, n):
        ins = instrs[k]
        t = ins.target
        if (ins.op in ("POP_JUMP_IF_TRUE", "POP_JUMP_IF_FALSE") and instrs[k - 1].op == "COPY"
                and instrs[k - 1].arg == 1 and t is not None and 2 <= t < n and t - 1 != k
                and instrs[t].op == "POP_TOP" and instrs[t - 1].op == NEGATED_JUMP[ins.op]
                and (instrs[t - 2].op, instrs[t - 2].arg) == ("COPY", 1)):
            ins.target = t - 2


def _nested_operand_tests(code, instrs: List[Instr]) -> set:
    """3.14: the offsets of the and/or tests (``COPY 1; POP_JUMP_IF_X; POP_TOP``) the
    exception table leaves out while the code before and after them raises into one
    handler: the tests of an and/or nested in the same operator (see
    LEAVES_NESTED_TESTS_UNCOVERED). _rewrite keeps the COPY's offset on the fused jump."""
    entries = dis._parse_exception_table(code)
    if not entries:
        return set()

    def handler(offset):
        return next(((e.target, e.depth, e.lasti) for e in entries if e.start <= offset < e.end), None)

    out = set()
    for k in range(1, len(instrs) - 2):
        ins = instrs[k]
        if ((ins.op, ins.arg) == ("COPY", 1) and instrs[k + 1].op in ("POP_JUMP_IF_FALSE", "POP_JUMP_IF_TRUE")
                and instrs[k + 2].op == "POP_TOP" and handler(ins.offset) is None):
            around = handler(instrs[k - 1].offset)
            if around is not None and around == handler(instrs[k + 2].offset):
                out.add(ins.offset)
    return out


def read(code) -> Program:
    """Read ``code`` into a :class:`Program` of normalized instructions."""
    raw, hidden = _translate(code)
    instrs = _resolve(code, raw)
    if PY < (3, 9):
        _mark_asserts(instrs)
    else:
        _mark_asserts_on_own_line(instrs)
    # offsets -> index before rewriting, to place exception ranges
    first_index: Dict[int, int] = {}
    for ins in instrs:
        first_index.setdefault(ins.offset, ins.index)
    offsets = sorted(first_index)
    if THREADS_DECIDED_TESTS:
        _unthread_known_truth(instrs)
    nested = _nested_operand_tests(code, instrs) if LEAVES_NESTED_TESTS_UNCOVERED else None
    instrs, remap = _rewrite(instrs)
    if nested:  # (3.14 only, and only where the table has such a hole: no walk otherwise)
        for ins in instrs:
            if ins.offset in nested and ins.op in ("JUMP_IF_FALSE_OR_POP", "JUMP_IF_TRUE_OR_POP"):
                ins.arg = "nested"
    if PY < (3, 12):
        _unthread_short_circuits(instrs)

    def by_offset_index(off):
        k = bisect.bisect_left(offsets, off)
        return remap.get(first_index[offsets[k]], len(instrs)) if k < len(offsets) else len(instrs)

    if PY >= (3, 11):
        handlers = _exception_table(code, by_offset_index, hidden)
        if PY >= (3, 12):
            handlers = _cover_fused_jumps(handlers, instrs)
    else:
        handlers = _block_stack_handlers(instrs)
    return Program(code, instrs, handlers)


#: pops_pushes of the instructions whose counts do not depend on their argument (made
#: once: pops_pushes runs once per instruction of each condition's operand)
_FIXED_POPS_PUSHES = {
    "LOAD_CONST": (0, 1), "LOAD_FAST": (0, 1), "LOAD_NAME": (0, 1), "LOAD_GLOBAL": (0, 1),
    "LOAD_DEREF": (0, 1), "LOAD_CLASSDEREF": (0, 1), "PUSH_NULL": (0, 1),
    "LOAD_ATTR": (1, 1), "LOAD_METHOD": (1, 2), "BINARY_OP": (2, 1), "BINARY_SUBSCR": (2, 1),
    "COMPARE_OP": (2, 1), "IS_OP": (2, 1), "CONTAINS_OP": (2, 1), "UNARY_NOT": (1, 1),
    "UNARY_NEGATIVE": (1, 1), "UNARY_POSITIVE": (1, 1), "UNARY_INVERT": (1, 1),
    "BINARY_SLICE": (3, 1), "GET_LEN": (1, 2), "FORMAT_VALUE": None,
    "LOAD_ASSERTION_ERROR": (0, 1), "LOAD_CLOSURE": (0, 1),
    # <=3.10 await / yield from (asyncs.py): straight-line expression steps
    "GET_AWAITABLE": (1, 1), "GET_YIELD_FROM_ITER": (1, 1), "YIELD_FROM": (2, 1),
}


def pops_pushes(ins: Instr):
    """(values popped, values pushed) of a normalized straight-line
    instruction, or None when it is not a plain expression step."""
    op, arg = ins.op, ins.arg
    fixed = _FIXED_POPS_PUSHES.get(op)
    if fixed is not None:
        return fixed
    if op == "FORMAT_VALUE":
        return (2 if arg[1] else 1, 1)
    if op in ("BUILD_TUPLE", "BUILD_LIST", "BUILD_SET", "BUILD_STRING"):
        return (arg, 1)
    if op == "BUILD_MAP":
        return (2 * arg, 1)
    if op == "BUILD_CONST_KEY_MAP":
        return (arg + 1, 1)
    if op == "BUILD_SLICE":
        return (arg, 1)
    if op == "CALL":
        argc, kwnames, slots = arg
        return (argc + (len(kwnames) if kwnames else 0) + slots, 1)
    if op == "CALL_FUNCTION_EX":
        has_kw, slots = arg
        return (1 + int(has_kw) + slots, 1)
    if op == "CALL_KW":  # (the keyword names on top: see _translate)
        count, slots = arg
        return (count + 1 + slots, 1)
    if op == "MAKE_FUNCTION":
        # the code (and qualname), and one value per attribute flag (defaults,
        # keyword defaults, annotations, closure)
        flags, has_qualname = arg
        return (1 + int(has_qualname) + bin(flags).count("1"), 1)
    return None


def operand_pops_pushes(ins: Instr):
    """:func:`pops_pushes` for the steps that compute a value a conditional
    jump tests, where a GET_ITER is a generator expression's argument (a for
    loop's goes on to its FOR_ITER, which no test's value runs through)."""
    return (1, 1) if ins.op == "GET_ITER" else pops_pushes(ins)


def expression_start(instrs: List[Instr], jump_index: int, lower: int) -> Optional[int]:
    """Index where the value tested by the conditional jump at
    ``jump_index`` starts being computed (not before ``lower``), or None."""
    need = 1
    k = jump_index - 1
    while k >= lower:
        if is_walrus_store(instrs, k) and k - 1 >= lower:
            k -= 2  # ``(x := value)``: the value stays where it was
            continue
        if is_value_short_circuit(instrs[k], jump_index):
            need += 1  # ``c or e``: ``c``'s value is dropped on the way to ``e``
            k -= 1
            continue
        pp = operand_pops_pushes(instrs[k])
        if pp is None:
            return None
        pops, pushes = pp
        need += pops - pushes
        if need == 0 and not (k - 1 >= lower and is_value_short_circuit(instrs[k - 1], jump_index)):
            return k  # (else ``k`` starts the second operand of an and/or: ``(c or a)``)
        if need < 0:
            return None
        k -= 1
    return None


def is_value_short_circuit(ins: Instr, jump_index: int) -> bool:
    """Whether ``ins`` is an and/or whose value the test at ``jump_index``
    goes on with (``b <= (c or e)``): it jumps forward no further than that
    test, keeping its operand there, or drops it and falls into the next one."""
    return (ins.op in ("JUMP_IF_FALSE_OR_POP", "JUMP_IF_TRUE_OR_POP") and ins.target is not None
            and ins.index < ins.target <= jump_index)


_NAME_STORES = ("STORE_FAST", "STORE_NAME", "STORE_GLOBAL", "STORE_DEREF")


def is_walrus_store(instrs: List[Instr], k: int) -> bool:
    """Whether ``instrs[k]`` stores a copy of the top of the stack into a
    name (``COPY 1; STORE_X``): a walrus inside an expression."""
    return (k >= 1 and instrs[k].op in _NAME_STORES and instrs[k - 1].op == "COPY"
            and instrs[k - 1].arg == 1)
