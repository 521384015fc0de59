"""``if`` statements and conditional expressions: :func:`branch` is called by
the walk at a conditional jump that is not a loop's; :func:`if_` walks each branch in the region
its successor dominates and builds the ``if``/``elif``/``else`` (or ``a if c else b`` when the
branches leave one value each, :func:`value_branch`). Also the short-circuit expressions
written as jumps (:func:`short_circuit`) and the branches whose ends the compiler copied.
"""
import ast

from .. import expressions as E
from .. import values as V
from ..cfg import Block
from ..errors import DecompilationError
from ..function import last_return_into_else
from ..versions import COPIES_EXIT_BLOCKS
from .regions import END, Exit, both, chain_compare, join_operands, negate
from .condition_parts import BlockIds, Cond, keeps_operand, union
from .statement_parts import (EXITS_WITH_VALUE, assigned_names, is_return_none, live, merge_exit_copies,
                              only_value, same_stack, shares_effects)
from .state import Snapshot, dominated_by, fail, undone
from .jumps import (branch_returns_outside, follow_jumps, is_jump_body, jump_over_cleanup, runs_to_return,
                    same_place, same_return)
from .with_facts import with_exit_call_at
from .legacy_facts import legacy_else_end
from .branch_facts import (branch_region, broke_into_copy, conditional_with_one_arm, consumes_earlier_value,
                           continues_from_region_end, crosses_assert_test, dropped_value_end,
                           drops_kept_operand, ends_in_exit, exit_instead, exits_like, in_lambda,
                           is_flipping_continue, jump_body_start, jumped_over_else, make_if,
                           one_statement_returns, only_raise, only_return, operand_in_copied_exit,
                           operand_region, private_run_to_return, private_start, reached_past,
                           return_joined_from_before, returned_before_dead_copy,
                           returned_into_dead_copy, returns_straight, returns_through_finally_copy,
                           same_handler, shared_try, short_circuit_meet, split_candidates, takes_branch_value,
                           value_before_copied_exit)
from .match_facts import match_branch
from .conditions import chain_operand, condition
from .loops import inverted_while


def branch(w, block: Block, frame, region, loop):
    r = match_branch(w, block, frame, region, loop)
    if r is not None:
        return r
    last = w.instrs[block.end - 1]
    if last.op in ("JUMP_IF_FALSE_OR_POP", "JUMP_IF_TRUE_OR_POP"):
        return short_circuit(w, block, frame, region, loop)
    if last.op == "JUMP_IF_NOT_EXC_MATCH":
        fail(w, "old-style except clause outside a try", last.index)
    c = condition(w, block, frame)
    frame.stack[:] = c.frame.stack
    # while loop entered through its duplicated test (3.10+ layout)
    inverted = inverted_while(w, c, frame, region, loop)
    if inverted is not None:
        return inverted
    return if_(w, c, frame, region, loop)


def walk_branch(w, start, frame, region, loop):
    """Walk one branch of an ``if`` from ``start``."""
    branch = branch_region(w, start, region)
    if (loop is not None and not region(start)
            and (start in loop.continue_targets or start == loop.break_target)):
        # the branch goes straight back to the loop's test (3.12+ folds
        # ``else: continue`` into the condition's jump) or out of the loop
        return w.transfer(start, frame, branch, loop, implied=True)
    return w.walk(start, frame, branch, loop)


def walk_dominated(w, start, frame, region, loop):
    """Walk from ``start`` (which may lie inside a block) through the code that
    ``start``'s block dominates: an except clause's or a match case's own code."""
    block = w.cfg.containing(start)
    dom = dominated_by(w, block)
    inside = both(region, dom)
    if block.start != start:
        return block_then_walk(w, block, start, frame, inside, loop)
    return w.walk(start, frame, inside, loop)


def if_(w, c: Cond, frame, region, loop):
    # a chained comparison's cleanup that could not be merged is
    # walked as the code it is
    t, fl = [x[2] if isinstance(x, tuple) else x for x in (c.true, c.false)]
    test = c.expr
    if crosses_assert_test(w, c):
        # ``if c:`` / ``assert x``: merged into ``assert not c or x``, python -O would skip c
        raise DecompilationError("an if's test merged into the test of the assert it holds "
                                 "(python -O would skip the if's test)", w.ctx.name)
    if shares_effects(test, frame.stack):
        # a chained comparison's kept operand that no link consumed: the
        # test and each branch would evaluate it again
        fail(w, "chained comparison that could not be merged",
                  w.instrs[max(w.cfg.blocks[k].end for k in c.blocks) - 1].index)
    # the compiler puts an if's body right after its test: the branch
    # that falls through is the body (``if not x`` jumps when x is true)
    fall = c.blocks.end
    if (fl == fall and t != fall and not is_flipping_continue(t, test, region, loop)
            and not continues_from_region_end(t, fall, region, loop)):
        t, fl, test = fl, t, negate(test)
    split = copied_exit_split(w, c, t, fl, region, frame)
    if split is not None:
        return conditional_before_copied_exit(w, test, t, fl, split, frame)
    over = jump_over_cleanup(w, t, c.blocks) if isinstance(t, int) else None
    if over is not None:
        # a chained test's true path jumps over its cleanup (3.10: into a
        # copy of the exit, as the cleanup goes on into the other one)
        over_c = Cond(c.expr, over[0], c.false, c.frame, over[1])
        over_c.cleanups = c.cleanups
        split = copied_exit_split(w, over_c, over[0], fl, region, frame)
        if split is not None:
            return conditional_before_copied_exit(w, test, over[0], fl, split, frame)
    if t == fl and (frame.stack and not isinstance(frame.stack[-1], (V.Iterator, V.WithExit, V.Exception_))
                    or in_lambda(w) and not frame.stmts
                    or c.blocks.start == w._value_branch_at and not frame.stmts):
        # (a value below is an expression in progress: no statement fits
        # there; nor in the body of a lambda)
        at = conditional_with_one_arm(w, c, t, frame)
        if at is not None:
            return at
    # a body that is only a jump (an and/or link's exit) starts where it
    # goes; not a try statement that other code reaches too: that would
    # be structured once here and its code walked again after the if
    t_block = w.cfg.at(t)
    jump_body = is_jump_body(w, c, t)
    # (a lone jump to another: a chained comparison's false way out of its
    # cleanup, ``while a and b < c is not None``; the cleanup that falls
    # where the jump goes is the condition's own, ``if not a < b in c: try:``)
    hopped, hops = union(c.blocks, c.cleanups), 0
    while (not jump_body and t != fl and t_block is not None and t_block.end - t_block.start == 1 and hops < 8
            and w.instrs[t].op == "JUMP" and jump_body_start(w, w.instrs[t].target, fl, region, frame)
            and (loop is None or w.instrs[t].target not in loop.continue_targets)
            and not shared_try(w, w.instrs[t].target, hopped | BlockIds(t_block))
            and not reached_past(w, fl, w.instrs[t].target, hopped | BlockIds(t_block), region)):
        hopped, hops = hopped | BlockIds(t_block), hops + 1
        t = w.instrs[t].target
        t_block = w.cfg.at(t)
    then = frame.copy()
    then.stmts = []
    # (a statement's if: with values on the stack other than the enclosing blocks' it is
    # part of an expression, a chained comparison's cleanup or a conditional expression,
    # whose ways meet past the else)
    statement = all(isinstance(x, (V.Iterator, V.WithExit, V.Exception_)) for x in frame.stack)
    past_else = jumped_over_else(w, t, fl, region) if statement else None
    if past_else is not None:
        # the code past the else is the if statement's next code, not the body's
        trial = Snapshot(w)
        t_exit = walk_branch(w, t, then, both(region, lambda i: not past_else(i)), loop)
        if len(then.stack) != len(frame.stack):
            # a value left at the jump: a conditional expression's arm (its else arm
            # ends in a copied finally's raise), whose arms meet past the else
            trial.restore()
            then = frame.copy()
            then.stmts = []
            past_else = None
    if past_else is None:
        t_exit = walk_branch(w, t, then, region, loop) if t != fl else Exit("leave", t)
    if jump_body and not then.stmts and not (t_exit.kind == "leave" and len(then.stack) > len(frame.stack)):
        # ``if x: pass`` (an empty body would negate the test); not a jump
        # to a conditional expression's arm (``x if b or 0 else 1``: b's
        # false way jumps to ``1``), which leaves its value
        then.stmts = [ast.Pass()]
    depth = len(frame.stack)
    # value-producing diamond: a conditional expression
    # (not an exception marker, as 3.8's BEGIN_FINALLY pushes: ``if c: pass`` / ``else: raise``
    # in ``except E as e``, whose body jumps to the name's cleanup)
    if (t_exit.kind == "leave" and len(then.stack) == depth + 1 and only_value(then)
            and not isinstance(then.stack[-1], V.Exception_)):
        other, f_exit = value_branch(w, fl, frame, region, loop)
        if (f_exit.kind == "leave" and (same_place(w, f_exit.target, t_exit.target)
                                        or same_return(w, f_exit.target, t_exit.target))
                and len(other.stack) == depth + 1 and only_value(other)):
            body, orelse = then.pop_expr(), other.pop_expr()
            frame.push(ast.IfExp(test=test, body=body, orelse=orelse))
            return t_exit.target
        copied = (exit_instead(w, other, fl, t_exit.target, frame)
                  if f_exit.kind == "end" and same_handler(w, t, fl) else None)
        if copied is not None:
            frame.push(ast.IfExp(test=test, body=then.pop_expr(), orelse=copied))
            return t_exit.target
        if (not runs_to_return(w, t_exit.target, through_copies=True)
                and t_exit.target not in w.dead_end_copies):
            fail(w, "conditional expression with unbalanced branches", w.cfg.at(t).start)
    if (t_exit.kind == "leave" and len(then.stack) == depth + 1
            and runs_to_return(w, t_exit.target, through_copies=True)):
        # ``return value`` in the branch, returned after the cleanup of an
        # enclosing with (or finally) that lies outside the region
        t_exit = w.walk(t_exit.target, then, lambda i: True, loop)
    elif t_exit.kind == "leave" and branch_returns_outside(w, t, t_exit.target, assigned_names(then.stmts)):
        # ``return`` in an except clause's inner try: the clause's
        # POP_EXCEPT and the return lie outside the inner try
        t_exit = w.walk(t_exit.target, then, lambda i: True, loop)
    t_exit = returned_into_dead_copy(w, t_exit, then, depth)
    t_exit = through_with_exits(w, t, t_exit, then, loop)
    t_exit = returned_before_dead_copy(w, t_exit, fl, then)
    t_exit = broke_into_copy(w, t_exit, then, region, loop)
    if t_exit.kind == "leave" and same_place(w, t_exit.target, fl):
        # if without else
        if not same_stack(then.stack, frame.stack):
            fail(w, "if body leaves a value the other path does not", w.cfg.at(fl).start)
        # the frame's own stack stays: emitting the if may have saved its values
        # in temporaries (a yield, a call), which the branch's copy does not know
        frame.emit(make_if(w, test, then.stmts, []))
        return w.transfer(fl, frame, region, loop) if not region(fl) else fl
    other = frame.copy()
    other.stmts = []
    if (t_exit.kind == "end" and ends_in_exit(w, then, reraise=True) and return_joined_from_before(w, fl)):
        f_exit = w.walk(fl, other, branch_region(w, fl, region), loop)
        copied = exit_instead(w, then, t, f_exit.target, frame) if f_exit.kind == "leave" else None
        if copied is not None and len(other.stack) == depth + 1 and only_value(other):
            frame.push(ast.IfExp(test=test, body=copied, orelse=other.pop_expr()))
            return f_exit.target
        other = frame.copy()
        other.stmts = []
    if t_exit.kind == "end":
        merged = exits_as_one_value(w, test, then, t, fl, frame, region, loop)
        if merged is not None:
            return merged
        # the then-branch never falls through. When it ends in the
        # function's own ``return None`` and the other branch also ends,
        # the source was if/else (the compiler copied the final return
        # into both); otherwise what follows is simply the next code.
        goes_on_looping = loop is not None and fl in loop.continue_targets
        if (then.stmts and is_return_none(then.stmts[-1]) and COPIES_EXIT_BLOCKS and region(fl)
                and not goes_on_looping):
            trial = Snapshot(w)
            f_exit = walk_branch(w, fl, other, region, loop)
            if f_exit.kind == "end":
                frame.emit(make_if(w, test, then.stmts, other.stmts))
                return END
            # that walk is dropped and the code walked again as what follows the if
            trial.restore()
        nxt = dead_jump_else(w, test, then, t, fl, frame, region, loop)
        if nxt is not None:
            return nxt
        frame.emit(make_if(w, test, then.stmts, []))
        return w.transfer(fl, frame, region, loop, implied=True) if not region(fl) else fl
    f_exit = walk_branch(w, fl, other, region, loop)
    if (f_exit.kind == "leave" and not same_place(w, f_exit.target, t_exit.target)
            and branch_returns_outside(w, fl, f_exit.target, assigned_names(other.stmts))):
        # the else branch's ``return`` after an empty finally's (absent)
        # inlined copy lies outside the try's protected range, as above
        f_exit = w.walk(f_exit.target, other, lambda i: True, loop)
    elif (f_exit.kind == "leave" and len(other.stack) == depth + 1 and t_exit.kind == "leave"
          and not same_place(w, f_exit.target, t_exit.target) and runs_to_return(w, f_exit.target)):
        # ``return value`` in the else branch, its RETURN_VALUE past the
        # range of an enclosing try (as for the first branch above)
        f_exit = w.walk(f_exit.target, other, lambda i: True, loop)
    f_exit = returned_into_dead_copy(w, f_exit, other, depth)
    f_exit = through_with_exits(w, fl, f_exit, other, loop)
    f_exit = returned_before_dead_copy(w, f_exit, t_exit.target if t_exit.kind == "leave" else None, other)
    t_exit, f_exit = returned_through_finally_copy(w, t_exit, f_exit, then, other, loop)
    unchanged = same_stack(then.stack, frame.stack)  # then keep the frame's (see above)
    frame.emit(make_if(w, test, then.stmts, other.stmts))
    if t_exit.kind == "end" and f_exit.kind == "end":
        return END
    if t_exit.kind == "end":
        # (walked to its return through a finally copy, above)
        if not same_stack(other.stack, frame.stack):
            frame.stack[:] = other.stack
        return w.transfer(f_exit.target, frame, region, loop) if not region(f_exit.target) else f_exit.target
    if f_exit.kind == "end":
        if not unchanged:
            frame.stack[:] = then.stack
        return w.transfer(t_exit.target, frame, region, loop) if not region(t_exit.target) else t_exit.target
    if not same_place(w, f_exit.target, t_exit.target):
        fail(w, "if branches end in different places", w.cfg.at(fl).start)
    if not same_stack(then.stack, other.stack):
        # two values, one per branch, that no conditional expression holds
        fail(w, "if branches leave different values", w.cfg.at(fl).start)
    if not unchanged:
        frame.stack[:] = then.stack
    return w.transfer(t_exit.target, frame, region, loop) if not region(t_exit.target) else t_exit.target


def returned_through_finally_copy(w, t_exit, f_exit, then, other, loop):
    """The exits of an if's two branches (walked into ``then`` and
    ``other``), where a branch that leaves for a ``return`` (see
    :func:`returns_straight`) while the other branch goes elsewhere is
    walked on to that ``return``: the branch's own statement."""
    if t_exit.kind != "leave" or f_exit.kind != "leave" or same_place(w, t_exit.target, f_exit.target):
        return t_exit, f_exit
    exits = []
    for ex, frame in ((t_exit, then), (f_exit, other)):
        if returns_straight(w, ex.target):
            ex = w.walk(ex.target, frame, lambda i: True, loop)
        exits.append(ex)
    return tuple(exits)


def value_branch(w, start, frame, region, loop):
    """Walk the other branch of a conditional expression whose first branch
    computed a value, from ``start`` into a copy of ``frame``: (its frame,
    its exit). A test at ``start`` whose two ways meet again is read as a
    conditional expression there too (``3 if b else G if a or 4 else 5``
    tests ``a``, then computes ``G``), not as an ``if a: pass`` statement,
    when that is what gives the branch its one value: the branch is walked
    again so when its first walk began with an ``if`` (walking so from the
    start would read ``0 if v2 else 0`` as ``0 if v2 or True else None``)."""
    first = Snapshot(w)
    other = frame.copy()
    other.stmts = []
    f_exit = walk_branch(w, start, other, region, loop)
    if only_value(other) or not live(other.stmts) or not isinstance(live(other.stmts)[0], ast.If):
        return other, f_exit
    first.restore()
    other = frame.copy()
    other.stmts = []
    w._value_branch_at, outer = start, w._value_branch_at
    try:
        f_exit = walk_branch(w, start, other, region, loop)
    finally:
        w._value_branch_at = outer
    return other, f_exit


def exits_as_one_value(w, test, then, t, fl, frame, region, loop):
    """3.10+ copies a small exit into each path that reaches it, so the
    branches of a conditional expression in the middle of an expression
    may each end in their own copy (``raise h(b) - (x if c else 0)``: no
    block joins them). When the two branches (``then``, walked, and the
    one from ``fl``) end in statements that differ only in one expression,
    that expression is the conditional expression on ``test``: emit those
    statements once, holding it, and return END; else None (and the walk
    of ``fl`` is forgotten). Not when an exception handler covers one
    branch (from ``t``) and not the other: ``if c: return x`` at the end
    of a try body, ``return y`` after the try statement."""
    if not (COPIES_EXIT_BLOCKS and frame.stack and ends_in_exit(w, then)):
        return None
    if not same_handler(w, t, fl):
        return None
    state = Snapshot(w)
    other = frame.copy()
    other.stmts = []
    f_exit = walk_branch(w, fl, other, region, loop)
    merged = None
    if f_exit.kind == "end" and ends_in_exit(w, other) and same_stack(then.stack, other.stack):
        merged = merge_exit_copies(live(then.stmts), live(other.stmts), test)
    if merged is None:
        state.restore()
        return None
    frame.stack[:] = then.stack
    for stmt in merged:
        frame.emit(stmt)
    return END


def copied_exit_split(w, c: Cond, t, fl, region, frame):
    """3.10+ copies a small exit block into each branch that jumps to it,
    also the rest of an expression after a conditional expression
    (``return x + (a if b else c) * 3``: ``* 3; +; return`` is copied into
    both branches). When both branches of ``c`` are an expression followed
    by the same straight code (a copy) to a return, (the index in each
    branch) where that code starts; else None. A branch's expression may
    have control flow of its own (``raise E(x or y if b else 0)``): the
    copy starts after it joins."""
    if not COPIES_EXIT_BLOCKS or not (isinstance(t, int) and isinstance(fl, int)) or t == fl:
        return None
    inside = union(c.blocks, c.cleanups)  # (a chained test's cleanup falls into its false branch)
    runs = [private_run_to_return(w, x, inside, region) for x in (t, fl)]
    if None in runs:
        return split_at_copied_tail(w, t, fl, runs, inside, region, frame)
    ends = [end for end, _ in runs]
    if [(w.instrs[k].op, w.instrs[k].arg) for k in ends].count(
            (w.instrs[ends[0]].op, w.instrs[ends[0]].arg)) != 2:
        return None  # (both a ``return``, or both a ``raise`` of as many values)
    joins = [join for _, join in runs]
    f_splits = split_candidates(w, fl, ends[1], joins[1])
    for kt in split_candidates(w, t, ends[0], joins[0]):
        kf = ends[1] - (ends[0] - kt)
        if kf not in f_splits:
            continue
        tail, copy = w.instrs[kt:ends[0]], w.instrs[kf:ends[1]]
        if not tail and not one_statement_returns(w, ends):
            continue
        if [(i.op, i.arg) for i in tail] != [(i.op, i.arg) for i in copy]:
            continue
        # a copy keeps the line numbers of what it copies; two returns
        # written in the source have their own (unless the tail goes on
        # with a value computed before the test: only an expression can)
        if not ([i.line for i in tail] == [i.line for i in copy] or consumes_earlier_value(tail)):
            continue
        # (each branch's part before the split is one value: not the NULL
        # pushed before a callable, ``len(x) if b else len(x)``)
        if None not in (branch_value(w, t, kt, frame), branch_value(w, fl, kf, frame)):
            return kt, kf
    return None


def split_at_copied_tail(w, t, fl, runs, inside, region, frame):
    """:func:`copied_exit_split` when a branch's code does not run
    straight to its exit: an inlined comprehension loops, a chained
    comparison's false path drops its kept operand and goes on in a copy
    of the tail of its own (``raise E((a if b else 0 < c < d) - 1)``), a
    conditional expression copies it into each of its branches. The tail
    of one branch (the straight one, else the then branch's first exit) is
    looked for at the ends of the other, after the value a walk halted
    there computes (:func:`value_up_to`); (the index in each branch) or None.
    Not inside such a walk: each would walk its branch again (a walk per
    nesting level, not one per level and branch below it)."""
    if w._halt is not None:
        return None
    straight = 1 if runs[0] is None and runs[1] is not None else 0
    s, other = (t, fl)[straight], (t, fl)[1 - straight]
    if runs[straight] is not None:
        end, join = runs[straight]
        candidates = split_candidates(w, s, end, join)
    else:
        if not private_start(w, s, inside, region):  # (the cheaper question first)
            return None
        firsts = exits_like(w, s, EXITS_WITH_VALUE, limit=32)[:1]
        if not firsts:
            return None
        end = firsts[0]
        candidates = range(max(s + 1, w.cfg.containing(end).start), end)
    if not private_start(w, other, inside, region):
        return None
    ends = exits_like(w, other, {(w.instrs[end].op, w.instrs[end].arg)})
    if not ends:
        return None
    for ks in candidates:
        tail = w.instrs[ks:end + 1]
        if len(tail) < 2 or not takes_branch_value(tail):
            continue
        for e in ends:
            ko = e - (end - ks)
            if not (other < ko and w.cfg.containing(ko).end > e):
                continue  # (the copy is straight code, after the branch's own)
            copy = w.instrs[ko:e + 1]
            if [(i.op, i.arg) for i in tail] != [(i.op, i.arg) for i in copy]:
                continue
            if not ([i.line for i in tail[:-1]] == [i.line for i in copy[:-1]]
                    or consumes_earlier_value(tail[:-1])):
                continue  # (as in copied_exit_split)
            if ((trial_branch_value(w, s, ks, frame) if runs[straight] is not None
                 else value_up_to(w, s, ks, frame, trial=True)) is None
                    or value_up_to(w, other, ko, frame, trial=True) is None):
                continue
            return (ks, ko) if straight == 0 else (ko, ks)
    return None


def trial_branch_value(w, start, stop, frame):
    """:func:`branch_value`, leaving no trace; None where it fails (a
    split tried at the wrong place: ``Null used as a value``)."""
    with undone(w):
        try:
            return branch_value(w, start, stop, frame)
        except DecompilationError:
            return None


def value_up_to(w, start, stop, frame, trial=False):
    """The one expression the branch from ``start`` pushes on a copy of
    ``frame`` by the time it reaches ``stop`` (maybe mid-block: where a
    copied tail starts), its own control flow walked as everywhere; or
    None. A ``trial`` leaves no trace (the code is walked again)."""
    branch = frame.copy()
    branch.stmts = []
    state = Snapshot(w)
    halt, w._halt = w._halt, stop
    try:
        ex = w.walk(start, branch, dominated_by(w, w.cfg.containing(start)), None)
    except DecompilationError:
        ex = None
    finally:
        w._halt = halt
    ok = (ex is not None and ex.kind == "leave" and ex.target == stop
          and len(branch.stack) == len(frame.stack) + 1 and only_value(branch))
    if trial or not ok:
        state.restore()
    return branch.pop_expr() if ok else None


def branch_value(w, start, stop, frame):
    """The one expression the code from ``start`` to ``stop`` pushes on a
    copy of ``frame`` with no other effect, or None. Its control flow of
    its own (and/or, conditional expressions, chained comparisons) is
    walked; the straight code after it is run."""
    join = start
    for k in range(start, stop):
        ins = w.instrs[k]
        if ins.target is not None:
            join = max(join, k + 1, ins.target)
    branch = frame.copy()
    branch.stmts = []
    if join > start:
        try:
            ex = w.walk(start, branch, lambda i: start <= i < join, None)
        except DecompilationError:
            return None
        if ex.kind != "leave" or ex.target != join:
            return None
    for k in range(join, stop):
        E.execute(branch, w.instrs[k])
    if len(branch.stack) != len(frame.stack) + 1 or not only_value(branch):
        return None
    try:
        return branch.pop_expr()
    except DecompilationError:
        return None  # (the NULL pushed before a callable: the split lies further on)


def conditional_before_copied_exit(w, test, t, fl, split, frame):
    """``test``'s branches up to ``split`` as one conditional expression;
    the code goes on with the then-branch's copy of the exit."""
    values = []
    for start, stop in zip((t, fl), split):
        state = Snapshot(w)
        value = branch_value(w, start, stop, frame)
        if value is None:
            state.restore()
            value = value_up_to(w, start, stop, frame)  # (see split_at_copied_tail)
        if value is None:
            fail(w, "conditional expression with statements", start)
        values.append(value)
    frame.push(ast.IfExp(test=test, body=values[0], orelse=values[1]))
    return split[0]


def dead_jump_else(w, test, then, t, fl, frame, region, loop):
    """An if statement whose body never falls through, with the
    ``else`` clause the bytecode shows (see :func:`legacy_else_end`):
    emit it and return where control goes on; None when there is no
    else clause or it does not end where the dead jump says."""
    end = legacy_else_end(w, t, fl)
    if end is None or not dominated_by(w, w.cfg.containing(t))(w.cfg.containing(fl - 2).start):
        return None  # (a dead jump after other code than the if body)
    if loop is not None and end == loop.break_target:
        return None  # rather a ``break`` whose jumps were threaded past it
    if end > fl:
        inside = branch_region(w, fl, region)
        else_region = lambda i: inside(i) and i < end
    elif loop is not None and end in loop.continue_targets:
        else_region = branch_region(w, fl, region)  # the rest of the loop body
    else:
        return None
    other = frame.copy()
    other.stmts = []
    f_exit = w.walk(fl, other, else_region, loop)
    if f_exit.kind == "leave":
        if end > fl and not same_place(w, f_exit.target, end):
            return None
        if end < fl and f_exit.target not in loop.continue_targets:
            return None
    body = then.stmts
    if w.instrs[fl - 2].op == "RETURN_VALUE":
        # the jump stayed because it was a jump target: the end of an
        # if/else in the body whose last branch returns
        body = last_return_into_else(body)
    frame.emit(make_if(w, test, body, other.stmts))
    if f_exit.kind == "leave":
        frame.stack[:] = other.stack
        target = f_exit.target
    elif end > fl:
        target = end
    else:
        return END
    return w.transfer(target, frame, region, loop) if not region(target) else target


def through_with_exits(w, start, exit_, frame, loop):
    """``exit_`` of the branch from ``start``, or where it ends when it
    leaves into the ``__exit__`` call of an enclosing with statement that
    only the branch reaches: a return/break/continue inside nested with
    statements (3.11+) calls each exit in turn, the inner one inside the
    inner body's range, the outer ones outside it."""
    if exit_.kind != "leave" or not isinstance(start, int) or not with_exit_call_at(w, exit_.target, frame):
        return exit_
    if exit_.target == start:
        # an empty branch (``elif x: pass`` ending a with body): it leaves
        # where it starts, into the exit the other way reaches too
        return exit_
    b = w.cfg.containing(start)
    if not dominated_by(w, b)(w.cfg.containing(exit_.target).start):
        return exit_
    return w.walk(exit_.target, frame, dominated_by(w, b), loop)


def short_circuit(w, block, frame, region, loop):
    """``a and b`` / ``a or b`` as a value (JUMP_IF_X_OR_POP)."""
    last = w.instrs[block.end - 1]
    left = frame.pop_expr(last)
    if drops_kept_operand(w, last.target) and keeps_operand(left, frame):
        # (not ``return x and y`` in a for loop: its value's way out drops the
        # iterator below it the same way, ``SWAP 2; POP_TOP``)
        return chained_compare(w, block, left, frame, region, loop)
    target = last.target
    op = ast.And if last.op == "JUMP_IF_FALSE_OR_POP" else ast.Or
    value_end = dropped_value_end(w, block.end, target)
    if value_end is not None:
        # ``a and f()`` as a statement: 3.10+ copies what follows the
        # statement's POP_TOP into the right operand's path
        right_frame = frame.copy()
        right_frame.stmts = []
        for k in range(block.end, value_end):
            E.execute(right_frame, w.instrs[k])
        if not live(right_frame.stmts) and len(right_frame.stack) == len(frame.stack) + 1:
            frame.push(join_operands(op, left, right_frame.pop_expr(), last))
            return target
    right_frame = frame.copy()
    right_frame.stmts = []
    # (a value: a test that starts it and goes on the same way both ways is
    # a conditional expression's, ``b and (a if k or 2 else 0)``, see value_branch)
    w._value_branch_at, outer = block.end, w._value_branch_at
    try:
        ex = w.walk(block.end, right_frame, operand_region(w, block.end, target, region), loop)
    finally:
        w._value_branch_at = outer
    if (ex.kind == "end" and only_return(w, right_frame) and target < w.n
            and w.instrs[target].op == "RETURN_VALUE"):
        # ``return a and b``: each path returns on its own
        frame.emit(ast.Return(value=join_operands(op, left, live(right_frame.stmts)[0].value, last)))
        return END
    if (ex.kind == "end" and only_raise(w, right_frame) and target < w.n
            and (w.instrs[target].op, w.instrs[target].arg) == ("RAISE_VARARGS", 1)):
        # ``raise a and b``: 3.12+ copies the raise into the right operand's
        # path when that operand's own jumps were folded (``a and (4 or b)``)
        frame.emit(ast.Raise(exc=join_operands(op, left, live(right_frame.stmts)[0].exc, last), cause=None))
        return END
    copied = value_before_copied_exit(w, block.end, target, frame) if ex.kind == "end" else None
    if copied is not None and COPIES_EXIT_BLOCKS:
        # 3.10+ copied the code from ``target`` to its return into the
        # right operand's path: ``return (a or b,)``
        frame.push(join_operands(op, left, copied, last))
        return w.transfer(target, frame, region, loop) if not region(target) else target
    filled = operand_in_copied_exit(w, ex, right_frame, target, frame)
    if filled is not None:
        frame.push(join_operands(op, left, filled, last))
        return w.transfer(target, frame, region, loop) if not region(target) else target
    dropped = operand_dropped_by_walk(w, ex, right_frame, target, frame, loop)
    if dropped is not None:
        frame.push(join_operands(op, left, dropped, last))
        return w.transfer(target, frame, region, loop) if not region(target) else target
    meet = short_circuit_meet(w, ex, target, last)
    if meet is None or not right_frame.stack:
        fail(w, "short-circuit operand with statements", last.index)
    right = right_frame.pop_expr()  # (a walrus operand becomes an expression here)
    if live(right_frame.stmts):
        fail(w, "short-circuit operand with statements", last.index)
    frame.stack[:] = right_frame.stack
    node = join_operands(op, left, right, last)
    if target < w.n and w.instrs[target].op == last.op:
        # its value is tested again by the same operator: ``(a and b) and c``
        # (3.12+ no longer threads the jump; a and b and c tests a once)
        node._paren = True
    if (target < w.n and w.instrs[target].op in ("JUMP_IF_TRUE_OR_POP", "JUMP_IF_FALSE_OR_POP")
            and last.arg != "threaded"):
        # the enclosing and/or tests the value again (its truth is taken twice): the
        # compiler threads such a jump to the end (taking it once) unless the operand
        # starts on another line than the operator around it (3.10, 3.11); the text
        # puts it on a line of its own (emit)
        node._own_line = True
    frame.push(node)
    if not region(meet) and not returns_through_finally_copy(w, meet, frame):
        return w.transfer(meet, frame, region, loop)
    return meet


def operand_dropped_by_walk(w, ex, branch, target, frame, loop):
    """The right operand of an and/or whose value is dropped (``a and (b or
    f())`` as a statement), when its walk into ``branch`` wrote that
    expression statement itself: the operand holds an and/or of its own,
    and 3.11+ copies the ``POP_TOP`` into each of that one's ways out. The
    statement's value, when the walk then went where the code after the
    ``POP_TOP`` at ``target`` (where the left operand goes) goes too: it
    left for that place, or wrote the same ``continue`` / ``break``; else None."""
    if target + 1 >= w.n or w.instrs[target].op != "POP_TOP":
        return None
    stmts = live(branch.stmts)
    if not stmts or not isinstance(stmts[0], ast.Expr):
        return None
    after = follow_jumps(w, target + 1)
    if ex.kind == "leave" and isinstance(ex.target, int) and len(stmts) == 1:
        return (stmts[0].value if after == follow_jumps(w, ex.target)
                and len(branch.stack) == len(frame.stack) else None)
    if ex.kind != "end" or len(stmts) < 2:
        return None
    if (len(stmts) == 2 and loop is not None
            and (isinstance(stmts[1], ast.Continue) and after in loop.continue_targets
                 or isinstance(stmts[1], ast.Break) and after == loop.break_target)):
        return stmts[0].value
    # (the statements after the value's drop, copied: 3.12+ copies an except
    # clause's cleanup and ``return None`` too, where the operand holds an
    # inlined comprehension whose jumps keep it from being one expression)
    return stmts[0].value if walks_to(w, target + 1, frame, stmts[1:], loop) else None


def walks_to(w, index, frame, stmts, loop):
    """Whether the code at ``index``, walked (a trial) in a copy of
    ``frame``, ends (returns or raises) after writing just ``stmts``."""
    probe = frame.copy()
    probe.stmts = []
    with undone(w):
        try:
            ex = w.walk(index, probe, lambda i: True, loop)
        except DecompilationError:
            return False
    got = live(probe.stmts)
    return (ex.kind == "end" and len(got) == len(stmts)
            and all(ast.dump(a) == ast.dump(b) for a, b in zip(got, stmts)))


def chained_compare(w, block, left, frame, region, loop):
    """``a < b < c``: the false path of each link drops the kept operand;
    the true path compares it with the next one. Only the true path is
    followed (:func:`chain_operand`); its comparison joins ``left``."""
    while True:
        first = w.cfg.at(block.end)
        before = len(frame.stmts)
        k = None
        if first is not None and frame.stack:
            k = chain_operand(w, block.end, frame, both(region, dominated_by(w, first)), loop)
        if k is None or live(frame.stmts[before:]):
            fail(w, "unrecognised chained comparison", block.end - 1)
        right = frame.pop()
        merged = chain_compare(left, right)
        if merged is None:
            fail(w, "unrecognised chained comparison", block.end - 1)
        frame.push(merged)
        rest = w.cfg.containing(k - 1)
        last = w.instrs[rest.end - 1]
        if not (k == rest.end - 1 and last.op == "JUMP_IF_FALSE_OR_POP"
                and drops_kept_operand(w, last.target)):
            return w.block(rest, frame, region, loop, start=k)
        # the next link of the same chain: joined here, not one call deeper
        block, left = rest, frame.pop_expr(last)


def block_then_walk(w, block, start, frame, region, loop):
    res = w.block(block, frame, region, loop, start=start)
    if isinstance(res, Exit):
        return res
    # (the block may stop mid-block: a with statement's body ends after
    # the ``__exit__`` call it consumed, before the jump to the join)
    inside = res < w.n and region(w.cfg.containing(res).start)
    return w.walk(res, frame, region, loop) if inside else Exit("leave", res)
