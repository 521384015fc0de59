"""The walk: from an index, one block after another until control leaves the
region, handing each block's last instruction to its construct (a loop header to loops.loop_at,
a new try to tries.try_, a conditional jump to branches.branch, a ``SETUP_*`` to
legacy.setup_block, ...) and running the plain steps in between with
:func:`..expressions.execute`. :func:`structure` is the structurer's entry point.

Its one choice (docs/decompiler.md, "The choices"): a ``while True:`` whose body always breaks
or returns has no back edge, so it is not a natural loop; when a walk fails with "if branches end
in different places" from a block that jumps forward to a join only jumps reach, the walk is
undone and tried again as such a loop ending at that join (:func:`loopless_while`; at most 8
tries per code object, see :func:`loopless_while_ends`).
"""
import ast
from functools import partial
from typing import List, Optional

from .. import expressions as E
from .. import values as V
from ..cfg import Block
from ..depth import Nested
from ..errors import DecompilationError
from ..stream import CONDITIONAL_JUMPS
from .regions import END, Exit, Loop
from .statement_parts import (POP_JUMPS, TestStop, consumes_kept, continue_to, is_written_continue,
                              statements_fit_test)
from .state import Snapshot, Walk, dominated_by, fail
from .jumps import (ASYNC_OPS, conditional_value_join, is_loop_header, past_finally_copies, returns_at,
                    same_place, stops_at_test, tests_kept_for_none, thread)
from .with_facts import covered_by
from .finally_copies import after_name_cleanup, new_try
from .loop_facts import loop_back_sources
from .branch_facts import breaks_into_exit_copy, ends_statement
from .legacy import install, setup_block
from .withs import with_
from .loops import loop_at
from .asyncs import async_op
from .branches import branch
from .tries import _push_exc_info, try_
from .match import MATCH_OPS, match_op
from .comprehensions import inlined_comprehension


def run(w) -> List[ast.stmt]:
    frame = E.Frame(w.ctx)
    ex = w.walk(0, frame, lambda i: True, None)
    if ex.kind == "leave" and ex.target < w.n:
        fail(w, "control left the function body", ex.target)
    return frame.stmts


def walk(w, start: int, frame: E.Frame, region, loop: Optional[Loop],
         skip_header=None) -> Exit:
    """Structure the code from ``start`` into ``frame`` until control
    leaves ``region`` or ends."""
    with Nested(lambda: where(w, start)):
        if not jump_joins_after(w, start) or not all(isinstance(v, V.Iterator) for v in frame.stack):
            return _walk(w, start, frame, region, loop, skip_header)
        state, stack, pending = Snapshot(w), list(frame.stack), list(frame.pending)
        kept = len(frame.stmts)
        try:
            return _walk(w, start, frame, region, loop, skip_header)
        except DecompilationError as e:
            if not str(e).startswith("if branches end in different places"):
                raise
            for target in loopless_while_ends(w, start, region):
                state.restore()
                del frame.stmts[kept:]
                frame.stack[:] = list(stack)
                frame.pending = list(pending)
                try:
                    return loopless_while(w, start, target, frame, region, loop, skip_header)
                except DecompilationError:
                    pass
            raise


def jump_joins_after(w, start):
    """Whether a block after ``start`` is reached only by jumps (see
    :func:`loopless_while_ends`): then a walk from there may need them."""
    if w._jump_joins is None:
        w._jump_joins = [b.start for b in w.cfg.blocks
                            if len(b.preds) > 1 and not b.exc_preds
                            and all(p.end != b.start and p.start < b.start for p in b.preds)]
    return bool(w._jump_joins) and w._jump_joins[-1] > start


def loopless_while_ends(w, start, region, limit=4):
    """Where a ``while True:`` from ``start`` that never loops back could
    go on: a block after it that only forward jumps (its breaks) reach,
    each from code that ``start`` leads to; the code before it never
    falls into it (the body ends in ``return``/``raise``)."""
    head = w.cfg.containing(start)
    if head.start != start or w._loopless_tries > 8:
        return []  # (each try walks the code again, from each enclosing walk: a budget keeps it linear)
    dom = dominated_by(w, head)
    active = w._loopless
    found = [t for t in w._jump_joins if t > start and region(t) and (start, t) not in active
             and all(dom(p.start) and region(p.start) and p.start < t for p in w.cfg.at(t).preds)]
    return found[::-1][:limit]  # (the furthest first: a loop's breaks go past its body)


def loopless_while(w, start, target, frame, region, loop, skip_header):
    """``while True:`` whose body always breaks or returns: the bytecode
    has no jump back, its breaks are forward jumps to ``target``, which
    the walk of plain code took for if branches ending in different
    places. The body is walked as a loop's whose ``break`` goes there."""
    w._loopless_tries += 1
    w._loopless.add((start, target))
    try:
        body = frame.copy()
        body.stmts = []
        inner = Loop(frozenset(), target, start)
        ex = _walk(w, start, body, lambda i: region(i) and i < target, inner, skip_header)
    finally:
        w._loopless.discard((start, target))
    if ex.kind == "leave":
        if not same_place(w, ex.target, target):
            fail(w, "loop body leaves the loop", min(ex.target, w.n - 1))
        body.emit(ast.Break())
    stmts = body.stmts
    k = 0
    while k < len(stmts) - 1 and not any(isinstance(x, ast.Break) for x in ast.walk(stmts[k])):
        frame.emit(stmts[k])  # (code before the first break runs once either way)
        k += 1
    frame.emit(ast.While(test=E.const(True), body=stmts[k:], orelse=[]))
    return _walk(w, target, frame, region, loop)


def where(w, index):
    """(function, offset, instruction) of ``index``, for an error."""
    ins = w.instrs[index] if 0 <= index < w.n else None
    return w.ctx.name, ins.offset if ins else None, ins.op if ins else None


def _walk(w, start: int, frame: E.Frame, region, loop: Optional[Loop],
          skip_header=None) -> Exit:
    i = start
    first = True
    seen = set()
    while True:
        if loop is not None and not first and i in loop.continue_targets:
            return Exit("leave", i)  # (back at the loop's header: also when the walk began there)
        if i in seen:
            # a path back to code this walk already structured, outside
            # any loop found: refuse rather than loop forever
            fail(w, "control flow returns to structured code", i if i < w.n else w.n - 1)
        seen.add(i)
        if i in w.dead_end_copies:
            # the inlined copy of a finally body that raises or returns:
            # the try body ends here, whether by falling, ``break``,
            # ``continue`` or ``return <constant>`` (the same bytecode)
            return Exit("leave", i)
        # an inlined copy of a finally body we already decompiled
        past = past_finally_copies(w, i)
        if past != i and frame.stack and returns_at(w, past) and not joined_from_outside(w, i, region):
            # ``return value`` inside a try/finally: the compiler runs the
            # finally's copy between computing the value and returning it
            res = w.block(w.cfg.containing(past), frame, region, loop, start=past)
            if isinstance(res, Exit):
                return res
        i = past
        if i >= w.n:
            return Exit("leave", i)
        if not first and not region(w.cfg.containing(i).start) and not uncovered_test(w, i, region):
            # a lone jump just outside (3.12 leaves a try body's last
            # jump uncovered) still says continue or break
            return lone_jump_out(w, i, frame, region, loop)
        if loop is not None and not first:
            if i in loop.continue_targets:
                return Exit("leave", i)
        block = w.cfg.at(i)
        if block is None:
            # resuming after a skipped finally copy that ends mid-block
            res = w.block(w.cfg.containing(i), frame, region, loop, start=i)
            if isinstance(res, Exit):
                return res
            i = res
            first = False
            continue
        h = new_try(w, block)
        is_header = (block.start != skip_header and is_loop_header(w, block)
                     and block.start not in w.active_loops)
        if h is not None and is_header and not all(
                covered_by(w, b.start, h) for b in loop_back_sources(w, block)):
            h = None  # the try is inside the loop: the loop comes first
        if h is not None:
            w.open_tries.add(h)
            try:
                nxt = try_(w, block, h, frame, region, loop)
            finally:
                w.open_tries.discard(h)
            if isinstance(nxt, Exit):
                return nxt
            i = nxt
            first = False
            continue
        if is_header:  # (as found above: nothing in between changes it)
            nxt = loop_at(w, block, frame, loop)
            if nxt is None:
                return END
            i = nxt
            first = False
            skip_header = None
            continue
        first = False
        skip_header = None
        res = w.block(block, frame, region, loop)
        if isinstance(res, Exit):
            return res
        i = res


def lone_jump_out(w, i, frame, region, loop):
    """Leaving ``region`` for ``i``: a ``continue`` or ``break`` when
    only a jump to the loop's start or way out (and the pop of a for
    loop's iterator) is there, else an :class:`Exit` to ``i``."""
    t, pops = thread(w, i)
    if loop is not None and t != i and not region(t) and (
            t in loop.continue_targets or t == loop.break_target):
        if pops and frame.stack and isinstance(frame.stack[-1], V.Iterator):
            frame.pop()  # ``break`` drops the loop's iterator
        elif pops:
            return Exit("leave", i)
        return w.transfer(t, frame, region, loop)
    return Exit("leave", i)


def joined_from_outside(w, index, region):
    """Whether code outside ``region`` jumps to the block at ``index`` too:
    a conditional expression's arms meet there (``return b if a else 0``
    in a try/finally), each arm's walk ends there, not past it."""
    b = w.cfg.at(index)
    return b is not None and any(not region(p.start) for p in b.preds)


def uncovered_test(w, index, region):
    """Whether the block at ``index`` is a lone conditional jump that the
    code just before it, in ``region``, falls into: the test of a value
    that code computed, left out of a try body's protected range as a
    jump cannot raise (3.11+: ``elif f(x): continue`` ending a try body)."""
    b = w.cfg.at(index)
    if (b is None or b.end - b.start != 1 or w.instrs[index].op not in POP_JUMPS
            or b.exc_preds or len(b.preds) != 1):
        return False
    p = b.preds[0]
    return p.end == index and region(p.start)


def transfer(w, target: int, frame, region, loop, implied=False) -> object:
    """A jump to ``target``: a continue, a break, or just the next place
    (``implied``: no ``continue`` of its own, see :func:`continues_as_else`)."""
    if loop is not None:
        if target in loop.continue_targets and not region(target):
            node = continue_to(target, loop)
            # (a jump the loop's shape makes written is never an implied one)
            node._implied = implied and not is_written_continue(node)
            frame.emit(node)
            return END
        if target == loop.break_target and not region(target):
            frame.emit(ast.Break())
            return END
    if not region(target):
        return Exit("leave", target)
    return target


def block(w, block: Block, frame, region, loop, start=None):
    """Run one block (from ``start`` when given); return the next index
    or an :class:`Exit`."""
    instrs = w.instrs
    last = instrs[block.end - 1]
    stop = block.end - 1 if (last.target is not None or last.op in (
        "RETURN_VALUE", "RAISE_VARARGS", "RERAISE", "BEFORE_WITH",
        "BEFORE_ASYNC_WITH")) else block.end
    halt = w._halt
    if halt is not None and (block.start if start is None else start) <= halt < block.end:
        stop = halt
    for k in range(block.start if start is None else start, stop):
        ins = instrs[k]
        if ins.op == "LOAD_FAST_AND_CLEAR":
            return inlined_comprehension(w, ins, frame, region, loop)
        if ins.op in ASYNC_OPS:
            return async_op(w, ins, frame, region, loop)
        if ins.op in MATCH_OPS:
            return match_op(w, ins, frame, region, loop)
        if ins.op in SPECIAL:
            r = SPECIAL[ins.op](w, ins, frame, region, loop)
            if r is not None:
                return r
            continue
        if ins.op == "POP_TOP" and breaks_into_exit_copy(w, k, frame, loop):
            frame.pop()
            frame.emit(ast.Break())
            return END
        E.execute(frame, ins)
        if w._stops and w._stops[-1][0] is frame and consumes_kept(frame, w._stops[-1][1]):
            return Exit("stop", k + 1)  # see chain_operand
        if (w._stops and w._stops[-1][0] is frame and isinstance(w._stops[-1][1], TestStop)
                and not statements_fit_test(frame.stmts, frame.stack)):
            # (short_circuit_operand: code that is no test's operand; not walked further)
            fail(w, "statement in a test's operand", k)
    if stop == halt:
        return Exit("leave", halt)
    if stop == block.end:
        return block.end if block.end < w.n else Exit("leave", block.end)
    op = last.op
    if op in ("RETURN_VALUE", "RAISE_VARARGS"):
        E.execute(frame, last)
        return END
    if op == "RERAISE":
        node = ast.Raise(exc=None, cause=None)
        node._reraise = True  # the compiler's, not a ``raise`` in the source
        node._index = last.index
        frame.emit(node)
        return END
    if op in ("BEFORE_WITH", "BEFORE_ASYNC_WITH"):
        return with_(w, last, frame, region, loop)
    if op == "JUMP":
        if (loop is not None and last.target > last.index
                and last.target in loop.continue_targets and not region(last.target)):
            # ``continue`` is a jump back to the loop's start (3.11+:
            # to the test on top, not its copy at the bottom): a jump
            # forward to the loop's test is the end of the body (of an
            # if/else's first branch, say)
            return Exit("leave", last.target)
        if (loop is not None and not region(last.target) and thread(w, last.target)[0] != last.target
                and last.target not in loop.continue_targets and last.target != loop.break_target
                and not uncovered_test(w, last.target, region)):
            # a jump to a lone jump just outside (``if c: continue`` ending a
            # try body, 3.12: the ``continue`` lies past the protected range)
            return lone_jump_out(w, last.target, frame, region, loop)
        return w.transfer(last.target, frame, region, loop, implied=ends_statement(w, block))
    if (op in POP_JUMPS and w._stops and w._stops[-1][0] is frame and stops_at_test(w, frame)
            and conditional_value_join(w, block) is None):
        return Exit("stop", block.end - 1)  # see short_circuit_operand
    if op in ("POP_JUMP_IF_NONE", "POP_JUMP_IF_NOT_NONE") and tests_kept_for_none(w, frame):
        # ``0 < k is None`` (3.11+): the chain's last link tests the kept
        # operand itself, with no comparison to stop at; the link is read
        # by _reduce_condition (tests_kept_operand_for_none), while a walk
        # on would take the jump for an if statement's (and, in a loop's
        # test, find that same test again without end)
        fail(w, "chained comparison's operand tested for None", last.index)
    if op in CONDITIONAL_JUMPS:
        return branch(w, block, frame, region, loop)
    if op == "FOR_ITER":
        fail(w, "for loop without a loop", last.index)
    if op in ("SETUP_FINALLY", "SETUP_WITH", "SETUP_ASYNC_WITH"):
        return setup_block(w, last, frame, region, loop)
    if op == "CALL_FINALLY":
        # 3.8: the finally body it calls is decompiled once, in the
        # statement's ``finally:`` (legacy.py); go on after it
        return block.end if block.end < w.n else Exit("leave", block.end)
    if op in ASYNC_OPS:
        return async_op(w, last, frame, region, loop)
    if op in MATCH_OPS:
        return match_op(w, last, frame, region, loop)
    fail(w, "unsupported control flow", last.index)


def _pop_except(w, ins, frame, region, loop):
    # leaving a handler: the saved exception below is dropped
    after = after_name_cleanup(w, ins.index + 1)
    if (len(frame.stack) == w._clause_tails.get(after)
            and isinstance(frame.stack[-1], V.Exception_)):
        # the except clause falls into the code after the try statement, with
        # no value of its own (``return x`` would have one below the exception)
        frame.stack.pop()
        return Exit("leave", after)
    for k in range(len(frame.stack) - 1, -1, -1):
        if isinstance(frame.stack[k], V.Exception_):
            del frame.stack[k]
            break
    return None


SPECIAL = {
    "POP_EXCEPT": _pop_except,
    "PUSH_EXC_INFO": _push_exc_info,
}
install(SPECIAL)  # the <=3.10 block-stack instructions (POP_BLOCK, END_FINALLY, ...)


def structure(ctx, program) -> List[ast.stmt]:
    """The statements of ``program`` (the instruction stream of one code object), structured."""
    w = Walk(ctx, program)
    w.walk, w.block, w.transfer = partial(walk, w), partial(block, w), partial(transfer, w)
    w.special = SPECIAL
    try:
        return run(w)
    finally:
        # (the entry points hold w: with the cycle broken, the walk's graphs and tables are
        # freed here, not by the cycle collector, which api.py pauses while it decompiles)
        w.walk = w.block = w.transfer = None
