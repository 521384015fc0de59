"""What each raw instruction does, for the translation validator (validate.py).

This is deliberately a second, independent reading of the bytecode: the
decompiler reads through ``instructions.py``, which rewrites and folds the
stream for structuring; the validator reads ``dis`` output directly through
this table, so a misreading in one is not silently shared by the other.

Every instruction becomes one :class:`Op`. Most are *events*: operations that
may run user code, touch state outside the frame or raise. An event is
described only by its key, the values it reads and how many values it pushes
(the results are opaque). Everything the validator models exactly -- locals,
constants, stack shuffles, tuples, jumps, the exception machinery -- has its
own kind. An instruction this table does not know is ``unsupported`` and makes
the proof fail: unknown means unproved, never "probably fine".

Version facts live here and nowhere else in the validator.
"""
import dis
import sys
from typing import Any, NamedTuple, Optional, Tuple

from .disassembly import get_instructions
from .versions import MARKS_LAZY_IMPORTS, common_constant

PY = sys.version_info[:2]
BLOCK_STACK = PY < (3, 11)  # <=3.10: SETUP_*/POP_BLOCK; 3.11+: the exception table
# 3.8: a finally body is a subroutine: entered with NULL (BEGIN_FINALLY), a return
# address (CALL_FINALLY) or an exception on the stack; END_FINALLY goes on accordingly
FINALLY_SUBROUTINES = PY < (3, 9)
# 3.14: FOR_ITER's exhausted jump skips only END_FOR; the iterator is dropped by POP_ITER, which
# 3.15 makes drop two entries (the iterator and the index GET_ITER pushes above it)
ITERATOR_POPPED_BY_POP_ITER = PY >= (3, 14)
ITERATOR_SLOTS = 2 if PY >= (3, 15) else 1
# 3.15 keeps a NULL beside the object a SEND loop (await, yield from) sends to
RECEIVER_SLOTS = 2 if PY >= (3, 15) else 1
# 3.14: CALL_FUNCTION_EX always reads a keyword-arguments slot (NULL when there are none)
EX_READS_KEYWORD_SLOT = PY >= (3, 14)

_JUMP_ALWAYS = {"JUMP_FORWARD", "JUMP_ABSOLUTE", "JUMP_BACKWARD", "JUMP_BACKWARD_NO_INTERRUPT",
                "JUMP", "JUMP_NO_INTERRUPT"}
_COND = {
    "POP_JUMP_IF_FALSE": "false", "POP_JUMP_IF_TRUE": "true",
    "POP_JUMP_FORWARD_IF_FALSE": "false", "POP_JUMP_BACKWARD_IF_FALSE": "false",
    "POP_JUMP_FORWARD_IF_TRUE": "true", "POP_JUMP_BACKWARD_IF_TRUE": "true",
    "POP_JUMP_IF_NONE": "none", "POP_JUMP_IF_NOT_NONE": "not_none",
    "POP_JUMP_FORWARD_IF_NONE": "none", "POP_JUMP_BACKWARD_IF_NONE": "none",
    "POP_JUMP_FORWARD_IF_NOT_NONE": "not_none", "POP_JUMP_BACKWARD_IF_NOT_NONE": "not_none",
    "JUMP_IF_TRUE_OR_POP": "true_or_pop", "JUMP_IF_FALSE_OR_POP": "false_or_pop",
}
_NOPS = {"NOP", "RESUME", "CACHE", "EXTENDED_ARG", "PRECALL", "KW_NAMES", "COPY_FREE_VARS",
         "GEN_START", "NOT_TAKEN", "TRACE_RECORD"}
# the frame's cells: modelled like locals by the validator until a closure holds them
_CELL_OPS = {"LOAD_DEREF": "load_deref", "STORE_DEREF": "store_deref",
             "DELETE_DEREF": "delete_deref", "MAKE_CELL": "make_cell"}
# pure pops: END_FOR is only reached as FOR_ITER's target (3.12+), where it drops
# the exhausted iterator and the value slot
_PURE_POP = {"POP_TOP": 1, "POP_ITER": ITERATOR_SLOTS}

# events: opname -> values read (popped), values pushed; both as functions of the argument
_EVENTS_FIXED = {
    # loads from state outside the frame (order matters: any call may change it)
    "LOAD_NAME": (0, 1), "LOAD_DEREF": (0, 1), "LOAD_CLASSDEREF": (0, 1),
    "LOAD_ASSERTION_ERROR": (0, 1), "LOAD_BUILD_CLASS": (0, 1), "LOAD_LOCALS": (0, 1),
    "LOAD_FROM_DICT_OR_GLOBALS": (1, 1), "LOAD_FROM_DICT_OR_DEREF": (1, 1),
    # stores and deletes outside the frame
    "STORE_NAME": (1, 0), "STORE_GLOBAL": (1, 0), "STORE_DEREF": (1, 0), "STORE_ATTR": (2, 0),
    "STORE_SUBSCR": (3, 0), "STORE_SLICE": (4, 0), "DELETE_NAME": (0, 0), "DELETE_GLOBAL": (0, 0),
    "DELETE_DEREF": (0, 0), "DELETE_ATTR": (1, 0), "DELETE_SUBSCR": (2, 0),
    # operators
    "UNARY_NEGATIVE": (1, 1), "UNARY_POSITIVE": (1, 1), "UNARY_INVERT": (1, 1),
    "BINARY_OP": (2, 1), "BINARY_SUBSCR": (2, 1), "BINARY_SLICE": (3, 1), "COMPARE_OP": (2, 1),
    # iteration, awaiting, importing, printing
    "GET_ITER": (1, ITERATOR_SLOTS), "GET_YIELD_FROM_ITER": (1, 1), "GET_AWAITABLE": (1, 1),
    "GET_AITER": (1, 1), "YIELD_FROM": (2, 1), "UNPACK_SEQUENCE": None, "UNPACK_EX": None,
    "IMPORT_NAME": (2, 1), "IMPORT_STAR": (1, 0), "PRINT_EXPR": (1, 0), "SETUP_ANNOTATIONS": (0, 0),
    "BEFORE_WITH": (1, 2), "BEFORE_ASYNC_WITH": (1, 2),
    "CALL_INTRINSIC_1": (1, 1), "CALL_INTRINSIC_2": (2, 1), "LIST_TO_TUPLE": (1, 1),
    "ASYNC_GEN_WRAP": (1, 1), "PREP_RERAISE_STAR": (2, 1),
    "CHECK_EG_MATCH": (2, 2), "CLEANUP_THROW": (3, 2), "END_ASYNC_FOR": None,
    "YIELD_VALUE": (1, 1), "FORMAT_SIMPLE": (1, 1), "FORMAT_WITH_SPEC": (2, 1),
    "CONVERT_VALUE": (1, 1), "SET_FUNCTION_ATTRIBUTE": (2, 1), "MATCH_CLASS": None,
    # 3.14: a with statement's __enter__/__exit__ looked up on the type (method and self)
    "LOAD_SPECIAL": (1, 2), "BUILD_INTERPOLATION": None, "BUILD_TEMPLATE": (2, 1),
    # containers with an identity (mutable, or hashing their items)
    "BUILD_LIST": None, "BUILD_SET": None, "BUILD_MAP": None, "BUILD_CONST_KEY_MAP": None,
    "BUILD_LIST_UNPACK": None, "BUILD_TUPLE_UNPACK": None, "BUILD_SET_UNPACK": None,
    "BUILD_TUPLE_UNPACK_WITH_CALL": None, "BUILD_MAP_UNPACK": None,
    "BUILD_MAP_UNPACK_WITH_CALL": None,
    "MAKE_FUNCTION": None, "FORMAT_VALUE": None, "RAISE_VARARGS": None,
}
for _name in dis.opname:
    if _name.startswith(("BINARY_", "INPLACE_")) and _name not in _EVENTS_FIXED:
        _EVENTS_FIXED[_name] = (2, 1)

# events that keep the lowest ``keep`` of the values they read where they were
_KEEP = {"GET_ANEXT": (1, 1, 2), "IMPORT_FROM": (1, 1, 2), "GET_LEN": (1, 1, 2),
         "MATCH_MAPPING": (1, 1, 2), "MATCH_SEQUENCE": (1, 1, 2),
         "MATCH_KEYS": (2, 2, 4 if PY < (3, 11) else 3), "COPY_DICT_WITHOUT_KEYS": (2, 1, 2),
         "CHECK_EXC_MATCH": (2, 1, 2)}
# events that change a container deeper in the stack: (values popped, depth of the container)
_DEEP = {"LIST_APPEND": 1, "SET_ADD": 1, "LIST_EXTEND": 1, "SET_UPDATE": 1, "DICT_UPDATE": 1,
         "DICT_MERGE": 1, "MAP_ADD": 2}
# events whose results are always bools (a test of them runs no code)
_BOOL_RESULT = {"CONTAINS_OP", "CHECK_EXC_MATCH", "MATCH_MAPPING", "MATCH_SEQUENCE"}


class Op(NamedTuple):
    """What one instruction does. ``kind`` selects the meaning of the rest."""
    kind: str
    arg: Any = None          # name, constant, count or target index, by kind
    key: Any = None          # events: what must be equal for two events to be the same
    pops: int = 0
    pushes: int = 0
    keep: int = 0
    deep: Optional[int] = None
    bool_result: bool = False
    target: Optional[int] = None
    null: Optional[str] = None   # loads that also push a NULL: "below" or "above" the value
    callee_slots: int = 0        # calls: stack entries holding the callable (NULLs are dropped)
    arith: Optional[str] = None  # arithmetic: the operator ("+", ..., unary "neg", "pos", "inv", "<", ...)


def _call_pops(name, arg):
    if name == "CALL_FUNCTION":
        return arg + 1
    if name in ("CALL_FUNCTION_KW", "CALL_METHOD"):
        return arg + 2
    if name == "CALL":
        return arg + 2
    if name == "CALL_KW":
        return arg + 3
    if name == "CALL_FUNCTION_EX":  # (3.14 always reads a keyword slot: NULL when there is none)
        return 4 if PY >= (3, 14) else (2 if PY < (3, 11) else 3) + (arg & 1)
    raise KeyError(name)


def _make_function_pops(arg):
    if PY >= (3, 13):
        return 1
    fields = bin(arg & 0x0F).count("1")
    return fields + (2 if PY < (3, 11) else 1)


def _event_shape(ins) -> Tuple[int, int]:
    """(values read, values pushed) of an event whose shape depends on its argument."""
    name, arg = ins.opname, ins.arg
    fixed = _EVENTS_FIXED.get(name)
    if fixed is not None:
        return fixed
    if name == "UNPACK_SEQUENCE":
        return 1, arg
    if name == "UNPACK_EX":
        return 1, (arg & 0xFF) + (arg >> 8) + 1
    if name in ("BUILD_LIST", "BUILD_SET", "BUILD_LIST_UNPACK", "BUILD_TUPLE_UNPACK",
                "BUILD_SET_UNPACK", "BUILD_TUPLE_UNPACK_WITH_CALL", "BUILD_MAP_UNPACK"):
        return arg, 1
    if name == "BUILD_MAP_UNPACK_WITH_CALL":
        return arg, 1
    if name == "BUILD_MAP":
        return 2 * arg, 1
    if name == "BUILD_CONST_KEY_MAP":
        return arg + 1, 1
    if name == "MAKE_FUNCTION":
        return _make_function_pops(arg or 0), 1
    if name == "FORMAT_VALUE":
        return 1 + bool(arg & 4), 1
    if name == "RAISE_VARARGS":
        return arg, 0
    if name == "END_ASYNC_FOR":
        return (2, 0) if PY >= (3, 11) else (7, 0)
    if name == "MATCH_CLASS":
        return (3, 2) if PY < (3, 11) else (3, 1)
    if name == "BUILD_INTERPOLATION":  # the value, its source text, and a format spec (arg bit 0)
        return 2 + (arg & 1), 1
    raise KeyError(name)


_UNARY = {"UNARY_NEGATIVE": "neg", "UNARY_POSITIVE": "pos", "UNARY_INVERT": "inv"}
_BINARY = {"ADD": "+", "SUBTRACT": "-", "MULTIPLY": "*", "TRUE_DIVIDE": "/", "FLOOR_DIVIDE": "//",
           "MODULO": "%", "POWER": "**", "LSHIFT": "<<", "RSHIFT": ">>", "AND": "&", "OR": "|",
           "XOR": "^"}


_COMPARISONS = ("<", "<=", "==", "!=", ">", ">=")


def _arith(ins) -> Optional[str]:
    """The arithmetic operator an instruction applies (in-place ones as the plain one:
    the same on numbers), else None."""
    name = ins.opname
    if name in _UNARY:
        return _UNARY[name]
    if name == "CALL_INTRINSIC_1" and ins.arg == 5:  # 3.12+: INTRINSIC_UNARY_POSITIVE
        return "pos"
    if name == "BINARY_OP":
        return dis._nb_ops[ins.arg][1].rstrip("=")
    if name == "COMPARE_OP":  # (3.13 marks one whose result is made a bool: the same on numbers)
        symbol = str(ins.argval)
        symbol = symbol[5:-1] if symbol.startswith("bool(") else symbol
        return symbol if symbol in _COMPARISONS else None
    if name.startswith(("BINARY_", "INPLACE_")):
        return _BINARY.get(name.split("_", 1)[1])
    return None


def _arg_key(ins):
    """The argument as it means something (names and constants, not table indices)."""
    op = ins.opcode
    if ins.opname in ("YIELD_VALUE", "END_ASYNC_FOR"):
        # 3.12+: a stack depth / a flag about the caller; 3.14: where the loop's SEND is
        return None
    if ins.opname == "COMPARE_OP":
        return ins.argval
    if ins.opname == "IMPORT_NAME" and MARKS_LAZY_IMPORTS:
        return ins.argval, ins.arg & 3  # 3.15: lazy, kept eager, or neither
    if op in dis.hasconst or op in dis.hasname or op in dis.haslocal or op in dis.hasfree:
        return ins.argval
    return ins.arg


_CALLS = ("CALL_FUNCTION", "CALL_FUNCTION_KW", "CALL_METHOD", "CALL", "CALL_KW", "CALL_FUNCTION_EX")
# where a load with the NULL bit puts the NULL: below the value (3.11, 3.12), above it (3.13+)
_NULL_SIDE = "below" if PY < (3, 13) else "above"
NULL_ABOVE = _NULL_SIDE == "above"


def _method_load(ins):
    """(the plain load it is, values read) for a load that also pushes a NULL, else None."""
    name = ins.opname
    if name == "LOAD_METHOD":
        return "LOAD_ATTR", 1
    if name == "LOAD_ATTR" and PY >= (3, 12) and ins.arg & 1:
        return "LOAD_ATTR", 1
    if name == "LOAD_GLOBAL" and PY >= (3, 11) and ins.arg & 1:
        return "LOAD_GLOBAL", 0
    if name == "LOAD_SUPER_ATTR" and ins.arg & 1:
        return "LOAD_SUPER_ATTR", 3
    return None


def _two_arg_super(ins):
    return bool(ins.arg & 2) if ins.opname == "LOAD_SUPER_ATTR" else None


def read_ops(code):
    """The instructions of ``code`` as (offset, :class:`Op`) pairs, jump targets as
    indices into the list; and the ``co_consts`` tuple of ``KW_NAMES`` waiting for
    their call (folded into the call's key)."""
    kwargs = {"show_caches": False} if (3, 11) <= PY < (3, 13) else {}
    raw = [i for i in get_instructions(code, **kwargs) if i.opname != "CACHE"]
    index = {i.offset: k for k, i in enumerate(raw)}
    cells = frozenset(code.co_cellvars + code.co_freevars)
    out = []
    kw_names = None
    for k, ins in enumerate(raw):
        op = _read_one(ins, index, cells, kw_names)
        kw_names = ins.argval if ins.opname == "KW_NAMES" else (None if op.kind == "event" else kw_names)
        out.append((ins.offset, op))
    return out


def _target(ins, index):
    return index.get(ins.argval)


def _read_one(ins, index, cells, kw_names) -> Op:
    name = ins.opname
    if name in _NOPS:
        return Op("nop")
    if name in _CELL_OPS:
        return Op(_CELL_OPS[name], ins.argval)
    if name == "LOAD_FAST_BORROW":  # 3.14: LOAD_FAST without a new reference
        name = "LOAD_FAST"
    if name == "LOAD_FAST" and PY >= (3, 13) and ins.argval in cells:
        # 3.13 loads a cell for a closure with LOAD_FAST (and an inlined comprehension's
        # own variable of that name the same way): see proof_interpreter.py
        return Op("closure", ins.argval, key="fast")
    if name == "LOAD_FAST" and PY >= (3, 12):
        return Op("load_fast_bound", ins.argval)  # the compiler proved it bound
    if name in ("LOAD_FAST", "LOAD_FAST_CHECK"):
        return Op("load_fast", ins.argval)
    if name == "LOAD_FAST_AND_CLEAR":
        return Op("load_fast_and_clear", ins.argval)
    if name in ("STORE_FAST", "STORE_FAST_MAYBE_NULL"):
        return Op("store_fast", ins.argval)
    if name == "DELETE_FAST":
        return Op("delete_fast", ins.argval)
    if name in ("LOAD_FAST_LOAD_FAST", "STORE_FAST_STORE_FAST", "STORE_FAST_LOAD_FAST"):
        return Op(name.lower(), ins.argval)
    if name == "LOAD_FAST_BORROW_LOAD_FAST_BORROW":
        return Op("load_fast_load_fast", ins.argval)
    if name in ("LOAD_CONST", "LOAD_SMALL_INT"):
        return Op("const", ins.argval)
    if name == "LOAD_COMMON_CONSTANT":
        # 3.14+: builtins the compiler loads without a name (AssertionError, all, ...), read
        # as the event of loading them; 3.15 adds immutable constants (None, '', -1, ...)
        value, builtin = common_constant(ins.arg)
        if builtin is None:
            return Op("const", value)
        return Op("event", key=(name, ins.arg, 0, 1), pops=0, pushes=1)
    if name == "RETURN_CONST":
        return Op("return_const", ins.argval)
    if name == "RETURN_VALUE":
        return Op("return")
    if name == "RETURN_GENERATOR":
        return Op("const", None)  # the value sent at the first resume (None), popped next
    if name == "LOAD_CLOSURE":
        return Op("closure", ins.argval)
    if name in _PURE_POP:
        return Op("pop", _PURE_POP[name])
    if name == "END_FOR":
        return Op("pop", 2 if PY < (3, 13) else 1)
    if name == "END_SEND":
        return Op("end_send")
    if name == "DUP_TOP":
        return Op("copy", 1)
    if name == "DUP_TOP_TWO":
        return Op("dup_top_two")
    if name == "COPY":
        return Op("copy", ins.arg)
    if name == "SWAP":
        return Op("swap", ins.arg)
    if name == "ROT_TWO":
        return Op("swap", 2)
    if name in ("ROT_THREE", "ROT_FOUR", "ROT_N"):
        return Op("rot", {"ROT_THREE": 3, "ROT_FOUR": 4}.get(name, ins.arg))
    if name == "PUSH_NULL":
        return Op("const", _NULL)
    if name == "BUILD_TUPLE":
        return Op("build_tuple", ins.arg)
    if name == "BUILD_STRING":
        return Op("build_string", ins.arg)
    if name == "BUILD_SLICE":
        return Op("build_slice", ins.arg)
    if name == "IS_OP":
        return Op("is", ins.arg)
    if name == "COMPARE_OP" and ins.argval in ("is", "is not"):  # 3.8: no IS_OP yet
        return Op("is", int(ins.argval == "is not"))
    if name == "COMPARE_OP" and ins.argval in ("in", "not in"):  # 3.8: no CONTAINS_OP yet
        return Op("contains", int(ins.argval == "not in"), key=("CONTAINS_OP",), pops=2, pushes=1,
                  bool_result=True)
    if name == "UNARY_NOT":
        return Op("not")
    if name == "TO_BOOL":
        return Op("to_bool")
    if name in _JUMP_ALWAYS:
        return Op("jump", target=_target(ins, index))
    if name in _COND:
        return Op("cond", _COND[name], target=_target(ins, index))
    if name == "JUMP_IF_NOT_EXC_MATCH":
        return Op("exc_match_jump", key=("JUMP_IF_NOT_EXC_MATCH",), pops=2,
                  target=_target(ins, index))
    if name == "FOR_ITER":
        t = _target(ins, index)
        if PY >= (3, 12):  # the exhausted loop skips END_FOR (3.13: END_FOR, POP_TOP; 3.14: to POP_ITER)
            t += 1 if PY < (3, 13) or ITERATOR_POPPED_BY_POP_ITER else 2
        return Op("for_iter", key=("FOR_ITER",), target=t)
    if name == "SEND":
        return Op("send", key=("SEND",), target=_target(ins, index))
    if name in ("SETUP_FINALLY", "SETUP_WITH", "SETUP_ASYNC_WITH") and BLOCK_STACK:
        return Op(name.lower(), key=(name,), target=_target(ins, index))
    if name == "POP_BLOCK" and BLOCK_STACK:
        return Op("pop_block")
    if name == "POP_EXCEPT":
        return Op("pop_except")
    if name in ("BEGIN_FINALLY", "END_FINALLY", "WITH_CLEANUP_FINISH"):
        return Op(name.lower())
    if name == "CALL_FINALLY":
        return Op("call_finally", target=_target(ins, index))
    if name == "POP_FINALLY":
        return Op("pop_finally", ins.arg)
    if name == "WITH_CLEANUP_START":  # calls __exit__: see proof_interpreter.py
        return Op("with_cleanup_start", key=("WITH_CLEANUP_START",), pushes=1)
    if name == "PUSH_EXC_INFO":
        return Op("push_exc_info")
    if name == "RERAISE":
        return Op("reraise", ins.arg)
    if name == "WITH_EXCEPT_START":
        # calls the __exit__ deeper in the stack with the exception on top
        return Op("event", key=("WITH_EXCEPT_START",), pops=0, pushes=1,
                  deep=7 if PY < (3, 11) else 4)
    if name in _KEEP:
        pops, keep, pushes = _KEEP[name]
        return Op("event", key=(name, _arg_key(ins)), pops=pops, keep=keep, pushes=pushes,
                  bool_result=name in _BOOL_RESULT)
    if name in _DEEP:
        pops = _DEEP[name]
        return Op("event", key=(name, None), pops=pops, pushes=0, deep=ins.arg + pops)
    if name == "CONTAINS_OP":
        # ``x not in y`` is ``not (x in y)``: one event, the result negated (pure: a bool)
        return Op("contains", ins.arg, key=(name,), pops=2, pushes=1, bool_result=True)
    if name in _CALLS:
        # one key for every layout of a call: the callable and its arguments, NULLs aside
        pops = _call_pops(name, ins.arg)
        slots = 1 if name in ("CALL_FUNCTION", "CALL_FUNCTION_KW") or (
            name == "CALL_FUNCTION_EX" and PY < (3, 11)) else 2
        # (a star call's second field says whether it has keyword arguments; 3.14 always
        # reads a keyword slot, NULL when there are none)
        star = ("ex", bool((ins.arg or 0) & 1)) if name == "CALL_FUNCTION_EX" else None
        key = ("CALL", star, name in ("CALL_FUNCTION_KW", "CALL_KW"), pops - slots, kw_names)
        return Op("event", key=key, pops=pops, pushes=1, callee_slots=slots)
    method_load = _method_load(ins)
    if method_load is not None:
        # a method load is the attribute load followed by a NULL: the call that follows
        # does the same either way (LOAD_METHOD exists to skip making the bound method)
        attr, pops = method_load
        return Op("event", key=(attr, ins.argval, _two_arg_super(ins)), pops=pops, pushes=1,
                  null=_NULL_SIDE)
    if name in ("LOAD_GLOBAL", "LOAD_ATTR", "LOAD_SUPER_ATTR"):  # the same key as a method load's
        pops = 3 if name == "LOAD_SUPER_ATTR" else (name == "LOAD_ATTR")
        return Op("event", key=(name, ins.argval, _two_arg_super(ins)), pops=pops, pushes=1)
    if name == "BINARY_OP" and ins.argrepr == "[]":  # 3.14: the subscript BINARY_SUBSCR was
        return Op("event", key=("BINARY_SUBSCR", None, 2, 1), pops=2, pushes=1)
    if name in _EVENTS_FIXED:
        pops, pushes = _event_shape(ins)
        key = (name, _arg_key(ins), pops, pushes)
        # (3.13.0 shows the bool flag only in argrepr: argval is the bare operator)
        bool_result = name == "COMPARE_OP" and (str(ins.argval).startswith("bool(")
                                                or str(ins.argrepr).startswith("bool("))
        return Op("event", key=key, pops=pops, pushes=pushes, bool_result=bool_result,
                  arith=_arith(ins))
    return Op("unsupported", name)


def cell_event(op: Op) -> Op:
    """A cell operation read as an event on the cell (for a cell the validator does not
    model: one the code makes anew in its body, 3.12+ comprehensions)."""
    name = {v: k for k, v in _CELL_OPS.items()}[op.kind]
    pops, pushes = _EVENTS_FIXED[name]
    return Op("event", key=(name, op.arg, pops, pushes), pops=pops, pushes=pushes)


class _Null:
    """The NULL the interpreter pushes beside a callable."""

    def __repr__(self):
        return "NULL"


_NULL = _Null()
NULL = _NULL
