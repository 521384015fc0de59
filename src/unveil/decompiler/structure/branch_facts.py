"""Facts about the branches of an ``if`` (see branches.py): where each branch
ends and whether it ends in a ``return``/``raise``/``break``/``continue`` that the compiler
copied, the value a conditional expression's branches leave. Nothing here walks.
"""
import ast

from .. import expressions as E
from .. import values as V
from ..errors import DecompilationError
from ..stack_effects import is_walrus_store, pops_pushes
from ..stream import CONDITIONAL_JUMPS
from ..versions import COPIES_EXIT_BLOCKS
from .regions import END, bool_op, both, negate, unflip_negations
from .condition_parts import BlockIds, Cond, flips
from .statement_parts import BELOW, RUN_BLOCKS, assert_line_mark, live, plain_steps_depth, value_of_exits
from .state import dominated_by
from .jumps import ASYNC_OPS, exit_copy, follow_jumps, legacy_key, past_finally_copies, returns_at, same_place
from .with_facts import same_code, with_exit_call_at
from .finally_copies import new_try


def is_flipping_continue(t, test, region, loop):
    """Whether a test that jumps back to the loop's start when true is
    ``if <test>: continue`` rather than ``if not <test>:`` around the rest
    of the body: the two compile alike except for an ``is``/``in`` test,
    whose ``not`` the compiler folds into ``is not``/``not in`` (another
    instruction argument), so the source said ``continue``."""
    return (loop is not None and t in loop.continue_targets and not region(t)
            and flips(test))


def continues_from_region_end(t, fall, region, loop):
    """Whether a test that jumps back to the loop's start when true, and
    falls past the end of ``region`` (a try body) when false, is
    ``if <test>: continue`` at the region's end: ``if not <test>:`` would
    hold the code that follows, which the region (the try) does not cover
    (3.12+ threads the ``continue`` into the test's jump)."""
    return loop is not None and t in loop.continue_targets and not region(t) and not region(fall)


def ends_statement(w, block):
    """Whether the jump ending ``block`` has the line of the code before
    it: the compiler's jump at the end of a statement (an if body's jump
    past its else, threaded on), not a ``continue`` on a line of its own."""
    k = block.end - 1
    return k > block.start and w.instrs[k].line is not None and w.instrs[k].line == w.instrs[k - 1].line


def branch_region(w, index, region):
    b = w.cfg.at(index)
    if b is None:
        return region
    dom = dominated_by(w, b)
    return both(region, dom)


def jumped_over_else(w, t, fl, region):
    """The blocks past an if/else, when the body falling through at ``t`` ends
    in a forward jump over the else branch at ``fl`` (``if c: a`` / ``else: raise``
    / ``b``): the compiler lays the body out before the else and jumps over it,
    so ``b`` follows the if statement. The body dominates ``b`` when the else
    never falls through, yet ``if c: a; b`` has no such jump (``b`` comes
    before the else), so the jump says what the programmer wrote."""
    if not t < fl <= w.n or fl < 1:
        return None
    j = w.instrs[fl - 1]
    if j.op != "JUMP" or not fl < j.target < w.n or not region(j.target):
        return None
    last = w.instrs[j.target - 1]
    if not (last.op in ("RETURN_VALUE", "RAISE_VARARGS", "RERAISE")
            or last.op == "JUMP" and (last.target < fl or not region(last.target))):
        # the else ends in a return, raise, continue or break; not a jump on
        # (``k if b or 0 else 1``: b's false way jumps over ``k`` to the ``1``)
        return None
    jb, target = w.cfg.containing(j.index), w.cfg.at(j.target)
    if target is None or not w.cfg.dominates(w.cfg.containing(t), jb):
        return None
    return dominated_by(w, target)


def returns_straight(w, index):
    """Whether the code at ``index`` returns a constant, or runs an
    inlined copy of a finally body and then only returns the value kept
    below the copy or a constant: the way out of a ``return`` in a try
    body, or a jump to a ``return <constant>`` (<=3.9 does not copy it
    into the branch: a ``break`` out of a loop that never loops back).
    Not the code after a try statement, which a return there would
    move into it."""
    past = past_finally_copies(w, index)
    if past >= w.n:
        return False
    if past != index and returns_at(w, past):
        return True
    return (past + 1 < w.n and w.instrs[past].op == "LOAD_CONST"
            and w.instrs[past + 1].op == "RETURN_VALUE")


def same_handler(w, a, b):
    """Whether the same exception handler (or none) covers the code at ``a``
    and at ``b``: the arms of one conditional expression are both inside a
    try body or both outside (3.11+ leaves an arm's copied exit, or the
    code after the try that the other arm jumps to, outside its range)."""
    return w.cfg.containing(a).handler == w.cfg.containing(b).handler


def in_lambda(w):
    """Whether the code is a lambda's, whose body is one expression."""
    code = getattr(w.ctx, "code", None)
    return code is not None and code.co_name == "<lambda>"


def jump_body_start(w, target, other, region, frame):
    """Whether an if body that is only a jump to ``target`` starts there:
    ``target`` lies in the region, or is the inlined copy of an enclosing
    finally body that a ``return``, ``break`` or ``continue`` in the body
    runs on its way out (the walk of a branch that falls into such a copy
    goes through it the same way), or the exit calls of enclosing with
    statements on the way to a ``return``; unless the other branch (at
    ``other``) also runs through such code straight into a ``return``:
    the two returns are alike, and the jump may as well be the end of
    the if (the code after it, the end of the try or with body, returns)."""
    if region(target):
        return True
    if not leaves_through_exit_code(w, target, frame, to_return=False):
        return False
    return not (isinstance(other, int) and leaves_through_exit_code(w, other, frame, to_return=True))


def leaves_through_exit_code(w, index, frame, to_return):
    """Whether the code at ``index`` is an inlined copy of a finally body
    (with ``to_return``, one that goes on straight into a ``return``) or
    the exit calls of with statements on the way to a ``return``."""
    if index in w.finally_copies:
        return not to_return or exits_then_return(w, past_finally_copies(w, index))
    return with_exit_call_at(w, index, frame) and exits_then_return(w, index)


def returns_past_outer_with_exits(w, ex, body, frame):
    """Whether a try body (walked into ``body``) that computed a returned value
    left (``ex``) after the exit call of the innermost enclosing with statement,
    which took that with's exit off the stack, for the exits of the others on
    the way to the ``return`` (``with a, b:`` / ``try: return x`` / ``finally:``)."""
    return (ex.kind == "leave" and len(body.stack) == len(frame.stack) and body.stack
            and isinstance(frame.stack[-1], V.WithExit) and not isinstance(body.stack[-1], V.WithExit)
            and with_exit_call_at(w, ex.target, body) and exits_then_return(w, ex.target))


def exits_then_return(w, index):
    """Whether the code at ``index`` only calls the exits of with
    statements (``__exit__(None, None, None)``) and returns: the way out
    of a ``return`` in their bodies, not their end followed by more code."""
    ins = w.instrs
    while True:
        k = index + 1 if index < w.n and (ins[index].op, ins[index].arg) == ("SWAP", 2) else index
        call = ins[k:k + 5]
        if not (len(call) == 5 and all((x.op, x.arg) == ("LOAD_CONST", None) for x in call[:3])
                and call[3].op == "CALL" and call[4].op == "POP_TOP"):
            break
        index = k + 5
    if index < w.n and ins[index].op == "LOAD_CONST":
        index += 1
    return index < w.n and ins[index].op == "RETURN_VALUE"


def conditional_with_one_arm(w, c: Cond, start, frame):
    """A test whose two ways go on at ``start`` in the middle of an
    expression: a conditional expression whose test ends in a constant
    (``x if a or 1 else y`` tests ``a``, then computes ``x``; ``y`` is dead
    code, which 3.12+ drops with the jump to the join). Push it, its value
    the first plain expression computed at ``start`` (any such split runs
    the same steps in the same order), and return the index after that
    value; None when there is none (an ``if a: pass`` statement then)."""
    # (the last test's jump tells the constant: ``a or b or 1`` ends in a jump if true)
    jump = w.instrs[max(w.cfg.blocks[k].end for k in c.blocks) - 1]
    b = w.cfg.at(start)
    if jump.op not in ("POP_JUMP_IF_TRUE", "POP_JUMP_IF_FALSE") or b is None:
        return None
    branch = frame.copy()
    branch.stmts = []
    k = start
    stops = list(expression_ends(w, start, b.end))
    for n, stop in enumerate(stops):
        for k in range(k, stop):
            E.execute(branch, w.instrs[k])
        k = stop
        # (not the NULL pushed before a callable, nor the defaults of a function made next)
        if isinstance(branch.stack[-1], (ast.expr, V.Function)) and not function_operand(w, stops, n):
            break
    else:
        return None
    if live(branch.stmts) or len(branch.stack) != len(frame.stack) + 1:
        return None
    value, dead = branch.pop_expr(), E.const(None)
    if jump.op == "POP_JUMP_IF_TRUE":  # ``a or True`` jumps to the body when a is true
        frame.push(ast.IfExp(test=bool_op(ast.Or, c.expr, E.const(True)), body=value, orelse=dead))
    else:  # ``a and False`` jumps to the else branch when a is false
        frame.push(ast.IfExp(test=bool_op(ast.And, c.expr, E.const(False)), body=dead, orelse=value))
    return stop


def function_operand(w, stops, n):
    """Whether the value pushed at ``stops[n]`` (from :func:`expression_ends`) is an
    operand of MAKE_FUNCTION (the defaults of ``lambda p=3: 0``), not an expression of
    its own: the step to the next end consumes all that is pushed from the start."""
    return n + 1 < len(stops) and w.instrs[stops[n + 1] - 1].op == "MAKE_FUNCTION"


def one_statement_returns(w, ends):
    """Whether the returns at ``ends`` (one per branch) are the copies of
    one ``return`` statement: ``return a if b else 0`` (3.12+: not the
    ``RETURN_CONST`` of a statement ``return 0``). A copy keeps the line
    of what it copies; two return statements have lines of their own, so
    the conditional expression is what was written there."""
    if all((w.instrs[k - 1].op, w.instrs[k - 1].arg) == ("LOAD_CONST", None) for k in ends):
        return False  # (copies of the implicit ``return None`` take the line of a jump to it)
    lines = {w.instrs[k].line for k in ends}
    return len(lines) == 1 and None not in lines


def takes_branch_value(tail):
    """Whether the straight ``tail`` (its last instruction a return or a
    raise of one value), run on the value a branch pushed, uses it: plain
    expression steps that leave just that value (or one computed from
    it) for the exit, or consume values from below with it. (A ``return
    x`` copied after an if statement's branches leaves their value unused.)"""
    depth = plain_steps_depth(tail[:-1], 1)
    return depth is BELOW or depth == 1


def exits_like(w, start, keys, limit=64):
    """The exits (``(op, arg)`` in ``keys``) that end blocks of the code
    from ``start`` (laid out from there, reached only through ``start``),
    in order."""
    head, entry = w.cfg.at(start), w.cfg.blocks[0]
    found = []
    b = head
    while b is not None and limit:
        if w.cfg.dominates(head, b):
            last = w.instrs[b.end - 1]
            if (last.op, last.arg) in keys:
                found.append(b.end - 1)
        elif w.cfg.dominates(entry, b):
            break  # (code others reach: the branch's code ends; a loop's exit
            # that the graph leaves unreached, 3.12+'s END_FOR, does not end it)
        b = w.cfg.at(b.end) if b.end < w.n else None
        limit -= 1
    return found


def private_start(w, start, cond_blocks, region):
    """Whether the block at ``start`` lies in ``region`` and is reached
    only from ``cond_blocks`` (no other code jumps into it)."""
    b = w.cfg.at(start)
    return not (b is None or not region(start) or b.exc_preds or pred_outside_extent(w, b, cond_blocks)
                or any(p.id not in cond_blocks for p in b.preds))


def split_candidates(w, start, end, join):
    """Where the copied tail of a branch from ``start`` to its return at
    ``end`` may start, in order: where plain expression steps have pushed
    one value; past ``join`` (where the branch's own control flow ends)
    any index, its value checked by :func:`branch_value`."""
    if join is None:
        return list(expression_ends(w, start, end))
    return list(range(join, end))


def private_run_to_return(w, start, cond_blocks, region):
    """(Index of the ``return``, or ``raise`` of a value: the compiler copies
    it the same way, that the code at ``start`` runs to, where the
    branch's own forward jumps have all joined or None when it has none)
    for code reached only from ``cond_blocks`` (no other code jumps into
    it); or None. A run through more than ``RUN_BLOCKS`` blocks is no copy the compiler
    made (it copies small exit blocks): None, without scanning on (an elif chain's else
    branch runs through the rest of the chain, at each of its levels)."""
    if not private_start(w, start, cond_blocks, region):
        return None
    b = w.cfg.at(start)
    blocks_left = RUN_BLOCKS
    # each block the run enters is checked as it is entered: a run that
    # another jump enters ends the scan there (sequential ifs: the next
    # if's test, entered from the jump over this body - scanning on to
    # the function's return from every body was quadratic)
    run = {b.id}
    k = start
    join = None
    while k < w.n and w.instrs[k].op not in (
            "RETURN_VALUE", "RAISE_VARARGS", "RERAISE", "FOR_ITER", "YIELD_VALUE"):
        ins = w.instrs[k]
        if ins.target is not None:
            # (an and/or, a conditional expression, a chained comparison
            # inside the branch's value: forward jumps that join before the return)
            if ins.op not in CONDITIONAL_JUMPS and ins.op != "JUMP" or ins.target <= k:
                return None
            join = max(join or 0, k + 1, ins.target)
        k += 1
        if k == b.end and k < w.n:
            b, blocks_left = w.cfg.at(k), blocks_left - 1
            if b is None or not blocks_left or b.exc_preds or any(p.id not in run for p in b.preds):
                return None
            run.add(b.id)
    if k >= w.n or join is not None and join > k or not (
            w.instrs[k].op == "RETURN_VALUE"
            or w.instrs[k].op == "RAISE_VARARGS" and w.instrs[k].arg
            or (w.instrs[k].op, w.instrs[k].arg) == ("RERAISE", 0)):
        return None  # (3.12+ copies a finally body's closing re-raise the same way)
    return k, join


def pred_outside_extent(w, b, blocks) -> bool:
    """Whether a predecessor of block ``b`` starts outside the extent of ``blocks``
    (then it is not one of them): asked of the block after an ``and``/``or`` chain
    once per link, which every link jumps to, and answered from the predecessors'
    first and last start (kept per block: the graph does not change), not by a scan."""
    span = w._pred_span.get(b.id)
    if span is None:
        starts = [p.start for p in b.preds]
        span = w._pred_span[b.id] = (min(starts), max(starts)) if starts else None
    return span is not None and not (blocks.start <= span[0] and span[1] < blocks.end)


def expression_ends(w, start, stop):
    """Indices in ``(start, stop)`` where the plain expression steps from
    ``start`` have pushed exactly one value (never consuming one pushed
    before ``start``), in order."""
    depth = 0
    for k in range(start, stop):
        pp = pops_pushes(w.instrs[k])
        if w.instrs[k].op == "GET_ITER":
            pp = (1, 1)  # (a generator expression's argument: a for loop's goes on to FOR_ITER)
        if k + 1 < stop and is_walrus_store(w.instrs, k + 1) and depth:
            pp = (0, 1)  # a walrus's ``COPY 1``, its store below drops the copy
        elif is_walrus_store(w.instrs, k) and depth > 1:
            pp = (1, 0)
        if pp is None or pp[0] > depth or w.instrs[k].op in ASYNC_OPS:
            return  # (an await is the walker's to fold)
        depth += pp[1] - pp[0]
        if depth == 1:
            yield k + 1


def consumes_earlier_value(tail):
    """Whether plain expression steps in ``tail``, run on one new value,
    consume a value pushed before it: only an expression can go on so."""
    return plain_steps_depth(tail, 1) is BELOW


def shared_try(w, index, block_ids):
    """Whether a try statement starts at ``index`` that blocks other
    than ``block_ids`` also lead to."""
    b = w.cfg.at(index)
    return (b is not None and new_try(w, b) is not None
            and any(not block_ids.holds(p) for p in b.preds))


def reached_past(w, start, target, avoid: BlockIds, region):
    """Whether the code at ``start`` runs on into ``target`` (through
    blocks of ``region``, not through ``avoid``): then ``target`` is where
    two ways meet, e.g. the end of an if whose empty branch jumps there
    (a ``break`` out of a loop that never loops back: the loop is gone),
    not a branch's own code."""
    seen, work = set(), [start]
    while work:
        i = work.pop()
        if i == target:
            return True
        b = w.cfg.at(i)
        if i in seen or b is None or avoid.holds(b) or not region(i):
            continue
        seen.add(i)
        work.extend(x.start for x in b.succs)
    return False


def breaks_into_exit_copy(w, k, frame, loop):
    """Whether the POP_TOP at ``k`` drops the for loop's iterator and goes on into a
    copy of the small exit the loop's ``break`` goes to (3.10+ copies it into the
    ``break``): ``break`` was written. ``return x`` in the loop computes ``x`` before
    it drops the iterator; a constant's return (``POP_TOP; RETURN_CONST``) compiles
    alike either way."""
    if not (COPIES_EXIT_BLOCKS and loop is not None and loop.break_target is not None
            and frame.stack and isinstance(frame.stack[-1], V.Iterator)
            and w.instrs[loop.header].op == "FOR_ITER"):
        return False
    copy = exit_copy(w, k + 1)
    return copy is not None and copy == exit_copy(w, loop.break_target)


def broke_into_copy(w, exit_, frame, region, loop):
    """``exit_``, or END after a ``break`` in ``frame`` when the branch
    leaves the region into a copy of the code after the loop (3.10+
    copies a small exit block into the ``break`` that jumps to it)."""
    if (exit_.kind == "leave" and loop is not None and loop.break_target is not None
            and exit_.target != loop.break_target and not region(exit_.target)
            and COPIES_EXIT_BLOCKS and same_code(w, exit_.target, loop.break_target)):
        frame.emit(ast.Break())
        return END
    return exit_


def returned_before_dead_copy(w, exit_, other, frame):
    """``exit_``, or END after a bare ``return`` in ``frame`` when the
    branch leaves into a copy of a finally body that never completes and
    the other branch (which goes to ``other``) does not: a ``return``
    there compiles to the copy alone, like the ``break``, ``continue``
    or ``return <constant>`` it may have been (their jumps are dead)."""
    if (exit_.kind == "leave" and exit_.target in w.dead_end_copies
            and not (other is not None and same_place(w, exit_.target, other))):
        frame.emit(ast.Return(value=None))
        return END
    return exit_


def returned_into_dead_copy(w, exit_, frame, depth):
    """``exit_``, or END after emitting ``return <value>`` into ``frame``
    when control leaves into a copy of a finally body that never
    completes with one value more than ``depth`` on the stack: the value
    a ``return`` computed before its finally runs (and raises)."""
    if (exit_.kind == "leave" and exit_.target in w.dead_end_copies
            and len(frame.stack) == depth + 1):
        frame.emit(ast.Return(value=frame.pop_expr()))
        return END
    return exit_


def returned_instead(w, branch, target):
    """3.8/3.9: whether ``branch``, a lone ``return <value>``, stands for
    a conditional expression's branch whose jump to the ``return`` at
    ``target`` the peephole optimizer replaced by a return."""
    return (only_return(w, branch) and isinstance(target, int) and target < w.n
            and w.instrs[target].op == "RETURN_VALUE")


def exit_instead(w, branch, start, target, frame):
    """The value of ``branch`` (walked from ``start`` in a copy of
    ``frame``) when it stands for a conditional expression's branch whose
    jump to the exit at ``target`` the compiler replaced by a copy of
    it: a lone ``return <value>`` (see :func:`returned_instead`) or
    ``raise <value>`` (3.10+ copies a small ``raise``: ``raise a and (0
    if b else c)``), or the value and a copy of the straight code from
    ``target`` to its exit (``raise E(a and (0 if b else c))``); else None."""
    if returned_instead(w, branch, target):
        return live(branch.stmts)[0].value
    if not isinstance(target, int) or target >= w.n:
        return None
    if only_raise(w, branch) and (w.instrs[target].op, w.instrs[target].arg) == ("RAISE_VARARGS", 1):
        return live(branch.stmts)[0].exc
    return value_before_copied_exit(w, start, target, frame) if COPIES_EXIT_BLOCKS else None


def value_before_copied_exit(w, start, target, frame):
    """The value computed from ``start`` by plain expression steps that go
    on with a copy of the straight code from ``target`` to a ``return``
    or ``raise <value>`` (or a finally body's closing re-raise, whose code
    3.10+ copies too: ``finally: x = c and (1 if b else 2)``), or None."""
    end = straight_to_exit(w, target, reraise=True)
    if end is None:
        return None
    k = straight_to_exit(w, start, reraise=True)
    split = None if k is None else k - (end - target)
    if split is None or split <= start or split not in set(expression_ends(w, start, k)):
        return None
    if [(i.op, i.arg) for i in w.instrs[split:k + 1]] != [(i.op, i.arg) for i in w.instrs[target:end + 1]]:
        return None
    branch = frame.copy()
    branch.stmts = []
    try:
        for i in range(start, split):
            E.execute(branch, w.instrs[i])
    except DecompilationError:
        return None
    if live(branch.stmts) or len(branch.stack) != len(frame.stack) + 1:
        return None
    return branch.pop_expr()


def takes_value_from_below(w, start):
    """Whether the straight code from ``start`` to its return or raise
    consumes a value computed before ``start`` (as where the branches of
    a conditional expression meet)."""
    stores = ("STORE_FAST", "STORE_NAME", "STORE_GLOBAL", "STORE_DEREF")
    if w.instrs[start].op in stores:
        return True  # ``x = <value>`` then the return: the value is stored
    if ((w.instrs[start].op, w.instrs[start].arg) == ("COPY", 1) and start + 1 < w.n
            and w.instrs[start + 1].op in stores):
        return True  # ``x = y = <value>``
    depth = plain_steps_depth(w.instrs[start:straight_to_exit(w, start)], 0)
    return depth is BELOW or depth == 0  # (the return or raise takes one value)


def straight_to_exit(w, start, reraise=False):
    """Index of the ``return`` (or ``raise <value>``; with ``reraise``, or
    a finally body's closing re-raise) that the code at ``start`` runs
    straight to, in one block; or None."""
    b = w.cfg.at(start)
    if b is None:
        return None
    k = b.end - 1
    ins = w.instrs[k]
    if not (ins.op == "RETURN_VALUE" or ins.op == "RAISE_VARARGS" and ins.arg == 1
            or reraise and (ins.op, ins.arg) == ("RERAISE", 0)):
        return None
    if any(x.target is not None or x.op in ASYNC_OPS or x.op in w.special for x in w.instrs[start:k]):
        return None
    return k


def return_joined_from_before(w, index):
    """Whether a ``return`` (or ``raise``) after ``index`` is reached
    with its value from code before ``index`` as well (a conditional
    expression's branches meet there); cheap test before walking a
    branch twice."""
    if w._return_joins is None:
        # (start, first predecessor) of each block that is only a return
        w._return_joins = [(b.start, min(p.start for p in b.preds)) for b in w.cfg.blocks
                              if b.preds and straight_to_exit(w, b.start, reraise=True) is not None
                              and takes_value_from_below(w, b.start)]
    return any(start > index > first for start, first in w._return_joins)


def only_raise(w, frame):
    """Whether ``frame`` holds nothing but one ``raise <value>``."""
    stmts = live(frame.stmts)
    return (len(stmts) == 1 and isinstance(stmts[0], ast.Raise) and stmts[0].exc is not None
            and stmts[0].cause is None and not getattr(stmts[0], "_reraise", False))


def ends_in_exit(w, frame, reraise=False):
    """Whether ``frame``'s statements end in a ``return`` or ``raise <value>``
    (a copy of the code from where a conditional expression's branches meet
    to its exit: ``x = 1 if b else 2; return x``); with ``reraise``, or in
    a finally body's closing re-raise (the compiler's, see :func:`block`)."""
    stmts = live(frame.stmts)
    return bool(stmts) and (isinstance(stmts[-1], ast.Return) and stmts[-1].value is not None
                            or isinstance(stmts[-1], ast.Raise) and stmts[-1].exc is not None
                            or reraise and getattr(stmts[-1], "_reraise", False))


def only_return(w, frame):
    """Whether ``frame`` holds nothing but one ``return <value>``."""
    stmts = live(frame.stmts)
    return len(stmts) == 1 and isinstance(stmts[0], ast.Return) and stmts[0].value is not None


def make_if(w, test, body, orelse):
    if not body:
        if orelse:
            return ast.If(test=negate(test), body=orelse, orelse=[])
        body = [ast.Pass()]
    # ``assert`` compiles to a jump over ``raise AssertionError`` (an assert on a
    # line of its own under the test stays inside the if: tidy writes it ``assert False``)
    if (not orelse and len(body) == 1 and isinstance(body[0], ast.Raise)
            and is_assert_raise(w, body[0]) and assert_line_mark(body[0]) != "own line"):
        # (an if's test is never merged with the test of an assert "under if":
        # see pure_condition and crosses_assert_test)
        exc = body[0].exc
        msg = exc.args[0] if isinstance(exc, ast.Call) and exc.args else None
        return ast.Assert(test=negate(test), msg=msg)
    return ast.If(test=unflip_negations(test), body=body, orelse=orelse)


def crosses_assert_test(w, c: Cond):
    """Whether the test ``c`` holds the test of an assert under an if
    (:func:`assert_tests_under_if`) and code before it: the if's test."""
    return any(c.blocks.start < s < c.blocks.end and c.blocks.holds(w.cfg.at(s))
               for s in w.assert_tests)


def is_assert_raise(w, node):
    exc = node.exc
    if isinstance(exc, ast.Call):
        exc = exc.func
    return getattr(exc, "_assertion", False) and node.cause is None


def returns_through_finally_copy(w, index, frame):
    """Whether the code at ``index`` is an inlined copy of a finally body
    that goes on to return the value on top of ``frame``'s stack: ``return
    a or b`` in a try body, whose value meets at the copy (outside the try
    body's range); the walk goes through the copy to the return (:func:`walk`)."""
    past = past_finally_copies(w, index)
    return past != index and bool(frame.stack) and returns_at(w, past)


def operand_in_copied_exit(w, ex, branch, target, frame):
    """The value of an and/or's right operand whose walk into ``branch``
    ended in a copy of the straight code from ``target`` (where the left
    operand jumps) to a ``return`` or ``raise <value>``: 3.10+ copies that
    code into a path of the operand whose own jumps it folded (the true
    path of a chained comparison: ``raise E(a or 2 > c < b)``). It is the
    part of the copy's statement where the code at ``target`` uses the
    value it is given; None when the statement is not such a copy."""
    if ex.kind != "end" or not COPIES_EXIT_BLOCKS or not isinstance(target, int) or target >= w.n:
        return None
    end = straight_to_exit(w, target, reraise=True)  # (3.12+ copies a finally body's end too)
    stmts = live(branch.stmts)
    if end is None or not stmts or not isinstance(stmts[-1], (ast.Return, ast.Raise)):
        return None
    probe = frame.copy()
    probe.stmts = []
    hole = ast.Name(id="_unveil_operand", ctx=ast.Load())
    probe.push(hole)
    try:
        for k in range(target, end):
            E.execute(probe, w.instrs[k])
        if w.instrs[end].op == "RERAISE":
            probe.emit(ast.Raise(exc=None, cause=None))  # (as block() writes it)
        else:
            E.execute(probe, w.instrs[end])
    except DecompilationError:
        return None
    if len(probe.stack) != len(branch.stack):
        return None
    return value_of_exits(stmts, live(probe.stmts), hole)


def operand_region(w, start, target, region):
    """Where the walk of an and/or's right operand from ``start`` (its
    left operand jumping to ``target``) may go."""
    if region(start) or not start < target:
        return branch_region(w, start, region)
    # the operand is also reached by a test before the and/or whose jump
    # the compiler threaded into it (``(a or b) and c`` jumps from ``a``
    # straight to ``c``): it lies outside the region of that test's
    # branch, and runs up to where its value meets the left operand's
    return both(lambda i: start <= i < target, dominated_by(w, w.cfg.at(start)))


def short_circuit_meet(w, ex, target, last):
    """Where the value of the and/or ending in ``last`` (whose left
    operand jumps to ``target``) goes on, given the exit ``ex`` of its
    right operand's walk; None when they do not meet."""
    if ex.kind != "leave" or not isinstance(ex.target, int):
        return None
    if ex.target == target or follow_jumps(w, ex.target) == follow_jumps(w, target):
        return target  # (``target`` may be a lone jump the right operand jumps past)
    if past_finally_copies(w, target) == ex.target:
        # ``return a or b`` in a try body: the value meets at the start of the
        # finally body's inlined copy, which the right operand's walk skips
        return target
    t = ex.target
    if (t < w.n and w.instrs[t].op == last.op
            and follow_jumps(w, w.instrs[t].target) == follow_jumps(w, target)):
        # the right operand falls into a second test of the value by the same
        # operator, which the left operand's jump was threaded past:
        # ``(c if x else a or b) or d``; the compiler threads it again
        return t
    return None


def dropped_value_end(w, start, target):
    """Where the right operand of an and/or from ``start`` ends, when its
    value is dropped (``POP_TOP``) and the code after that is a copy of
    the code after the ``POP_TOP`` at ``target``, where the left operand
    goes; else None."""
    if not (COPIES_EXIT_BLOCKS and target + 1 < w.n and w.instrs[target].op == "POP_TOP"):
        return None
    for k in expression_ends(w, start, target):
        if w.instrs[k].op != "POP_TOP":
            continue
        key = legacy_key(w, k + 1)
        if key != legacy_key(w, target + 1):
            return None
        # (the same return or raise; or jumps to the same place: 3.12+ copies a
        # loop body's jump back, ``for x in a: b or f()``)
        return k if isinstance(key, tuple) or w.instrs[k + 1].op == "JUMP" else None
    return None


def drops_kept_operand(w, target):
    """Whether the block at ``target`` starts by dropping the operand a
    chained comparison keeps on the stack (``SWAP 2; POP_TOP``)."""
    ins = w.instrs
    return (target + 1 < w.n and ins[target].op == "SWAP" and ins[target].arg == 2
            and ins[target + 1].op == "POP_TOP")
