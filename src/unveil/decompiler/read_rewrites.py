"""Reading, step 2: rewrites of the normalized stream that span several instructions.

:func:`resolve` turns byte-offset targets into indices; :func:`rewrite` makes 3.12+'s
layouts look like earlier versions' (fused and/or tests, backward conditional jumps,
except*'s entry); the others mark what only lines or layout tell apart (an ``assert``
from an ``if ... raise``) and undo the jump threading that hides an and/or's shape.
instructions.read runs them in order; read_handlers.py then places the exception ranges.
"""
import bisect
import dis
from typing import Dict, List

from .disassembly import get_instructions
from .stream import CONDITIONAL_JUMPS, NEGATED_JUMP, Instr
from .versions import ASSERT_ERROR_ON_STATEMENT_LINE, LONE_JUMP_IS_BODY, PY


def resolve(code, out: List[Instr]) -> List[Instr]:
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


def rewrite(instrs: List[Instr]) -> List[Instr]:
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


def mark_asserts(instrs: List[Instr]) -> None:
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
        test = next((j for j in range(k - 1, -1, -1) if instrs[j].op in CONDITIONAL_JUMPS), None)
        if (test is None or ins.line is None or instrs[test].line is None
                or ins.line > instrs[test].line or not k <= r < len(instrs)):
            continue
        t = instrs[test].target
        if t is not None and k <= t <= r:
            continue  # the test jumps into the raise: no assert's
        instrs[k] = Instr("LOAD_ASSERTION_ERROR", None, ins.offset, ins.line)
        instrs[k].index = k




def mark_asserts_on_own_line(instrs: List[Instr]) -> None:
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
        test = next((j for j in range(k - 1, -1, -1) if instrs[j].op in CONDITIONAL_JUMPS), None)
        if test is None or instrs[test].line is None:
            continue
        if instrs[test].line < ins.line:
            ins.arg = "own line"
            continue
        # (a test on an earlier line that jumps where the assert's own test goes when it
        # holds: an enclosing if's, whose body ends with the assert; before 3.12 the assert's
        # error has the line its test ended on, so a test over several lines looks alike)
        if ASSERT_ERROR_ON_STATEMENT_LINE and any(x.op in CONDITIONAL_JUMPS and x.line is not None and x.line < ins.line
               and x.target is not None and x.target == instrs[test].target for x in instrs[:test]):
            ins.arg = "under if"


def _shared_star_append(instrs: List[Instr], target: int) -> bool:
    """Whether ``target`` is an except*'s PREP_RERAISE_STAR with the
    ``LIST_APPEND 1`` it needs right before it."""
    return (0 < target < len(instrs) and instrs[target].op == "PREP_RERAISE_STAR"
            and instrs[target - 1].op == "LIST_APPEND" and instrs[target - 1].arg == 1)

#: the and/or that a test threaded into (see unthread_short_circuits)
_THREADED = {("POP_JUMP_IF_FALSE", "JUMP_IF_TRUE_OR_POP"): "JUMP_IF_FALSE_OR_POP",
             ("POP_JUMP_IF_TRUE", "JUMP_IF_FALSE_OR_POP"): "JUMP_IF_TRUE_OR_POP"}


def unthread_short_circuits(instrs: List[Instr]) -> None:
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


def unthread_known_truth(instrs: List[Instr]) -> None:
    """3.14+: ``(a or b) and c`` jumps from ``a`` (true) past the ``and``'s test, whose
    ``COPY 1; POP_JUMP_IF_FALSE`` would fall through for it, to that test's ``POP_TOP``
    (before ``c``); ``(a and b) or c`` likewise. The jump goes back to the test it skipped,
    keeping the value, so both and/or read as the source wrote them (as
    :func:`unthread_short_circuits` does for <=3.11's layout, before rewrite here)."""
    n = len(instrs)
    for k in range(1, n):
        ins = instrs[k]
        t = ins.target
        if (ins.op in ("POP_JUMP_IF_TRUE", "POP_JUMP_IF_FALSE") and instrs[k - 1].op == "COPY"
                and instrs[k - 1].arg == 1 and t is not None and 2 <= t < n and t - 1 != k
                and instrs[t].op == "POP_TOP" and instrs[t - 1].op == NEGATED_JUMP[ins.op]
                and (instrs[t - 2].op, instrs[t - 2].arg) == ("COPY", 1)):
            ins.target = t - 2


def nested_operand_tests(code, instrs: List[Instr]) -> set:
    """3.14: the offsets of the and/or tests (``COPY 1; POP_JUMP_IF_X; POP_TOP``) the
    exception table leaves out while the code before and after them raises into one
    handler: the tests of an and/or nested in the same operator (see
    LEAVES_NESTED_TESTS_UNCOVERED). rewrite keeps the COPY's offset on the fused jump."""
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
