"""Stack slots the normalized stream leaves out (3.14+).

3.14 keeps a with statement's ``__exit__`` as two stack entries, the function and the
``self`` it is called with (``LOAD_SPECIAL`` pushes both); 3.15 keeps a for loop's
iterator as two, the iterator and an index beside it (``GET_ITER`` pushes both), and an
awaited object as two, a NULL pushed above it before the ``SEND`` loop. Up to
3.13 each was one entry, and the rest of the decompiler reads that layout. The second
entry of such a pair is *hidden*: the reader (instructions.py) drops the instructions
that only move or pop it, renumbers ``SWAP``/``COPY`` around it, and takes it out of
the exception table's depths.

Which entries are hidden is found by following the stack through the code, from the
instructions that push a pair, along jumps and into exception handlers (the table's
depth cuts the stack there). Only their positions are tracked, not values; an
instruction consumes every entry at or above the lowest one it pops.
"""
import bisect
import dis
from typing import FrozenSet, List, Optional, Tuple

from .flow import JUMP_OPCODES, NO_FALL_THROUGH

#: (stack depth before the instruction, positions of hidden entries counted from the bottom)
State = Tuple[int, FrozenSet[int]]



def pushes_hidden_null(raw, k) -> bool:
    """3.15: whether ``raw[k]`` is the NULL pushed above an awaited object (``PUSH_NULL;
    LOAD None; SEND``), which 3.14 does not push."""
    return (raw[k].opname == "PUSH_NULL" and k + 2 < len(raw) and raw[k + 2].opname == "SEND"
            and raw[k + 1].argval is None and raw[k + 1].opname in ("LOAD_CONST", "LOAD_COMMON_CONSTANT"))


def _pushes_pair(ins, effect) -> bool:
    """Whether ``ins`` pushes a pair whose upper entry is hidden."""
    if ins.opname == "LOAD_SPECIAL":
        return True  # the method and its self
    return ins.opname == "GET_ITER" and effect == 1  # 3.15: the iterator and its index


def _pops(ins, effect) -> int:
    """How many entries ``ins`` reads off the stack (those above them are consumed too)."""
    name, arg = ins.opname, ins.arg
    if name == "CALL":
        return arg + 2
    if name == "CALL_KW":
        return arg + 3
    if name == "CALL_FUNCTION_EX":
        return 4
    if name in ("LOAD_SPECIAL", "GET_ITER"):
        return 1  # (the object looked up, the iterable)
    if name == "WITH_EXCEPT_START":
        return 0  # (calls the exit deeper in the stack, pops nothing)
    return max(0, -effect)


def _step(ins, state: State, jump: bool, null_hidden: bool = False) -> State:
    depth, hidden = state
    if null_hidden:
        return depth + 1, hidden | {depth}
    effect = dis.stack_effect(ins.opcode, ins.arg if ins.opcode >= dis.HAVE_ARGUMENT else None, jump=jump)
    name = ins.opname
    if name == "SWAP":
        a, b = depth - 1, depth - ins.arg
        if (a in hidden) != (b in hidden):
            hidden = hidden ^ {a, b}
        return depth, hidden
    if name == "COPY":
        return depth + 1, hidden | {depth} if depth - ins.arg in hidden else hidden
    floor = depth - _pops(ins, effect)
    new_depth = depth + effect
    kept = frozenset(p for p in hidden if p < floor and p < new_depth)
    if _pushes_pair(ins, effect):
        kept |= {new_depth - 1}
    return new_depth, kept


def hidden_slots(code, raw: List) -> List[Optional[State]]:
    """The :data:`State` before each of ``raw`` (``code``'s instructions from ``dis``, no
    caches), or None where no path reaches it."""
    at = {ins.offset: k for k, ins in enumerate(raw)}
    # (the table's ranges do not overlap: the entry covering an offset is the last starting before it)
    table = sorted((e.start, e.end, e.target, e.depth, int(e.lasti)) for e in dis._parse_exception_table(code))
    starts = [e[0] for e in table]
    states: List[Optional[State]] = [None] * len(raw)
    work = [(0, (0, frozenset()))]

    def reach(k, state):
        if k is not None and k < len(raw) and states[k] is None:
            states[k] = state
            work.append((k, state))

    states[0] = work[0][1] if raw else None
    while work:
        k, state = work.pop()
        ins = raw[k]
        offset = ins.offset
        e = bisect.bisect_right(starts, offset) - 1
        if e >= 0 and offset < table[e][1]:
            _, _, target, depth, lasti = table[e]
            # the stack is cut to ``depth``; the offset (lasti) and the exception go on top
            reach(at.get(target), (depth + lasti + 1, frozenset(p for p in state[1] if p < depth)))
        if ins.opcode in JUMP_OPCODES:
            target = getattr(ins, "jump_target", None)
            reach(at.get(target if target is not None else ins.argval), _step(ins, state, True))
        if ins.opname not in NO_FALL_THROUGH:
            reach(k + 1, _step(ins, state, False, pushes_hidden_null(raw, k)))
    return states


def hidden_below(state: Optional[State], depth: int) -> int:
    """How many hidden entries lie among the lowest ``depth`` of ``state``'s stack."""
    return 0 if state is None else sum(1 for p in state[1] if p < depth)
