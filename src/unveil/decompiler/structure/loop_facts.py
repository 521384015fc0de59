"""Facts about loops (see loops.py): the natural loop of a header
(:func:`natural_loop`: the blocks that reach a back edge without passing the header), the
blocks its back edges come from, where its ``break`` goes (:func:`break_target`), the iterator a
``for`` loop drops on its way out, a while loop's bottom test (its latch). Nothing here walks.
"""
from .. import expressions as E
from .. import values as V
from ..cfg import Block
from ..errors import DecompilationError
from ..stack_effects import is_walrus_store, operand_pops_pushes, pops_pushes
from ..stream import CONDITIONAL_JUMPS, TERMINATORS
from ..versions import WHILE_BODY_FALLS_FROM_TEST
from .condition_parts import BlockIds, Cond, KEEP_OPERAND, chain_link_start
from .statement_parts import BELOW, plain_steps_depth, store_or_step
from .state import dominated_by
from .jumps import (async_for_header, ends_in_test, exit_copy, is_loop_header, jump_over_cleanup,
                    follow_jumps, runs_to_return, same_place, straight_raise_end, thread)
from .async_facts import async_for_exits_to
from .with_facts import after_exit_call, after_suppressed, is_with_handler
from .legacy_facts import legacy_exit_call


def natural_loop(w, header: Block):
    """Starts of the blocks of ``header``'s natural loop (those on a path
    back to it)."""
    inner = w._inner_loop_at.get(header.start)
    if inner is not None:
        return blocks_back_to(w, header, inner)
    return {w.cfg.blocks[k].start for k in w.cfg.loop_body(header)}


def loop_back_sources(w, header: Block):
    """The blocks that jump back to ``header``: of the loop being found
    there (see :func:`inner_loop_sources`)."""
    inner = w._inner_loop_at.get(header.start)
    return list(inner) if inner is not None else w.cfg.back_edge_sources(header)


def blocks_back_to(w, header: Block, sources):
    """Starts of the blocks on a path from ``header`` back to it through ``sources``."""
    body, work = {header.start}, list(sources)
    while work:
        b = work.pop()
        if b.start not in body:
            body.add(b.start)
            work.extend(p for p in b.preds if p.start not in body)
    return body


def inner_loop_sources(w, header: Block, latch):
    """3.10+ ``while c: try: while True:``: the rotated loop's body starts
    where the inner loop's header is (only NOPs apart, dropped), so both
    jump back to one block. A ``continue`` goes to the top test, not to
    the body: a plain jump back from before the bottom test is the inner
    loop's (written as ``continue`` it would compile to another jump)."""
    return [b for b in w.cfg.back_edge_sources(header)
            if b.start < latch and w.instrs[b.end - 1].op == "JUMP"]


def break_target(w, natural, normal_exit):
    """Where ``break`` goes: a path out of the natural loop, other than
    the normal exit, that ends in a jump (a ``return`` ends otherwise)."""
    targets = []
    for start in natural:
        b = w.cfg.at(start)
        for s in b.succs:
            if s.start in natural or s.start == normal_exit:
                continue
            if normal_exit is not None and follow_jumps(w, s.start) == follow_jumps(w, normal_exit):
                # (3.11+: the bottom test's own jump to where the entry test's exit
                # jumps; the entry test's exit may be the jump: ``while a and (b or 0)``)
                continue
            s = past_chain_cleanup(w, b, s, natural)
            past = past_kept_operand_drop(w, s)
            if past is not s and past.start == normal_exit:
                continue  # (the bottom test's chain drops its operand on the way out: no break)
            if past.start != normal_exit and past.start not in natural:
                s = past  # (a chain's false path to the loop's exit is the test's, as it was)
            t = jump_at_end(w, s, natural, normal_exit)
            if t is None:
                t = async_break_falls_to(w, s, natural, normal_exit)
            if t is not None and t not in natural:
                t = through_outer_breaks(w, b, s, t, natural)
                if drops_then_jumps_to(w, t, normal_exit) or copy_of_exit(w, t, normal_exit):
                    t = normal_exit
                keeps = jump_keeps_iterator(w, s, natural)
                if not (keeps and (runs_to_return(w, t) or not drops_iterator_at(w, t))
                        or caught_in_loop(w, t, natural)):
                    targets.append(t)
            elif t is None:
                targets.extend(breaks_behind_tests(w, s, natural, normal_exit))
    targets.extend(breaks_from_handlers(w, natural, normal_exit))
    if not targets:
        return None
    if normal_exit in targets:
        return normal_exit
    going_on = [t for t in targets if not assert_failure_at(w, t)]
    if going_on and len(going_on) < len(targets):
        # a jump to an assert's raise, beside a way out to other code, is
        # the loop's own assert (``assert 0 if o else 1``: its conditional
        # expression jumps straight to the raise), no break
        targets = going_on
    return max(set(targets), key=targets.count)


def assert_failure_at(w, index):
    """Whether the code at ``index`` runs straight to the raise of an
    ``AssertionError``: an assert's failure."""
    if index >= w.n or straight_raise_end(w, index) is None:
        return False
    ins = w.instrs[index]
    return ins.op == "LOAD_ASSERTION_ERROR" or (ins.op, ins.arg) == ("LOAD_GLOBAL", "AssertionError")


def copy_of_exit(w, target, normal_exit):
    """Whether the code at ``target`` is where the loop's normal exit
    jumps, or a copy of it, a small ``return``/``raise`` (3.10+ copies those
    into each path that reaches them): a test's way out that jumps past the
    others (``while a and (b != c or 0)``)."""
    if target is None or normal_exit is None or target == normal_exit:
        return False
    a, b = follow_jumps(w, target), follow_jumps(w, normal_exit)
    # (not merely the same place: an inner loop's break jumps where its normal exit goes)
    return exit_copy(w, a) is not None and exit_copy(w, a) == exit_copy(w, b)


def drops_then_jumps_to(w, target, normal_exit):
    """Whether the code at ``target`` only drops values and jumps to the
    loop's normal exit: the loop's own code that then breaks (the
    alternatives of an or-pattern jump to their case's cleanup, whose body
    is ``break``), not the code after the loop."""
    b = w.cfg.at(target) if target is not None and normal_exit is not None else None
    if b is None:
        return False
    ops = [w.instrs[k].op for k in range(b.start, b.end)]
    return (ops[-1] == "JUMP" and w.instrs[b.end - 1].target == normal_exit
            and all(op == "POP_TOP" for op in ops[:-1]))


def caught_in_loop(w, target, natural):
    """Whether an exception at ``target`` goes to a handler in the loop
    of ``natural``: the code there is inside a try or with statement of
    the loop's body (a jump out of the loop's natural blocks to code that
    only raises, like an or-pattern's jump to a case body ``assert 0``),
    never the code after the loop that a ``break`` goes to."""
    if target is None or target >= w.n:
        return False
    h = w.cfg.containing(target).handler
    return h is not None and h in natural


def past_chain_cleanup(w, inside, out, natural):
    """The block where the edge from block ``inside`` to ``out`` leaves
    the loop: a chained comparison's true path jumps over its cleanup
    (``POP_TOP``) to the code it runs, which is the way out (``if a < b
    < c: break``: the break drops the iterator there; ``assert a < b <
    c``: the raise); else ``out`` itself."""
    over = jump_over_cleanup(w, out.start, BlockIds(inside))
    if over is None:
        return out
    nxt = w.cfg.at(over[0])
    return out if nxt is None or nxt.start in natural else nxt


def past_kept_operand_drop(w, block):
    """Where a chained comparison's false path goes on when ``block`` is
    its cleanup, which drops the operand the links kept (``POP_TOP``, then
    a jump or a fall): the block there; else ``block``. That jump leaves
    the loop's natural blocks for code that does not loop again (an else
    clause that ends in ``break`` or its copied ``return``): it is no
    ``break`` of its own, whose ``POP_TOP`` drops the iterator."""
    ops = [w.instrs[k].op for k in range(block.start, block.end)]
    if ops not in (["POP_TOP"], ["POP_TOP", "JUMP"]) or not block.preds or not all(
            keeps_operand_into(w, p, block) for p in block.preds):
        return block
    nxt = w.cfg.at(w.instrs[block.end - 1].target if ops[-1] == "JUMP" else block.end)
    return nxt if nxt is not None else block


def keeps_operand_into(w, pred, block):
    """Whether ``pred`` ends in a chained comparison's link that keeps its
    right operand below the test and jumps to ``block`` when false."""
    last = w.instrs[pred.end - 1]
    c = pred.end - 2
    return (last.op in CONDITIONAL_JUMPS and last.target == block.start and c >= 2
            and w.instrs[c].op == "COMPARE_OP"
            and [(x.op, x.arg) for x in w.instrs[c - 2:c]] in KEEP_OPERAND)


def through_outer_breaks(w, inside, out, target, natural):
    """Where the edge from block ``inside`` to ``out`` (which jumps to
    ``target``) leaves the loop of ``natural``: an inner for loop's
    ``break`` (``POP_TOP; JUMP``) may go to this loop's own ``break``
    (``for ...: for ...: break / else: continue / break``), which drops
    this loop's iterator and jumps on."""
    if after_dropping_iterator(w, out) is None:
        return target
    left = sum(1 for h in natural if w.instrs[h].op == "FOR_ITER"
               and inside.start in natural_loop(w, w.cfg.at(h))) - 1
    seen = set()
    while left > 0 and target not in seen and target < w.n:
        nxt = after_dropping_iterator(w, w.cfg.at(target))
        if nxt is None:
            break
        seen.add(target)
        target, left = nxt, left - 1
    return target


def async_break_falls_to(w, block, natural, normal_exit):
    """Where the ``break`` of an async for at ``block`` goes, or None:
    3.11+ drops the iterator (a lone ``POP_TOP``) and falls into the
    code after the loop, which the loop's normal exit (``END_ASYNC_FOR``,
    then the else clause) reaches too without passing the loop's header
    (a jump back to the header would reach all the loop's code)."""
    header = min(natural)
    if (normal_exit is None or block.end - block.start != 1
            or async_for_header(w, w.cfg.at(header)) is None):
        return None
    fall = after_dropping_iterator(w, block)
    if fall is None:
        return None
    if async_for_exits_to(w, normal_exit, fall) or async_else_goes_to(w, normal_exit, fall, natural):
        return fall
    return None


def async_else_goes_to(w, normal_exit, target, natural):
    """Whether the normal exit of the (async) for loop of ``natural``
    (``END_ASYNC_FOR``, then the else clause) reaches ``target`` without
    passing the loop's header: the code after the loop, where a
    ``break`` goes."""
    header = min(natural)
    seen, work = set(), [w.cfg.containing(normal_exit)]
    while work and len(seen) < 64:
        b = work.pop()
        if b.start == target:
            return True
        if b.start in seen or b.start == header or b.start in natural:
            continue
        seen.add(b.start)
        work.extend(b.succs)
    return False


def after_dropping_iterator(w, block):
    """Where ``block`` goes when it only drops a value (a for loop's
    ``break``: ``POP_TOP`` then a jump, or a fall into the next code);
    else None."""
    if block is None or w.instrs[block.start].op != "POP_TOP":
        return None
    if block.end - block.start == 2 and w.instrs[block.start + 1].op == "JUMP":
        return w.instrs[block.start + 1].target
    if block.end - block.start == 1 and block.end < w.n:
        return block.end
    return None


def jump_keeps_iterator(w, block, natural):
    """Whether the jump that ends the straight-line code from ``block``
    (see :func:`jump_at_end`) leaves a for loop's iterator on the stack:
    then a ``return`` it goes to is no break (see versions.BREAK_POPS_ITERATOR)."""
    header = min(natural)
    if w.instrs[header].op != "FOR_ITER":
        return False
    k = block.start
    while k < w.n and w.instrs[k].op != "JUMP":
        k += 1
    # (3.12+ has such jumps too: ``if a and 1 or b: return x`` jumps from
    # ``a and 1``'s constant test to a return that drops the iterator itself)
    if k >= w.n:
        return False
    kept = stack_kept_below(without_with_exit_calls(w, block.start, k),
                                 1 if block.start == header + 1 else 0)
    if kept is not None:
        return kept
    return w.instrs[k - 1].op != "POP_TOP"


def without_with_exit_calls(w, start, end):
    """The instructions from ``start`` to ``end`` without the ``POP_BLOCK``s
    and ``__exit__(None, None, None)`` calls that close with statements:
    an exit call consumes the with's ``__exit__``, which lies above a for
    loop's iterator when the with is inside the loop (one outside it could
    not be called with the iterator still above it)."""
    out, k = [], start
    while k < end:
        after, swap = legacy_exit_call(w, k)
        if after is None or swap:
            after = after_exit_call(w, k)
        if w.instrs[k].op == "POP_BLOCK":
            k += 1
        elif after is not None and after <= end:
            k = after
        else:
            out.append(w.instrs[k])
            k += 1
    return out


def stack_kept_below(instrs, depth):
    """Whether straight code ``instrs``, run on ``depth`` values of its own,
    never consumes what lies below them (a for loop's iterator: a POP_TOP
    that drops a call's result keeps it); None when a step is no plain
    expression step, a store or a drop."""
    depth = plain_steps_depth(instrs, depth, steps=store_or_step)
    return None if depth is None else depth is not BELOW


def drops_iterator_at(w, target):
    """Whether the code at ``target`` starts by dropping a value: where a
    ``break`` that jumps with the for loop's iterator still on the stack
    goes (3.11+ drops it right before the loop's exit). A jump that keeps
    the iterator to other code stays in the loop's body (a jump over an
    empty try's unreachable handler, in a body that never loops back)."""
    return target < w.n and w.instrs[target].op == "POP_TOP"


def breaks_behind_tests(w, start, natural, normal_exit, limit=16):
    """Where the code at ``start``, which leaves the natural loop, jumps
    out of the loop after tests of its own (``if a: (if b: x); break``):
    the targets of the jumps that end the loop's code there (code after
    the loop, reached from ``normal_exit``, is not the loop's)."""
    header = w.cfg.at(min(natural))
    in_loop = dominated_by(w, header)
    # (``while True``: no normal exit, only jumps to outside the loop's
    # code, an enclosing loop's header say, tell where break goes)
    after = blocks_reachable_from(w, normal_exit) if normal_exit is not None else set()
    work, seen, out = [start], set(), []
    while work and len(seen) < limit:
        b = work.pop()
        if b.start in seen or b.start in natural or b.start in after or not in_loop(b.start):
            continue
        seen.add(b.start)
        last = w.instrs[b.end - 1]
        if last.op == "JUMP":
            t = last.target
            if t not in natural and (t in after or not in_loop(t)):
                out.append(t)
        elif last.op not in ("RETURN_VALUE", "RAISE_VARARGS", "RERAISE"):
            work.extend(b.succs)
    return out if not work else []


def breaks_from_handlers(w, natural, normal_exit):
    """Where the except clauses of a try inside the loop jump out of it
    (a ``break`` in a clause): the jumps that end handler code the loop
    reaches, which neither loops back nor is after the loop."""
    header = w.cfg.at(min(natural))
    in_loop = dominated_by(w, header)
    # (the code after the loop, found only when a handler asks: it is all
    # the rest of the function, too much to walk for every loop)
    after = None
    work = [w.cfg.at(s).handler for s in natural]
    seen, jumps, suppressed = set(), [], set()
    while work:
        i = work.pop()
        if i is None or i >= w.n or i in seen or i in natural or not in_loop(i):
            continue
        if after is None:
            after = blocks_reachable_from(w, normal_exit) if normal_exit is not None else set()
        if i in after:
            continue
        seen.add(i)
        if is_with_handler(w, i):
            suppressed.add(after_suppressed(w, i))
        b = w.cfg.at(i)
        last = w.instrs[b.end - 1]
        if last.op == "JUMP" and not jump_inside_handler(w, b, last.target, in_loop):
            jumps.append(last.target)  # where the clause goes: not explored
        else:
            work.extend(x.start for x in b.succs)
        if b.handler is not None:
            work.append(b.handler)
    # a target that leads back to the header is still inside the loop;
    # a finally body's jump to its own re-raise is no break
    # (nor is a with statement's jump, when ``__exit__`` swallows an
    # exception, to the code after it: a ``return`` there that drops the
    # iterator is in the loop's body)
    return [t for t in jumps if t not in natural and t not in seen and t not in suppressed
            and w.instrs[t].op != "RERAISE"
            and header.start not in blocks_reachable_from(w, t)]


def jump_inside_handler(w, b: Block, target, in_loop) -> bool:
    """Whether the jump ending ``b`` stays in the handler code it is in,
    still holding the exception (3.11+: under the same cleanup handler, one
    of the loop's own): a chained comparison's or an inlined comprehension's
    jump over its cleanup in a finally body, no ``break`` (that drops the
    exception first, POP_EXCEPT, outside the cleanup's range). Nor is a jump
    that carries values its block pushed (a conditional expression's in a
    finally body, <=3.9: ``f(x if 1 else y)``; see :func:`jump_at_end`), nor
    a chained comparison's jump over its cleanup there (<=3.10, no handler
    covers it: ``if 0 != c == 4: return 0``)."""
    if values_pushed(w, b, 0) or lone_jump_over_chain_cleanup(w, b):
        return True
    h = b.handler
    return (h is not None and target < w.n and in_loop(h)
            and w.cfg.containing(target).handler == h)


def lone_jump_over_chain_cleanup(w, b: Block) -> bool:
    """Whether ``b`` is only a jump, reached by tests alone, over the
    ``POP_TOP`` right after it: a chained comparison's true path jumping
    over the cleanup of its false path (see :func:`jump_over_cleanup`)."""
    k = b.start
    return (b.end - k == 1 and w.instrs[k].op == "JUMP" and k + 1 < w.n
            and w.instrs[k + 1].op == "POP_TOP" and w.instrs[k].target > k + 1
            and bool(b.preds) and all(w.cfg.is_conditional(p) for p in b.preds))


def blocks_reachable_from(w, *starts):
    """Block starts reachable from ``starts`` (by jumps, falls and
    exception edges)."""
    seen = set()
    work = [s for s in starts if s is not None and s < w.n]
    while work:
        i = work.pop()
        if i in seen:
            continue
        seen.add(i)
        b = w.cfg.at(i)
        work.extend(x.start for x in b.succs)
        if b.handler is not None and b.handler < w.n:
            work.append(b.handler)
    return seen


def jump_at_end(w, block, natural, normal_exit=None, limit=8):
    """Follow straight-line blocks from ``block``; the target of the
    unconditional jump that ends them, or ``normal_exit`` when they fall
    into it (a ``break`` that ends the body of a loop that never loops
    back: its drop of the iterator runs into the loop's exit, 3.8-3.10,
    and the code there is after the loop, not the break's). A jump that carries
    values its code pushed is inside an expression (``assert 0, x if 1
    else y``: the conditional expression's jump to the raise), not the
    end: the code goes on at its target."""
    carried = 0  # values pushed since ``block`` (None: not plain expression steps)
    first = block
    for _ in range(limit):
        last = w.instrs[block.end - 1]
        carried = values_pushed(w, block, carried)
        if last.op == "JUMP":
            nxt = w.cfg.at(last.target)
            if not carried or nxt is None or nxt.start in natural:
                return last.target
            block = nxt
            continue
        if (last.op == "SEND" and w.instrs[last.index - 2].op == "GET_AWAITABLE"
                and w.cfg.at(last.target) is not None):
            # an await (3.11+; not an async for's next item): its
            # delegation loop ends at the target
            block = w.cfg.at(last.target)
            carried = None
            continue
        if last.op in ("RETURN_VALUE", "RAISE_VARARGS", "RERAISE") or last.target is not None:
            return None
        if block.end >= w.n:
            return None
        nxt = w.cfg.at(block.end)
        if nxt.start in natural:
            return None
        if nxt.start == normal_exit and drops_iterator_before(w, first, nxt.start, natural):
            return normal_exit
        block = nxt
    return None


def drops_iterator_before(w, block, end, natural):
    """Whether the straight code from ``block`` to ``end`` drops the
    iterator of the for loop of ``natural`` (a ``break``; a chained
    comparison's cleanup that falls into the loop's exit drops its kept
    operand, not the iterator)."""
    header = min(natural)
    if w.instrs[header].op != "FOR_ITER":
        return False
    return stack_kept_below(without_with_exit_calls(w, block.start, end),
                                 1 if block.start == header + 1 else 0) is False


def values_pushed(w, block, before):
    """How many values the plain expression steps of ``block`` leave
    pushed above the stack it starts with, ``before`` values having
    been pushed already; None when ``before`` is, or when the block
    holds anything else or consumes a value from below."""
    if before is None:
        return None
    depth = before
    for k in range(block.start, block.end):
        ins = w.instrs[k]
        if ins.op == "JUMP" and k == block.end - 1:
            break
        pp = pops_pushes(ins)
        if pp is None or ins.target is not None or pp[0] > depth:
            return None
        depth += pp[1] - pp[0]
    return depth


def loop_region(w, header: Block, exits, natural=frozenset()):
    """The blocks inside the loop: dominated by its header and not
    reachable from where it exits. The blocks of the natural loop
    (``natural``) are inside without a search: an exit that reached one
    without passing the header would be in the natural loop itself. The
    search from the exits, which covers the rest of the function, runs
    only when the walk asks about a block outside the natural loop."""
    dom = dominated_by(w, header)
    exits = {e for e in exits if e is not None and e < w.n}
    after = []

    def inside(i):
        if i == header.start or not dom(i):
            return False
        if i in natural:
            return True
        if i in exits:
            return False
        if not after:
            after.append(reachable_inside(w, header, dom, exits))
        return i not in after[0]
    return inside


def reachable_inside(w, header, dom, starts):
    """Block starts reachable from ``starts`` through blocks that ``dom``
    holds, without passing ``header``."""
    seen = set()
    work = list(starts)
    while work:
        i = work.pop()
        if i in seen or i == header.start or not dom(i):
            continue
        seen.add(i)
        b = w.cfg.at(i)
        work.extend(x.start for x in b.succs)
        if b.handler is not None:
            work.append(b.handler)
    return seen


def falls_out_of_test(w, c: Cond, inside_true):
    """Whether the loop header's condition falls through into the way
    out of the loop (see WHILE_BODY_FALLS_FROM_TEST)."""
    if not WHILE_BODY_FALLS_FROM_TEST:
        return False
    fall = c.blocks.end
    return (c.false if inside_true else c.true) == fall


def leaves_loop_as_expected(w, target, conts, exit_, brk):
    """Whether a while loop's body that ends by going to ``target``
    goes on looping or leaves the loop the way it is built (anything
    else would be dropped)."""
    t, _ = thread(w, target)
    if target in conts or t in conts:
        return True
    if w._reachable is None:
        w._reachable = blocks_reachable_from(w, 0)
    if target < w.n and w.cfg.containing(target).start not in w._reachable:
        return True  # unreachable code the compiler left (where a body would have gone on)
    return any(x is not None and same_place(w, target, x) for x in (exit_, brk))


def past_iterator_drops(w, index, frame):
    """Past the ``POP_TOP``s at ``index`` that drop loop iterators on top
    of ``frame``'s stack: a ``return`` copied into the ways out of a with
    statement inside a for loop (3.8-3.10) first drops the iterator."""
    k = len(frame.stack)
    while (index < w.n and w.instrs[index].op == "POP_TOP" and k > 0
           and isinstance(frame.stack[k - 1], V.Iterator)):
        index += 1
        k -= 1
    return index


def past_cleanup_jump(w, start, c: Cond):
    """The block at ``start``, where test ``c`` goes into a loop's body; past it when it is
    only a chained comparison's jump over its cleanup."""
    h = w.cfg.at(start)
    if (h is not None and h.end - h.start == 1 and w.instrs[h.start].op == "JUMP"
            and not is_loop_header(w, h) and jump_over_cleanup(w, h.start, c.blocks)):
        h = w.cfg.at(w.instrs[h.start].target)
    return h


def latch_chain_starts(w, latch: Block, body_starts, limit=64):
    """The blocks where the condition ending in ``latch`` may start,
    earliest first: ``latch`` and the test blocks laid out just before it
    that compute only their test (the links of an and/or chain)."""
    chain = [latch]
    b = latch
    operands_start = None
    back_to = w.instrs[latch.end - 1].target
    while len(chain) < limit and b.start > 0:
        r = value_operand_start(w, b, body_starts)
        if r is None and test_depth(w, b, 0) is None:
            r = ifexp_operand_test(w, b, body_starts)
        if r is not None:
            # (the link's operand holds an and/or: see short_circuit_operand; the
            # operands computed before it are blocks of their own, condition_starts)
            b = operands_start = pushed_operands_before(w, r, body_starts)
            continue
        p = w.cfg.containing(b.start - 1)
        target = w.instrs[p.end - 1].target if w.cfg.is_conditional(p) else None
        if target is not None and target < p.start and target != back_to:
            break  # another loop's bottom test (nested loops): links jump forward or back with the latch
        q = before_chain_cleanup(w, p)
        first = operand_link = None
        while (q is not p and q.start in body_starts and q.start > 0 and len(chain) < limit
               and w.cfg.is_conditional(q) and chain_link_start(w.instrs, q.end - 1) != q.start):
            # a chained comparison's later links (no start of the test
            # there), back to its first
            first = chain_link_start(w.instrs, q.end - 1)
            if first is not None:
                break  # the first link, whose operands span blocks (``v <= (c or a) != d``)
            if value_operand_start(w, q, body_starts) is not None:
                # a later link whose operand holds an and/or (``b <= 2 > (x or c)``):
                # its operand's blocks, then the links before, as from the latch
                operand_link = q
                break
            q, limit = w.cfg.containing(q.start - 1), limit - 1
        if first is not None and w.cfg.containing(first).start in body_starts:
            b = operands_start = w.cfg.containing(first)
            continue
        if operand_link is not None:
            b = operand_link
            continue
        if q is not p:
            p = q
        elif p.start in body_starts and chain_cleanup_or_jump(w, p):
            b = p  # (a chained comparison's link in the chain: its cleanup, the jump over it)
            continue
        if p.start not in body_starts or not w.cfg.is_conditional(p):
            break
        if test_depth(w, p, 0) is None and value_operand_start(w, p, body_starts) is not None:
            b = p  # (a link whose operand holds an and/or: ``v <= (c or a) or d``)
            continue
        if (test_depth(w, p, 0) != 1 and chain_link_start(w.instrs, p.end - 1) != p.start
                and test_depth(w, p, 1) not in (1, 2)):
            break  # (nor the first link of a chained comparison, nor a later one)
        chain.append(p)
        b = operands_start = p
    if operands_start is not None and operands_start is not chain[-1]:
        chain.append(operands_start)  # the test starts with those operands (``b <= (c or e)``)
    return reversed(chain)


def pushed_operands_before(w, b: Block, body_starts, limit=8):
    """The first of the blocks laid out just before ``b`` (among
    ``body_starts``) that only push operands and fall into the next:
    ``5 == (x or 1)`` computes ``5`` in a block of its own."""
    while limit and b.start > 0:
        q = w.cfg.containing(b.start - 1)
        depth = plain_steps_depth(w.instrs[q.start:q.end], 0)
        if q.start not in body_starts or depth is None or depth is BELOW or depth < 1:
            break
        b, limit = q, limit - 1
    return b


def test_depth(w, b: Block, depth):
    """The stack depth before the conditional jump ending ``b`` when its
    code starts with ``depth`` values (1: a chained comparison's kept
    operand, which a later link consumes), or None when it takes more."""
    for k in range(b.start, b.end - 1):
        ins = w.instrs[k]
        if ins.op in ("SWAP", "COPY", "ROT") and isinstance(ins.arg, int):
            if ins.arg > depth:  # (how a link keeps its right operand)
                return None
            depth += ins.op == "COPY"
            continue
        # (a walrus in the test, ``COPY 1; STORE_X``, stores the copy it made;
        # a ``(yield x)`` operand gets the value sent in for the one it yields)
        pp = (1, 0) if is_walrus_store(w.instrs, k) else (
            (1, 1) if ins.op == "YIELD_VALUE" else operand_pops_pushes(ins))
        if pp is None or pp[0] > depth:
            return None
        depth += pp[1] - pp[0]
    return depth


def chain_cleanup_or_jump(w, b: Block) -> bool:
    """Whether ``b`` only drops a chained comparison's kept operand
    (``POP_TOP``, maybe then a jump) or only jumps (over that cleanup)."""
    ops = [x.op for x in w.instrs[b.start:b.end]]
    return ops in (["POP_TOP"], ["POP_TOP", "JUMP"], ["JUMP"])


def value_operand_start(w, b: Block, body_starts, limit=16):
    """The first block of an and/or laid out just before ``b`` whose
    value ``b`` goes on with (every jump of it meets at ``b``), among
    ``body_starts``; or None."""
    found, cur = None, b
    while limit and cur.start > 0:
        q = w.cfg.containing(cur.start - 1)
        if q.start not in body_starts:
            break
        last = w.instrs[q.end - 1]
        if last.op in ("JUMP_IF_FALSE_OR_POP", "JUMP_IF_TRUE_OR_POP"):
            if follow_jumps(w, last.target) != b.start:
                break
            found = q
        elif ends_in_test(w, q):
            break
        cur, limit = q, limit - 1
    return found


def ifexp_operand_test(w, b: Block, body_starts, limit=16):
    """The block ending in the test of a conditional expression laid out
    just before ``b`` (among ``body_starts``) whose value ``b`` goes on
    with (``while n and (x if c else y) in s``: one arm jumps to ``b``,
    the other falls into it); or None."""
    joined, cur = False, b
    while limit and cur.start > 0:
        q = w.cfg.containing(cur.start - 1)
        if q.start not in body_starts:
            return None
        last = w.instrs[q.end - 1]
        if last.op == "JUMP" and last.target == b.start:
            joined = True
        elif last.op in CONDITIONAL_JUMPS and last.target is not None:
            return q if joined and q.end < last.target < b.start else None
        elif last.target is not None or last.op in TERMINATORS:
            return None
        cur, limit = q, limit - 1
    return None


def before_chain_cleanup(w, block: Block) -> Block:
    """When ``block`` is a chained comparison's cleanup (``POP_TOP``
    and the way out) laid out after the lone jump of the chain's true
    path over it (``while a < b < c and d``'s bottom test): the block
    before that jump, the chain's last link; else ``block``."""
    if block.start < 2 or w.instrs[block.start].op != "POP_TOP":
        return block
    over = w.cfg.containing(block.start - 1)
    if (over.end - over.start != 1 or w.instrs[over.start].op != "JUMP"
            or w.instrs[over.start].target < block.end or over.start == 0):
        return block
    return w.cfg.containing(over.start - 1)


def latch_start(w, latch: Block, body_starts):
    """First block of the condition chain that ends in ``latch``."""
    b = latch
    while True:
        preds = [p for p in b.preds if p.start in body_starts]
        if len(preds) == 1 and w.cfg.is_conditional(preds[0]) and preds[0].end == b.start:
            p = preds[0]
            # p is part of the chain only if its own statements are pure
            probe = E.Frame(w.ctx)
            try:
                for k in range(p.start, p.end - 1):
                    E.execute(probe, w.instrs[k])
            except DecompilationError:
                break
            if probe.stmts or len(probe.stack) != 1:
                break
            pt = w.instrs[p.end - 1].target
            lt = w.instrs[latch.end - 1]
            if not (same_place(w, pt, lt.target) or same_place(w, pt, latch.end)):
                break
            b = p
        else:
            break
    return b.start
