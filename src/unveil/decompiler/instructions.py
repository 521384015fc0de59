"""Reading: one version-independent instruction stream for CPython 3.8-3.15.

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

How the reading is laid out (each module one step, none importing the expression or
structuring side):

* versions.py -- the version facts: every flag a later stage asks instead of the version;
* disassembly.py -- ``dis`` in linear time, once per code object;
* stream.py -- what comes out: :class:`Instr`, :class:`Handler`, :class:`Program`;
* read_opcodes.py -- raw instructions -> normalized ones, one by one (targets still offsets);
* read_rewrites.py -- targets resolved, the rewrites that span several instructions;
* read_handlers.py -- the exception ranges;
* stack_effects.py -- what each normalized instruction pops and pushes;
* this module -- :func:`read`, the steps in order.
"""
import bisect
from typing import Dict

from .read_handlers import block_stack_handlers, cover_fused_jumps, exception_table
from .read_opcodes import translate
from .read_rewrites import (mark_asserts, mark_asserts_on_own_line, nested_operand_tests, resolve,
                            rewrite, unthread_known_truth, unthread_short_circuits)
from .stream import Program
from .versions import LEAVES_NESTED_TESTS_UNCOVERED, PY, THREADS_DECIDED_TESTS


def read(code) -> Program:
    """Read ``code`` into a :class:`Program` of normalized instructions."""
    raw, hidden = translate(code)
    instrs = resolve(code, raw)
    if PY < (3, 9):
        mark_asserts(instrs)
    else:
        mark_asserts_on_own_line(instrs)
    # offsets -> index before rewriting, to place exception ranges
    first_index: Dict[int, int] = {}
    for ins in instrs:
        first_index.setdefault(ins.offset, ins.index)
    offsets = sorted(first_index)
    if THREADS_DECIDED_TESTS:
        unthread_known_truth(instrs)
    nested = nested_operand_tests(code, instrs) if LEAVES_NESTED_TESTS_UNCOVERED else None
    instrs, remap = rewrite(instrs)
    if nested:  # (3.14 only, and only where the table has such a hole: no walk otherwise)
        for ins in instrs:
            if ins.offset in nested and ins.op in ("JUMP_IF_FALSE_OR_POP", "JUMP_IF_TRUE_OR_POP"):
                ins.arg = "nested"
    if PY < (3, 12):
        unthread_short_circuits(instrs)

    def by_offset_index(off):
        k = bisect.bisect_left(offsets, off)
        return remap.get(first_index[offsets[k]], len(instrs)) if k < len(offsets) else len(instrs)

    if PY >= (3, 11):
        handlers = exception_table(code, by_offset_index, hidden)
        if PY >= (3, 12):
            handlers = cover_fused_jumps(handlers, instrs)
    else:
        handlers = block_stack_handlers(instrs)
    return Program(code, instrs, handlers)
