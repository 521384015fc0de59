"""The normalized instruction stream the reader produces: :class:`Instr`, :class:`Handler`
(an exception range), :class:`Program` (both, for one code object) and the sets of jumps.

Everything after the reader (cfg.py, the expression builders, the structurer) sees only
these: opnames as instructions.py's docstring lists them, jump targets as indices.
"""
from typing import List, NamedTuple

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
