"""Conditions: the test of a conditional jump, with the conditions before it
that share its targets merged into ``and``/``or`` (:func:`condition`, :func:`merge_next`), chained
comparisons (``a < b < c``) and the operands of a short-circuit expression that the compiler
wrote as their own blocks. A :class:`.condition_parts.Cond` is what comes out; branches.py and
loops.py build statements from it.
"""
import ast

from .. import expressions as E
from ..cfg import Block
from ..errors import DecompilationError
from .regions import bool_op, chain_into, chains_into, is_chain, negate
from .condition_parts import BlockIds, Cond, flips, keeps_operand, negate_test, union
from .statement_parts import TestStop, in_progress, statements_fit_test
from .state import dominated_by, fail, undone
from .jumps import (alias, blocks_from, chain_below, condition_from, conditional_value_join,
                    conditional_with_constant_arm, either_way, enters_inlined_comprehension, exit_copy,
                    expression_handler, is_jump_body, is_loop_header, jump_over_cleanup, lone_jump_within,
                    same_place, short_circuit_ahead, tests_kept_operand_for_none, through_trampoline)
from .with_facts import same_code


def condition(w, block: Block, frame) -> Cond:
    """The condition ending ``block`` (the block's statements already
    ran in ``frame``), merged with the condition blocks that follow it."""
    last = w.instrs[block.end - 1]
    if last.op not in ("POP_JUMP_IF_FALSE", "POP_JUMP_IF_TRUE", "POP_JUMP_IF_NONE",
                       "POP_JUMP_IF_NOT_NONE"):
        fail(w, "unexpected conditional jump", last.index)
    c = condition_from(w, block, frame)
    c.true = through_trampoline(w, c.true, c.frame, c.expr)
    c.false = through_trampoline(w, c.false, c.frame, c.expr)
    while merge_next(w, c):
        pass
    return c


def pure_condition(w, index, frame, chain_blocks, keeps=False):
    """The condition computed by the block at ``index`` with no other
    effect, or None. With ``keeps``, the operand on top of ``frame``'s
    stack was kept by a chained comparison: the condition is its next
    link, whose operand may span blocks of its own."""
    if isinstance(index, tuple):
        return None
    b = w.cfg.at(index)
    if (b is None or not (keeps or w.cfg.is_conditional(b) or short_circuit_ahead(w, b)
                          or enters_inlined_comprehension(w, b))
            or index in w.active_latches):
        return None  # (a loop's bottom test is not a link of an ``if`` in its body)
    if index in w.assert_tests:
        return None  # nor is an assert's test a link of the test of the if it is under
    if any(not chain_blocks.holds(p) for p in b.preds) or b.exc_preds:
        return None
    if any(h != b.handler and not expression_handler(w, h) for h in chain_blocks.handlers):
        return None  # a test inside a try does not join one outside it
    return reduced_condition(w, b, frame, keeps)


def reduced_condition(w, b: Block, frame, keeps=False):
    """The condition of block ``b`` run in a copy of ``frame``, merged with
    the conditions that follow it (:func:`pure_condition` without the
    test of how ``b`` is reached), or None.

    Remembered per block, values on the stack and facts the structuring
    has registered so far: the merge tries each link's successors on
    both sides, which repeats the work below a link exponentially in a
    chain of asserts, and every link of a chain starts the same search
    again. The first search reduces the deepest links first, so the
    recursion through :func:`merge_next` stays shallow in a long chain."""
    key = (b.id, tuple(map(id, frame.stack)), tuple(id(x) for p in frame.pending for x in p),
           frame.loop, len(w.finally_copies), len(w._lfollows), keeps)
    if key in w._reduced:
        return w._reduced[key][0]
    if not w._reducing and not keeps and b.id not in w._reduced_below:
        # (not for a chained comparison's next link: each link is reached
        # with its own kept operand, never with this frame's stack)
        w._reducing = True
        try:
            below = chain_below(w, b)
            # once per chain: links reached with other stacks (a chained
            # comparison's kept operand) do not match and are reduced as met
            w._reduced_below.update(d.id for d in below)
            w._reduced_below.add(b.id)
            for d in below:
                try:
                    reduced_condition(w, d, frame)
                except DecompilationError:
                    pass  # (a link only reached another way, with another stack)
        finally:
            w._reducing = False
        if key in w._reduced:
            return w._reduced[key][0]
    sub = _reduce_condition(w, b, frame, keeps)
    # (the values whose ids are in the key are kept alive with it, not only the frame: the
    # frame's stack changes later, and a freed value's id may be reused by another)
    w._reduced[key] = (sub, frame, tuple(frame.stack), tuple(frame.pending))
    return sub


def _reduce_condition(w, b: Block, frame, keeps=False):
    if is_loop_header(w, b):
        return None
    f = frame.copy()
    depth = len(f.stack)
    resume = chain_link_operand(w, b, f) if keeps else None
    jump = None
    if resume is None and not keeps:
        f = frame.copy()
        jump = short_circuit_operand(w, b, f)
    if jump is not None:
        test_block, resume = w.cfg.containing(jump), jump
    elif resume is not None:
        test_block = w.cfg.containing(resume - 1)
    else:
        f, test_block, resume = frame.copy(), b, b.start
    last = w.instrs[test_block.end - 1]
    if last.op not in ("POP_JUMP_IF_FALSE", "POP_JUMP_IF_TRUE", "POP_JUMP_IF_NONE",
                       "POP_JUMP_IF_NOT_NONE"):
        return None
    try:
        for k in range(resume, test_block.end - 1):
            ins = w.instrs[k]
            if ins.op in w.special:
                return None
            E.execute(f, ins)
    except DecompilationError:
        return None
    if not statements_fit_test(f.stmts, f.stack):
        return None
    top = f.stack[-1] if f.stack else None
    # the first link of a chained comparison keeps its last operand
    starts_chain = (len(f.stack) == depth + 2 and isinstance(top, ast.Compare)
                    and top.comparators[-1] is f.stack[-2])
    if len(f.stack) != depth + 1 and not starts_chain:
        # the next link of a chained comparison consumes the kept operand
        if not (len(f.stack) == depth and depth and isinstance(top, ast.Compare)
                and top.left is frame.stack[-1]) and not tests_kept_operand_for_none(w, 
                    last, f, frame, depth):
            return None
    sub = condition_from(w, test_block, f)
    if not statements_fit_test(f.stmts, f.stack):
        return None  # (a walrus is one when its value is used: the test's)
    if test_block is not b:
        sub.blocks = blocks_from(w, b, test_block)
    # reduce the candidate with its own private successors first, so
    # ``a or (b and c)`` merges inside out; not a chained comparison's
    # middle link (it keeps an operand in turn): the caller's merge joins
    # the next links one by one (recursion as deep as the chain is long)
    sub.true = through_trampoline(w, sub.true, sub.frame, sub.expr)
    sub.false = through_trampoline(w, sub.false, sub.frame, sub.expr)
    while not (keeps and keeps_operand(sub.expr, sub.frame)) and merge_next(w, sub):
        pass
    if starts_chain and (len(sub.frame.stack) != depth or isinstance(sub.true, tuple)
                         or isinstance(sub.false, tuple)):
        return None  # (a chain that does not end inside the candidate)
    return sub


def chain_link_operand(w, b: Block, f):
    """Walk, in ``f``, the operand of the chained comparison's link that
    starts at ``b`` up to the comparison that consumes the operand kept
    on top of ``f``'s stack (:func:`chain_operand`); the index after it,
    or None. The walk is a trial (its result may be dropped): the
    structuring state it could touch is put back."""
    if not f.stack or not isinstance(f.stack[-1], ast.expr):
        return None
    with undone(w):
        try:
            return chain_operand(w, b.start, f, dominated_by(w, b), None)
        except DecompilationError:
            return None


def short_circuit_operand(w, b: Block, f):
    """Walk, in ``f``, a test's operand that holds an and/or of its own
    as a value (``a or (x or 1) > k``: <=3.11 computes ``x or 1`` with a
    ``JUMP_IF_TRUE_OR_POP`` that ends ``b``), up to the first conditional
    jump that tests that value (:func:`stops_at_test`); the index of that
    jump, or None. A trial like :func:`chain_link_operand`. The operand
    may also begin with a conditional expression (``a or (x if c else y)
    > k``: ``b`` ends in the test of ``c``, see :func:`conditional_value_join`)."""
    if (not short_circuit_ahead(w, b) and conditional_value_join(w, b) is None
            and (f.stack or not enters_inlined_comprehension(w, b))):
        return None  # (a comprehension in the operand: only of a test outside any expression)
    with undone(w):
        w._stops.append((f, TestStop(len(f.stack))))
        try:
            ex = w.walk(b.start, f, dominated_by(w, b), None)
        except DecompilationError:
            return None
        finally:
            w._stops.pop()
    return ex.target if ex.kind == "stop" else None


def merge_next(w, c: Cond) -> bool:
    """Merge ``c`` with a following condition block when they form
    ``and``/``or`` (or ``x if c else y`` tested as a condition); True
    when merged."""
    if not isinstance(c.true, tuple) and not isinstance(c.false, tuple) and not keeps_operand(c.expr, c.frame):
        # (a link that keeps an operand for the next is no whole test)
        # a chained comparison's true path may jump over its cleanup
        over = jump_over_cleanup(w, c.true, c.blocks)
        t_at, c_blocks = over if over is not None else (c.true, c.blocks)
        reach = c_blocks if c.cleanups is None else c_blocks | c.cleanups
        a = pure_condition(w, t_at, c.frame, reach)
        b = pure_condition(w, c.false, c.frame, reach) if a is not None else None
        folded = lone_jump_within(w, c.false, reach) if a is not None and b is None else None
        if folded is not None and w.instrs[c.false].target > c.false:
            # ``x if a or 0 else y`` (3.10+): the folded ``or 0`` leaves a's
            # false way a lone jump to ``y``
            b = pure_condition(w, w.instrs[c.false].target, c.frame, reach | folded)
            if b is not None:
                b.blocks = b.blocks | folded
        test = c.expr
        if b is not None and folded is not None:
            c.expr = bool_op(ast.Or, c.expr, E.const(False))
        if b is not None and len(a.frame.stack) == len(b.frame.stack):
            merged = None
            if c.true == c.false and in_progress(c.frame):
                pass  # (``a < (y if x or 1 else z)``: an operand's test, see conditional_with_one_arm)
            elif c.true == c.false or t_at == c.false and either_way(w, c) is not None:
                # ``(x or <true>) and y``: the constant folded away, x's
                # jump goes where it falls (one y: not ``y if x else y``;
                # a chained comparison's true path jumps over its cleanup)
                merged = bool_op(ast.And, either_way(w, c), a.expr), a.true, a.false
            elif same_place(w, a.true, b.true) and same_place(w, a.false, b.false):
                merged = ast.IfExp(test=c.expr, body=a.expr, orelse=b.expr), b.true, b.false
            elif same_place(w, a.true, b.false) and same_place(w, a.false, b.true):
                merged = ast.IfExp(test=c.expr, body=a.expr, orelse=negate(b.expr)), b.false, b.true
            ways = (a.true, a.false)
            if merged is None:
                merged = conditional_with_constant_arm(w, c, a, b)
                ways += (b.true, b.false)  # (either arm may be the constant one)
            if merged is not None:
                # (the first branch reaches the targets through a jump)
                c.expr, c.true, c.false = merged
                c.frame = a.frame
                c.blocks = c_blocks | a.blocks | b.blocks
                for x in ways:
                    # (``b if c else a``: b's way out jumps to where a's goes)
                    hop = lone_jump_within(w, x, c.blocks)
                    if hop is not None:
                        c.blocks = c.blocks | hop
                c.cleanups = union(c.cleanups, union(a.cleanups, b.cleanups))
                return True
        c.expr = test  # (not merged: as it was)
    if merge_constant_arm(w, c):
        return True
    for side in ("true", "false"):
        idx = getattr(c, side)
        frame = c.frame
        if isinstance(idx, tuple):
            continue
        over = jump_over_cleanup(w, idx, c.blocks)
        if over is not None:
            idx, c_blocks = over
        else:
            c_blocks = c.blocks
        reach = c_blocks if c.cleanups is None else c_blocks | c.cleanups
        sub = pure_condition(w, idx, frame, reach, keeps_operand(c.expr, frame))
        if sub is None:
            continue
        st, sf = sub.true, sub.false
        other = other_side = c.false if side == "true" else c.true
        if is_jump_body(w, c, other):
            continue
        stn = st[1] if isinstance(st, tuple) else st
        sfn = sf[1] if isinstance(sf, tuple) else sf
        other_at = other[1] if isinstance(other, tuple) else other
        copy = exit_copy(w, other[1]) if isinstance(other, tuple) else None
        if copy is not None and copy in (exit_copy(w, stn), exit_copy(w, sfn)):
            # a chained comparison's cleanup ends in its own copy of the
            # exit the next link goes to: the same place
            other_at = stn if copy == exit_copy(w, stn) else sfn
        other = alias(w, other_at)
        # 3.10+: a chained comparison (which cannot be split) may leave
        # through a copy of the ``return`` block another test jumps to
        # (only its own links drop the operand it kept before)
        copies = chains_into(c.expr, sub.expr) or is_chain(sub.expr) and not isinstance(
            c.false if side == "true" else c.true, tuple) or keeps_operand(c.expr, frame) and (
                chain_into(c.expr, negate_test(sub.expr)) is not None)  # (the rest, see below)
        goes_to = lambda x: other == alias(w, x) or copies and same_code(w, other_at, x)
        true, false = stn, sfn
        # (only a link right after ``c``: an ``elif x: pass`` is reached by a jump)
        # (not after a link that keeps its operand: the constant test is then part of the
        # next operand, ``a < b < (x if d or 1 else y)``, not a link of its own)
        either = either_way(w, sub) if idx == c.blocks.end and not keeps_operand(c.expr, frame) else None
        if side == "true":
            # a link that keeps its operand goes on only into the chain's next
            # link: the rest of the test (merged first, and turned round when it
            # jumps the other way) starts with it, ``a < b < c and not d``
            rest = negate_test(sub.expr) if keeps_operand(c.expr, frame) and goes_to(stn) else None
            if goes_to(sfn):
                expr = chain_into(c.expr, sub.expr) or bool_op(ast.And, c.expr, sub.expr)
            elif rest is not None and chain_into(c.expr, rest) is not None:
                expr = chain_into(c.expr, rest)
                true, false = sfn, stn
            elif goes_to(stn) and flips(c.expr) and not flips(sub.expr):
                # ``a is None and not b``: the same as ``a is not None or b``,
                # but only this keeps the first test as it is compiled
                expr = bool_op(ast.And, c.expr, negate(sub.expr))
                true, false = sfn, stn
            elif goes_to(stn):
                expr = bool_op(ast.Or, negate(c.expr), sub.expr)
            elif either:
                expr = bool_op(ast.And, c.expr, either)
                true, false = stn, other_at
            else:
                continue
        else:
            if goes_to(stn):
                expr = bool_op(ast.Or, c.expr, sub.expr)
            elif goes_to(sfn) and flips(c.expr) and not flips(sub.expr):
                expr = bool_op(ast.Or, c.expr, negate(sub.expr))
                true, false = sfn, stn
            elif goes_to(sfn):
                expr = bool_op(ast.And, negate(c.expr), sub.expr)
            elif either:
                expr = bool_op(ast.Or, c.expr, either_way(w, sub, False))
                true, false = other_at, sfn
            else:
                continue
        c.expr = expr
        c.true, c.false = true, false
        c.frame = sub.frame
        c.blocks = c_blocks | sub.blocks
        c.cleanups = union(c.cleanups, sub.cleanups)
        for x in (other_side, st, sf):
            if isinstance(x, tuple):
                c.cleanup_at = x[2]
        if c.cleanup_at is not None and not keeps_operand(expr, sub.frame):
            # the chained comparison is whole: the cleanup that dropped its
            # kept operand on the way out of every link is reached from inside
            cleanup = w.cfg.at(c.cleanup_at)
            inside = c.blocks.flat() if cleanup is not None else ()  # (once: every link is a way in)
            if cleanup is not None and all(p.id in inside for p in cleanup.preds):
                c.cleanups = union(c.cleanups, BlockIds(cleanup))
            c.cleanup_at = None
        return True
    return False


def merge_constant_arm(w, c: Cond) -> bool:
    """``if (1 if x else y):`` (<=3.10): the compiler folds the true
    constant arm into a lone jump to the body, which ``y`` falls into
    when true (``x or y`` jumps there from the test itself). Merged into
    ``c`` as ``(True if x else y)`` (or ``(y if x else True)``); True
    when merged."""
    if (isinstance(c.true, tuple) or isinstance(c.false, tuple) or keeps_operand(c.expr, c.frame)
            or c.cleanups is not None):
        return False
    for arm, other in ((c.true, c.false), (c.false, c.true)):
        hop = lone_jump_within(w, arm, c.blocks)
        if hop is None or w.instrs[arm].target <= arm:
            continue  # (a jump back: a loop's continue)
        test, blocks = c.expr, c.blocks | hop
        folded = lone_jump_within(w, other, c.blocks) if arm == c.true else None
        if folded is not None and w.instrs[other].target > other:
            # ``1 if x or 0 else y`` (3.10+): x's false way falls into the
            # folded constant's jump to ``y``, x's true way jumps to ``1``
            test, blocks = bool_op(ast.Or, c.expr, E.const(False)), blocks | folded
            other = w.instrs[other].target
        b = pure_condition(w, other, c.frame, blocks)
        if (b is None or isinstance(b.true, tuple) or isinstance(b.false, tuple)
                or b.true != b.blocks.end or not same_place(w, w.instrs[arm].target, b.true)
                or same_place(w, b.true, b.false)):
            continue
        body, orelse = (E.const(True), b.expr) if arm == c.true else (b.expr, E.const(True))
        c.expr = ast.IfExp(test=test, body=body, orelse=orelse)
        c.true, c.false = b.true, b.false
        c.frame = b.frame
        c.blocks = blocks | b.blocks
        c.cleanups = b.cleanups
        return True
    return False


def chain_operand(w, start, frame, region, loop):
    """Walk the code from ``start`` that computes the next operand of a
    chained comparison and compares the operand kept on top of
    ``frame``'s stack with it. The operand may hold control flow of its
    own (``and``/``or``, a conditional expression, another chain, an
    ``await``), structured as everywhere else; the walk stops right after
    that comparison (:func:`block`). The index after it, or None."""
    w._stops.append((frame, frame.stack[-1]))
    # the operand's own tests (a conditional expression in a match
    # guard's chain) are structured here, not handed to the guard reader
    guard_frame, w.guard_frame = w.guard_frame, None
    try:
        ex = w.walk(start, frame, region, loop)
    finally:
        w._stops.pop()
        w.guard_frame = guard_frame
    return ex.target if ex.kind == "stop" else None
