"""Where control really goes, asked by every construct: a jump through trampolines
(:func:`thread`), two indices that reach the same code (:func:`same_place`), the compiler's copies
of a ``return``, a ``raise`` or a re-raise (:func:`exit_copy`), inlined finally bodies skipped
(:func:`past_finally_copies`), loop headers, and the questions about condition blocks that the
condition builder and the branch builder both ask (where an ``and``/``or`` chain ends, whether a
block only tests). Facts only: nothing here builds a statement.
"""
import ast
from typing import List, Optional

from .. import expressions as E
from .. import values as V
from ..cfg import Block
from ..stack_effects import pops_pushes
from ..stream import CONDITIONAL_JUMPS, TERMINATORS
from ..versions import COPIES_EXIT_BLOCKS, LONE_JUMP_IS_BODY
from .condition_parts import BlockIds, Cond
from .statement_parts import (BELOW, POP_JUMPS, TestStop, COMPREHENSION_RESULTS, plain_steps_depth,
                              shuffle_or_step)
from .state import dominated_by


def is_loop_header(w, block: Block) -> bool:
    # a for loop whose body never loops back (it always returns or
    # breaks) is still a loop; so is an async for (asyncs.py)
    # (asked several times per block, of a graph that does not change)
    known = w._loop_headers.get(block.id)
    if known is None:
        known = w._loop_headers[block.id] = reads_as_loop_header(w, block)
    return known


def reads_as_loop_header(w, block: Block) -> bool:
    return (w.cfg.has_back_edges(block) or w.instrs[block.start].op == "FOR_ITER"
            or w.instrs[block.start].op in ("GET_ANEXT", "SETUP_FINALLY")
            and async_for_header(w, block) is not None)


def through_trampoline(w, target, frame, test=None):
    """A block that only drops the value a chained comparison kept
    (``POP_TOP; JUMP X``) counts as a jump to X."""
    b = w.cfg.at(target)
    if b is None or not frame.stack or isinstance(frame.stack[-1], Poison):
        # (a match statement's subject under a guard: its POP_TOP starts
        # the case's body, ``case 2 if b and c:``)
        return target
    ins = w.instrs[b.start:b.end]
    single = len(b.preds) == 1 or chain_cleanup(w, b, frame)
    if (len(ins) == 2 and ins[0].op == "POP_TOP" and ins[1].op == "JUMP"
            and single):
        return ("pop", ins[1].target, target)
    if len(ins) == 1 and ins[0].op == "POP_TOP" and single and b.end < w.n:
        return ("pop", b.end, target)  # ...or falls into it
    copied = popped_copy(w, b, frame)  # ...or goes on in a copy of where it would jump
    if copied is not None:
        return ("pop", copied, target)
    keeps = (isinstance(test, ast.Compare) and test.comparators[-1] is frame.stack[-1])
    if (keeps and ins[0].op == "POP_TOP" and single
            and exit_copy(w, b.start + 1) is not None):
        # ...or into its own copy of an exit (shared by the links of a longer chain)
        return ("pop", b.start + 1, target)
    return target


def chain_cleanup(w, b, frame):
    """Whether block ``b`` may be the false path shared by the links of
    a chained comparison of three or more comparisons: every way in is a
    test that jumps there, with an expression (the kept operand) below."""
    return isinstance(frame.stack[-1], ast.expr) and only_tests_jump_to(w, b)


def only_tests_jump_to(w, b):
    """Whether every way into ``b`` is a conditional jump to it; remembered
    per block (a chain of n links asks about its cleanup n times, and the
    cleanup has n predecessors)."""
    known = w._only_tests.get(b.id)
    if known is None:
        known = not b.exc_preds and all(
            w.instrs[p.end - 1].op in CONDITIONAL_JUMPS and w.instrs[p.end - 1].target == b.start
            for p in b.preds)
        w._only_tests[b.id] = known
    return known


def returns_at(w, index, name_cleanups=False):
    """Whether the code at ``index`` only shuffles the stack and returns
    (with ``name_cleanups``, also clears ``except ... as`` names)."""
    ins = w.instrs
    while index < w.n:
        op = ins[index].op
        if op == "RETURN_VALUE":
            return True
        if (name_cleanups and index + 2 < w.n and (op, ins[index].arg) == ("LOAD_CONST", None)
                and ins[index + 1].op.startswith("STORE_") and ins[index + 2].op.startswith("DELETE_")
                and ins[index + 1].arg == ins[index + 2].arg):
            index += 3
            continue
        if op not in ("SWAP", "POP_TOP", "POP_EXCEPT"):
            return False
        index += 1
    return False


def same_return(w, a, b):
    """Whether the code at ``a`` and at ``b`` is the same stack shuffle
    ending in ``return``: the compiler copies a ``return`` after each
    branch of a conditional expression (when a try's empty finally
    leaves the return outside the protected range)."""
    if not (returns_at(w, a) and returns_at(w, b)):
        return False
    while w.instrs[a].op != "RETURN_VALUE":
        if (w.instrs[a].op, w.instrs[a].arg) != (w.instrs[b].op, w.instrs[b].arg):
            return False
        a, b = a + 1, b + 1
    return w.instrs[b].op == "RETURN_VALUE"


def same_copied_return(w, a, b, same_lines=True):
    """Whether the code at ``a`` and at ``b`` is one straight run to a
    ``return``, copied by the compiler (same instructions, same lines;
    without ``same_lines``, two returns that do the same under the same
    handler)."""
    if a == b or not (runs_to_return(w, a) and runs_to_return(w, b)):
        return False
    if not same_lines and w.cfg.containing(a).handler != w.cfg.containing(b).handler:
        return False
    while True:
        x, y = w.instrs[a], w.instrs[b]
        if (x.op, x.arg, x.line if same_lines else None) != (y.op, y.arg, y.line if same_lines else None):
            return False
        if x.op == "RETURN_VALUE":
            return True
        a, b = a + 1, b + 1


def same_copied_raise(w, a, b):
    """Whether the code at ``a`` and at ``b`` is one straight run to a
    ``raise <value>``, copied by the compiler (same instructions, same
    lines): 3.12+ copies the ``raise E`` after a try statement into the
    end of its body and of its except clause."""
    ends = [straight_raise_end(w, x) for x in (a, b)]
    if a == b or None in ends or ends[0] - a != ends[1] - b:
        return False
    return all((x.op, x.arg, x.line) == (y.op, y.arg, y.line)
               for x, y in zip(w.instrs[a:ends[0] + 1], w.instrs[b:ends[1] + 1]))


def straight_raise_end(w, index):
    """Index of the ``raise <value>`` that the code at ``index`` (maybe
    mid-block) runs straight to, in its block; or None."""
    k = w.cfg.containing(index).end - 1
    if (w.instrs[k].op, w.instrs[k].arg) != ("RAISE_VARARGS", 1) or any(
            x.target is not None or x.op in ASYNC_OPS or x.op in w.special for x in w.instrs[index:k]):
        return None
    return k


def runs_to_return(w, index, through_copies=False):
    """Whether the code at ``index`` runs straight (no jumps, no
    raise) to a ``return``; with ``through_copies``, also past inlined
    copies of finally bodies already decompiled (the walk skips them)."""
    k = index
    while k < w.n:
        if through_copies and k in w.finally_copies:
            k = past_finally_copies(w, k)
            through_copies = False  # (once: a loop's copies may lead to each other)
            continue
        if w.instrs[k].op == "GET_AWAITABLE" and await_end(w, k) is not None:
            k = await_end(w, k)  # (an async with's exit call is awaited)
            continue
        if w.instrs[k].target is not None or w.instrs[k].op in (
                "RETURN_VALUE", "RAISE_VARARGS", "RERAISE", "FOR_ITER", "YIELD_VALUE"):
            break
        k += 1
    return k < w.n and w.instrs[k].op == "RETURN_VALUE"


def branch_returns_outside(w, branch_start, index, bound=()):
    """Whether the code at ``index``, reached only through the branch
    starting at ``branch_start``, just returns a constant (or a local
    the branch has just assigned, in ``bound``) after dropping handler
    state: nothing that could raise."""
    b = w.cfg.at(branch_start)
    if b is None or index >= w.n or not dominated_by(w, b)(w.cfg.containing(index).start):
        return False
    k = index
    while k < w.n:
        ins = w.instrs[k]
        if (k + 2 < w.n and (ins.op, ins.arg) == ("LOAD_CONST", None)
                and w.instrs[k + 1].op.startswith("STORE_") and w.instrs[k + 2].op.startswith("DELETE_")
                and w.instrs[k + 1].arg == w.instrs[k + 2].arg):
            k += 3  # (the clause's ``as`` name cleared, as returns_at)
        elif (ins.op in ("POP_EXCEPT", "POP_TOP", "SWAP", "NOP", "LOAD_CONST")
              or ins.op == "LOAD_FAST" and ins.arg in bound):
            k += 1
        else:
            break
    return k < w.n and w.instrs[k].op == "RETURN_VALUE" and k >= index


def follow_jumps(w, index, limit=16):
    """Where a run of unconditional jumps from ``index`` leads."""
    while limit and index < w.n and w.instrs[index].op == "JUMP":
        index = w.instrs[index].target
        limit -= 1
    return index


def thread(w, index):
    """Where control ends up from ``index`` when only a jump (or a pop
    of the loop's iterator and a jump) is there; and whether it pops."""
    ins = w.instrs
    if index < w.n and ins[index].op == "JUMP":
        return ins[index].target, False
    if index + 1 < w.n and ins[index].op == "POP_TOP" and ins[index + 1].op == "JUMP":
        return ins[index + 1].target, True
    return index, False


def alias(w, index):
    """What ``index`` stands for when comparing where branches go: the
    compiler copies small ``return <constant>`` blocks to every place
    that jumps to them, and the copies are one place in the source."""
    t = legacy_alias(w, index)  # <=3.10: duplicated follows (legacy.py)
    if t is not None:
        return t
    b = w.cfg.at(index) if isinstance(index, int) else None
    hops = 0
    while (b is not None and b.end - b.start == 1 and w.instrs[b.start].op == "JUMP"
           and hops < 8):
        # a lone jump is where it goes (also to another lone jump: a chained
        # comparison's false path jumps to its cleanup's jump, a ``continue``)
        index = w.instrs[b.start].target
        b = w.cfg.at(index)
        hops += 1
    if reraise_copy(w, index) is not None:
        # (3.12+ copies a finally body's closing re-raise into each branch
        # that reaches it: a loop's entry and bottom tests, each operand of
        # an ``and``)
        return reraise_copy(w, index)
    if b is not None and b.end - b.start == 2:
        a, r = w.instrs[b.start], w.instrs[b.start + 1]
        if a.op == "LOAD_CONST" and r.op == "RETURN_VALUE":
            # a copy keeps the line of the return it copies: ``return False``
            # written twice (``if a: return False`` / ``if b: return False``) is
            # two places, not ``if a or b``; only the implicit ``return None``
            # gets each copy its own line (that of the jump to it); before 3.10
            # nothing is copied: two return blocks are two written returns
            written = a.arg is not None or not COPIES_EXIT_BLOCKS or is_jumped_over(w, b)
            line = a.line if written else None
            return ("return", type(a.arg).__name__, repr(a.arg), line)
    return index


def is_jumped_over(w, b):
    """Whether block ``b`` is reached only by falling out of a test that
    jumps past it: an if statement's body written there (``if not x:
    return``), where the compiler lays it out; its copies of the implicit
    ``return None`` lie where the jumps to them go, never so."""
    if len(b.preds) != 1 or b.exc_preds:
        return False
    last = w.instrs[b.preds[0].end - 1]
    return b.preds[0].end == b.start and last.op in CONDITIONAL_JUMPS and last.target == b.end


def exit_copy(w, index):
    """A key for the code at ``index`` when it is a short straight run
    that computes a value from nothing on the stack and returns or raises
    it, or None. 3.10+ copies such exits (the implicit ``return``, an
    assert's ``raise``) into each path that reaches them, down to the end
    of a chained comparison's cleanup block; equal copies under the same
    handler are one place in the source."""
    if index >= w.n:
        return None
    block = w.cfg.containing(index)
    depth, k, steps = 0, index, []
    while k < block.end and len(steps) < 6:
        ins = w.instrs[k]
        steps.append((ins.op, repr(ins.arg)))
        if ins.op in ("RETURN_VALUE", "RAISE_VARARGS"):
            want = 1 if ins.op == "RETURN_VALUE" else ins.arg
            if depth != want or k != block.end - 1:
                return None
            return ("exit", block.handler, tuple(steps))
        pp = pops_pushes(ins)
        if pp is None or ins.target is not None or pp[0] > depth:
            return None
        depth += pp[1] - pp[0]
        k += 1
    return None


def return_copy(w, index):
    """A key for the code at ``index`` when it only shuffles the stack and
    drops an except clause's exception (and ``as`` name), then returns the
    value below or runs an exit copy (:func:`exit_copy`), or None: 3.12+
    copies that way out of the clause into each branch of a finally
    body's inlined copy; equal copies under one handler are one place."""
    ins, k = w.instrs, index
    while k < w.n:
        if ins[k].op in ("SWAP", "POP_TOP", "POP_EXCEPT"):
            k += 1
        elif (k + 2 < w.n and (ins[k].op, ins[k].arg) == ("LOAD_CONST", None)
              and ins[k + 1].op.startswith("STORE_") and ins[k + 2].op.startswith("DELETE_")
              and ins[k + 1].arg == ins[k + 2].arg):
            k += 3  # (as returns_at)
        else:
            break
    if k == index or k >= w.n or "POP_EXCEPT" not in [x.op for x in ins[index:k]]:
        return None
    tail = "return" if ins[k].op == "RETURN_VALUE" else exit_copy(w, k)
    if tail is None:
        return None
    return ("clause exit", w.cfg.containing(index).handler,
            tuple((x.op, repr(x.arg)) for x in ins[index:k]), tail)


def reraise_copy(w, index):
    """A key for the RERAISE at ``index``, or None: 3.12+ copies the
    re-raise that ends an exceptional copy of a finally body into each
    branch that reaches it (a try/finally inside that body completes
    into either); equal copies under the same handler are one place."""
    if not isinstance(index, int) or index >= w.n or w.instrs[index].op != "RERAISE":
        return None
    return ("reraise", w.cfg.containing(index).handler, w.instrs[index].arg)


def same_place(w, a, b):
    if isinstance(a, int) and isinstance(b, int) and same_after_copies(w, a, b):
        return True  # one branch jumps to a finally's inlined copy, the other falls past it
    if a in w._clause_tails and b in w._clause_tails and same_copied_return(w, a, b):
        return True  # an except clause's branches each fall into a copy of the code after the try
    if (isinstance(a, int) and isinstance(b, int) and a != b and w.n > max(a, b)
            and exit_copy(w, a) is not None and exit_copy(w, a) == exit_copy(w, b)
            and same_copied_return(w, a, b)):
        # (3.12+) a try body's branches each fall into a copy of the ``return
        # x`` after the statement, past the try's range (one line: one statement;
        # not a way out through the block stack's pops, <=3.10)
        return True
    if a != b and reraise_copy(w, a) is not None and reraise_copy(w, a) == reraise_copy(w, b):
        return True  # both fall into a copy of the re-raise that ends a finally body (3.12+)
    return a == b or alias(w, a) == alias(w, b)


def expression_handler(w, h):
    """Whether handler ``h`` belongs to an expression inside a condition's
    operand, not to a try statement (3.12+): an await's ``CLEANUP_THROW``
    (it covers only the ``YIELD_VALUE`` of the delegation loop) or an
    inlined comprehension's restore of its names (``SWAP 2; POP_TOP; SWAP
    2; STORE_FAST x ...; RERAISE``, see comprehensions.py)."""
    if h is None or h >= w.n:
        return False
    ins = w.instrs
    if ins[h].op == "CLEANUP_THROW":
        return True
    if not (h + 2 < w.n and (ins[h].op, ins[h].arg) == ("SWAP", 2) and ins[h + 1].op == "POP_TOP"):
        return False
    k = h + 2
    while k < w.n and (ins[k].op == "SWAP" or ins[k].op in ("STORE_FAST", "STORE_DEREF")):
        k += 1
    return k > h + 2 and k < w.n and ins[k].op == "RERAISE"


def chain_link(w, b: Block) -> bool:
    """Whether ``b`` could be a later link of a condition chain."""
    return (w.cfg.is_conditional(b) and not b.exc_preds and not is_loop_header(w, b)
            and all(w.cfg.is_conditional(p) for p in b.preds))


def chain_below(w, b: Block) -> List[Block]:
    """The condition blocks after ``b`` that could join its chain, each
    after those below it (post-order)."""
    out, seen = [], {b.id}
    stack = [(b, iter(b.succs))]
    while stack:
        node, succs = stack[-1]
        s = next(succs, None)
        if s is None:
            stack.pop()
            if node is not b:
                out.append(node)
        elif s.id not in seen and chain_link(w, s):
            seen.add(s.id)
            stack.append((s, iter(s.succs)))
    return out


def tests_kept_operand_for_none(w, last, f, frame, depth):
    """Whether the link is ``... is None`` / ``... is not None`` ending a chained
    comparison: >=3.11 tests the kept operand with POP_JUMP_IF_(NOT_)NONE, no
    comparison (``0 == k is not None``)."""
    return (last.op in ("POP_JUMP_IF_NONE", "POP_JUMP_IF_NOT_NONE") and depth
            and len(f.stack) == depth and f.stack[-1] is frame.stack[-1])


def enters_inlined_comprehension(w, b: Block, limit=3) -> bool:
    """Whether ``b`` starts an inlined comprehension (3.12+, see
    comprehensions.py): its prologue, which saves the loop's names and builds the
    empty result (in blocks of their own where the cleanup handler's
    range starts), falls into the loop's header. A test's operand that
    holds one spans the loop's blocks."""
    key = (b.id, limit)  # (asked of each test's successors again and again; the graph stays)
    known = w._enters_comprehension.get(key)
    if known is None:
        known = w._enters_comprehension[key] = starts_inlined_comprehension(w, b, limit)
    return known


def starts_inlined_comprehension(w, b: Block, limit) -> bool:
    passed = []  # (their instructions are read only once a loop's header follows)
    for _ in range(limit):
        passed.append(b)
        if w.instrs[b.end - 1].target is not None or b.end >= w.n:
            return False
        b = w.cfg.at(b.end)
        if b is None:
            return False
        if is_loop_header(w, b):
            return any(x.op == "LOAD_FAST_AND_CLEAR" or x.op in COMPREHENSION_RESULTS and x.arg == 0
                       for p in passed for x in w.instrs[p.start:p.end])
    return False


def tests_kept_for_none(w, frame):
    """Whether the walk in ``frame`` is one of :func:`chain_operand` and the
    value on top of the stack is the operand the chain kept (see
    :func:`tests_kept_operand_for_none`)."""
    if not (w._stops and w._stops[-1][0] is frame and frame.stack):
        return False
    kept = w._stops[-1][1]
    return not isinstance(kept, TestStop) and frame.stack[-1] is kept


def stops_at_test(w, frame):
    """Whether the conditional jump ending a block walked in ``frame`` by
    :func:`short_circuit_operand` tests the operand's whole value, or the
    first link of a chained comparison on it; not the test of an and/or
    or a conditional expression inside it (``(a and x or k) < 3``: ``a``
    is tested with ``2 <=``'s left operand below it)."""
    stop = w._stops[-1][1]
    if not isinstance(stop, TestStop):
        return False
    top = frame.stack[-1] if frame.stack else None
    if len(frame.stack) == stop.depth + 1:
        return True
    return (len(frame.stack) == stop.depth + 2 and isinstance(top, ast.Compare)
            and top.comparators[-1] is frame.stack[-2])


def conditional_value_join(w, b: Block):
    """Where the two ways out of the conditional jump ending ``b`` meet
    again with one value more on the stack than the test left: ``b``
    tests a conditional expression's condition (or its first link) and
    the value goes on into what follows (``(x if c else y) > k``); else
    None, also for an if statement's test (its branches meet with
    nothing new on the stack). Both ways are followed in layout order
    through plain expression steps and jumps forward, until every path
    has reached one block; remembered per block."""
    known = w._value_joins.get(b.id, False)
    if known is False:
        known = w._value_joins[b.id] = _find_value_join(w, b)
    return known


def _find_value_join(w, b: Block, limit=16):
    last = w.instrs[b.end - 1]
    if last.op not in POP_JUMPS or last.target <= b.start:
        return None
    depth = plain_steps_depth(w.instrs[b.start:b.end - 1], 0, steps=shuffle_or_step, floor=None)
    if depth is None:
        return None
    base = depth - 1  # (the test's value popped)
    entry = {b.end: base, last.target: base}
    done = {b.id}
    for _ in range(limit):
        start = min(entry)
        block = w.cfg.at(start)
        if (block is None or block.exc_preds or block.handler != b.handler
                or any(p.id not in done for p in block.preds)):
            return None  # (code that other paths reach is no part of the expression)
        depth = entry.pop(start)
        if not entry:
            return start if depth == base + 1 and len(block.preds) > 1 else None
        done.add(block.id)
        ins = w.instrs[block.end - 1]
        ends_in_jump = ins.target is not None
        depth = plain_steps_depth(w.instrs[block.start:block.end - 1 if ends_in_jump else block.end],
                                  depth, steps=shuffle_or_step, floor=base)
        if depth is None or depth is BELOW:
            return None
        ways = []
        if ins.op == "JUMP":
            ways = [(ins.target, depth)]
        elif ins.op in POP_JUMPS:
            ways = [(block.end, depth - 1), (ins.target, depth - 1)]
        elif ins.op in ("JUMP_IF_FALSE_OR_POP", "JUMP_IF_TRUE_OR_POP"):
            ways = [(block.end, depth - 1), (ins.target, depth)]
        elif not ends_in_jump:
            ways = [(block.end, depth)]
        if not ways:
            return None
        for target, d in ways:
            if target <= block.start or d < base or entry.setdefault(target, d) != d:
                return None
    return None


def short_circuit_ahead(w, b: Block, limit=4):
    """Whether ``b`` ends in an and/or computed as a value
    (``JUMP_IF_X_OR_POP``), or falls straight into a block that ends in
    a test (the operands before a test are blocks of their own, see
    condition_starts: ``a or 3 <= (b and x or k)``, where ``b`` is
    tested with 3 below it), or starts an inlined comprehension (``a or
    {q: 0 for q in b} != 1``: the walk decides whether a test follows)."""
    first = b
    for _ in range(limit):
        last = w.instrs[b.end - 1]
        if last.op in ("JUMP_IF_FALSE_OR_POP", "JUMP_IF_TRUE_OR_POP"):
            return True
        if w._has_clear and any(x.op == "LOAD_FAST_AND_CLEAR" for x in w.instrs[b.start:b.end]):
            return True  # (3.12+: an inlined comprehension, loop and all, in the operand)
        if b is not first and last.op in POP_JUMPS:
            return True
        if (last.target is not None or last.op in TERMINATORS or last.op in w.special
                or b.end >= w.n or len(b.succs) != 1):
            return False
        b = w.cfg.at(b.end)
        if b is None or len(b.preds) != 1 or b.exc_preds or is_loop_header(w, b):
            return False
    return False


def ends_in_test(w, block: Block) -> bool:
    return w.instrs[block.end - 1].op in ("POP_JUMP_IF_FALSE", "POP_JUMP_IF_TRUE",
                                             "POP_JUMP_IF_NONE", "POP_JUMP_IF_NOT_NONE")


def blocks_from(w, first: Block, last: Block) -> BlockIds:
    """The blocks laid out from ``first`` to ``last`` that ``first``
    dominates (the code of a condition whose operand spans blocks)."""
    ids = BlockIds(first)
    i = first.end
    while i < last.end:
        b = w.cfg.containing(i)
        if w.cfg.dominates(first, b):
            ids = ids | BlockIds(b)
        i = b.end
    return ids


def condition_from(w, block, f):
    last = w.instrs[block.end - 1]
    test = f.pop_expr(last)
    nxt, tgt = block.end, last.target
    if last.op == "POP_JUMP_IF_FALSE":
        c = Cond(test, nxt, tgt, f, BlockIds(block))
    elif last.op == "POP_JUMP_IF_TRUE":
        c = Cond(test, tgt, nxt, f, BlockIds(block))
    elif last.op == "POP_JUMP_IF_NONE":
        c = Cond(ast.Compare(left=test, ops=[ast.IsNot()], comparators=[E.const(None)]), nxt, tgt, f, BlockIds(block))
    else:
        c = Cond(ast.Compare(left=test, ops=[ast.Is()], comparators=[E.const(None)]), nxt, tgt, f, BlockIds(block))
    return c


def conditional_with_constant_arm(w, c: Cond, a: Cond, b: Cond):
    """``x if c else (y if d else 5)`` tested: an arm that is itself a
    conditional expression of constants leaves its test ``d`` both ways
    to one place, where the other arm's test goes when true (or when
    false). ``(merged test, true, false)`` with that arm written as
    ``(d or True)`` (or ``(d and False)``), or None."""
    for arm, other in ((b, a), (a, b)):
        place = arm.true
        if isinstance(other.true, tuple) or isinstance(other.false, tuple):
            return None
        if either_way(w, arm) is None:
            continue
        if same_place(w, place, other.true) and not same_place(w, place, other.false):
            value = either_way(w, arm)
        elif same_place(w, place, other.false) and not same_place(w, place, other.true):
            value = either_way(w, arm, False)
        else:
            continue
        body, orelse = (other.expr, value) if arm is b else (value, other.expr)
        return ast.IfExp(test=c.expr, body=body, orelse=orelse), other.true, other.false
    return None


def lone_jump_within(w, index, inside: BlockIds) -> Optional[BlockIds]:
    """The block at ``index`` when it is only a jump reached from
    ``inside`` (a way out of a condition's code); else None."""
    b = w.cfg.at(index) if isinstance(index, int) else None
    if (b is None or b.end - b.start != 1 or w.instrs[b.start].op != "JUMP"
            or b.exc_preds or any(not inside.holds(p) for p in b.preds)):
        return None
    return BlockIds(b)


def either_way(w, sub: Cond, truth=True):
    """When both ways out of the condition ``sub`` go to one place, the
    test as it was written: ``(y or <true>)`` (with ``truth``) or ``(y and
    <false>)``, whose constant the compiler folds into a jump; else None."""
    t, f = (x[1] if isinstance(x, tuple) else x for x in (sub.true, sub.false))
    if isinstance(sub.true, tuple) or isinstance(sub.false, tuple) or not same_place(w, t, f):
        return None
    if truth:
        return ast.BoolOp(op=ast.Or(), values=[sub.expr, E.const(True)])
    return ast.BoolOp(op=ast.And(), values=[sub.expr, E.const(False)])


def jump_over_cleanup(w, index, chain_blocks):
    """A chained comparison's true path jumps over the cleanup of its false
    path (``POP_TOP``, then a jump or a copy of the exit): when ``index``
    is such a jump, reached only from ``chain_blocks``, (where it goes,
    ``chain_blocks`` with it)."""
    b = w.cfg.at(index)
    if (b is None or b.end - b.start != 1 or w.instrs[index].op != "JUMP"
            or index + 1 >= w.n or w.instrs[index + 1].op != "POP_TOP"
            or w.instrs[index].target <= index + 1
            or any(not chain_blocks.holds(p) for p in b.preds)):
        return None
    return w.instrs[index].target, chain_blocks | BlockIds(b)


def is_jump_body(w, c: Cond, index):
    """Whether ``index``, where ``c`` falls through, is a lone jump that
    is an if statement's body (see LONE_JUMP_IS_BODY), not a way to
    the target it jumps to."""
    if not LONE_JUMP_IS_BODY or not isinstance(index, int):
        return False
    b = w.cfg.at(index)
    fall = c.blocks.end
    if b is None or index != fall or b.end - b.start != 1 or w.instrs[index].op != "JUMP":
        return False
    if w.instrs[index].target == index + 1 and isinstance(c.false, int) and c.false != index + 1:
        # a jump over nothing that is not the false way: a conditional
        # expression's jump over its constant arm (``if (a if b else 1):``
        # tests no ``1``), not ``if x: pass`` / ``else: pass``
        return False
    # a chained comparison's true path jumps over the false path's POP_TOP
    # (and the jump after it: ``POP_TOP; JUMP`` in a conditional expression)
    cleanup = w.cfg.at(index + 1)
    skips_cleanup = (cleanup is not None and w.instrs[index + 1].op == "POP_TOP"
                     and w.instrs[index].target == cleanup.end)
    return not skips_cleanup


def past_finally_copies(w, index):
    """Where the walk really goes on from ``index``: past the inlined
    copies of finally bodies it skips."""
    seen = set()
    while index in w.finally_copies and index not in seen:
        seen.add(index)  # (copies that lead to each other: a loop's)
        index = w.finally_copies[index]
    return index


def same_after_copies(w, a, b):
    """Whether control leaving at ``a`` and at ``b`` goes to the same place:
    one may be the start of an inlined copy of a finally body, the other
    its end (where a walk that falls into the copy stops). Two copies of
    one finally body that never completes are one place: the end of its
    try body."""
    dead = w.dead_end_copies
    if a in dead and b in dead and dead[a] == dead[b]:
        return True
    if past_finally_copies(w, a) == past_finally_copies(w, b):
        return True
    # (a lone jump to a copy: the try body's last jump may lie outside
    # the range of the try's handler, in a block of its own)
    a, b = [x if pops else t for x, (t, pops) in ((a, thread(w, a)), (b, thread(w, b)))]
    past_a, past_b = past_finally_copies(w, a), past_finally_copies(w, b)
    if past_a == past_b:
        return True
    # each copy runs on into a return of the same value (``return x`` in
    # the try body, and the same ``return x`` after the statement)
    return (past_a, past_b) != (a, b) and same_copied_return(w, past_a, past_b, same_lines=False)


def legacy_key(w, i):
    """What the code at ``i`` is, to tell copies of one piece of code
    apart from different code: through unconditional jumps, the
    straight-line instructions up to a return or raise, each with the
    handler it runs under. ``i`` itself when the code does not end so.

    3.10 copies the code after a statement into each of its exits (the
    compiler inlines small exit blocks in place of the jumps to them);
    equal keys are one place in the source."""
    if not isinstance(i, int):
        return i
    keys = w.__dict__.setdefault("_legacy_keys", {})  # (asked again and again for one index)
    key = keys.get(i)
    if key is None:
        key = keys[i] = _read_legacy_key(w, i)
    return key


def _read_legacy_key(w, i):
    ins = w.instrs
    seen = set()
    while i < w.n and ins[i].op == "JUMP" and i not in seen:
        seen.add(i)
        i = ins[i].target
    key = []
    k = i
    while k < w.n and len(key) < 64:
        x = ins[k]
        if x.target is not None or x.op == "YIELD_FROM":
            return i
        key.append((x.op, repr(x.arg), w.cfg.containing(k).handler))
        if x.op in ("RETURN_VALUE", "RERAISE", "RAISE_VARARGS"):
            return ("tail", tuple(key))
        k += 1
    return i


def legacy_alias(w, index):
    """For :func:`alias`: a copy of the code after a
    statement (registered while structuring it) stands for its code;
    None for any other index."""
    follows = w._lfollows
    if not follows or not isinstance(index, int) or index not in follows:
        return None
    return legacy_key(w, index)


def popped_copy(w, block, frame):
    """For :func:`through_trampoline`: where ``block`` goes on
    after dropping the operand a chained comparison kept (``POP_TOP``),
    when what follows is a copy of a small ``return``/``raise`` block
    (3.10+ copies them into the paths that jump to them); None otherwise.
    (:func:`same_code` tells it from its originals)."""
    ins = w.instrs
    if not (COPIES_EXIT_BLOCKS and ins[block.start].op == "POP_TOP"
            and (len(block.preds) == 1 or chain_cleanup(w, block, frame))
            and not block.exc_preds and isinstance(frame.stack[-1], ast.expr)):
        return None  # (an iterator or handler entry is no chain's operand)
    tail = block.start + 1
    key = legacy_key(w, tail)
    if (not isinstance(key, tuple) or not falls_only_to(w, block, tail + len(key[1]))
            or key[1][-1][0] not in ("RETURN_VALUE", "RAISE_VARARGS", "RERAISE")):
        return None  # (RERAISE: the end of a finally body's exceptional copy)
    return tail


def falls_only_to(w, block, end):
    """Whether the code from ``block`` to ``end`` runs in blocks that only
    ``block`` reaches, falling from each into the next: one straight run
    (3.10 ends a try's block at its ``POP_BLOCK``; the copy of the exit after
    it stands in a block of its own)."""
    k = block.end
    while k < end:
        b = w.cfg.at(k)
        if b is None or len(b.preds) != 1 or b.exc_preds:
            return False
        k = b.end
    return k == end


class Poison(V.Marker):
    """A stack entry a guard must not touch."""


#: instructions that the walk (walk.block) hands to ``async_op``
ASYNC_OPS = frozenset({
    "GET_AWAITABLE", "GET_YIELD_FROM_ITER", "GET_ANEXT", "SEND", "END_SEND",
    "CLEANUP_THROW", "END_ASYNC_FOR", "BEFORE_ASYNC_WITH", "YIELD_FROM",
})


def _jump_sources(w):
    if w._async_sources is None:
        src = {}
        for x in w.instrs:
            if x.target is not None:
                src.setdefault(x.target, []).append(x.index)
        w._async_sources = src
    return w._async_sources


def await_end(w, k):
    """When ``k`` starts ``GET_AWAITABLE``/``GET_ANEXT``/
    ``GET_YIELD_FROM_ITER``; ``LOAD_CONST None``; and the delegation
    (``YIELD_FROM`` or a ``SEND`` loop): the index after it, else None."""
    ins = w.instrs
    n = w.n
    if not (k + 2 < n and ins[k + 1].op == "LOAD_CONST" and ins[k + 1].arg is None):
        return None
    d = k + 2
    if ins[d].op == "YIELD_FROM":
        return d + 1
    if ins[d].op != "SEND" or d + 2 >= n:
        return None
    y, j = ins[d + 1], ins[d + 2]
    if y.op != "YIELD_VALUE" or j.op != "JUMP" or j.target != d:
        return None
    x = ins[d].target
    after = d + 3
    if x == after + 1 and ins[after].op == "CLEANUP_THROW":
        pass  # 3.12+: the throw handler placed before END_SEND
    elif x != after:
        return None
    # anything else jumping into the loop is not an await
    sources = _jump_sources(w)
    if sources.get(d + 1) or sources.get(d + 2) or sources.get(d, []) != [d + 2]:
        return None
    # the handler of the YIELD_VALUE, if any, only resumes at X
    h = w.cfg.containing(d + 1).handler
    if h is not None and h < n and ins[h].op == "CLEANUP_THROW":
        if not (h + 1 < n and (ins[h + 1].op == "JUMP" and ins[h + 1].target == x
                               or h + 1 == x)):
            return None
    if x < n and ins[x].op == "END_SEND":
        return x + 1
    return x


def async_for_header(w, header):
    """(body start, END_ASYNC_FOR index) when ``header`` is the header of
    an ``async for`` loop, else None."""
    ins = w.instrs
    h = header.start
    if ins[h].op == "SETUP_FINALLY":
        e = ins[h].target
        if ins[h + 1].op != "GET_ANEXT":
            return None
        end = await_end(w, h + 1)
        if end is None or ins[end].op != "POP_BLOCK":
            return None
        body = end + 1
    elif ins[h].op == "GET_ANEXT":
        end = await_end(w, h)
        if end is None:
            return None
        e = header.handler
        body = end
    else:
        return None
    if e is None or e >= w.n or ins[e].op != "END_ASYNC_FOR":
        return None
    return body, e
