"""Loops: ``for``, ``async for`` and ``while``, with their ``else`` and their
``break``/``continue``. :func:`loop_at` is called by the walk at a loop header (a block that
dominates a back edge, see loop_facts.natural_loop); the body is walked in the region of the
natural loop with a :class:`.regions.Loop` that says where ``continue`` and ``break`` go. A
``while`` is recognised by its test at the top or, copied at the bottom (3.10+), by its latch
(:func:`find_latch`, :func:`inverted_while`).
"""
import ast
from typing import Optional

from .. import expressions as E
from .. import values as V
from ..cfg import Block
from ..errors import DecompilationError
from ..versions import WHILE_TEST_COPIED_AT_BOTTOM
from .regions import END, Exit, Loop, negate
from .condition_parts import Cond, guard_before_test, negate_test, same_test
from .statement_parts import continue_to, continues_as_else, live, save_lists, strip_trailing_continue
from .state import dominated_by, fail
from .jumps import (async_for_header, blocks_from, ends_in_test, exit_copy, is_loop_header, same_after_copies,
                    same_place, thread)
from .async_facts import async_state, async_for_exits_to
from .with_facts import same_code
from .loop_facts import (async_else_goes_to, break_target, falls_out_of_test, inner_loop_sources,
                         latch_chain_starts, leaves_loop_as_expected, loop_region, natural_loop,
                         past_cleanup_jump, past_iterator_drops)
from .branch_facts import make_if
from .match_facts import past_any_finally_copy
from .conditions import condition, short_circuit_operand


def loop_at(w, header: Block, frame, outer: Optional[Loop]):
    natural = natural_loop(w, header)
    first = w.instrs[header.start]
    w.active_loops.add(header.start)
    try:
        if first.op == "FOR_ITER":
            return for_loop(w, header, frame, natural, outer)
        if async_for_header(w, header) is not None:  # asyncs.py
            return async_for_loop(w, header, frame, natural, outer)
        if w.cfg.is_conditional(header) and all(
                w.instrs[k].op not in w.special for k in range(header.start, header.end - 1)):
            probe = frame.copy()
            probe.stmts = []
            try:
                for k in range(header.start, header.end - 1):
                    E.execute(probe, w.instrs[k])
                c = condition(w, header, probe)
            except DecompilationError:
                c = None
            if live(probe.stmts):
                c = None  # statements before the test (a walrus in it is not one)
            if c is not None and not isinstance(c.true, tuple) and not isinstance(c.false, tuple):
                natural = with_body_loop(w, c, natural, probe)
                inside_t = c.true in natural
                inside_f = c.false in natural
                if inside_t != inside_f and not falls_out_of_test(w, c, inside_t):
                    test = c.expr if inside_t else negate(c.expr)
                    start = c.true if inside_t else c.false
                    exit_ = c.false if inside_t else c.true
                    # 3.10+: a ``continue`` jumps back to this top test,
                    # while the body also loops through a bottom test
                    body = past_cleanup_jump(w, start, c)
                    found = find_latch(w, body, exit_, probe, test) if body is not None else None
                    if found is not None and not same_test(test, found[1]):
                        found = None  # the bottom test is another one: not a copy of this
                    if found is not None and body.start not in w.active_loops:
                        w.active_loops.add(body.start)
                        try:
                            return while_loop(w, found[1], start, exit_, frame,
                                                   natural | natural_loop(w, body), header,
                                                   found[0], skip=c.blocks, outer=outer)
                        finally:
                            w.active_loops.discard(body.start)
                    return while_loop(w, test, start, exit_, frame, natural, header, None,
                                           skip=c.blocks, outer=outer)
        return while_loop(w, None, header.start, None, frame, natural, header, None, outer=outer)
    finally:
        w.active_loops.discard(header.start)


def with_body_loop(w, c: Cond, natural, probe):
    """The natural loop of a top test ``c`` whose only back edges come
    from except clauses (a ``continue`` in one): the CFG has no edge from
    a try body to its handler, so the body, a loop closed by a copy of
    ``c`` at its bottom (3.10+), is not in it. That loop's blocks join
    ``natural``; else ``natural`` as it is."""
    if c.true in natural or c.false in natural:
        return natural
    for start, exit_ in ((c.true, c.false), (c.false, c.true)):
        body = w.cfg.at(start)
        if body is None or not is_loop_header(w, body) or body.start in w.active_loops:
            continue
        test = c.expr if start == c.true else negate(c.expr)
        found = find_latch(w, body, exit_, probe, test)
        if found is not None and same_test(test, found[1]):
            return natural | natural_loop(w, body)
    return natural


def for_loop(w, header, frame, natural, outer):
    it = frame.pop()
    if not isinstance(it, V.Iterator):
        fail(w, "for loop over a non-iterator", header.start)
    exit_ = w.instrs[header.start].target
    node = ast.AsyncFor if it.is_async else ast.For
    return iteration(w, node, header, frame, it, header.end, exit_, natural, outer)


def iteration(w, node_type, header, frame, it, body_start, exit_, natural, outer):
    """Structure a for (or async for) loop over ``it`` whose body starts
    at ``body_start`` and whose iterator runs out at ``exit_``; emit it
    and return where control continues."""
    brk = break_target(w, natural, exit_)
    if w.ctx.dynamo:  # (a comprehension's own list is the one its loop appends to)
        save_lists(frame)
    body = frame.copy()
    body.stmts = []
    body.loop = header.start
    body.push(it)
    target_box = []
    group = V.TargetGroup(1, lambda node: target_box.append(node))
    body.push(V.UnpackSlot(group, 0))
    loop = Loop(frozenset({header.start}), brk if brk is not None else exit_, header.start)
    region = loop_region(w, header, {exit_, brk}, natural)
    ex = w.walk(body_start, body, region, loop)
    if (ex.kind == "leave" and brk is None and exit_ is not None
            and not any(x is it for x in body.stack) and not async_for_exits_to(w, exit_, ex.target)
            and async_else_goes_to(w, exit_, ex.target, natural)):
        # (a body that never loops back drops the iterator and goes to the code
        # after the loop, which the else clause reaches too: there break goes;
        # 3.11+ async for falls there, a for loop's ``break`` jumps)
        brk = ex.target
    if ex.kind == "leave" and not any(x is it for x in body.stack) and (same_place(w, 
            ex.target, loop.break_target) or ex.target == brk or async_for_exits_to(w, exit_, ex.target)):
        # the body's last statement is ``break``: it drops the iterator and
        # falls into the code after the loop (3.11 puts its POP_TOP right
        # before the loop's exit)
        body.emit(ast.Break())
    elif ex.kind == "leave" and not leaves_loop_as_expected(w, 
            ex.target, loop.continue_targets, None, None):
        body_leaves_loop(w, ex.target, body, loop)
    if not target_box:
        fail(w, "for loop target not found", body_start)
    target = target_box[0].elts[0]
    stmts = strip_trailing_continue(continues_as_else(body.stmts))
    orelse, follow = loop_else(w, exit_, brk, frame, outer)
    frame.emit(node_type(target=target, iter=it.expr, body=stmts or [ast.Pass()], orelse=orelse,
                         type_comment=None))
    return follow


def loop_else(w, exit_, brk, frame, outer):
    """A loop's else clause runs from the normal exit up to where
    ``break`` goes; without breaks there is no telling it apart from the
    code after the loop, and none is made."""
    if brk is None or exit_ is None or brk == exit_:
        return [], exit_ if exit_ is not None else brk
    if w.instrs[exit_].op == "END_ASYNC_FOR" and (
            brk == exit_ + 1 or thread(w, exit_ + 1) == (brk, False)):
        # an async for's way out only drops the iterator and goes where
        # ``break`` goes (<=3.9 threads the break's jump): no else clause
        return [], exit_ + 1
    else_frame = frame.copy()
    else_frame.stmts = []
    start = w.cfg.at(exit_)
    dom = dominated_by(w, start) if start is not None else (lambda i: False)
    # (not where the enclosing loop's ``break`` goes, which only that way
    # out may reach: the clause is in the enclosing loop's body)
    out = outer.break_target if outer is not None else None
    ex = w.walk(exit_, else_frame, lambda i: i != brk and i != out and dom(i), outer)
    if ex.kind == "leave" and ex.target != brk and not same_after_copies(w, ex.target, brk) and not (
            same_code(w, past_any_finally_copy(w, ex.target), past_any_finally_copy(w, brk))):
        # (where break goes may be an enclosing finally body's inlined copy,
        # which the else clause's walk steps over; <=3.10 copies the small
        # exit after it, ``return x``, to each copy)
        fail(w, "loop else clause ends in an unexpected place", exit_)
    return else_frame.stmts, brk


def while_loop(w, test, start, exit_, frame, natural, header, latch, skip=(), outer=None):
    brk = break_target(w, natural, exit_)
    body = frame.copy()
    body.stmts = []
    body.loop = header.start
    conts = {header.start}
    if latch is not None:
        conts.add(latch)
    loop = Loop(frozenset(conts), brk if brk is not None else exit_, header.start,
                header.start if test is not None and WHILE_TEST_COPIED_AT_BOTTOM else None)
    inside = loop_region(w, header, {exit_, brk}, natural)
    if test is None:
        region = lambda i: inside(i) or i == header.start
        ex = w.walk(start, body, lambda i: inside(i), loop, skip_header=header.start)
    else:
        skip_starts = {w.cfg.blocks[k].start for k in skip}
        region = lambda i: inside(i) and i != latch and i not in skip_starts
        w.active_latches.add(latch)
        # (only where the body starts at the header: a loop whose top test is
        # its header has its ``continue`` jump back there)
        inner = (inner_loop_sources(w, header, latch) if WHILE_TEST_COPIED_AT_BOTTOM
                 and latch is not None and start == header.start else [])
        if inner:
            w._inner_loop_at[header.start] = inner
            w.active_loops.discard(header.start)
        try:
            # an empty body: the loop's top is its bottom test (``while c: pass``)
            if start == header.start and latch is None:
                # the top test jumps back to itself: the body only goes on looping
                body.emit(continue_to(start, loop))
                ex = END
            else:
                ex = Exit("leave", start) if start == latch else w.walk(start, body, region, loop)
        finally:
            w.active_latches.discard(latch)
            if inner:
                w._inner_loop_at.pop(header.start, None)
                w.active_loops.add(header.start)
    if (ex.kind == "leave" and ex.target not in conts and loop.break_target is not None
            and same_place(w, ex.target, loop.break_target)):
        # the body's last statement leaves the loop: a ``break`` (3.11
        # reaches the code after the loop through a copy of it)
        body.emit(ast.Break())
    elif ex.kind == "leave" and ex.target not in conts and exit_ is None and brk is None \
            and ex.target not in natural:
        # ``while True:`` whose only way out is where the body goes on
        # (a test merged into a condition with its copied ``return``)
        body.emit(ast.Break())
        brk = ex.target
    elif ex.kind == "leave" and not leaves_loop_as_expected(w, ex.target, conts, exit_, brk):
        body_leaves_loop(w, ex.target, body, loop)
    stmts = strip_trailing_continue(continues_as_else(body.stmts))
    # (the else clause may break out of, or continue, the enclosing loop)
    orelse, follow = loop_else(w, exit_, brk, frame, outer)
    frame.emit(ast.While(test=test if test is not None else E.const(True),
                         body=stmts or [ast.Pass()], orelse=orelse))
    if follow is None:
        return None
    return follow


def body_leaves_loop(w, target, body, loop):
    """A loop body's walk that left the loop for ``target``, neither a
    continue nor a break: falling off the body's end would loop again.
    A copy of an exit (3.12+ copies ``return`` into each path that
    reaches it) ends the body there; anything else is refused."""
    if exit_copy(w, past_iterator_drops(w, target, body)) is None:
        fail(w, "loop body leaves the loop", min(target, w.n - 1))
    w.walk(target, body, lambda i: True, loop)


def inverted_while(w, c: Cond, frame, region, loop):
    """3.10+ writes ``while c: body`` as ``if c: do body while c`` (and
    ``while not c`` with both jumps the other way round)."""
    if isinstance(c.true, tuple) or isinstance(c.false, tuple):
        return None
    for body_start, exit_ in ((c.true, c.false), (c.false, c.true)):
        h = past_cleanup_jump(w, body_start, c)
        if h is None or h.start in w.active_loops or not is_loop_header(w, h):
            continue  # (find_latch's answer; an if's test is not negated for nothing: the
            # negation recurses as deep as an and/or chain, 10,000 terms in bench/scale.py)
        entry = c.expr if body_start == c.true else negate_test(c.expr)
        found = find_latch(w, h, exit_, frame, entry)
        if found is None:
            continue
        lstart, test = found
        guard = None
        if not same_test(entry, test):
            guard = guard_before_test(entry, test)
            if guard is None:
                continue  # the bottom test is not a copy of the entry's
        w.active_loops.add(h.start)
        try:
            if guard is None:
                return while_loop(w, test, h.start, exit_, frame, natural_loop(w, h), h, lstart, outer=loop)
            # ``if g: while c: body``: the compiler merged g with the
            # loop's entry test (both jump past the loop)
            inner = frame.copy()
            inner.stmts = []
            follow = while_loop(w, test, h.start, exit_, inner, natural_loop(w, h), h, lstart, outer=loop)
            frame.emit(make_if(w, guard, inner.stmts, []))
            return follow
        finally:
            w.active_loops.discard(h.start)
    return None


def find_latch(w, h, exit_, frame, like=None):
    """When ``h`` heads a loop closed by a test that goes back to ``h``
    or out to ``exit_`` (the bottom test of an inverted ``while``): the
    start of that test and the condition that keeps the loop going.
    With ``like`` (the loop's top test), the start whose condition is
    that test is preferred to an earlier one: a test before the bottom
    test whose two ways both go to it (``assert b or -1`` compiles to
    ``b``'s jump over nothing) also reads as a link of the chain,
    ``(b or True) and c``."""
    if not is_loop_header(w, h):
        return None
    # the bottom test is laid out last (an ``if ...: continue`` may jump
    # back too; so do the earlier links of an and/or chain)
    latches = [lb for lb in w.cfg.back_edge_sources(h) if w.cfg.is_conditional(lb)]
    if not latches:
        return None
    latch = max(latches, key=lambda b: b.start)
    # the latch condition may start in an earlier block of an and/or
    # chain: the earliest start whose condition is the whole test
    first = None
    for lb in latch_chain_starts(w, latch, natural_loop(w, h)):
        probe = frame.copy()
        probe.stmts = []
        try:
            lc = test_from(w, lb, probe)
        except DecompilationError:
            continue
        if lc is None or live(probe.stmts) or latch.id not in lc.blocks:
            continue  # statements before the test (a walrus in it is not one)
        found = None
        if lc.true == h.start and same_place(w, lc.false, exit_):
            found = lb.start, lc.expr
        elif lc.false == h.start and same_place(w, lc.true, exit_):
            found = lb.start, negate_test(lc.expr)  # ``while not c``: jumps back while c is false
        if found is not None and (like is None or same_test(like, found[1])):
            return found
        first = first or found
    return first


def test_from(w, b: Block, frame):
    """The condition computed from ``b`` on, run in ``frame``: ``b``'s
    own test, or the one its operands lead to when they hold an and/or as
    a value (``b <= (c or e)``: ``b`` only pushes, see
    :func:`short_circuit_operand`); None when neither."""
    if ends_in_test(w, b):
        for k in range(b.start, b.end - 1):
            E.execute(frame, w.instrs[k])
        return condition(w, b, frame)
    jump = short_circuit_operand(w, b, frame)
    if jump is None:
        return None
    test_block = w.cfg.containing(jump)
    c = condition(w, test_block, frame)
    c.blocks = blocks_from(w, b, test_block) | c.blocks
    return c


def async_for_loop(w, header, frame, natural, outer):
    found = async_for_header(w, header)
    if found is None:
        fail(w, "unrecognised async for loop", header.start)
    body_start, exit_ = found
    it = frame.pop()
    if not isinstance(it, V.Iterator) or not (
            it.is_async or isinstance(it.expr, ast.Name) and it.expr.id == ".0"):
        fail(w, "async for loop over a non-async iterator", header.start)
    async_state(w).add(exit_)
    return iteration(w, ast.AsyncFor, header, frame, it, body_start, exit_, natural, outer)
