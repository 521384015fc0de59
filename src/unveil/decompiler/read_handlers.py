"""Reading, step 3: the exception ranges, as :class:`~.stream.Handler` index ranges.

3.11+ reads the exception table (the depths without 3.14's hidden entries, slots.py),
then, 3.12+, widens ranges over the jumps the compiler's layout leaves uncovered;
<=3.10 follows the ``SETUP_*``/``POP_BLOCK`` block stack along the control flow.
"""
import dis
from typing import List, Optional

from .slots import hidden_below
from .stream import NEGATED_JUMP, TERMINATORS, Handler, Instr


def exception_table(code, by_offset_index, hidden) -> List[Handler]:
    """3.11+: the exception table as index ranges (``hidden``: see :func:`.read_opcodes.translate`)."""
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


def cover_fused_jumps(handlers: List[Handler], instrs: List[Instr]) -> List[Handler]:
    """3.12+: a backward conditional jump is always a fused ``POP_JUMP_IF_X;
    JUMP_BACKWARD`` pair (see :func:`.read_rewrites.rewrite`), and the table may leave one
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
    that 3.13's jump threading left uncovered (see cover_fused_jumps): a
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


def block_stack_handlers(instrs: List[Instr]) -> List[Handler]:
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
