"""What a normalized straight-line instruction does to the value stack, and the walks over
it: where the value a conditional jump tests starts being computed, a walrus's store.

Read by the expression builders (expr_stores.py, expr_displays.py) and the structurer
(through instructions.py); it knows nothing of either.
"""
from typing import List, Optional

from .stream import Instr


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
    if op == "CALL_KW":  # (the keyword names on top: see read_opcodes.translate)
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
