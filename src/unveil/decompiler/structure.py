"""Structuring: control-flow graph + symbolic stack -> ``ast`` statements.

The walker follows the graph from a block, executing straight-line code with
:mod:`expressions`, and turns branches into ``if``/``while``/``for``/``try``/
``with`` by looking at the graph, not at instruction patterns:

* an ``if``'s branches are the blocks its successors dominate; the branches
  end where they leave that region, and the point both reach is the follow;
* conditions joined by ``and``/``or`` are successive condition blocks that
  share a target, merged before the ``if`` is built;
* loops are natural loops (a back edge goes to a block that dominates it);
* ``try`` bodies are the blocks the exception table sends to one handler.

Every walk has a *region*: leaving it (by falling or jumping outside) ends the
walk and reports where control went, so the caller decides what the exit
means (the follow of an ``if``, a ``break``, a ``continue``).
"""
import ast
from typing import Callable, List, Optional

from . import expressions as E
from . import values as V
from .cfg import CFG, Block
from .depth import Nested
from .regions import (END, CoveredBy, Exit, Loop, both, bool_op, join_operands, chain_compare, chain_into, chains_into,
                      is_chain, leaves_reraise, negate, strip_name_cleanup, strip_tail_reraise, unflip_negations)
from .errors import DecompilationError
from .function import last_return_into_else
from .asyncs import ASYNC_OPS, AsyncConstructs
from .exceptstar import ExceptStarClauses
from .inline import InlinedComprehensions
from .instructions import (COPIES_EXIT_BLOCKS, CONDITIONAL_JUMPS, HANDLERS_LAID_OUT_LAST,
                           LONE_JUMP_IS_BODY, TERMINATORS, WHILE_BODY_FALLS_FROM_TEST,
                           WHILE_TEST_COPIED_AT_BOTTOM,
                           is_walrus_store, operand_pops_pushes, pops_pushes)
from .legacy import LegacyBlocks
from .match import MATCH_OPS, MatchStatements, Poison


class BlockIds:
    """The ids of the blocks a condition spans, as the union of the parts
    merged into it: a union links its parts instead of copying them (the
    links of a chain of n conditions, each merged with those below it, would
    copy n^2 ids). The extent of the blocks and the handlers covering them
    are kept up to date; membership looks at the extent first, then at the
    ids, flattened once."""
    __slots__ = ("parts", "start", "end", "handlers", "_flat")

    def __init__(self, block=None):
        self._flat = None
        if block is not None:
            self.parts = (block.id,)
            self.start, self.end = block.start, block.end
            self.handlers = frozenset((block.handler,))

    def __or__(self, other):
        if not isinstance(other, BlockIds):
            raise TypeError("a union of block ids takes block ids")
        new = BlockIds()
        new.parts = (self, other)
        new.start, new.end = min(self.start, other.start), max(self.end, other.end)
        new.handlers = self.handlers | other.handlers
        return new

    def flat(self):
        if self._flat is None:
            out, work, seen = set(), [self], set()
            while work:
                x = work.pop()
                for p in x.parts:
                    if isinstance(p, BlockIds):
                        if id(p) not in seen:
                            seen.add(id(p))
                            work.append(p)
                    else:
                        out.add(p)
            self._flat = out
        return self._flat

    def __iter__(self):
        return iter(self.flat())

    def __contains__(self, block_id):
        return block_id in self.flat()  # (without it ``in`` iterates over the set)

    def holds(self, block) -> bool:
        if not self.start <= block.start < self.end:
            return False
        if self._flat is not None:
            return block.id in self._flat
        # the newest parts first, without flattening: a condition merged link
        # by link from its start grows by one part each time and asks about
        # the link just merged (flattening each union would cost n^2)
        work, seen = [self], set()
        while work:
            x = work.pop()
            for p in x.parts:
                if isinstance(p, BlockIds):
                    if id(p) not in seen and p.start <= block.start < p.end:
                        if p._flat is not None:
                            if block.id in p._flat:
                                return True
                        else:
                            seen.add(id(p))
                            work.append(p)
                elif p == block.id:
                    return True
        self.flat()  # (asked again, it answers from the set)
        return False


class Cond:
    """A (possibly compound) condition: true -> ``true``, false -> ``false``."""

    def __init__(self, expr, true, false, frame, blocks):
        self.expr = expr
        self.true = true
        self.false = false
        self.frame = frame  # state after the condition (expr popped)
        self.blocks = blocks  # ids of the blocks it spans
        # the cleanup blocks of its whole chained comparisons (each drops the
        # kept operand on the way out; they lie after its code)
        self.cleanups = None
        self.cleanup_at = None  # that of a chained comparison not yet whole


def negate_test(e):
    """The negation of ``e`` where only its truth is used (a loop's test):
    ``and``/``or`` turned round by De Morgan, which tests the same operands
    in the same order and compiles to the same jumps."""
    if not isinstance(e, ast.BoolOp):
        return negate(e)
    # (iterative: a chain keeps its right operands whole, nested as deep as it is long)
    out = _turned_round(e)
    todo = [(e, out)]
    while todo:
        old, new = todo.pop()
        for v in old.values:
            if isinstance(v, ast.BoolOp):
                todo.append((v, _turned_round(v)))
                new.values.append(todo[-1][1])
            else:
                new.values.append(negate(v))
    return out


def _turned_round(e):
    """An empty ``or`` for the ``and`` ``e``, an ``and`` for an ``or``."""
    return ast.BoolOp(op=ast.Or() if isinstance(e.op, ast.And) else ast.And(), values=[])


def same_test(a, b):
    """Whether tests ``a`` and ``b`` are the same up to where their negations
    sit (De Morgan): they test the same operands in the same order."""
    return _test_key(a, False) == _test_key(b, False)


def _test_key(e, neg):
    """(is_and, the keys of its operands) for an and/or test (``not`` pushed down to
    the operands by De Morgan, same-operator operands flattened), ("not" or "", the
    dump) for any other test. Iterative: a chain's right operands nest as deep as it is long."""
    e, neg = _without_not(e, neg)
    if not isinstance(e, ast.BoolOp):
        return _operand_key(e, neg)
    top_is_and, parts = isinstance(e.op, ast.And) != neg, []
    # (operands left to read, their negation, is_and, where their keys go, and the keys
    # to add (is_and, theirs) to once read: None when they went there directly)
    todo = [(iter(e.values), neg, top_is_and, parts, None)]
    while todo:
        values, neg, is_and, keys, outer = todo[-1]
        v = next(values, None)
        if v is None:
            todo.pop()
            if outer is not None:
                outer.append((is_and, tuple(keys)))
            continue
        v, v_neg = _without_not(v, neg)
        if not isinstance(v, ast.BoolOp):
            keys.append(_operand_key(v, v_neg))
        elif (isinstance(v.op, ast.And) != v_neg) == is_and:
            todo.append((iter(v.values), v_neg, is_and, keys, None))  # a and (b and c) is a and b and c
        else:
            todo.append((iter(v.values), v_neg, not is_and, [], keys))
    return (top_is_and, tuple(parts))


def _without_not(e, neg):
    """``e`` without the ``not`` around it, and whether an odd number of them negated it."""
    while isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.Not):
        e, neg = e.operand, not neg
    return e, neg


def _operand_key(e, neg):
    if neg and flips(e):
        return ("", ast.dump(negate(e)))
    return ("not" if neg else "", ast.dump(e))


def guard_before_test(entry, test):
    """When the entry condition ``entry`` is ``g and <test>`` (``g`` one or
    more operands): ``g``, else None. ``if g: while test: ...`` is entered
    through that one condition on 3.10+ (``g``'s jump and the entry test's
    both go past the loop)."""
    if not isinstance(entry, ast.BoolOp) or not isinstance(entry.op, ast.And):
        return None
    values = entry.values
    for k in range(1, len(values)):
        tail = values[k] if k == len(values) - 1 else ast.BoolOp(op=ast.And(), values=values[k:])
        if same_test(tail, test):
            return values[0] if k == 1 else ast.BoolOp(op=ast.And(), values=values[:k])
    return None


def keeps_operand(test, frame):
    """Whether ``test`` is a link of a chained comparison whose last operand
    stays on the stack (for the next link; the other path drops it)."""
    return (isinstance(test, ast.Compare) and bool(frame.stack)
            and test.comparators[-1] is frame.stack[-1])


def union(a, b):
    """``a | b`` of two :class:`BlockIds` that may be None."""
    return b if a is None else a if b is None else a | b


def flips(e):
    """Whether :func:`negate` turns ``e`` into another comparison (``is``
    into ``is not``, ``in`` into ``not in``), which compiles differently."""
    return (isinstance(e, ast.Compare) and len(e.ops) == 1
            and isinstance(e.ops[0], (ast.Is, ast.IsNot, ast.In, ast.NotIn)))


def condition_starts(program):
    """Where the value tested by each conditional jump starts being
    computed: a block of its own, so a test is never fused with the
    statement before it (the bottom test of a 3.10+ ``while``, each link of
    an ``and``/``or`` chain)."""
    from .instructions import expression_start
    out = set()
    for ins in program.instrs:
        if ins.op in CONDITIONAL_JUMPS and ins.target is not None:
            k = expression_start(program.instrs, ins.index, 0)
            if k is None:
                k = chain_link_start(program.instrs, ins.index)
            if k is not None:
                out.add(k)
    return out


#: how a chained comparison's link keeps its right operand for the next one
#: (``b`` of ``a < b < c`` stays below the comparison)
_KEEP_OPERAND = ([("SWAP", 2), ("COPY", 2)], [("COPY", 1), ("ROT", 3)])


def chain_link_start(instrs, jump_index):
    """Where the first link of a chained comparison tested by the jump at
    ``jump_index`` starts (its left operand), or None: the link leaves its
    right operand on the stack, which :func:`expression_start` does not follow."""
    from .instructions import expression_start
    c = jump_index - 1
    if c < 3 or instrs[c].op not in ("COMPARE_OP", "IS_OP", "CONTAINS_OP"):
        return None
    if [(x.op, x.arg) for x in instrs[c - 2:c]] not in _KEEP_OPERAND:
        return None
    right = expression_start(instrs, c - 2, 0)
    return expression_start(instrs, right, 0) if right is not None else None


def for_iter_starts(program):
    """Each FOR_ITER heads a block, also when no back edge makes it a
    jump target; so does an async for's header (``[SETUP_FINALLY;]
    GET_ANEXT``, asyncs.py)."""
    instrs = program.instrs
    out = set()
    for ins in instrs:
        if ins.op == "FOR_ITER":
            out.add(ins.index)
        elif ins.op == "GET_ANEXT":
            before = instrs[ins.index - 1] if ins.index else None
            out.add(before.index if before is not None and before.op == "SETUP_FINALLY" else ins.index)
    return out


class Structurer(LegacyBlocks, InlinedComprehensions, AsyncConstructs, MatchStatements,
                 ExceptStarClauses):
    def __init__(self, ctx, program):
        self.ctx = ctx
        self.special = SPECIAL  # (the mixins read the handler table here: they do not import this module)
        self.program = program
        self.instrs = program.instrs
        self.cfg = CFG(program, condition_starts(program) | for_iter_starts(program))
        self.n = len(self.instrs)
        self.active_loops = set()
        self.matches_being_read = set()  # see MatchStatements
        self.active_handlers = set()  # of the try statements met so far
        self.open_tries = set()  # of those being structured now
        self.finally_copies = {}  # start index -> index after the copy
        self._handler_chains = {}  # handler -> handler_chain's answer
        self._handler_kinds = {}  # handler -> handler_kind's answer
        self.copies_version = 0  # bumped whenever finally_copies changes (after_finally_copy's cache)
        self._resumes = (None, None)
        self.dead_end_copies = {}  # start of a copy of a finally body that never completes -> handler
        self._one_pass_exit = None  # see finally_body
        self.active_latches = set()  # starts of the bottom tests of the loops being structured
        self._doms = {}
        self._reduced = {}  # see reduced_condition
        self._reduced_below = set()
        self._reducing = False
        # (frame, kept operand) of the walks over a chained comparison's next
        # operand (chain_operand): the walk ends at the comparison with it
        self._stops = []
        # where a walk for a branch's value halts mid-block (value_up_to): the
        # start of the copied code that goes on with that value
        self._halt = None
        self._clause_tails = {}  # see clause_tails: index -> the clause's stack depth
        self._only_tests = {}  # see only_tests_jump_to
        self._value_joins = {}  # see conditional_value_join
        self._copy_windows = {}  # see finally_copy_starts
        self._pred_span = {}  # see pred_outside_extent
        self._loop_headers = {}  # see is_loop_header
        self._enters_comprehension = {}  # see enters_inlined_comprehension
        # (match_finally_copy skips a CLEANUP_THROW in an inlined copy: no window lookup then)
        self._has_cleanup_throw = any(x.op == "CLEANUP_THROW" for x in self.instrs)
        # (short_circuit_ahead looks for one in each block it passes: none before 3.12)
        self._has_clear = any(x.op == "LOAD_FAST_AND_CLEAR" for x in self.instrs)
        self.assert_tests = assert_tests_under_if(self.instrs)
        self._value_branch_at = None  # see value_branch
        self._inner_loop_at = {}  # header -> its back edges of a loop inside (see inner_loop_sources)
        self._loopless_tries = 0  # see loopless_while_ends

    # ------------------------------------------------------------ regions
    def dominated_by(self, head: Block) -> Callable[[int], bool]:
        """Whether the block starting at an index is dominated by ``head``
        (False for an index inside a block)."""
        at, dominates = self.cfg.block_at.get, self.cfg.dominates

        def test(i):
            b = at(i)
            return b is not None and dominates(head, b)
        return test

    def fail(self, msg, index):
        ins = self.instrs[index] if 0 <= index < self.n else None
        raise DecompilationError(msg, self.ctx.name, ins.offset if ins else None,
                                 ins.op if ins else None)

    # -------------------------------------------------------------- walk
    def run(self) -> List[ast.stmt]:
        frame = E.Frame(self.ctx)
        ex = self.walk(0, frame, lambda i: True, None)
        if ex.kind == "leave" and ex.target < self.n:
            self.fail("control left the function body", ex.target)
        return frame.stmts

    def walk(self, start: int, frame: E.Frame, region, loop: Optional[Loop],
             skip_header=None) -> Exit:
        """Structure the code from ``start`` into ``frame`` until control
        leaves ``region`` or ends."""
        with Nested(lambda: self.where(start)):
            if not self.jump_joins_after(start) or not all(isinstance(v, V.Iterator) for v in frame.stack):
                return self._walk(start, frame, region, loop, skip_header)
            state, stack, pending = self.trial_state(), list(frame.stack), list(frame.pending)
            kept = len(frame.stmts)
            try:
                return self._walk(start, frame, region, loop, skip_header)
            except DecompilationError as e:
                if not str(e).startswith("if branches end in different places"):
                    raise
                for target in self.loopless_while_ends(start, region):
                    self.restore_trial_state(tuple(type(x)(x) for x in state))  # (each try its own)
                    del frame.stmts[kept:]
                    frame.stack[:] = list(stack)
                    frame.pending = list(pending)
                    try:
                        return self.loopless_while(start, target, frame, region, loop, skip_header)
                    except DecompilationError:
                        pass
                raise

    def jump_joins_after(self, start):
        """Whether a block after ``start`` is reached only by jumps (see
        :meth:`loopless_while_ends`): then a walk from there may need them."""
        if not hasattr(self, "_jump_joins"):
            self._jump_joins = [b.start for b in self.cfg.blocks
                                if len(b.preds) > 1 and not b.exc_preds
                                and all(p.end != b.start and p.start < b.start for p in b.preds)]
        return bool(self._jump_joins) and self._jump_joins[-1] > start

    def loopless_while_ends(self, start, region, limit=4):
        """Where a ``while True:`` from ``start`` that never loops back could
        go on: a block after it that only forward jumps (its breaks) reach,
        each from code that ``start`` leads to; the code before it never
        falls into it (the body ends in ``return``/``raise``)."""
        head = self.cfg.containing(start)
        if head.start != start or self._loopless_tries > 8:
            return []  # (each try walks the code again, from each enclosing walk: a budget keeps it linear)
        dom = self.dominated_by(head)
        active = getattr(self, "_loopless", set())
        found = [t for t in self._jump_joins if t > start and region(t) and (start, t) not in active
                 and all(dom(p.start) and region(p.start) and p.start < t for p in self.cfg.at(t).preds)]
        return found[::-1][:limit]  # (the furthest first: a loop's breaks go past its body)

    def loopless_while(self, start, target, frame, region, loop, skip_header):
        """``while True:`` whose body always breaks or returns: the bytecode
        has no jump back, its breaks are forward jumps to ``target``, which
        the walk of plain code took for if branches ending in different
        places. The body is walked as a loop's whose ``break`` goes there."""
        if not hasattr(self, "_loopless"):
            self._loopless = set()
        self._loopless_tries += 1
        self._loopless.add((start, target))
        try:
            body = frame.copy()
            body.stmts = []
            inner = Loop(frozenset(), target, start)
            ex = self._walk(start, body, lambda i: region(i) and i < target, inner, skip_header)
        finally:
            self._loopless.discard((start, target))
        if ex.kind == "leave":
            if not self.same_place(ex.target, target):
                self.fail("loop body leaves the loop", min(ex.target, self.n - 1))
            body.emit(ast.Break())
        stmts = body.stmts
        k = 0
        while k < len(stmts) - 1 and not any(isinstance(x, ast.Break) for x in ast.walk(stmts[k])):
            frame.emit(stmts[k])  # (code before the first break runs once either way)
            k += 1
        frame.emit(ast.While(test=E.const(True), body=stmts[k:], orelse=[]))
        return self._walk(target, frame, region, loop)

    def where(self, index):
        """(function, offset, instruction) of ``index``, for an error."""
        ins = self.instrs[index] if 0 <= index < self.n else None
        return self.ctx.name, ins.offset if ins else None, ins.op if ins else None

    def _walk(self, start: int, frame: E.Frame, region, loop: Optional[Loop],
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
                self.fail("control flow returns to structured code", i if i < self.n else self.n - 1)
            seen.add(i)
            if i in self.dead_end_copies:
                # the inlined copy of a finally body that raises or returns:
                # the try body ends here, whether by falling, ``break``,
                # ``continue`` or ``return <constant>`` (the same bytecode)
                return Exit("leave", i)
            # an inlined copy of a finally body we already decompiled
            past = self.past_finally_copies(i)
            if past != i and frame.stack and self.returns_at(past) and not self.joined_from_outside(i, region):
                # ``return value`` inside a try/finally: the compiler runs the
                # finally's copy between computing the value and returning it
                res = self.block(self.cfg.containing(past), frame, region, loop, start=past)
                if isinstance(res, Exit):
                    return res
            i = past
            if i >= self.n:
                return Exit("leave", i)
            if not first and not region(self.cfg.containing(i).start) and not self.uncovered_test(i, region):
                # a lone jump just outside (3.12 leaves a try body's last
                # jump uncovered) still says continue or break
                return self.lone_jump_out(i, frame, region, loop)
            if loop is not None and not first:
                if i in loop.continue_targets:
                    return Exit("leave", i)
            block = self.cfg.at(i)
            if block is None:
                # resuming after a skipped finally copy that ends mid-block
                res = self.block(self.cfg.containing(i), frame, region, loop, start=i)
                if isinstance(res, Exit):
                    return res
                i = res
                first = False
                continue
            h = self.new_try(block)
            is_header = (block.start != skip_header and self.is_loop_header(block)
                         and block.start not in self.active_loops)
            if h is not None and is_header and not all(
                    self.covered_by(b.start, h) for b in self.loop_back_sources(block)):
                h = None  # the try is inside the loop: the loop comes first
            if h is not None:
                self.open_tries.add(h)
                try:
                    nxt = self.try_(block, h, frame, region, loop)
                finally:
                    self.open_tries.discard(h)
                if isinstance(nxt, Exit):
                    return nxt
                i = nxt
                first = False
                continue
            if is_header:  # (as found above: nothing in between changes it)
                nxt = self.loop(block, frame, loop)
                if nxt is None:
                    return END
                i = nxt
                first = False
                skip_header = None
                continue
            first = False
            skip_header = None
            res = self.block(block, frame, region, loop)
            if isinstance(res, Exit):
                return res
            i = res

    def lone_jump_out(self, i, frame, region, loop):
        """Leaving ``region`` for ``i``: a ``continue`` or ``break`` when
        only a jump to the loop's start or way out (and the pop of a for
        loop's iterator) is there, else an :class:`Exit` to ``i``."""
        t, pops = self.thread(i)
        if loop is not None and t != i and not region(t) and (
                t in loop.continue_targets or t == loop.break_target):
            if pops and frame.stack and isinstance(frame.stack[-1], V.Iterator):
                frame.pop()  # ``break`` drops the loop's iterator
            elif pops:
                return Exit("leave", i)
            return self.transfer(t, frame, region, loop)
        return Exit("leave", i)

    def joined_from_outside(self, index, region):
        """Whether code outside ``region`` jumps to the block at ``index`` too:
        a conditional expression's arms meet there (``return b if a else 0``
        in a try/finally), each arm's walk ends there, not past it."""
        b = self.cfg.at(index)
        return b is not None and any(not region(p.start) for p in b.preds)

    def uncovered_test(self, index, region):
        """Whether the block at ``index`` is a lone conditional jump that the
        code just before it, in ``region``, falls into: the test of a value
        that code computed, left out of a try body's protected range as a
        jump cannot raise (3.11+: ``elif f(x): continue`` ending a try body)."""
        b = self.cfg.at(index)
        if (b is None or b.end - b.start != 1 or self.instrs[index].op not in POP_JUMPS
                or b.exc_preds or len(b.preds) != 1):
            return False
        p = b.preds[0]
        return p.end == index and region(p.start)

    def is_loop_header(self, block: Block) -> bool:
        # a for loop whose body never loops back (it always returns or
        # breaks) is still a loop; so is an async for (asyncs.py)
        # (asked several times per block, of a graph that does not change)
        known = self._loop_headers.get(block.id)
        if known is None:
            known = self._loop_headers[block.id] = self.reads_as_loop_header(block)
        return known

    def reads_as_loop_header(self, block: Block) -> bool:
        return (self.cfg.has_back_edges(block) or self.instrs[block.start].op == "FOR_ITER"
                or self.instrs[block.start].op in ("GET_ANEXT", "SETUP_FINALLY")
                and self.async_for_header(block) is not None)

    def transfer(self, target: int, frame, region, loop, implied=False) -> object:
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

    def block(self, block: Block, frame, region, loop, start=None):
        """Run one block (from ``start`` when given); return the next index
        or an :class:`Exit`."""
        instrs = self.instrs
        last = instrs[block.end - 1]
        stop = block.end - 1 if (last.target is not None or last.op in (
            "RETURN_VALUE", "RAISE_VARARGS", "RERAISE", "BEFORE_WITH",
            "BEFORE_ASYNC_WITH")) else block.end
        halt = self._halt
        if halt is not None and (block.start if start is None else start) <= halt < block.end:
            stop = halt
        for k in range(block.start if start is None else start, stop):
            ins = instrs[k]
            if ins.op == "LOAD_FAST_AND_CLEAR":
                return self.inlined_comprehension(ins, frame, region, loop)
            if ins.op in ASYNC_OPS:
                return self.async_op(ins, frame, region, loop)
            if ins.op in MATCH_OPS:
                return self.match_op(ins, frame, region, loop)
            if ins.op in SPECIAL:
                r = SPECIAL[ins.op](self, ins, frame, region, loop)
                if r is not None:
                    return r
                continue
            if ins.op == "POP_TOP" and self.breaks_into_exit_copy(k, frame, loop):
                frame.pop()
                frame.emit(ast.Break())
                return END
            E.execute(frame, ins)
            if self._stops and self._stops[-1][0] is frame and consumes_kept(frame, self._stops[-1][1]):
                return Exit("stop", k + 1)  # see chain_operand
            if (self._stops and self._stops[-1][0] is frame and isinstance(self._stops[-1][1], TestStop)
                    and not statements_fit_test(frame.stmts, frame.stack)):
                # (short_circuit_operand: code that is no test's operand; not walked further)
                self.fail("statement in a test's operand", k)
        if stop == halt:
            return Exit("leave", halt)
        if stop == block.end:
            return block.end if block.end < self.n else Exit("leave", block.end)
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
            return self.with_(last, frame, region, loop)
        if op == "JUMP":
            if (loop is not None and last.target > last.index
                    and last.target in loop.continue_targets and not region(last.target)):
                # ``continue`` is a jump back to the loop's start (3.11+:
                # to the test on top, not its copy at the bottom): a jump
                # forward to the loop's test is the end of the body (of an
                # if/else's first branch, say)
                return Exit("leave", last.target)
            if (loop is not None and not region(last.target) and self.thread(last.target)[0] != last.target
                    and last.target not in loop.continue_targets and last.target != loop.break_target
                    and not self.uncovered_test(last.target, region)):
                # a jump to a lone jump just outside (``if c: continue`` ending a
                # try body, 3.12: the ``continue`` lies past the protected range)
                return self.lone_jump_out(last.target, frame, region, loop)
            return self.transfer(last.target, frame, region, loop, implied=self.ends_statement(block))
        if (op in POP_JUMPS and self._stops and self._stops[-1][0] is frame and self.stops_at_test(frame)
                and self.conditional_value_join(block) is None):
            return Exit("stop", block.end - 1)  # see short_circuit_operand
        if op in ("POP_JUMP_IF_NONE", "POP_JUMP_IF_NOT_NONE") and self.tests_kept_for_none(frame):
            # ``0 < k is None`` (3.11+): the chain's last link tests the kept
            # operand itself, with no comparison to stop at; the link is read
            # by _reduce_condition (tests_kept_operand_for_none), while a walk
            # on would take the jump for an if statement's (and, in a loop's
            # test, find that same test again without end)
            self.fail("chained comparison's operand tested for None", last.index)
        if op in CONDITIONAL_JUMPS:
            return self.branch(block, frame, region, loop)
        if op == "FOR_ITER":
            self.fail("for loop without a loop", last.index)
        if op in ("SETUP_FINALLY", "SETUP_WITH", "SETUP_ASYNC_WITH"):
            return self.setup_block(last, frame, region, loop)
        if op == "CALL_FINALLY":
            # 3.8: the finally body it calls is decompiled once, in the
            # statement's ``finally:`` (legacy.py); go on after it
            return block.end if block.end < self.n else Exit("leave", block.end)
        if op in ASYNC_OPS:
            return self.async_op(last, frame, region, loop)
        if op in MATCH_OPS:
            return self.match_op(last, frame, region, loop)
        self.fail("unsupported control flow", last.index)

    # ---------------------------------------------------------- conditions
    def condition(self, block: Block, frame) -> Cond:
        """The condition ending ``block`` (the block's statements already
        ran in ``frame``), merged with the condition blocks that follow it."""
        last = self.instrs[block.end - 1]
        if last.op not in ("POP_JUMP_IF_FALSE", "POP_JUMP_IF_TRUE", "POP_JUMP_IF_NONE",
                           "POP_JUMP_IF_NOT_NONE"):
            self.fail("unexpected conditional jump", last.index)
        c = self.condition_from(block, frame)
        c.true = self.through_trampoline(c.true, c.frame, c.expr)
        c.false = self.through_trampoline(c.false, c.frame, c.expr)
        while self.merge_next(c):
            pass
        return c

    def through_trampoline(self, target, frame, test=None):
        """A block that only drops the value a chained comparison kept
        (``POP_TOP; JUMP X``) counts as a jump to X."""
        b = self.cfg.at(target)
        if b is None or not frame.stack or isinstance(frame.stack[-1], Poison):
            # (a match statement's subject under a guard: its POP_TOP starts
            # the case's body, ``case 2 if b and c:``)
            return target
        ins = self.instrs[b.start:b.end]
        single = len(b.preds) == 1 or self.chain_cleanup(b, frame)
        if (len(ins) == 2 and ins[0].op == "POP_TOP" and ins[1].op == "JUMP"
                and single):
            return ("pop", ins[1].target, target)
        if len(ins) == 1 and ins[0].op == "POP_TOP" and single and b.end < self.n:
            return ("pop", b.end, target)  # ...or falls into it
        copied = self.popped_copy(b, frame)  # ...or goes on in a copy of where it would jump
        if copied is not None:
            return ("pop", copied, target)
        keeps = (isinstance(test, ast.Compare) and test.comparators[-1] is frame.stack[-1])
        if (keeps and ins[0].op == "POP_TOP" and single
                and self.exit_copy(b.start + 1) is not None):
            # ...or into its own copy of an exit (shared by the links of a longer chain)
            return ("pop", b.start + 1, target)
        return target

    def chain_cleanup(self, b, frame):
        """Whether block ``b`` may be the false path shared by the links of
        a chained comparison of three or more comparisons: every way in is a
        test that jumps there, with an expression (the kept operand) below."""
        return isinstance(frame.stack[-1], ast.expr) and self.only_tests_jump_to(b)

    def only_tests_jump_to(self, b):
        """Whether every way into ``b`` is a conditional jump to it; remembered
        per block (a chain of n links asks about its cleanup n times, and the
        cleanup has n predecessors)."""
        known = self._only_tests.get(b.id)
        if known is None:
            known = not b.exc_preds and all(
                self.instrs[p.end - 1].op in CONDITIONAL_JUMPS and self.instrs[p.end - 1].target == b.start
                for p in b.preds)
            self._only_tests[b.id] = known
        return known

    def returns_at(self, index, name_cleanups=False):
        """Whether the code at ``index`` only shuffles the stack and returns
        (with ``name_cleanups``, also clears ``except ... as`` names)."""
        ins = self.instrs
        while index < self.n:
            op = ins[index].op
            if op == "RETURN_VALUE":
                return True
            if (name_cleanups and index + 2 < self.n and (op, ins[index].arg) == ("LOAD_CONST", None)
                    and ins[index + 1].op.startswith("STORE_") and ins[index + 2].op.startswith("DELETE_")
                    and ins[index + 1].arg == ins[index + 2].arg):
                index += 3
                continue
            if op not in ("SWAP", "POP_TOP", "POP_EXCEPT"):
                return False
            index += 1
        return False

    def same_return(self, a, b):
        """Whether the code at ``a`` and at ``b`` is the same stack shuffle
        ending in ``return``: the compiler copies a ``return`` after each
        branch of a conditional expression (when a try's empty finally
        leaves the return outside the protected range)."""
        if not (self.returns_at(a) and self.returns_at(b)):
            return False
        while self.instrs[a].op != "RETURN_VALUE":
            if (self.instrs[a].op, self.instrs[a].arg) != (self.instrs[b].op, self.instrs[b].arg):
                return False
            a, b = a + 1, b + 1
        return self.instrs[b].op == "RETURN_VALUE"

    def same_copied_return(self, a, b, same_lines=True):
        """Whether the code at ``a`` and at ``b`` is one straight run to a
        ``return``, copied by the compiler (same instructions, same lines;
        without ``same_lines``, two returns that do the same under the same
        handler)."""
        if a == b or not (self.runs_to_return(a) and self.runs_to_return(b)):
            return False
        if not same_lines and self.cfg.containing(a).handler != self.cfg.containing(b).handler:
            return False
        while True:
            x, y = self.instrs[a], self.instrs[b]
            if (x.op, x.arg, x.line if same_lines else None) != (y.op, y.arg, y.line if same_lines else None):
                return False
            if x.op == "RETURN_VALUE":
                return True
            a, b = a + 1, b + 1

    def same_copied_raise(self, a, b):
        """Whether the code at ``a`` and at ``b`` is one straight run to a
        ``raise <value>``, copied by the compiler (same instructions, same
        lines): 3.12+ copies the ``raise E`` after a try statement into the
        end of its body and of its except clause."""
        ends = [self.straight_raise_end(x) for x in (a, b)]
        if a == b or None in ends or ends[0] - a != ends[1] - b:
            return False
        return all((x.op, x.arg, x.line) == (y.op, y.arg, y.line)
                   for x, y in zip(self.instrs[a:ends[0] + 1], self.instrs[b:ends[1] + 1]))

    def straight_raise_end(self, index):
        """Index of the ``raise <value>`` that the code at ``index`` (maybe
        mid-block) runs straight to, in its block; or None."""
        k = self.cfg.containing(index).end - 1
        if (self.instrs[k].op, self.instrs[k].arg) != ("RAISE_VARARGS", 1) or any(
                x.target is not None or x.op in ASYNC_OPS or x.op in self.special for x in self.instrs[index:k]):
            return None
        return k

    def runs_to_return(self, index, through_copies=False):
        """Whether the code at ``index`` runs straight (no jumps, no
        raise) to a ``return``; with ``through_copies``, also past inlined
        copies of finally bodies already decompiled (the walk skips them)."""
        k = index
        while k < self.n:
            if through_copies and k in self.finally_copies:
                k = self.past_finally_copies(k)
                through_copies = False  # (once: a loop's copies may lead to each other)
                continue
            if self.instrs[k].op == "GET_AWAITABLE" and self.await_end(k) is not None:
                k = self.await_end(k)  # (an async with's exit call is awaited)
                continue
            if self.instrs[k].target is not None or self.instrs[k].op in (
                    "RETURN_VALUE", "RAISE_VARARGS", "RERAISE", "FOR_ITER", "YIELD_VALUE"):
                break
            k += 1
        return k < self.n and self.instrs[k].op == "RETURN_VALUE"

    def branch_returns_outside(self, branch_start, index, bound=()):
        """Whether the code at ``index``, reached only through the branch
        starting at ``branch_start``, just returns a constant (or a local
        the branch has just assigned, in ``bound``) after dropping handler
        state: nothing that could raise."""
        b = self.cfg.at(branch_start)
        if b is None or index >= self.n or not self.dominated_by(b)(self.cfg.containing(index).start):
            return False
        k = index
        while k < self.n:
            ins = self.instrs[k]
            if (k + 2 < self.n and (ins.op, ins.arg) == ("LOAD_CONST", None)
                    and self.instrs[k + 1].op.startswith("STORE_") and self.instrs[k + 2].op.startswith("DELETE_")
                    and self.instrs[k + 1].arg == self.instrs[k + 2].arg):
                k += 3  # (the clause's ``as`` name cleared, as returns_at)
            elif (ins.op in ("POP_EXCEPT", "POP_TOP", "SWAP", "NOP", "LOAD_CONST")
                  or ins.op == "LOAD_FAST" and ins.arg in bound):
                k += 1
            else:
                break
        return k < self.n and self.instrs[k].op == "RETURN_VALUE" and k >= index

    def thread(self, index):
        """Where control ends up from ``index`` when only a jump (or a pop
        of the loop's iterator and a jump) is there; and whether it pops."""
        ins = self.instrs
        if index < self.n and ins[index].op == "JUMP":
            return ins[index].target, False
        if index + 1 < self.n and ins[index].op == "POP_TOP" and ins[index + 1].op == "JUMP":
            return ins[index + 1].target, True
        return index, False

    def alias(self, index):
        """What ``index`` stands for when comparing where branches go: the
        compiler copies small ``return <constant>`` blocks to every place
        that jumps to them, and the copies are one place in the source."""
        t = self.legacy_alias(index)  # <=3.10: duplicated follows (legacy.py)
        if t is not None:
            return t
        b = self.cfg.at(index) if isinstance(index, int) else None
        hops = 0
        while (b is not None and b.end - b.start == 1 and self.instrs[b.start].op == "JUMP"
               and hops < 8):
            # a lone jump is where it goes (also to another lone jump: a chained
            # comparison's false path jumps to its cleanup's jump, a ``continue``)
            index = self.instrs[b.start].target
            b = self.cfg.at(index)
            hops += 1
        if self.reraise_copy(index) is not None:
            # (3.12+ copies a finally body's closing re-raise into each branch
            # that reaches it: a loop's entry and bottom tests, each operand of
            # an ``and``)
            return self.reraise_copy(index)
        if b is not None and b.end - b.start == 2:
            a, r = self.instrs[b.start], self.instrs[b.start + 1]
            if a.op == "LOAD_CONST" and r.op == "RETURN_VALUE":
                # a copy keeps the line of the return it copies: ``return False``
                # written twice (``if a: return False`` / ``if b: return False``) is
                # two places, not ``if a or b``; only the implicit ``return None``
                # gets each copy its own line (that of the jump to it); before 3.10
                # nothing is copied: two return blocks are two written returns
                written = a.arg is not None or not COPIES_EXIT_BLOCKS or self.is_jumped_over(b)
                line = a.line if written else None
                return ("return", type(a.arg).__name__, repr(a.arg), line)
        return index

    def is_jumped_over(self, b):
        """Whether block ``b`` is reached only by falling out of a test that
        jumps past it: an if statement's body written there (``if not x:
        return``), where the compiler lays it out; its copies of the implicit
        ``return None`` lie where the jumps to them go, never so."""
        if len(b.preds) != 1 or b.exc_preds:
            return False
        last = self.instrs[b.preds[0].end - 1]
        return b.preds[0].end == b.start and last.op in CONDITIONAL_JUMPS and last.target == b.end

    def exit_copy(self, index):
        """A key for the code at ``index`` when it is a short straight run
        that computes a value from nothing on the stack and returns or raises
        it, or None. 3.10+ copies such exits (the implicit ``return``, an
        assert's ``raise``) into each path that reaches them, down to the end
        of a chained comparison's cleanup block; equal copies under the same
        handler are one place in the source."""
        if index >= self.n:
            return None
        block = self.cfg.containing(index)
        depth, k, steps = 0, index, []
        while k < block.end and len(steps) < 6:
            ins = self.instrs[k]
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

    def return_copy(self, index):
        """A key for the code at ``index`` when it only shuffles the stack and
        drops an except clause's exception (and ``as`` name), then returns the
        value below or runs an exit copy (:meth:`exit_copy`), or None: 3.12+
        copies that way out of the clause into each branch of a finally
        body's inlined copy; equal copies under one handler are one place."""
        ins, k = self.instrs, index
        while k < self.n:
            if ins[k].op in ("SWAP", "POP_TOP", "POP_EXCEPT"):
                k += 1
            elif (k + 2 < self.n and (ins[k].op, ins[k].arg) == ("LOAD_CONST", None)
                  and ins[k + 1].op.startswith("STORE_") and ins[k + 2].op.startswith("DELETE_")
                  and ins[k + 1].arg == ins[k + 2].arg):
                k += 3  # (as returns_at)
            else:
                break
        if k == index or k >= self.n or "POP_EXCEPT" not in [x.op for x in ins[index:k]]:
            return None
        tail = "return" if ins[k].op == "RETURN_VALUE" else self.exit_copy(k)
        if tail is None:
            return None
        return ("clause exit", self.cfg.containing(index).handler,
                tuple((x.op, repr(x.arg)) for x in ins[index:k]), tail)

    def reraise_copy(self, index):
        """A key for the RERAISE at ``index``, or None: 3.12+ copies the
        re-raise that ends an exceptional copy of a finally body into each
        branch that reaches it (a try/finally inside that body completes
        into either); equal copies under the same handler are one place."""
        if not isinstance(index, int) or index >= self.n or self.instrs[index].op != "RERAISE":
            return None
        return ("reraise", self.cfg.containing(index).handler, self.instrs[index].arg)

    def same_place(self, a, b):
        if isinstance(a, int) and isinstance(b, int) and self.same_after_copies(a, b):
            return True  # one branch jumps to a finally's inlined copy, the other falls past it
        if a in self._clause_tails and b in self._clause_tails and self.same_copied_return(a, b):
            return True  # an except clause's branches each fall into a copy of the code after the try
        if (isinstance(a, int) and isinstance(b, int) and a != b and self.n > max(a, b)
                and self.exit_copy(a) is not None and self.exit_copy(a) == self.exit_copy(b)
                and self.same_copied_return(a, b)):
            # (3.12+) a try body's branches each fall into a copy of the ``return
            # x`` after the statement, past the try's range (one line: one statement;
            # not a way out through the block stack's pops, <=3.10)
            return True
        if a != b and self.reraise_copy(a) is not None and self.reraise_copy(a) == self.reraise_copy(b):
            return True  # both fall into a copy of the re-raise that ends a finally body (3.12+)
        return a == b or self.alias(a) == self.alias(b)

    def pure_condition(self, index, frame, chain_blocks, keeps=False):
        """The condition computed by the block at ``index`` with no other
        effect, or None. With ``keeps``, the operand on top of ``frame``'s
        stack was kept by a chained comparison: the condition is its next
        link, whose operand may span blocks of its own."""
        if isinstance(index, tuple):
            return None
        b = self.cfg.at(index)
        if (b is None or not (keeps or self.cfg.is_conditional(b) or self.short_circuit_ahead(b)
                              or self.enters_inlined_comprehension(b))
                or index in self.active_latches):
            return None  # (a loop's bottom test is not a link of an ``if`` in its body)
        if index in self.assert_tests:
            return None  # nor is an assert's test a link of the test of the if it is under
        if any(not chain_blocks.holds(p) for p in b.preds) or b.exc_preds:
            return None
        if any(h != b.handler and not self.expression_handler(h) for h in chain_blocks.handlers):
            return None  # a test inside a try does not join one outside it
        return self.reduced_condition(b, frame, keeps)

    def expression_handler(self, h):
        """Whether handler ``h`` belongs to an expression inside a condition's
        operand, not to a try statement (3.12+): an await's ``CLEANUP_THROW``
        (it covers only the ``YIELD_VALUE`` of the delegation loop) or an
        inlined comprehension's restore of its names (``SWAP 2; POP_TOP; SWAP
        2; STORE_FAST x ...; RERAISE``, see inline.py)."""
        if h is None or h >= self.n:
            return False
        ins = self.instrs
        if ins[h].op == "CLEANUP_THROW":
            return True
        if not (h + 2 < self.n and (ins[h].op, ins[h].arg) == ("SWAP", 2) and ins[h + 1].op == "POP_TOP"):
            return False
        k = h + 2
        while k < self.n and (ins[k].op == "SWAP" or ins[k].op in ("STORE_FAST", "STORE_DEREF")):
            k += 1
        return k > h + 2 and k < self.n and ins[k].op == "RERAISE"

    def reduced_condition(self, b: Block, frame, keeps=False):
        """The condition of block ``b`` run in a copy of ``frame``, merged with
        the conditions that follow it (:meth:`pure_condition` without the
        test of how ``b`` is reached), or None.

        Remembered per block, values on the stack and facts the structuring
        has registered so far: the merge tries each link's successors on
        both sides, which repeats the work below a link exponentially in a
        chain of asserts, and every link of a chain starts the same search
        again. The first search reduces the deepest links first, so the
        recursion through :meth:`merge_next` stays shallow in a long chain."""
        key = (b.id, tuple(map(id, frame.stack)), tuple(id(x) for p in frame.pending for x in p),
               frame.loop, len(self.finally_copies), len(getattr(self, "_lfollows", ())), keeps)
        if key in self._reduced:
            return self._reduced[key][0]
        if not self._reducing and not keeps and b.id not in self._reduced_below:
            # (not for a chained comparison's next link: each link is reached
            # with its own kept operand, never with this frame's stack)
            self._reducing = True
            try:
                below = self.chain_below(b)
                # once per chain: links reached with other stacks (a chained
                # comparison's kept operand) do not match and are reduced as met
                self._reduced_below.update(d.id for d in below)
                self._reduced_below.add(b.id)
                for d in below:
                    try:
                        self.reduced_condition(d, frame)
                    except DecompilationError:
                        pass  # (a link only reached another way, with another stack)
            finally:
                self._reducing = False
            if key in self._reduced:
                return self._reduced[key][0]
        sub = self._reduce_condition(b, frame, keeps)
        # (the values whose ids are in the key are kept alive with it, not only the frame: the
        # frame's stack changes later, and a freed value's id may be reused by another)
        self._reduced[key] = (sub, frame, tuple(frame.stack), tuple(frame.pending))
        return sub

    def chain_link(self, b: Block) -> bool:
        """Whether ``b`` could be a later link of a condition chain."""
        return (self.cfg.is_conditional(b) and not b.exc_preds and not self.is_loop_header(b)
                and all(self.cfg.is_conditional(p) for p in b.preds))

    def chain_below(self, b: Block) -> List[Block]:
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
            elif s.id not in seen and self.chain_link(s):
                seen.add(s.id)
                stack.append((s, iter(s.succs)))
        return out

    def _reduce_condition(self, b: Block, frame, keeps=False):
        if self.is_loop_header(b):
            return None
        f = frame.copy()
        depth = len(f.stack)
        resume = self.chain_link_operand(b, f) if keeps else None
        jump = None
        if resume is None and not keeps:
            f = frame.copy()
            jump = self.short_circuit_operand(b, f)
        if jump is not None:
            test_block, resume = self.cfg.containing(jump), jump
        elif resume is not None:
            test_block = self.cfg.containing(resume - 1)
        else:
            f, test_block, resume = frame.copy(), b, b.start
        last = self.instrs[test_block.end - 1]
        if last.op not in ("POP_JUMP_IF_FALSE", "POP_JUMP_IF_TRUE", "POP_JUMP_IF_NONE",
                           "POP_JUMP_IF_NOT_NONE"):
            return None
        try:
            for k in range(resume, test_block.end - 1):
                ins = self.instrs[k]
                if ins.op in self.special:
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
                    and top.left is frame.stack[-1]) and not self.tests_kept_operand_for_none(
                        last, f, frame, depth):
                return None
        sub = self.condition_from(test_block, f)
        if not statements_fit_test(f.stmts, f.stack):
            return None  # (a walrus is one when its value is used: the test's)
        if test_block is not b:
            sub.blocks = self.blocks_from(b, test_block)
        # reduce the candidate with its own private successors first, so
        # ``a or (b and c)`` merges inside out; not a chained comparison's
        # middle link (it keeps an operand in turn): the caller's merge joins
        # the next links one by one (recursion as deep as the chain is long)
        sub.true = self.through_trampoline(sub.true, sub.frame, sub.expr)
        sub.false = self.through_trampoline(sub.false, sub.frame, sub.expr)
        while not (keeps and keeps_operand(sub.expr, sub.frame)) and self.merge_next(sub):
            pass
        if starts_chain and (len(sub.frame.stack) != depth or isinstance(sub.true, tuple)
                             or isinstance(sub.false, tuple)):
            return None  # (a chain that does not end inside the candidate)
        return sub

    def tests_kept_operand_for_none(self, last, f, frame, depth):
        """Whether the link is ``... is None`` / ``... is not None`` ending a chained
        comparison: >=3.11 tests the kept operand with POP_JUMP_IF_(NOT_)NONE, no
        comparison (``0 == k is not None``)."""
        return (last.op in ("POP_JUMP_IF_NONE", "POP_JUMP_IF_NOT_NONE") and depth
                and len(f.stack) == depth and f.stack[-1] is frame.stack[-1])

    def chain_link_operand(self, b: Block, f):
        """Walk, in ``f``, the operand of the chained comparison's link that
        starts at ``b`` up to the comparison that consumes the operand kept
        on top of ``f``'s stack (:meth:`chain_operand`); the index after it,
        or None. The walk is a trial (its result may be dropped): the
        structuring state it could touch is put back."""
        if not f.stack or not isinstance(f.stack[-1], ast.expr):
            return None
        state = self.trial_state()
        try:
            return self.chain_operand(b.start, f, self.dominated_by(b), None)
        except DecompilationError:
            return None
        finally:
            self.restore_trial_state(state)

    def short_circuit_operand(self, b: Block, f):
        """Walk, in ``f``, a test's operand that holds an and/or of its own
        as a value (``a or (x or 1) > k``: <=3.11 computes ``x or 1`` with a
        ``JUMP_IF_TRUE_OR_POP`` that ends ``b``), up to the first conditional
        jump that tests that value (:meth:`stops_at_test`); the index of that
        jump, or None. A trial like :meth:`chain_link_operand`. The operand
        may also begin with a conditional expression (``a or (x if c else y)
        > k``: ``b`` ends in the test of ``c``, see :meth:`conditional_value_join`)."""
        if (not self.short_circuit_ahead(b) and self.conditional_value_join(b) is None
                and (f.stack or not self.enters_inlined_comprehension(b))):
            return None  # (a comprehension in the operand: only of a test outside any expression)
        state = self.trial_state()
        self._stops.append((f, TestStop(len(f.stack))))
        try:
            ex = self.walk(b.start, f, self.dominated_by(b), None)
        except DecompilationError:
            return None
        finally:
            self._stops.pop()
            self.restore_trial_state(state)
        return ex.target if ex.kind == "stop" else None

    def enters_inlined_comprehension(self, b: Block, limit=3) -> bool:
        """Whether ``b`` starts an inlined comprehension (3.12+, see
        inline.py): its prologue, which saves the loop's names and builds the
        empty result (in blocks of their own where the cleanup handler's
        range starts), falls into the loop's header. A test's operand that
        holds one spans the loop's blocks."""
        key = (b.id, limit)  # (asked of each test's successors again and again; the graph stays)
        known = self._enters_comprehension.get(key)
        if known is None:
            known = self._enters_comprehension[key] = self.starts_inlined_comprehension(b, limit)
        return known

    def starts_inlined_comprehension(self, b: Block, limit) -> bool:
        passed = []  # (their instructions are read only once a loop's header follows)
        for _ in range(limit):
            passed.append(b)
            if self.instrs[b.end - 1].target is not None or b.end >= self.n:
                return False
            b = self.cfg.at(b.end)
            if b is None:
                return False
            if self.is_loop_header(b):
                return any(x.op == "LOAD_FAST_AND_CLEAR" or x.op in _COMPREHENSION_RESULTS and x.arg == 0
                           for p in passed for x in self.instrs[p.start:p.end])
        return False

    def tests_kept_for_none(self, frame):
        """Whether the walk in ``frame`` is one of :meth:`chain_operand` and the
        value on top of the stack is the operand the chain kept (see
        :meth:`tests_kept_operand_for_none`)."""
        if not (self._stops and self._stops[-1][0] is frame and frame.stack):
            return False
        kept = self._stops[-1][1]
        return not isinstance(kept, TestStop) and frame.stack[-1] is kept

    def stops_at_test(self, frame):
        """Whether the conditional jump ending a block walked in ``frame`` by
        :meth:`short_circuit_operand` tests the operand's whole value, or the
        first link of a chained comparison on it; not the test of an and/or
        or a conditional expression inside it (``(a and x or k) < 3``: ``a``
        is tested with ``2 <=``'s left operand below it)."""
        stop = self._stops[-1][1]
        if not isinstance(stop, TestStop):
            return False
        top = frame.stack[-1] if frame.stack else None
        if len(frame.stack) == stop.depth + 1:
            return True
        return (len(frame.stack) == stop.depth + 2 and isinstance(top, ast.Compare)
                and top.comparators[-1] is frame.stack[-2])

    def conditional_value_join(self, b: Block):
        """Where the two ways out of the conditional jump ending ``b`` meet
        again with one value more on the stack than the test left: ``b``
        tests a conditional expression's condition (or its first link) and
        the value goes on into what follows (``(x if c else y) > k``); else
        None, also for an if statement's test (its branches meet with
        nothing new on the stack). Both ways are followed in layout order
        through plain expression steps and jumps forward, until every path
        has reached one block; remembered per block."""
        known = self._value_joins.get(b.id, False)
        if known is False:
            known = self._value_joins[b.id] = self._find_value_join(b)
        return known

    def _find_value_join(self, b: Block, limit=16):
        last = self.instrs[b.end - 1]
        if last.op not in POP_JUMPS or last.target <= b.start:
            return None
        depth = value_steps_depth(self.instrs[b.start:b.end - 1], 0, floor=None)
        if depth is None:
            return None
        base = depth - 1  # (the test's value popped)
        entry = {b.end: base, last.target: base}
        done = {b.id}
        for _ in range(limit):
            start = min(entry)
            block = self.cfg.at(start)
            if (block is None or block.exc_preds or block.handler != b.handler
                    or any(p.id not in done for p in block.preds)):
                return None  # (code that other paths reach is no part of the expression)
            depth = entry.pop(start)
            if not entry:
                return start if depth == base + 1 and len(block.preds) > 1 else None
            done.add(block.id)
            ins = self.instrs[block.end - 1]
            ends_in_jump = ins.target is not None
            depth = value_steps_depth(self.instrs[block.start:block.end - 1 if ends_in_jump else block.end],
                                      depth, floor=base)
            if depth is None:
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

    def short_circuit_ahead(self, b: Block, limit=4):
        """Whether ``b`` ends in an and/or computed as a value
        (``JUMP_IF_X_OR_POP``), or falls straight into a block that ends in
        a test (the operands before a test are blocks of their own, see
        condition_starts: ``a or 3 <= (b and x or k)``, where ``b`` is
        tested with 3 below it), or starts an inlined comprehension (``a or
        {q: 0 for q in b} != 1``: the walk decides whether a test follows)."""
        first = b
        for _ in range(limit):
            last = self.instrs[b.end - 1]
            if last.op in ("JUMP_IF_FALSE_OR_POP", "JUMP_IF_TRUE_OR_POP"):
                return True
            if self._has_clear and any(x.op == "LOAD_FAST_AND_CLEAR" for x in self.instrs[b.start:b.end]):
                return True  # (3.12+: an inlined comprehension, loop and all, in the operand)
            if b is not first and last.op in POP_JUMPS:
                return True
            if (last.target is not None or last.op in TERMINATORS or last.op in self.special
                    or b.end >= self.n or len(b.succs) != 1):
                return False
            b = self.cfg.at(b.end)
            if b is None or len(b.preds) != 1 or b.exc_preds or self.is_loop_header(b):
                return False
        return False

    def ends_in_test(self, block: Block) -> bool:
        return self.instrs[block.end - 1].op in ("POP_JUMP_IF_FALSE", "POP_JUMP_IF_TRUE",
                                                 "POP_JUMP_IF_NONE", "POP_JUMP_IF_NOT_NONE")

    def blocks_from(self, first: Block, last: Block) -> BlockIds:
        """The blocks laid out from ``first`` to ``last`` that ``first``
        dominates (the code of a condition whose operand spans blocks)."""
        ids = BlockIds(first)
        i = first.end
        while i < last.end:
            b = self.cfg.containing(i)
            if self.cfg.dominates(first, b):
                ids = ids | BlockIds(b)
            i = b.end
        return ids

    def condition_from(self, block, f):
        last = self.instrs[block.end - 1]
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

    def merge_next(self, c: Cond) -> bool:
        """Merge ``c`` with a following condition block when they form
        ``and``/``or`` (or ``x if c else y`` tested as a condition); True
        when merged."""
        if not isinstance(c.true, tuple) and not isinstance(c.false, tuple) and not keeps_operand(c.expr, c.frame):
            # (a link that keeps an operand for the next is no whole test)
            # a chained comparison's true path may jump over its cleanup
            over = self.jump_over_cleanup(c.true, c.blocks)
            t_at, c_blocks = over if over is not None else (c.true, c.blocks)
            reach = c_blocks if c.cleanups is None else c_blocks | c.cleanups
            a = self.pure_condition(t_at, c.frame, reach)
            b = self.pure_condition(c.false, c.frame, reach) if a is not None else None
            folded = self.lone_jump_within(c.false, reach) if a is not None and b is None else None
            if folded is not None and self.instrs[c.false].target > c.false:
                # ``x if a or 0 else y`` (3.10+): the folded ``or 0`` leaves a's
                # false way a lone jump to ``y``
                b = self.pure_condition(self.instrs[c.false].target, c.frame, reach | folded)
                if b is not None:
                    b.blocks = b.blocks | folded
            test = c.expr
            if b is not None and folded is not None:
                c.expr = bool_op(ast.Or, c.expr, E.const(False))
            if b is not None and len(a.frame.stack) == len(b.frame.stack):
                merged = None
                if c.true == c.false and in_progress(c.frame):
                    pass  # (``a < (y if x or 1 else z)``: an operand's test, see conditional_with_one_arm)
                elif c.true == c.false or t_at == c.false and self.either_way(c) is not None:
                    # ``(x or <true>) and y``: the constant folded away, x's
                    # jump goes where it falls (one y: not ``y if x else y``;
                    # a chained comparison's true path jumps over its cleanup)
                    merged = bool_op(ast.And, self.either_way(c), a.expr), a.true, a.false
                elif self.same_place(a.true, b.true) and self.same_place(a.false, b.false):
                    merged = ast.IfExp(test=c.expr, body=a.expr, orelse=b.expr), b.true, b.false
                elif self.same_place(a.true, b.false) and self.same_place(a.false, b.true):
                    merged = ast.IfExp(test=c.expr, body=a.expr, orelse=negate(b.expr)), b.false, b.true
                ways = (a.true, a.false)
                if merged is None:
                    merged = self.conditional_with_constant_arm(c, a, b)
                    ways += (b.true, b.false)  # (either arm may be the constant one)
                if merged is not None:
                    # (the first branch reaches the targets through a jump)
                    c.expr, c.true, c.false = merged
                    c.frame = a.frame
                    c.blocks = c_blocks | a.blocks | b.blocks
                    for x in ways:
                        # (``b if c else a``: b's way out jumps to where a's goes)
                        hop = self.lone_jump_within(x, c.blocks)
                        if hop is not None:
                            c.blocks = c.blocks | hop
                    c.cleanups = union(c.cleanups, union(a.cleanups, b.cleanups))
                    return True
            c.expr = test  # (not merged: as it was)
        if self.merge_constant_arm(c):
            return True
        for side in ("true", "false"):
            idx = getattr(c, side)
            frame = c.frame
            if isinstance(idx, tuple):
                continue
            over = self.jump_over_cleanup(idx, c.blocks)
            if over is not None:
                idx, c_blocks = over
            else:
                c_blocks = c.blocks
            reach = c_blocks if c.cleanups is None else c_blocks | c.cleanups
            sub = self.pure_condition(idx, frame, reach, keeps_operand(c.expr, frame))
            if sub is None:
                continue
            st, sf = sub.true, sub.false
            other = other_side = c.false if side == "true" else c.true
            if self.is_jump_body(c, other):
                continue
            stn = st[1] if isinstance(st, tuple) else st
            sfn = sf[1] if isinstance(sf, tuple) else sf
            other_at = other[1] if isinstance(other, tuple) else other
            copy = self.exit_copy(other[1]) if isinstance(other, tuple) else None
            if copy is not None and copy in (self.exit_copy(stn), self.exit_copy(sfn)):
                # a chained comparison's cleanup ends in its own copy of the
                # exit the next link goes to: the same place
                other_at = stn if copy == self.exit_copy(stn) else sfn
            other = self.alias(other_at)
            # 3.10+: a chained comparison (which cannot be split) may leave
            # through a copy of the ``return`` block another test jumps to
            # (only its own links drop the operand it kept before)
            copies = chains_into(c.expr, sub.expr) or is_chain(sub.expr) and not isinstance(
                c.false if side == "true" else c.true, tuple) or keeps_operand(c.expr, frame) and (
                    chain_into(c.expr, negate_test(sub.expr)) is not None)  # (the rest, see below)
            goes_to = lambda x: other == self.alias(x) or copies and self.same_code(other_at, x)
            true, false = stn, sfn
            # (only a link right after ``c``: an ``elif x: pass`` is reached by a jump)
            # (not after a link that keeps its operand: the constant test is then part of the
            # next operand, ``a < b < (x if d or 1 else y)``, not a link of its own)
            either = self.either_way(sub) if idx == c.blocks.end and not keeps_operand(c.expr, frame) else None
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
                    expr = bool_op(ast.Or, c.expr, self.either_way(sub, False))
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
                cleanup = self.cfg.at(c.cleanup_at)
                inside = c.blocks.flat() if cleanup is not None else ()  # (once: every link is a way in)
                if cleanup is not None and all(p.id in inside for p in cleanup.preds):
                    c.cleanups = union(c.cleanups, BlockIds(cleanup))
                c.cleanup_at = None
            return True
        return False

    def merge_constant_arm(self, c: Cond) -> bool:
        """``if (1 if x else y):`` (<=3.10): the compiler folds the true
        constant arm into a lone jump to the body, which ``y`` falls into
        when true (``x or y`` jumps there from the test itself). Merged into
        ``c`` as ``(True if x else y)`` (or ``(y if x else True)``); True
        when merged."""
        if (isinstance(c.true, tuple) or isinstance(c.false, tuple) or keeps_operand(c.expr, c.frame)
                or c.cleanups is not None):
            return False
        for arm, other in ((c.true, c.false), (c.false, c.true)):
            hop = self.lone_jump_within(arm, c.blocks)
            if hop is None or self.instrs[arm].target <= arm:
                continue  # (a jump back: a loop's continue)
            test, blocks = c.expr, c.blocks | hop
            folded = self.lone_jump_within(other, c.blocks) if arm == c.true else None
            if folded is not None and self.instrs[other].target > other:
                # ``1 if x or 0 else y`` (3.10+): x's false way falls into the
                # folded constant's jump to ``y``, x's true way jumps to ``1``
                test, blocks = bool_op(ast.Or, c.expr, E.const(False)), blocks | folded
                other = self.instrs[other].target
            b = self.pure_condition(other, c.frame, blocks)
            if (b is None or isinstance(b.true, tuple) or isinstance(b.false, tuple)
                    or b.true != b.blocks.end or not self.same_place(self.instrs[arm].target, b.true)
                    or self.same_place(b.true, b.false)):
                continue
            body, orelse = (E.const(True), b.expr) if arm == c.true else (b.expr, E.const(True))
            c.expr = ast.IfExp(test=test, body=body, orelse=orelse)
            c.true, c.false = b.true, b.false
            c.frame = b.frame
            c.blocks = blocks | b.blocks
            c.cleanups = b.cleanups
            return True
        return False

    def conditional_with_constant_arm(self, c: Cond, a: Cond, b: Cond):
        """``x if c else (y if d else 5)`` tested: an arm that is itself a
        conditional expression of constants leaves its test ``d`` both ways
        to one place, where the other arm's test goes when true (or when
        false). ``(merged test, true, false)`` with that arm written as
        ``(d or True)`` (or ``(d and False)``), or None."""
        for arm, other in ((b, a), (a, b)):
            place = arm.true
            if isinstance(other.true, tuple) or isinstance(other.false, tuple):
                return None
            if self.either_way(arm) is None:
                continue
            if self.same_place(place, other.true) and not self.same_place(place, other.false):
                value = self.either_way(arm)
            elif self.same_place(place, other.false) and not self.same_place(place, other.true):
                value = self.either_way(arm, False)
            else:
                continue
            body, orelse = (other.expr, value) if arm is b else (value, other.expr)
            return ast.IfExp(test=c.expr, body=body, orelse=orelse), other.true, other.false
        return None

    def lone_jump_within(self, index, inside: BlockIds) -> Optional[BlockIds]:
        """The block at ``index`` when it is only a jump reached from
        ``inside`` (a way out of a condition's code); else None."""
        b = self.cfg.at(index) if isinstance(index, int) else None
        if (b is None or b.end - b.start != 1 or self.instrs[b.start].op != "JUMP"
                or b.exc_preds or any(not inside.holds(p) for p in b.preds)):
            return None
        return BlockIds(b)

    def either_way(self, sub: Cond, truth=True):
        """When both ways out of the condition ``sub`` go to one place, the
        test as it was written: ``(y or <true>)`` (with ``truth``) or ``(y and
        <false>)``, whose constant the compiler folds into a jump; else None."""
        t, f = (x[1] if isinstance(x, tuple) else x for x in (sub.true, sub.false))
        if isinstance(sub.true, tuple) or isinstance(sub.false, tuple) or not self.same_place(t, f):
            return None
        if truth:
            return ast.BoolOp(op=ast.Or(), values=[sub.expr, E.const(True)])
        return ast.BoolOp(op=ast.And(), values=[sub.expr, E.const(False)])

    def jump_over_cleanup(self, index, chain_blocks):
        """A chained comparison's true path jumps over the cleanup of its false
        path (``POP_TOP``, then a jump or a copy of the exit): when ``index``
        is such a jump, reached only from ``chain_blocks``, (where it goes,
        ``chain_blocks`` with it)."""
        b = self.cfg.at(index)
        if (b is None or b.end - b.start != 1 or self.instrs[index].op != "JUMP"
                or index + 1 >= self.n or self.instrs[index + 1].op != "POP_TOP"
                or self.instrs[index].target <= index + 1
                or any(not chain_blocks.holds(p) for p in b.preds)):
            return None
        return self.instrs[index].target, chain_blocks | BlockIds(b)

    def is_jump_body(self, c: Cond, index):
        """Whether ``index``, where ``c`` falls through, is a lone jump that
        is an if statement's body (see LONE_JUMP_IS_BODY), not a way to
        the target it jumps to."""
        if not LONE_JUMP_IS_BODY or not isinstance(index, int):
            return False
        b = self.cfg.at(index)
        fall = c.blocks.end
        if b is None or index != fall or b.end - b.start != 1 or self.instrs[index].op != "JUMP":
            return False
        if self.instrs[index].target == index + 1 and isinstance(c.false, int) and c.false != index + 1:
            # a jump over nothing that is not the false way: a conditional
            # expression's jump over its constant arm (``if (a if b else 1):``
            # tests no ``1``), not ``if x: pass`` / ``else: pass``
            return False
        # a chained comparison's true path jumps over the false path's POP_TOP
        # (and the jump after it: ``POP_TOP; JUMP`` in a conditional expression)
        cleanup = self.cfg.at(index + 1)
        skips_cleanup = (cleanup is not None and self.instrs[index + 1].op == "POP_TOP"
                         and self.instrs[index].target == cleanup.end)
        return not skips_cleanup

    # --------------------------------------------------------------- if
    def branch(self, block: Block, frame, region, loop):
        r = self.match_branch(block, frame, region, loop)
        if r is not None:
            return r
        last = self.instrs[block.end - 1]
        if last.op in ("JUMP_IF_FALSE_OR_POP", "JUMP_IF_TRUE_OR_POP"):
            return self.short_circuit(block, frame, region, loop)
        if last.op == "JUMP_IF_NOT_EXC_MATCH":
            self.fail("old-style except clause outside a try", last.index)
        c = self.condition(block, frame)
        frame.stack[:] = c.frame.stack
        # while loop entered through its duplicated test (3.10+ layout)
        inverted = self.inverted_while(c, frame, region, loop)
        if inverted is not None:
            return inverted
        return self.if_(c, frame, region, loop)

    @staticmethod
    def is_flipping_continue(t, test, region, loop):
        """Whether a test that jumps back to the loop's start when true is
        ``if <test>: continue`` rather than ``if not <test>:`` around the rest
        of the body: the two compile alike except for an ``is``/``in`` test,
        whose ``not`` the compiler folds into ``is not``/``not in`` (another
        instruction argument), so the source said ``continue``."""
        return (loop is not None and t in loop.continue_targets and not region(t)
                and flips(test))

    @staticmethod
    def continues_from_region_end(t, fall, region, loop):
        """Whether a test that jumps back to the loop's start when true, and
        falls past the end of ``region`` (a try body) when false, is
        ``if <test>: continue`` at the region's end: ``if not <test>:`` would
        hold the code that follows, which the region (the try) does not cover
        (3.12+ threads the ``continue`` into the test's jump)."""
        return loop is not None and t in loop.continue_targets and not region(t) and not region(fall)

    def ends_statement(self, block):
        """Whether the jump ending ``block`` has the line of the code before
        it: the compiler's jump at the end of a statement (an if body's jump
        past its else, threaded on), not a ``continue`` on a line of its own."""
        k = block.end - 1
        return k > block.start and self.instrs[k].line is not None and self.instrs[k].line == self.instrs[k - 1].line

    def walk_branch(self, start, frame, region, loop):
        """Walk one branch of an ``if`` from ``start``."""
        branch = self.branch_region(start, region)
        if (loop is not None and not region(start)
                and (start in loop.continue_targets or start == loop.break_target)):
            # the branch goes straight back to the loop's test (3.12+ folds
            # ``else: continue`` into the condition's jump) or out of the loop
            return self.transfer(start, frame, branch, loop, implied=True)
        return self.walk(start, frame, branch, loop)

    def walk_dominated(self, start, frame, region, loop):
        """Walk from ``start`` (which may lie inside a block) through the code that
        ``start``'s block dominates: an except clause's or a match case's own code."""
        block = self.cfg.containing(start)
        dom = self.dominated_by(block)
        inside = both(region, dom)
        if block.start != start:
            return self.block_then_walk(block, start, frame, inside, loop)
        return self.walk(start, frame, inside, loop)

    def branch_region(self, index, region):
        b = self.cfg.at(index)
        if b is None:
            return region
        dom = self.dominated_by(b)
        return both(region, dom)

    def if_(self, c: Cond, frame, region, loop):
        # a chained comparison's cleanup that could not be merged is
        # walked as the code it is
        t, fl = [x[2] if isinstance(x, tuple) else x for x in (c.true, c.false)]
        test = c.expr
        if self.crosses_assert_test(c):
            # ``if c:`` / ``assert x``: merged into ``assert not c or x``, python -O would skip c
            raise DecompilationError("an if's test merged into the test of the assert it holds "
                                     "(python -O would skip the if's test)", self.ctx.name)
        if shares_effects(test, frame.stack):
            # a chained comparison's kept operand that no link consumed: the
            # test and each branch would evaluate it again
            self.fail("chained comparison that could not be merged",
                      self.instrs[max(self.cfg.blocks[k].end for k in c.blocks) - 1].index)
        # the compiler puts an if's body right after its test: the branch
        # that falls through is the body (``if not x`` jumps when x is true)
        fall = c.blocks.end
        if (fl == fall and t != fall and not self.is_flipping_continue(t, test, region, loop)
                and not self.continues_from_region_end(t, fall, region, loop)):
            t, fl, test = fl, t, negate(test)
        split = self.copied_exit_split(c, t, fl, region, frame)
        if split is not None:
            return self.conditional_before_copied_exit(test, t, fl, split, frame)
        over = self.jump_over_cleanup(t, c.blocks) if isinstance(t, int) else None
        if over is not None:
            # a chained test's true path jumps over its cleanup (3.10: into a
            # copy of the exit, as the cleanup goes on into the other one)
            over_c = Cond(c.expr, over[0], c.false, c.frame, over[1])
            over_c.cleanups = c.cleanups
            split = self.copied_exit_split(over_c, over[0], fl, region, frame)
            if split is not None:
                return self.conditional_before_copied_exit(test, over[0], fl, split, frame)
        if t == fl and (frame.stack and not isinstance(frame.stack[-1], (V.Iterator, V.WithExit, V.Exception_))
                        or self.in_lambda() and not frame.stmts
                        or c.blocks.start == self._value_branch_at and not frame.stmts):
            # (a value below is an expression in progress: no statement fits
            # there; nor in the body of a lambda)
            at = self.conditional_with_one_arm(c, t, frame)
            if at is not None:
                return at
        # a body that is only a jump (an and/or link's exit) starts where it
        # goes; not a try statement that other code reaches too: that would
        # be structured once here and its code walked again after the if
        t_block = self.cfg.at(t)
        jump_body = self.is_jump_body(c, t)
        # (a lone jump to another: a chained comparison's false way out of its
        # cleanup, ``while a and b < c is not None``; the cleanup that falls
        # where the jump goes is the condition's own, ``if not a < b in c: try:``)
        hopped, hops = union(c.blocks, c.cleanups), 0
        while (not jump_body and t != fl and t_block is not None and t_block.end - t_block.start == 1 and hops < 8
                and self.instrs[t].op == "JUMP" and self.jump_body_start(self.instrs[t].target, fl, region, frame)
                and (loop is None or self.instrs[t].target not in loop.continue_targets)
                and not self.shared_try(self.instrs[t].target, hopped | BlockIds(t_block))
                and not self.reached_past(fl, self.instrs[t].target, hopped | BlockIds(t_block), region)):
            hopped, hops = hopped | BlockIds(t_block), hops + 1
            t = self.instrs[t].target
            t_block = self.cfg.at(t)
        then = frame.copy()
        then.stmts = []
        # (a statement's if: with values on the stack other than the enclosing blocks' it is
        # part of an expression, a chained comparison's cleanup or a conditional expression,
        # whose ways meet past the else)
        statement = all(isinstance(x, (V.Iterator, V.WithExit, V.Exception_)) for x in frame.stack)
        past_else = self.jumped_over_else(t, fl, region) if statement else None
        if past_else is not None:
            # the code past the else is the if statement's next code, not the body's
            t_exit = self.walk_branch(t, then, both(region, lambda i: not past_else(i)), loop)
            if len(then.stack) != len(frame.stack):
                # a value left at the jump: a conditional expression's arm (its else arm
                # ends in a copied finally's raise), whose arms meet past the else
                then = frame.copy()
                then.stmts = []
                past_else = None
        if past_else is None:
            t_exit = self.walk_branch(t, then, region, loop) if t != fl else Exit("leave", t)
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
            other, f_exit = self.value_branch(fl, frame, region, loop)
            if (f_exit.kind == "leave" and (self.same_place(f_exit.target, t_exit.target)
                                            or self.same_return(f_exit.target, t_exit.target))
                    and len(other.stack) == depth + 1 and only_value(other)):
                body, orelse = then.pop_expr(), other.pop_expr()
                frame.push(ast.IfExp(test=test, body=body, orelse=orelse))
                return t_exit.target
            copied = (self.exit_instead(other, fl, t_exit.target, frame)
                      if f_exit.kind == "end" and self.same_handler(t, fl) else None)
            if copied is not None:
                frame.push(ast.IfExp(test=test, body=then.pop_expr(), orelse=copied))
                return t_exit.target
            if (not self.runs_to_return(t_exit.target, through_copies=True)
                    and t_exit.target not in self.dead_end_copies):
                self.fail("conditional expression with unbalanced branches", self.cfg.at(t).start)
        if (t_exit.kind == "leave" and len(then.stack) == depth + 1
                and self.runs_to_return(t_exit.target, through_copies=True)):
            # ``return value`` in the branch, returned after the cleanup of an
            # enclosing with (or finally) that lies outside the region
            t_exit = self.walk(t_exit.target, then, lambda i: True, loop)
        elif t_exit.kind == "leave" and self.branch_returns_outside(t, t_exit.target, assigned_names(then.stmts)):
            # ``return`` in an except clause's inner try: the clause's
            # POP_EXCEPT and the return lie outside the inner try
            t_exit = self.walk(t_exit.target, then, lambda i: True, loop)
        t_exit = self.returned_into_dead_copy(t_exit, then, depth)
        t_exit = self.through_with_exits(t, t_exit, then, loop)
        t_exit = self.returned_before_dead_copy(t_exit, fl, then)
        t_exit = self.broke_into_copy(t_exit, then, region, loop)
        if t_exit.kind == "leave" and self.same_place(t_exit.target, fl):
            # if without else
            if not same_stack(then.stack, frame.stack):
                self.fail("if body leaves a value the other path does not", self.cfg.at(fl).start)
            # the frame's own stack stays: emitting the if may have saved its values
            # in temporaries (a yield, a call), which the branch's copy does not know
            frame.emit(self.make_if(test, then.stmts, []))
            return self.transfer(fl, frame, region, loop) if not region(fl) else fl
        other = frame.copy()
        other.stmts = []
        if (t_exit.kind == "end" and self.ends_in_exit(then, reraise=True) and self.return_joined_from_before(fl)):
            f_exit = self.walk(fl, other, self.branch_region(fl, region), loop)
            copied = self.exit_instead(then, t, f_exit.target, frame) if f_exit.kind == "leave" else None
            if copied is not None and len(other.stack) == depth + 1 and only_value(other):
                frame.push(ast.IfExp(test=test, body=copied, orelse=other.pop_expr()))
                return f_exit.target
            other = frame.copy()
            other.stmts = []
        if t_exit.kind == "end":
            merged = self.exits_as_one_value(test, then, t, fl, frame, region, loop)
            if merged is not None:
                return merged
            # the then-branch never falls through. When it ends in the
            # function's own ``return None`` and the other branch also ends,
            # the source was if/else (the compiler copied the final return
            # into both); otherwise what follows is simply the next code.
            goes_on_looping = loop is not None and fl in loop.continue_targets
            if (then.stmts and is_return_none(then.stmts[-1]) and COPIES_EXIT_BLOCKS and region(fl)
                    and not goes_on_looping):
                entered = set(self.active_handlers)
                f_exit = self.walk_branch(fl, other, region, loop)
                if f_exit.kind == "end":
                    frame.emit(self.make_if(test, then.stmts, other.stmts))
                    return END
                # that walk is dropped and the code walked again as what
                # follows the if: the try statements it entered are new again
                self.active_handlers = entered
            nxt = self.dead_jump_else(test, then, t, fl, frame, region, loop)
            if nxt is not None:
                return nxt
            frame.emit(self.make_if(test, then.stmts, []))
            return self.transfer(fl, frame, region, loop, implied=True) if not region(fl) else fl
        f_exit = self.walk_branch(fl, other, region, loop)
        if (f_exit.kind == "leave" and not self.same_place(f_exit.target, t_exit.target)
                and self.branch_returns_outside(fl, f_exit.target, assigned_names(other.stmts))):
            # the else branch's ``return`` after an empty finally's (absent)
            # inlined copy lies outside the try's protected range, as above
            f_exit = self.walk(f_exit.target, other, lambda i: True, loop)
        elif (f_exit.kind == "leave" and len(other.stack) == depth + 1 and t_exit.kind == "leave"
              and not self.same_place(f_exit.target, t_exit.target) and self.runs_to_return(f_exit.target)):
            # ``return value`` in the else branch, its RETURN_VALUE past the
            # range of an enclosing try (as for the first branch above)
            f_exit = self.walk(f_exit.target, other, lambda i: True, loop)
        f_exit = self.returned_into_dead_copy(f_exit, other, depth)
        f_exit = self.through_with_exits(fl, f_exit, other, loop)
        f_exit = self.returned_before_dead_copy(f_exit, t_exit.target if t_exit.kind == "leave" else None, other)
        t_exit, f_exit = self.returned_through_finally_copy(t_exit, f_exit, then, other, loop)
        unchanged = same_stack(then.stack, frame.stack)  # then keep the frame's (see above)
        frame.emit(self.make_if(test, then.stmts, other.stmts))
        if t_exit.kind == "end" and f_exit.kind == "end":
            return END
        if t_exit.kind == "end":
            # (walked to its return through a finally copy, above)
            if not same_stack(other.stack, frame.stack):
                frame.stack[:] = other.stack
            return self.transfer(f_exit.target, frame, region, loop) if not region(f_exit.target) else f_exit.target
        if f_exit.kind == "end":
            if not unchanged:
                frame.stack[:] = then.stack
            return self.transfer(t_exit.target, frame, region, loop) if not region(t_exit.target) else t_exit.target
        if not self.same_place(f_exit.target, t_exit.target):
            self.fail("if branches end in different places", self.cfg.at(fl).start)
        if not same_stack(then.stack, other.stack):
            # two values, one per branch, that no conditional expression holds
            self.fail("if branches leave different values", self.cfg.at(fl).start)
        if not unchanged:
            frame.stack[:] = then.stack
        return self.transfer(t_exit.target, frame, region, loop) if not region(t_exit.target) else t_exit.target

    def jumped_over_else(self, t, fl, region):
        """The blocks past an if/else, when the body falling through at ``t`` ends
        in a forward jump over the else branch at ``fl`` (``if c: a`` / ``else: raise``
        / ``b``): the compiler lays the body out before the else and jumps over it,
        so ``b`` follows the if statement. The body dominates ``b`` when the else
        never falls through, yet ``if c: a; b`` has no such jump (``b`` comes
        before the else), so the jump says what the programmer wrote."""
        if not t < fl <= self.n or fl < 1:
            return None
        j = self.instrs[fl - 1]
        if j.op != "JUMP" or not fl < j.target < self.n or not region(j.target):
            return None
        last = self.instrs[j.target - 1]
        if not (last.op in ("RETURN_VALUE", "RAISE_VARARGS", "RERAISE")
                or last.op == "JUMP" and (last.target < fl or not region(last.target))):
            # the else ends in a return, raise, continue or break; not a jump on
            # (``k if b or 0 else 1``: b's false way jumps over ``k`` to the ``1``)
            return None
        jb, target = self.cfg.containing(j.index), self.cfg.at(j.target)
        if target is None or not self.cfg.dominates(self.cfg.containing(t), jb):
            return None
        return self.dominated_by(target)

    def returned_through_finally_copy(self, t_exit, f_exit, then, other, loop):
        """The exits of an if's two branches (walked into ``then`` and
        ``other``), where a branch that leaves for a ``return`` (see
        :meth:`returns_straight`) while the other branch goes elsewhere is
        walked on to that ``return``: the branch's own statement."""
        if t_exit.kind != "leave" or f_exit.kind != "leave" or self.same_place(t_exit.target, f_exit.target):
            return t_exit, f_exit
        exits = []
        for ex, frame in ((t_exit, then), (f_exit, other)):
            if self.returns_straight(ex.target):
                ex = self.walk(ex.target, frame, lambda i: True, loop)
            exits.append(ex)
        return tuple(exits)

    def returns_straight(self, index):
        """Whether the code at ``index`` returns a constant, or runs an
        inlined copy of a finally body and then only returns the value kept
        below the copy or a constant: the way out of a ``return`` in a try
        body, or a jump to a ``return <constant>`` (<=3.9 does not copy it
        into the branch: a ``break`` out of a loop that never loops back).
        Not the code after a try statement, which a return there would
        move into it."""
        past = self.past_finally_copies(index)
        if past >= self.n:
            return False
        if past != index and self.returns_at(past):
            return True
        return (past + 1 < self.n and self.instrs[past].op == "LOAD_CONST"
                and self.instrs[past + 1].op == "RETURN_VALUE")

    def value_branch(self, start, frame, region, loop):
        """Walk the other branch of a conditional expression whose first branch
        computed a value, from ``start`` into a copy of ``frame``: (its frame,
        its exit). A test at ``start`` whose two ways meet again is read as a
        conditional expression there too (``3 if b else G if a or 4 else 5``
        tests ``a``, then computes ``G``), not as an ``if a: pass`` statement,
        when that is what gives the branch its one value."""
        state = self.trial_state()
        other = frame.copy()
        other.stmts = []
        f_exit = self.walk_branch(start, other, region, loop)
        if only_value(other) or not live(other.stmts) or not isinstance(live(other.stmts)[0], ast.If):
            return other, f_exit
        self.restore_trial_state(state)
        other = frame.copy()
        other.stmts = []
        self._value_branch_at, outer = start, self._value_branch_at
        try:
            f_exit = self.walk_branch(start, other, region, loop)
        finally:
            self._value_branch_at = outer
        return other, f_exit

    def same_handler(self, a, b):
        """Whether the same exception handler (or none) covers the code at ``a``
        and at ``b``: the arms of one conditional expression are both inside a
        try body or both outside (3.11+ leaves an arm's copied exit, or the
        code after the try that the other arm jumps to, outside its range)."""
        return self.cfg.containing(a).handler == self.cfg.containing(b).handler

    def exits_as_one_value(self, test, then, t, fl, frame, region, loop):
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
        if not (COPIES_EXIT_BLOCKS and frame.stack and self.ends_in_exit(then)):
            return None
        if not self.same_handler(t, fl):
            return None
        state = self.trial_state()
        other = frame.copy()
        other.stmts = []
        f_exit = self.walk_branch(fl, other, region, loop)
        merged = None
        if f_exit.kind == "end" and self.ends_in_exit(other) and same_stack(then.stack, other.stack):
            merged = merge_exit_copies(live(then.stmts), live(other.stmts), test)
        if merged is None:
            self.restore_trial_state(state)
            return None
        frame.stack[:] = then.stack
        for stmt in merged:
            frame.emit(stmt)
        return END

    def in_lambda(self):
        """Whether the code is a lambda's, whose body is one expression."""
        code = getattr(self.ctx, "code", None)
        return code is not None and code.co_name == "<lambda>"

    def jump_body_start(self, target, other, region, frame):
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
        if not self.leaves_through_exit_code(target, frame, to_return=False):
            return False
        return not (isinstance(other, int) and self.leaves_through_exit_code(other, frame, to_return=True))

    def leaves_through_exit_code(self, index, frame, to_return):
        """Whether the code at ``index`` is an inlined copy of a finally body
        (with ``to_return``, one that goes on straight into a ``return``) or
        the exit calls of with statements on the way to a ``return``."""
        if index in self.finally_copies:
            return not to_return or self.exits_then_return(self.past_finally_copies(index))
        return self.with_exit_call_at(index, frame) and self.exits_then_return(index)

    def returns_past_outer_with_exits(self, ex, body, frame):
        """Whether a try body (walked into ``body``) that computed a returned value
        left (``ex``) after the exit call of the innermost enclosing with statement,
        which took that with's exit off the stack, for the exits of the others on
        the way to the ``return`` (``with a, b:`` / ``try: return x`` / ``finally:``)."""
        return (ex.kind == "leave" and len(body.stack) == len(frame.stack) and body.stack
                and isinstance(frame.stack[-1], V.WithExit) and not isinstance(body.stack[-1], V.WithExit)
                and self.with_exit_call_at(ex.target, body) and self.exits_then_return(ex.target))

    def exits_then_return(self, index):
        """Whether the code at ``index`` only calls the exits of with
        statements (``__exit__(None, None, None)``) and returns: the way out
        of a ``return`` in their bodies, not their end followed by more code."""
        ins = self.instrs
        while True:
            k = index + 1 if index < self.n and (ins[index].op, ins[index].arg) == ("SWAP", 2) else index
            call = ins[k:k + 5]
            if not (len(call) == 5 and all((x.op, x.arg) == ("LOAD_CONST", None) for x in call[:3])
                    and call[3].op == "CALL" and call[4].op == "POP_TOP"):
                break
            index = k + 5
        if index < self.n and ins[index].op == "LOAD_CONST":
            index += 1
        return index < self.n and ins[index].op == "RETURN_VALUE"

    def conditional_with_one_arm(self, c: Cond, start, frame):
        """A test whose two ways go on at ``start`` in the middle of an
        expression: a conditional expression whose test ends in a constant
        (``x if a or 1 else y`` tests ``a``, then computes ``x``; ``y`` is dead
        code, which 3.12+ drops with the jump to the join). Push it, its value
        the first plain expression computed at ``start`` (any such split runs
        the same steps in the same order), and return the index after that
        value; None when there is none (an ``if a: pass`` statement then)."""
        # (the last test's jump tells the constant: ``a or b or 1`` ends in a jump if true)
        jump = self.instrs[max(self.cfg.blocks[k].end for k in c.blocks) - 1]
        b = self.cfg.at(start)
        if jump.op not in ("POP_JUMP_IF_TRUE", "POP_JUMP_IF_FALSE") or b is None:
            return None
        branch = frame.copy()
        branch.stmts = []
        k = start
        stops = list(self.expression_ends(start, b.end))
        for n, stop in enumerate(stops):
            for k in range(k, stop):
                E.execute(branch, self.instrs[k])
            k = stop
            # (not the NULL pushed before a callable, nor the defaults of a function made next)
            if isinstance(branch.stack[-1], (ast.expr, V.Function)) and not self.function_operand(stops, n):
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

    def function_operand(self, stops, n):
        """Whether the value pushed at ``stops[n]`` (from :meth:`expression_ends`) is an
        operand of MAKE_FUNCTION (the defaults of ``lambda p=3: 0``), not an expression of
        its own: the step to the next end consumes all that is pushed from the start."""
        return n + 1 < len(stops) and self.instrs[stops[n + 1] - 1].op == "MAKE_FUNCTION"

    def copied_exit_split(self, c: Cond, t, fl, region, frame):
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
        runs = [self.private_run_to_return(x, inside, region) for x in (t, fl)]
        if None in runs:
            return self.split_at_copied_tail(t, fl, runs, inside, region, frame)
        ends = [end for end, _ in runs]
        if [(self.instrs[k].op, self.instrs[k].arg) for k in ends].count(
                (self.instrs[ends[0]].op, self.instrs[ends[0]].arg)) != 2:
            return None  # (both a ``return``, or both a ``raise`` of as many values)
        joins = [join for _, join in runs]
        f_splits = self.split_candidates(fl, ends[1], joins[1])
        for kt in self.split_candidates(t, ends[0], joins[0]):
            kf = ends[1] - (ends[0] - kt)
            if kf not in f_splits:
                continue
            tail, copy = self.instrs[kt:ends[0]], self.instrs[kf:ends[1]]
            if not tail and not self.one_statement_returns(ends):
                continue
            if [(i.op, i.arg) for i in tail] != [(i.op, i.arg) for i in copy]:
                continue
            # a copy keeps the line numbers of what it copies; two returns
            # written in the source have their own (unless the tail goes on
            # with a value computed before the test: only an expression can)
            if not ([i.line for i in tail] == [i.line for i in copy] or self.consumes_earlier_value(tail)):
                continue
            # (each branch's part before the split is one value: not the NULL
            # pushed before a callable, ``len(x) if b else len(x)``)
            if None not in (self.branch_value(t, kt, frame), self.branch_value(fl, kf, frame)):
                return kt, kf
        return None

    def one_statement_returns(self, ends):
        """Whether the returns at ``ends`` (one per branch) are the copies of
        one ``return`` statement: ``return a if b else 0`` (3.12+: not the
        ``RETURN_CONST`` of a statement ``return 0``). A copy keeps the line
        of what it copies; two return statements have lines of their own, so
        the conditional expression is what was written there."""
        if all((self.instrs[k - 1].op, self.instrs[k - 1].arg) == ("LOAD_CONST", None) for k in ends):
            return False  # (copies of the implicit ``return None`` take the line of a jump to it)
        lines = {self.instrs[k].line for k in ends}
        return len(lines) == 1 and None not in lines

    def split_at_copied_tail(self, t, fl, runs, inside, region, frame):
        """:meth:`copied_exit_split` when a branch's code does not run
        straight to its exit: an inlined comprehension loops, a chained
        comparison's false path drops its kept operand and goes on in a copy
        of the tail of its own (``raise E((a if b else 0 < c < d) - 1)``), a
        conditional expression copies it into each of its branches. The tail
        of one branch (the straight one, else the then branch's first exit) is
        looked for at the ends of the other, after the value a walk halted
        there computes (:meth:`value_up_to`); (the index in each branch) or None.
        Not inside such a walk: each would walk its branch again (a walk per
        nesting level, not one per level and branch below it)."""
        if self._halt is not None:
            return None
        straight = 1 if runs[0] is None and runs[1] is not None else 0
        s, other = (t, fl)[straight], (t, fl)[1 - straight]
        if runs[straight] is not None:
            end, join = runs[straight]
            candidates = self.split_candidates(s, end, join)
        else:
            if not self.private_start(s, inside, region):  # (the cheaper question first)
                return None
            firsts = self.exits_like(s, EXITS_WITH_VALUE, limit=32)[:1]
            if not firsts:
                return None
            end = firsts[0]
            candidates = range(max(s + 1, self.cfg.containing(end).start), end)
        if not self.private_start(other, inside, region):
            return None
        ends = self.exits_like(other, {(self.instrs[end].op, self.instrs[end].arg)})
        if not ends:
            return None
        for ks in candidates:
            tail = self.instrs[ks:end + 1]
            if len(tail) < 2 or not self.takes_branch_value(tail):
                continue
            for e in ends:
                ko = e - (end - ks)
                if not (other < ko and self.cfg.containing(ko).end > e):
                    continue  # (the copy is straight code, after the branch's own)
                copy = self.instrs[ko:e + 1]
                if [(i.op, i.arg) for i in tail] != [(i.op, i.arg) for i in copy]:
                    continue
                if not ([i.line for i in tail[:-1]] == [i.line for i in copy[:-1]]
                        or self.consumes_earlier_value(tail[:-1])):
                    continue  # (as in copied_exit_split)
                if ((self.trial_branch_value(s, ks, frame) if runs[straight] is not None
                     else self.value_up_to(s, ks, frame, trial=True)) is None
                        or self.value_up_to(other, ko, frame, trial=True) is None):
                    continue
                return (ks, ko) if straight == 0 else (ko, ks)
        return None

    def trial_branch_value(self, start, stop, frame):
        """:meth:`branch_value`, leaving no trace; None where it fails (a
        split tried at the wrong place: ``Null used as a value``)."""
        state = self.trial_state()
        try:
            return self.branch_value(start, stop, frame)
        except DecompilationError:
            return None
        finally:
            self.restore_trial_state(state)

    @staticmethod
    def takes_branch_value(tail):
        """Whether the straight ``tail`` (its last instruction a return or a
        raise of one value), run on the value a branch pushed, uses it: plain
        expression steps that leave just that value (or one computed from
        it) for the exit, or consume values from below with it. (A ``return
        x`` copied after an if statement's branches leaves their value unused.)"""
        depth = plain_steps_depth(tail[:-1], 1)
        return depth is BELOW or depth == 1

    def exits_like(self, start, keys, limit=64):
        """The exits (``(op, arg)`` in ``keys``) that end blocks of the code
        from ``start`` (laid out from there, reached only through ``start``),
        in order."""
        head, entry = self.cfg.at(start), self.cfg.blocks[0]
        found = []
        b = head
        while b is not None and limit:
            if self.cfg.dominates(head, b):
                last = self.instrs[b.end - 1]
                if (last.op, last.arg) in keys:
                    found.append(b.end - 1)
            elif self.cfg.dominates(entry, b):
                break  # (code others reach: the branch's code ends; a loop's exit
                # that the graph leaves unreached, 3.12+'s END_FOR, does not end it)
            b = self.cfg.at(b.end) if b.end < self.n else None
            limit -= 1
        return found

    def value_up_to(self, start, stop, frame, trial=False):
        """The one expression the branch from ``start`` pushes on a copy of
        ``frame`` by the time it reaches ``stop`` (maybe mid-block: where a
        copied tail starts), its own control flow walked as everywhere; or
        None. A ``trial`` leaves no trace (the code is walked again)."""
        branch = frame.copy()
        branch.stmts = []
        state = self.trial_state()
        halt, self._halt = self._halt, stop
        try:
            ex = self.walk(start, branch, self.dominated_by(self.cfg.containing(start)), None)
        except DecompilationError:
            ex = None
        finally:
            self._halt = halt
        ok = (ex is not None and ex.kind == "leave" and ex.target == stop
              and len(branch.stack) == len(frame.stack) + 1 and only_value(branch))
        if trial or not ok:
            self.restore_trial_state(state)
        return branch.pop_expr() if ok else None

    def private_start(self, start, cond_blocks, region):
        """Whether the block at ``start`` lies in ``region`` and is reached
        only from ``cond_blocks`` (no other code jumps into it)."""
        b = self.cfg.at(start)
        return not (b is None or not region(start) or b.exc_preds or self.pred_outside_extent(b, cond_blocks)
                    or any(p.id not in cond_blocks for p in b.preds))

    def split_candidates(self, start, end, join):
        """Where the copied tail of a branch from ``start`` to its return at
        ``end`` may start, in order: where plain expression steps have pushed
        one value; past ``join`` (where the branch's own control flow ends)
        any index, its value checked by :meth:`branch_value`."""
        if join is None:
            return list(self.expression_ends(start, end))
        return list(range(join, end))

    def branch_value(self, start, stop, frame):
        """The one expression the code from ``start`` to ``stop`` pushes on a
        copy of ``frame`` with no other effect, or None. Its control flow of
        its own (and/or, conditional expressions, chained comparisons) is
        walked; the straight code after it is run."""
        join = start
        for k in range(start, stop):
            ins = self.instrs[k]
            if ins.target is not None:
                join = max(join, k + 1, ins.target)
        branch = frame.copy()
        branch.stmts = []
        if join > start:
            try:
                ex = self.walk(start, branch, lambda i: start <= i < join, None)
            except DecompilationError:
                return None
            if ex.kind != "leave" or ex.target != join:
                return None
        for k in range(join, stop):
            E.execute(branch, self.instrs[k])
        if len(branch.stack) != len(frame.stack) + 1 or not only_value(branch):
            return None
        try:
            return branch.pop_expr()
        except DecompilationError:
            return None  # (the NULL pushed before a callable: the split lies further on)

    def private_run_to_return(self, start, cond_blocks, region):
        """(Index of the ``return``, or ``raise`` of a value: the compiler copies
        it the same way, that the code at ``start`` runs to, where the
        branch's own forward jumps have all joined or None when it has none)
        for code reached only from ``cond_blocks`` (no other code jumps into
        it); or None. A run through more than ``RUN_BLOCKS`` blocks is no copy the compiler
        made (it copies small exit blocks): None, without scanning on (an elif chain's else
        branch runs through the rest of the chain, at each of its levels)."""
        if not self.private_start(start, cond_blocks, region):
            return None
        b = self.cfg.at(start)
        blocks_left = RUN_BLOCKS
        # each block the run enters is checked as it is entered: a run that
        # another jump enters ends the scan there (sequential ifs: the next
        # if's test, entered from the jump over this body - scanning on to
        # the function's return from every body was quadratic)
        run = {b.id}
        k = start
        join = None
        while k < self.n and self.instrs[k].op not in (
                "RETURN_VALUE", "RAISE_VARARGS", "RERAISE", "FOR_ITER", "YIELD_VALUE"):
            ins = self.instrs[k]
            if ins.target is not None:
                # (an and/or, a conditional expression, a chained comparison
                # inside the branch's value: forward jumps that join before the return)
                if ins.op not in CONDITIONAL_JUMPS and ins.op != "JUMP" or ins.target <= k:
                    return None
                join = max(join or 0, k + 1, ins.target)
            k += 1
            if k == b.end and k < self.n:
                b, blocks_left = self.cfg.at(k), blocks_left - 1
                if b is None or not blocks_left or b.exc_preds or any(p.id not in run for p in b.preds):
                    return None
                run.add(b.id)
        if k >= self.n or join is not None and join > k or not (
                self.instrs[k].op == "RETURN_VALUE"
                or self.instrs[k].op == "RAISE_VARARGS" and self.instrs[k].arg
                or (self.instrs[k].op, self.instrs[k].arg) == ("RERAISE", 0)):
            return None  # (3.12+ copies a finally body's closing re-raise the same way)
        return k, join

    def pred_outside_extent(self, b, blocks) -> bool:
        """Whether a predecessor of block ``b`` starts outside the extent of ``blocks``
        (then it is not one of them): asked of the block after an ``and``/``or`` chain
        once per link, which every link jumps to, and answered from the predecessors'
        first and last start (kept per block: the graph does not change), not by a scan."""
        span = self._pred_span.get(b.id)
        if span is None:
            starts = [p.start for p in b.preds]
            span = self._pred_span[b.id] = (min(starts), max(starts)) if starts else None
        return span is not None and not (blocks.start <= span[0] and span[1] < blocks.end)

    def expression_ends(self, start, stop):
        """Indices in ``(start, stop)`` where the plain expression steps from
        ``start`` have pushed exactly one value (never consuming one pushed
        before ``start``), in order."""
        from .instructions import is_walrus_store, pops_pushes
        depth = 0
        for k in range(start, stop):
            pp = pops_pushes(self.instrs[k])
            if self.instrs[k].op == "GET_ITER":
                pp = (1, 1)  # (a generator expression's argument: a for loop's goes on to FOR_ITER)
            if k + 1 < stop and is_walrus_store(self.instrs, k + 1) and depth:
                pp = (0, 1)  # a walrus's ``COPY 1``, its store below drops the copy
            elif is_walrus_store(self.instrs, k) and depth > 1:
                pp = (1, 0)
            if pp is None or pp[0] > depth or self.instrs[k].op in ASYNC_OPS:
                return  # (an await is the walker's to fold)
            depth += pp[1] - pp[0]
            if depth == 1:
                yield k + 1

    @staticmethod
    def consumes_earlier_value(tail):
        """Whether plain expression steps in ``tail``, run on one new value,
        consume a value pushed before it: only an expression can go on so."""
        return plain_steps_depth(tail, 1) is BELOW

    def conditional_before_copied_exit(self, test, t, fl, split, frame):
        """``test``'s branches up to ``split`` as one conditional expression;
        the code goes on with the then-branch's copy of the exit."""
        values = []
        for start, stop in zip((t, fl), split):
            state = self.trial_state()
            value = self.branch_value(start, stop, frame)
            if value is None:
                self.restore_trial_state(state)
                value = self.value_up_to(start, stop, frame)  # (see split_at_copied_tail)
            if value is None:
                self.fail("conditional expression with statements", start)
            values.append(value)
        frame.push(ast.IfExp(test=test, body=values[0], orelse=values[1]))
        return split[0]

    def shared_try(self, index, block_ids):
        """Whether a try statement starts at ``index`` that blocks other
        than ``block_ids`` also lead to."""
        b = self.cfg.at(index)
        return (b is not None and self.new_try(b) is not None
                and any(not block_ids.holds(p) for p in b.preds))

    def reached_past(self, start, target, avoid: BlockIds, region):
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
            b = self.cfg.at(i)
            if i in seen or b is None or avoid.holds(b) or not region(i):
                continue
            seen.add(i)
            work.extend(x.start for x in b.succs)
        return False

    def dead_jump_else(self, test, then, t, fl, frame, region, loop):
        """An if statement whose body never falls through, with the
        ``else`` clause the bytecode shows (see :meth:`legacy_else_end`):
        emit it and return where control goes on; None when there is no
        else clause or it does not end where the dead jump says."""
        end = self.legacy_else_end(t, fl)
        if end is None or not self.dominated_by(self.cfg.containing(t))(self.cfg.containing(fl - 2).start):
            return None  # (a dead jump after other code than the if body)
        if loop is not None and end == loop.break_target:
            return None  # rather a ``break`` whose jumps were threaded past it
        if end > fl:
            inside = self.branch_region(fl, region)
            else_region = lambda i: inside(i) and i < end
        elif loop is not None and end in loop.continue_targets:
            else_region = self.branch_region(fl, region)  # the rest of the loop body
        else:
            return None
        other = frame.copy()
        other.stmts = []
        f_exit = self.walk(fl, other, else_region, loop)
        if f_exit.kind == "leave":
            if end > fl and not self.same_place(f_exit.target, end):
                return None
            if end < fl and f_exit.target not in loop.continue_targets:
                return None
        body = then.stmts
        if self.instrs[fl - 2].op == "RETURN_VALUE":
            # the jump stayed because it was a jump target: the end of an
            # if/else in the body whose last branch returns
            body = last_return_into_else(body)
        frame.emit(self.make_if(test, body, other.stmts))
        if f_exit.kind == "leave":
            frame.stack[:] = other.stack
            target = f_exit.target
        elif end > fl:
            target = end
        else:
            return END
        return self.transfer(target, frame, region, loop) if not region(target) else target

    def breaks_into_exit_copy(self, k, frame, loop):
        """Whether the POP_TOP at ``k`` drops the for loop's iterator and goes on into a
        copy of the small exit the loop's ``break`` goes to (3.10+ copies it into the
        ``break``): ``break`` was written. ``return x`` in the loop computes ``x`` before
        it drops the iterator; a constant's return (``POP_TOP; RETURN_CONST``) compiles
        alike either way."""
        if not (COPIES_EXIT_BLOCKS and loop is not None and loop.break_target is not None
                and frame.stack and isinstance(frame.stack[-1], V.Iterator)
                and self.instrs[loop.header].op == "FOR_ITER"):
            return False
        copy = self.exit_copy(k + 1)
        return copy is not None and copy == self.exit_copy(loop.break_target)

    def broke_into_copy(self, exit_, frame, region, loop):
        """``exit_``, or END after a ``break`` in ``frame`` when the branch
        leaves the region into a copy of the code after the loop (3.10+
        copies a small exit block into the ``break`` that jumps to it)."""
        if (exit_.kind == "leave" and loop is not None and loop.break_target is not None
                and exit_.target != loop.break_target and not region(exit_.target)
                and COPIES_EXIT_BLOCKS and self.same_code(exit_.target, loop.break_target)):
            frame.emit(ast.Break())
            return END
        return exit_

    def returned_before_dead_copy(self, exit_, other, frame):
        """``exit_``, or END after a bare ``return`` in ``frame`` when the
        branch leaves into a copy of a finally body that never completes and
        the other branch (which goes to ``other``) does not: a ``return``
        there compiles to the copy alone, like the ``break``, ``continue``
        or ``return <constant>`` it may have been (their jumps are dead)."""
        if (exit_.kind == "leave" and exit_.target in self.dead_end_copies
                and not (other is not None and self.same_place(exit_.target, other))):
            frame.emit(ast.Return(value=None))
            return END
        return exit_

    def through_with_exits(self, start, exit_, frame, loop):
        """``exit_`` of the branch from ``start``, or where it ends when it
        leaves into the ``__exit__`` call of an enclosing with statement that
        only the branch reaches: a return/break/continue inside nested with
        statements (3.11+) calls each exit in turn, the inner one inside the
        inner body's range, the outer ones outside it."""
        if exit_.kind != "leave" or not isinstance(start, int) or not self.with_exit_call_at(exit_.target, frame):
            return exit_
        if exit_.target == start:
            # an empty branch (``elif x: pass`` ending a with body): it leaves
            # where it starts, into the exit the other way reaches too
            return exit_
        b = self.cfg.containing(start)
        if not self.dominated_by(b)(self.cfg.containing(exit_.target).start):
            return exit_
        return self.walk(exit_.target, frame, self.dominated_by(b), loop)

    def with_exit_call_at(self, index, frame):
        """Whether ``__exit__(None, None, None)`` of a with statement whose
        exit is on ``frame``'s stack is called at ``index`` (after the ``SWAP
        2`` that puts a returned value below it: ``return x`` in an except
        clause, whose ``POP_EXCEPT`` ends the clause's range, 3.11+)."""
        if index < self.n and (self.instrs[index].op, self.instrs[index].arg) == ("SWAP", 2):
            index += 1
        ins = self.instrs[index:index + 4]
        return (len(ins) == 4 and all((x.op, x.arg) == ("LOAD_CONST", None) for x in ins[:3])
                and ins[3].op == "CALL" and any(isinstance(v, V.WithExit) for v in frame.stack))

    def returned_into_dead_copy(self, exit_, frame, depth):
        """``exit_``, or END after emitting ``return <value>`` into ``frame``
        when control leaves into a copy of a finally body that never
        completes with one value more than ``depth`` on the stack: the value
        a ``return`` computed before its finally runs (and raises)."""
        if (exit_.kind == "leave" and exit_.target in self.dead_end_copies
                and len(frame.stack) == depth + 1):
            frame.emit(ast.Return(value=frame.pop_expr()))
            return END
        return exit_

    def returned_instead(self, branch, target):
        """3.8/3.9: whether ``branch``, a lone ``return <value>``, stands for
        a conditional expression's branch whose jump to the ``return`` at
        ``target`` the peephole optimizer replaced by a return."""
        return (self.only_return(branch) and isinstance(target, int) and target < self.n
                and self.instrs[target].op == "RETURN_VALUE")

    def exit_instead(self, branch, start, target, frame):
        """The value of ``branch`` (walked from ``start`` in a copy of
        ``frame``) when it stands for a conditional expression's branch whose
        jump to the exit at ``target`` the compiler replaced by a copy of
        it: a lone ``return <value>`` (see :meth:`returned_instead`) or
        ``raise <value>`` (3.10+ copies a small ``raise``: ``raise a and (0
        if b else c)``), or the value and a copy of the straight code from
        ``target`` to its exit (``raise E(a and (0 if b else c))``); else None."""
        if self.returned_instead(branch, target):
            return live(branch.stmts)[0].value
        if not isinstance(target, int) or target >= self.n:
            return None
        if self.only_raise(branch) and (self.instrs[target].op, self.instrs[target].arg) == ("RAISE_VARARGS", 1):
            return live(branch.stmts)[0].exc
        return self.value_before_copied_exit(start, target, frame) if COPIES_EXIT_BLOCKS else None

    def value_before_copied_exit(self, start, target, frame):
        """The value computed from ``start`` by plain expression steps that go
        on with a copy of the straight code from ``target`` to a ``return``
        or ``raise <value>`` (or a finally body's closing re-raise, whose code
        3.10+ copies too: ``finally: x = c and (1 if b else 2)``), or None."""
        end = self.straight_to_exit(target, reraise=True)
        if end is None:
            return None
        k = self.straight_to_exit(start, reraise=True)
        split = None if k is None else k - (end - target)
        if split is None or split <= start or split not in set(self.expression_ends(start, k)):
            return None
        if [(i.op, i.arg) for i in self.instrs[split:k + 1]] != [(i.op, i.arg) for i in self.instrs[target:end + 1]]:
            return None
        branch = frame.copy()
        branch.stmts = []
        try:
            for i in range(start, split):
                E.execute(branch, self.instrs[i])
        except DecompilationError:
            return None
        if live(branch.stmts) or len(branch.stack) != len(frame.stack) + 1:
            return None
        return branch.pop_expr()

    def takes_value_from_below(self, start):
        """Whether the straight code from ``start`` to its return or raise
        consumes a value computed before ``start`` (as where the branches of
        a conditional expression meet)."""
        stores = ("STORE_FAST", "STORE_NAME", "STORE_GLOBAL", "STORE_DEREF")
        if self.instrs[start].op in stores:
            return True  # ``x = <value>`` then the return: the value is stored
        if ((self.instrs[start].op, self.instrs[start].arg) == ("COPY", 1) and start + 1 < self.n
                and self.instrs[start + 1].op in stores):
            return True  # ``x = y = <value>``
        depth = plain_steps_depth(self.instrs[start:self.straight_to_exit(start)], 0)
        return depth is BELOW or depth == 0  # (the return or raise takes one value)

    def straight_to_exit(self, start, reraise=False):
        """Index of the ``return`` (or ``raise <value>``; with ``reraise``, or
        a finally body's closing re-raise) that the code at ``start`` runs
        straight to, in one block; or None."""
        b = self.cfg.at(start)
        if b is None:
            return None
        k = b.end - 1
        ins = self.instrs[k]
        if not (ins.op == "RETURN_VALUE" or ins.op == "RAISE_VARARGS" and ins.arg == 1
                or reraise and (ins.op, ins.arg) == ("RERAISE", 0)):
            return None
        if any(x.target is not None or x.op in ASYNC_OPS or x.op in self.special for x in self.instrs[start:k]):
            return None
        return k

    def return_joined_from_before(self, index):
        """Whether a ``return`` (or ``raise``) after ``index`` is reached
        with its value from code before ``index`` as well (a conditional
        expression's branches meet there); cheap test before walking a
        branch twice."""
        if not hasattr(self, "_return_joins"):
            # (start, first predecessor) of each block that is only a return
            self._return_joins = [(b.start, min(p.start for p in b.preds)) for b in self.cfg.blocks
                                  if b.preds and self.straight_to_exit(b.start, reraise=True) is not None
                                  and self.takes_value_from_below(b.start)]
        return any(start > index > first for start, first in self._return_joins)

    def only_raise(self, frame):
        """Whether ``frame`` holds nothing but one ``raise <value>``."""
        stmts = live(frame.stmts)
        return (len(stmts) == 1 and isinstance(stmts[0], ast.Raise) and stmts[0].exc is not None
                and stmts[0].cause is None and not getattr(stmts[0], "_reraise", False))

    def ends_in_exit(self, frame, reraise=False):
        """Whether ``frame``'s statements end in a ``return`` or ``raise <value>``
        (a copy of the code from where a conditional expression's branches meet
        to its exit: ``x = 1 if b else 2; return x``); with ``reraise``, or in
        a finally body's closing re-raise (the compiler's, see :meth:`block`)."""
        stmts = live(frame.stmts)
        return bool(stmts) and (isinstance(stmts[-1], ast.Return) and stmts[-1].value is not None
                                or isinstance(stmts[-1], ast.Raise) and stmts[-1].exc is not None
                                or reraise and getattr(stmts[-1], "_reraise", False))

    def only_return(self, frame):
        """Whether ``frame`` holds nothing but one ``return <value>``."""
        stmts = live(frame.stmts)
        return len(stmts) == 1 and isinstance(stmts[0], ast.Return) and stmts[0].value is not None

    def make_if(self, test, body, orelse):
        if not body:
            if orelse:
                return ast.If(test=negate(test), body=orelse, orelse=[])
            body = [ast.Pass()]
        # ``assert`` compiles to a jump over ``raise AssertionError`` (an assert on a
        # line of its own under the test stays inside the if: tidy writes it ``assert False``)
        if (not orelse and len(body) == 1 and isinstance(body[0], ast.Raise)
                and self.is_assert_raise(body[0]) and assert_line_mark(body[0]) != "own line"):
            # (an if's test is never merged with the test of an assert "under if":
            # see pure_condition and crosses_assert_test)
            exc = body[0].exc
            msg = exc.args[0] if isinstance(exc, ast.Call) and exc.args else None
            return ast.Assert(test=negate(test), msg=msg)
        return ast.If(test=unflip_negations(test), body=body, orelse=orelse)

    def crosses_assert_test(self, c: Cond):
        """Whether the test ``c`` holds the test of an assert under an if
        (:func:`assert_tests_under_if`) and code before it: the if's test."""
        return any(c.blocks.start < s < c.blocks.end and c.blocks.holds(self.cfg.at(s))
                   for s in self.assert_tests)

    def is_assert_raise(self, node):
        exc = node.exc
        if isinstance(exc, ast.Call):
            exc = exc.func
        return getattr(exc, "_assertion", False) and node.cause is None

    def short_circuit(self, block, frame, region, loop):
        """``a and b`` / ``a or b`` as a value (JUMP_IF_X_OR_POP)."""
        last = self.instrs[block.end - 1]
        left = frame.pop_expr(last)
        if self.drops_kept_operand(last.target) and keeps_operand(left, frame):
            # (not ``return x and y`` in a for loop: its value's way out drops the
            # iterator below it the same way, ``SWAP 2; POP_TOP``)
            return self.chained_compare(block, left, frame, region, loop)
        target = last.target
        op = ast.And if last.op == "JUMP_IF_FALSE_OR_POP" else ast.Or
        value_end = self.dropped_value_end(block.end, target)
        if value_end is not None:
            # ``a and f()`` as a statement: 3.10+ copies what follows the
            # statement's POP_TOP into the right operand's path
            right_frame = frame.copy()
            right_frame.stmts = []
            for k in range(block.end, value_end):
                E.execute(right_frame, self.instrs[k])
            if not live(right_frame.stmts) and len(right_frame.stack) == len(frame.stack) + 1:
                frame.push(join_operands(op, left, right_frame.pop_expr(), last))
                return target
        right_frame = frame.copy()
        right_frame.stmts = []
        # (a value: a test that starts it and goes on the same way both ways is
        # a conditional expression's, ``b and (a if k or 2 else 0)``, see value_branch)
        self._value_branch_at, outer = block.end, self._value_branch_at
        try:
            ex = self.walk(block.end, right_frame, self.operand_region(block.end, target, region), loop)
        finally:
            self._value_branch_at = outer
        if (ex.kind == "end" and self.only_return(right_frame) and target < self.n
                and self.instrs[target].op == "RETURN_VALUE"):
            # ``return a and b``: each path returns on its own
            frame.emit(ast.Return(value=join_operands(op, left, live(right_frame.stmts)[0].value, last)))
            return END
        if (ex.kind == "end" and self.only_raise(right_frame) and target < self.n
                and (self.instrs[target].op, self.instrs[target].arg) == ("RAISE_VARARGS", 1)):
            # ``raise a and b``: 3.12+ copies the raise into the right operand's
            # path when that operand's own jumps were folded (``a and (4 or b)``)
            frame.emit(ast.Raise(exc=join_operands(op, left, live(right_frame.stmts)[0].exc, last), cause=None))
            return END
        copied = self.value_before_copied_exit(block.end, target, frame) if ex.kind == "end" else None
        if copied is not None and COPIES_EXIT_BLOCKS:
            # 3.10+ copied the code from ``target`` to its return into the
            # right operand's path: ``return (a or b,)``
            frame.push(join_operands(op, left, copied, last))
            return self.transfer(target, frame, region, loop) if not region(target) else target
        filled = self.operand_in_copied_exit(ex, right_frame, target, frame)
        if filled is not None:
            frame.push(join_operands(op, left, filled, last))
            return self.transfer(target, frame, region, loop) if not region(target) else target
        dropped = self.operand_dropped_by_walk(ex, right_frame, target, frame, loop)
        if dropped is not None:
            frame.push(join_operands(op, left, dropped, last))
            return self.transfer(target, frame, region, loop) if not region(target) else target
        meet = self.short_circuit_meet(ex, target, last)
        if meet is None or not right_frame.stack:
            self.fail("short-circuit operand with statements", last.index)
        right = right_frame.pop_expr()  # (a walrus operand becomes an expression here)
        if live(right_frame.stmts):
            self.fail("short-circuit operand with statements", last.index)
        frame.stack[:] = right_frame.stack
        node = join_operands(op, left, right, last)
        if target < self.n and self.instrs[target].op == last.op:
            # its value is tested again by the same operator: ``(a and b) and c``
            # (3.12+ no longer threads the jump; a and b and c tests a once)
            node._paren = True
        if (target < self.n and self.instrs[target].op in ("JUMP_IF_TRUE_OR_POP", "JUMP_IF_FALSE_OR_POP")
                and last.arg != "threaded"):
            # the enclosing and/or tests the value again (its truth is taken twice): the
            # compiler threads such a jump to the end (taking it once) unless the operand
            # starts on another line than the operator around it (3.10, 3.11); the text
            # puts it on a line of its own (emit)
            node._own_line = True
        frame.push(node)
        if not region(meet) and not self.returns_through_finally_copy(meet, frame):
            return self.transfer(meet, frame, region, loop)
        return meet

    def returns_through_finally_copy(self, index, frame):
        """Whether the code at ``index`` is an inlined copy of a finally body
        that goes on to return the value on top of ``frame``'s stack: ``return
        a or b`` in a try body, whose value meets at the copy (outside the try
        body's range); the walk goes through the copy to the return (:meth:`walk`)."""
        past = self.past_finally_copies(index)
        return past != index and bool(frame.stack) and self.returns_at(past)

    def operand_in_copied_exit(self, ex, branch, target, frame):
        """The value of an and/or's right operand whose walk into ``branch``
        ended in a copy of the straight code from ``target`` (where the left
        operand jumps) to a ``return`` or ``raise <value>``: 3.10+ copies that
        code into a path of the operand whose own jumps it folded (the true
        path of a chained comparison: ``raise E(a or 2 > c < b)``). It is the
        part of the copy's statement where the code at ``target`` uses the
        value it is given; None when the statement is not such a copy."""
        if ex.kind != "end" or not COPIES_EXIT_BLOCKS or not isinstance(target, int) or target >= self.n:
            return None
        end = self.straight_to_exit(target, reraise=True)  # (3.12+ copies a finally body's end too)
        stmts = live(branch.stmts)
        if end is None or not stmts or not isinstance(stmts[-1], (ast.Return, ast.Raise)):
            return None
        probe = frame.copy()
        probe.stmts = []
        hole = ast.Name(id="_unveil_operand", ctx=ast.Load())
        probe.push(hole)
        try:
            for k in range(target, end):
                E.execute(probe, self.instrs[k])
            if self.instrs[end].op == "RERAISE":
                probe.emit(ast.Raise(exc=None, cause=None))  # (as block() writes it)
            else:
                E.execute(probe, self.instrs[end])
        except DecompilationError:
            return None
        if len(probe.stack) != len(branch.stack):
            return None
        return value_of_exits(stmts, live(probe.stmts), hole)

    def operand_dropped_by_walk(self, ex, branch, target, frame, loop):
        """The right operand of an and/or whose value is dropped (``a and (b or
        f())`` as a statement), when its walk into ``branch`` wrote that
        expression statement itself: the operand holds an and/or of its own,
        and 3.11+ copies the ``POP_TOP`` into each of that one's ways out. The
        statement's value, when the walk then went where the code after the
        ``POP_TOP`` at ``target`` (where the left operand goes) goes too: it
        left for that place, or wrote the same ``continue`` / ``break``; else None."""
        if target + 1 >= self.n or self.instrs[target].op != "POP_TOP":
            return None
        stmts = live(branch.stmts)
        if not stmts or not isinstance(stmts[0], ast.Expr):
            return None
        after = self.follow_jumps(target + 1)
        if ex.kind == "leave" and isinstance(ex.target, int) and len(stmts) == 1:
            return (stmts[0].value if after == self.follow_jumps(ex.target)
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
        return stmts[0].value if self.walks_to(target + 1, frame, stmts[1:], loop) else None

    def walks_to(self, index, frame, stmts, loop):
        """Whether the code at ``index``, walked (a trial) in a copy of
        ``frame``, ends (returns or raises) after writing just ``stmts``."""
        probe = frame.copy()
        probe.stmts = []
        state = self.trial_state()
        try:
            ex = self.walk(index, probe, lambda i: True, loop)
        except DecompilationError:
            return False
        finally:
            self.restore_trial_state(state)
        got = live(probe.stmts)
        return (ex.kind == "end" and len(got) == len(stmts)
                and all(ast.dump(a) == ast.dump(b) for a, b in zip(got, stmts)))

    def operand_region(self, start, target, region):
        """Where the walk of an and/or's right operand from ``start`` (its
        left operand jumping to ``target``) may go."""
        if region(start) or not start < target:
            return self.branch_region(start, region)
        # the operand is also reached by a test before the and/or whose jump
        # the compiler threaded into it (``(a or b) and c`` jumps from ``a``
        # straight to ``c``): it lies outside the region of that test's
        # branch, and runs up to where its value meets the left operand's
        return both(lambda i: start <= i < target, self.dominated_by(self.cfg.at(start)))

    def short_circuit_meet(self, ex, target, last):
        """Where the value of the and/or ending in ``last`` (whose left
        operand jumps to ``target``) goes on, given the exit ``ex`` of its
        right operand's walk; None when they do not meet."""
        if ex.kind != "leave" or not isinstance(ex.target, int):
            return None
        if ex.target == target or self.follow_jumps(ex.target) == self.follow_jumps(target):
            return target  # (``target`` may be a lone jump the right operand jumps past)
        if self.past_finally_copies(target) == ex.target:
            # ``return a or b`` in a try body: the value meets at the start of the
            # finally body's inlined copy, which the right operand's walk skips
            return target
        t = ex.target
        if (t < self.n and self.instrs[t].op == last.op
                and self.follow_jumps(self.instrs[t].target) == self.follow_jumps(target)):
            # the right operand falls into a second test of the value by the same
            # operator, which the left operand's jump was threaded past:
            # ``(c if x else a or b) or d``; the compiler threads it again
            return t
        return None

    def dropped_value_end(self, start, target):
        """Where the right operand of an and/or from ``start`` ends, when its
        value is dropped (``POP_TOP``) and the code after that is a copy of
        the code after the ``POP_TOP`` at ``target``, where the left operand
        goes; else None."""
        if not (COPIES_EXIT_BLOCKS and target + 1 < self.n and self.instrs[target].op == "POP_TOP"):
            return None
        for k in self.expression_ends(start, target):
            if self.instrs[k].op != "POP_TOP":
                continue
            key = self._legacy_key(k + 1)
            if key != self._legacy_key(target + 1):
                return None
            # (the same return or raise; or jumps to the same place: 3.12+ copies a
            # loop body's jump back, ``for x in a: b or f()``)
            return k if isinstance(key, tuple) or self.instrs[k + 1].op == "JUMP" else None
        return None

    def drops_kept_operand(self, target):
        """Whether the block at ``target`` starts by dropping the operand a
        chained comparison keeps on the stack (``SWAP 2; POP_TOP``)."""
        ins = self.instrs
        return (target + 1 < self.n and ins[target].op == "SWAP" and ins[target].arg == 2
                and ins[target + 1].op == "POP_TOP")

    def chained_compare(self, block, left, frame, region, loop):
        """``a < b < c``: the false path of each link drops the kept operand;
        the true path compares it with the next one. Only the true path is
        followed (:meth:`chain_operand`); its comparison joins ``left``."""
        while True:
            first = self.cfg.at(block.end)
            before = len(frame.stmts)
            k = None
            if first is not None and frame.stack:
                k = self.chain_operand(block.end, frame, both(region, self.dominated_by(first)), loop)
            if k is None or live(frame.stmts[before:]):
                self.fail("unrecognised chained comparison", block.end - 1)
            right = frame.pop()
            merged = chain_compare(left, right)
            if merged is None:
                self.fail("unrecognised chained comparison", block.end - 1)
            frame.push(merged)
            rest = self.cfg.containing(k - 1)
            last = self.instrs[rest.end - 1]
            if not (k == rest.end - 1 and last.op == "JUMP_IF_FALSE_OR_POP"
                    and self.drops_kept_operand(last.target)):
                return self.block(rest, frame, region, loop, start=k)
            # the next link of the same chain: joined here, not one call deeper
            block, left = rest, frame.pop_expr(last)

    def chain_operand(self, start, frame, region, loop):
        """Walk the code from ``start`` that computes the next operand of a
        chained comparison and compares the operand kept on top of
        ``frame``'s stack with it. The operand may hold control flow of its
        own (``and``/``or``, a conditional expression, another chain, an
        ``await``), structured as everywhere else; the walk stops right after
        that comparison (:meth:`block`). The index after it, or None."""
        self._stops.append((frame, frame.stack[-1]))
        # the operand's own tests (a conditional expression in a match
        # guard's chain) are structured here, not handed to the guard reader
        guard_frame, self.guard_frame = self.guard_frame, None
        try:
            ex = self.walk(start, frame, region, loop)
        finally:
            self._stops.pop()
            self.guard_frame = guard_frame
        return ex.target if ex.kind == "stop" else None

    def trial_state(self):
        """The structuring state a walk may change, to put back after a trial."""
        return (set(self.active_loops), set(self.active_handlers), set(self.open_tries),
                dict(self.finally_copies), set(self.active_latches))

    def restore_trial_state(self, state):
        (self.active_loops, self.active_handlers, self.open_tries,
         self.finally_copies, self.active_latches) = state
        self.copies_version += 1

    # ------------------------------------------------------------- loops
    def natural(self, header: Block):
        """Starts of the blocks of ``header``'s natural loop (those on a path
        back to it)."""
        inner = self._inner_loop_at.get(header.start)
        if inner is not None:
            return self.blocks_back_to(header, inner)
        return {self.cfg.blocks[k].start for k in self.cfg.loop_body(header)}

    def loop_back_sources(self, header: Block):
        """The blocks that jump back to ``header``: of the loop being found
        there (see :meth:`inner_loop_sources`)."""
        inner = self._inner_loop_at.get(header.start)
        return list(inner) if inner is not None else self.cfg.back_edge_sources(header)

    def blocks_back_to(self, header: Block, sources):
        """Starts of the blocks on a path from ``header`` back to it through ``sources``."""
        body, work = {header.start}, list(sources)
        while work:
            b = work.pop()
            if b.start not in body:
                body.add(b.start)
                work.extend(p for p in b.preds if p.start not in body)
        return body

    def inner_loop_sources(self, header: Block, latch):
        """3.10+ ``while c: try: while True:``: the rotated loop's body starts
        where the inner loop's header is (only NOPs apart, dropped), so both
        jump back to one block. A ``continue`` goes to the top test, not to
        the body: a plain jump back from before the bottom test is the inner
        loop's (written as ``continue`` it would compile to another jump)."""
        return [b for b in self.cfg.back_edge_sources(header)
                if b.start < latch and self.instrs[b.end - 1].op == "JUMP"]

    def break_target(self, natural, normal_exit):
        """Where ``break`` goes: a path out of the natural loop, other than
        the normal exit, that ends in a jump (a ``return`` ends otherwise)."""
        targets = []
        for start in natural:
            b = self.cfg.at(start)
            for s in b.succs:
                if s.start in natural or s.start == normal_exit:
                    continue
                if normal_exit is not None and self.follow_jumps(s.start) == self.follow_jumps(normal_exit):
                    # (3.11+: the bottom test's own jump to where the entry test's exit
                    # jumps; the entry test's exit may be the jump: ``while a and (b or 0)``)
                    continue
                s = self.past_chain_cleanup(b, s, natural)
                past = self.past_kept_operand_drop(s)
                if past is not s and past.start == normal_exit:
                    continue  # (the bottom test's chain drops its operand on the way out: no break)
                if past.start != normal_exit and past.start not in natural:
                    s = past  # (a chain's false path to the loop's exit is the test's, as it was)
                t = self.jump_at_end(s, natural, normal_exit)
                if t is None:
                    t = self.async_break_falls_to(s, natural, normal_exit)
                if t is not None and t not in natural:
                    t = self.through_outer_breaks(b, s, t, natural)
                    if self.drops_then_jumps_to(t, normal_exit) or self.copy_of_exit(t, normal_exit):
                        t = normal_exit
                    keeps = self.jump_keeps_iterator(s, natural)
                    if not (keeps and (self.runs_to_return(t) or not self.drops_iterator_at(t))
                            or self.caught_in_loop(t, natural)):
                        targets.append(t)
                elif t is None:
                    targets.extend(self.breaks_behind_tests(s, natural, normal_exit))
        targets.extend(self.breaks_from_handlers(natural, normal_exit))
        if not targets:
            return None
        if normal_exit in targets:
            return normal_exit
        going_on = [t for t in targets if not self.assert_failure_at(t)]
        if going_on and len(going_on) < len(targets):
            # a jump to an assert's raise, beside a way out to other code, is
            # the loop's own assert (``assert 0 if o else 1``: its conditional
            # expression jumps straight to the raise), no break
            targets = going_on
        return max(set(targets), key=targets.count)

    def assert_failure_at(self, index):
        """Whether the code at ``index`` runs straight to the raise of an
        ``AssertionError``: an assert's failure."""
        if index >= self.n or self.straight_raise_end(index) is None:
            return False
        ins = self.instrs[index]
        return ins.op == "LOAD_ASSERTION_ERROR" or (ins.op, ins.arg) == ("LOAD_GLOBAL", "AssertionError")

    def copy_of_exit(self, target, normal_exit):
        """Whether the code at ``target`` is where the loop's normal exit
        jumps, or a copy of it, a small ``return``/``raise`` (3.10+ copies those
        into each path that reaches them): a test's way out that jumps past the
        others (``while a and (b != c or 0)``)."""
        if target is None or normal_exit is None or target == normal_exit:
            return False
        a, b = self.follow_jumps(target), self.follow_jumps(normal_exit)
        # (not merely the same place: an inner loop's break jumps where its normal exit goes)
        return self.exit_copy(a) is not None and self.exit_copy(a) == self.exit_copy(b)

    def drops_then_jumps_to(self, target, normal_exit):
        """Whether the code at ``target`` only drops values and jumps to the
        loop's normal exit: the loop's own code that then breaks (the
        alternatives of an or-pattern jump to their case's cleanup, whose body
        is ``break``), not the code after the loop."""
        b = self.cfg.at(target) if target is not None and normal_exit is not None else None
        if b is None:
            return False
        ops = [self.instrs[k].op for k in range(b.start, b.end)]
        return (ops[-1] == "JUMP" and self.instrs[b.end - 1].target == normal_exit
                and all(op == "POP_TOP" for op in ops[:-1]))

    def caught_in_loop(self, target, natural):
        """Whether an exception at ``target`` goes to a handler in the loop
        of ``natural``: the code there is inside a try or with statement of
        the loop's body (a jump out of the loop's natural blocks to code that
        only raises, like an or-pattern's jump to a case body ``assert 0``),
        never the code after the loop that a ``break`` goes to."""
        if target is None or target >= self.n:
            return False
        h = self.cfg.containing(target).handler
        return h is not None and h in natural

    def past_chain_cleanup(self, inside, out, natural):
        """The block where the edge from block ``inside`` to ``out`` leaves
        the loop: a chained comparison's true path jumps over its cleanup
        (``POP_TOP``) to the code it runs, which is the way out (``if a < b
        < c: break``: the break drops the iterator there; ``assert a < b <
        c``: the raise); else ``out`` itself."""
        over = self.jump_over_cleanup(out.start, BlockIds(inside))
        if over is None:
            return out
        nxt = self.cfg.at(over[0])
        return out if nxt is None or nxt.start in natural else nxt

    def past_kept_operand_drop(self, block):
        """Where a chained comparison's false path goes on when ``block`` is
        its cleanup, which drops the operand the links kept (``POP_TOP``, then
        a jump or a fall): the block there; else ``block``. That jump leaves
        the loop's natural blocks for code that does not loop again (an else
        clause that ends in ``break`` or its copied ``return``): it is no
        ``break`` of its own, whose ``POP_TOP`` drops the iterator."""
        ops = [self.instrs[k].op for k in range(block.start, block.end)]
        if ops not in (["POP_TOP"], ["POP_TOP", "JUMP"]) or not block.preds or not all(
                self.keeps_operand_into(p, block) for p in block.preds):
            return block
        nxt = self.cfg.at(self.instrs[block.end - 1].target if ops[-1] == "JUMP" else block.end)
        return nxt if nxt is not None else block

    def keeps_operand_into(self, pred, block):
        """Whether ``pred`` ends in a chained comparison's link that keeps its
        right operand below the test and jumps to ``block`` when false."""
        last = self.instrs[pred.end - 1]
        c = pred.end - 2
        return (last.op in CONDITIONAL_JUMPS and last.target == block.start and c >= 2
                and self.instrs[c].op == "COMPARE_OP"
                and [(x.op, x.arg) for x in self.instrs[c - 2:c]] in _KEEP_OPERAND)

    def through_outer_breaks(self, inside, out, target, natural):
        """Where the edge from block ``inside`` to ``out`` (which jumps to
        ``target``) leaves the loop of ``natural``: an inner for loop's
        ``break`` (``POP_TOP; JUMP``) may go to this loop's own ``break``
        (``for ...: for ...: break / else: continue / break``), which drops
        this loop's iterator and jumps on."""
        if self.after_dropping_iterator(out) is None:
            return target
        left = sum(1 for h in natural if self.instrs[h].op == "FOR_ITER"
                   and inside.start in self.natural(self.cfg.at(h))) - 1
        seen = set()
        while left > 0 and target not in seen and target < self.n:
            nxt = self.after_dropping_iterator(self.cfg.at(target))
            if nxt is None:
                break
            seen.add(target)
            target, left = nxt, left - 1
        return target

    def async_break_falls_to(self, block, natural, normal_exit):
        """Where the ``break`` of an async for at ``block`` goes, or None:
        3.11+ drops the iterator (a lone ``POP_TOP``) and falls into the
        code after the loop, which the loop's normal exit (``END_ASYNC_FOR``,
        then the else clause) reaches too without passing the loop's header
        (a jump back to the header would reach all the loop's code)."""
        header = min(natural)
        if (normal_exit is None or block.end - block.start != 1
                or self.async_for_header(self.cfg.at(header)) is None):
            return None
        fall = self.after_dropping_iterator(block)
        if fall is None:
            return None
        if self.async_for_exits_to(normal_exit, fall) or self.async_else_goes_to(normal_exit, fall, natural):
            return fall
        return None

    def async_else_goes_to(self, normal_exit, target, natural):
        """Whether the normal exit of the (async) for loop of ``natural``
        (``END_ASYNC_FOR``, then the else clause) reaches ``target`` without
        passing the loop's header: the code after the loop, where a
        ``break`` goes."""
        header = min(natural)
        seen, work = set(), [self.cfg.containing(normal_exit)]
        while work and len(seen) < 64:
            b = work.pop()
            if b.start == target:
                return True
            if b.start in seen or b.start == header or b.start in natural:
                continue
            seen.add(b.start)
            work.extend(b.succs)
        return False

    def after_dropping_iterator(self, block):
        """Where ``block`` goes when it only drops a value (a for loop's
        ``break``: ``POP_TOP`` then a jump, or a fall into the next code);
        else None."""
        if block is None or self.instrs[block.start].op != "POP_TOP":
            return None
        if block.end - block.start == 2 and self.instrs[block.start + 1].op == "JUMP":
            return self.instrs[block.start + 1].target
        if block.end - block.start == 1 and block.end < self.n:
            return block.end
        return None

    def jump_keeps_iterator(self, block, natural):
        """Whether the jump that ends the straight-line code from ``block``
        (see :meth:`jump_at_end`) leaves a for loop's iterator on the stack:
        then a ``return`` it goes to is no break (see BREAK_POPS_ITERATOR)."""
        header = min(natural)
        if self.instrs[header].op != "FOR_ITER":
            return False
        k = block.start
        while k < self.n and self.instrs[k].op != "JUMP":
            k += 1
        # (3.12+ has such jumps too: ``if a and 1 or b: return x`` jumps from
        # ``a and 1``'s constant test to a return that drops the iterator itself)
        if k >= self.n:
            return False
        kept = self.stack_kept_below(self.without_with_exit_calls(block.start, k),
                                     1 if block.start == header + 1 else 0)
        if kept is not None:
            return kept
        return self.instrs[k - 1].op != "POP_TOP"

    def without_with_exit_calls(self, start, end):
        """The instructions from ``start`` to ``end`` without the ``POP_BLOCK``s
        and ``__exit__(None, None, None)`` calls that close with statements:
        an exit call consumes the with's ``__exit__``, which lies above a for
        loop's iterator when the with is inside the loop (one outside it could
        not be called with the iterator still above it)."""
        out, k = [], start
        while k < end:
            after, swap = self._legacy_exit_call(k)
            if after is None or swap:
                after = self.after_exit_call(k)
            if self.instrs[k].op == "POP_BLOCK":
                k += 1
            elif after is not None and after <= end:
                k = after
            else:
                out.append(self.instrs[k])
                k += 1
        return out

    @staticmethod
    def stack_kept_below(instrs, depth):
        """Whether straight code ``instrs``, run on ``depth`` values of its own,
        never consumes what lies below them (a for loop's iterator: a POP_TOP
        that drops a call's result keeps it); None when a step is no plain
        expression step, a store or a drop."""
        depth = plain_steps_depth(instrs, depth, steps=store_or_step)
        return None if depth is None else depth is not BELOW

    def drops_iterator_at(self, target):
        """Whether the code at ``target`` starts by dropping a value: where a
        ``break`` that jumps with the for loop's iterator still on the stack
        goes (3.11+ drops it right before the loop's exit). A jump that keeps
        the iterator to other code stays in the loop's body (a jump over an
        empty try's unreachable handler, in a body that never loops back)."""
        return target < self.n and self.instrs[target].op == "POP_TOP"

    def breaks_behind_tests(self, start, natural, normal_exit, limit=16):
        """Where the code at ``start``, which leaves the natural loop, jumps
        out of the loop after tests of its own (``if a: (if b: x); break``):
        the targets of the jumps that end the loop's code there (code after
        the loop, reached from ``normal_exit``, is not the loop's)."""
        header = self.cfg.at(min(natural))
        in_loop = self.dominated_by(header)
        # (``while True``: no normal exit, only jumps to outside the loop's
        # code, an enclosing loop's header say, tell where break goes)
        after = self.blocks_reachable_from(normal_exit) if normal_exit is not None else set()
        work, seen, out = [start], set(), []
        while work and len(seen) < limit:
            b = work.pop()
            if b.start in seen or b.start in natural or b.start in after or not in_loop(b.start):
                continue
            seen.add(b.start)
            last = self.instrs[b.end - 1]
            if last.op == "JUMP":
                t = last.target
                if t not in natural and (t in after or not in_loop(t)):
                    out.append(t)
            elif last.op not in ("RETURN_VALUE", "RAISE_VARARGS", "RERAISE"):
                work.extend(b.succs)
        return out if not work else []

    def breaks_from_handlers(self, natural, normal_exit):
        """Where the except clauses of a try inside the loop jump out of it
        (a ``break`` in a clause): the jumps that end handler code the loop
        reaches, which neither loops back nor is after the loop."""
        header = self.cfg.at(min(natural))
        in_loop = self.dominated_by(header)
        # (the code after the loop, found only when a handler asks: it is all
        # the rest of the function, too much to walk for every loop)
        after = None
        work = [self.cfg.at(s).handler for s in natural]
        seen, jumps, suppressed = set(), [], set()
        while work:
            i = work.pop()
            if i is None or i >= self.n or i in seen or i in natural or not in_loop(i):
                continue
            if after is None:
                after = self.blocks_reachable_from(normal_exit) if normal_exit is not None else set()
            if i in after:
                continue
            seen.add(i)
            if self.is_with_handler(i):
                suppressed.add(self.after_suppressed(i))
            b = self.cfg.at(i)
            last = self.instrs[b.end - 1]
            if last.op == "JUMP" and not self.jump_inside_handler(b, last.target, in_loop):
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
                and self.instrs[t].op != "RERAISE"
                and header.start not in self.blocks_reachable_from(t)]

    def jump_inside_handler(self, b: Block, target, in_loop) -> bool:
        """Whether the jump ending ``b`` stays in the handler code it is in,
        still holding the exception (3.11+: under the same cleanup handler, one
        of the loop's own): a chained comparison's or an inlined comprehension's
        jump over its cleanup in a finally body, no ``break`` (that drops the
        exception first, POP_EXCEPT, outside the cleanup's range). Nor is a jump
        that carries values its block pushed (a conditional expression's in a
        finally body, <=3.9: ``f(x if 1 else y)``; see :meth:`jump_at_end`), nor
        a chained comparison's jump over its cleanup there (<=3.10, no handler
        covers it: ``if 0 != c == 4: return 0``)."""
        if self.values_pushed(b, 0) or self.lone_jump_over_chain_cleanup(b):
            return True
        h = b.handler
        return (h is not None and target < self.n and in_loop(h)
                and self.cfg.containing(target).handler == h)

    def lone_jump_over_chain_cleanup(self, b: Block) -> bool:
        """Whether ``b`` is only a jump, reached by tests alone, over the
        ``POP_TOP`` right after it: a chained comparison's true path jumping
        over the cleanup of its false path (see :meth:`jump_over_cleanup`)."""
        k = b.start
        return (b.end - k == 1 and self.instrs[k].op == "JUMP" and k + 1 < self.n
                and self.instrs[k + 1].op == "POP_TOP" and self.instrs[k].target > k + 1
                and bool(b.preds) and all(self.cfg.is_conditional(p) for p in b.preds))

    def blocks_reachable_from(self, *starts):
        """Block starts reachable from ``starts`` (by jumps, falls and
        exception edges)."""
        seen = set()
        work = [s for s in starts if s is not None and s < self.n]
        while work:
            i = work.pop()
            if i in seen:
                continue
            seen.add(i)
            b = self.cfg.at(i)
            work.extend(x.start for x in b.succs)
            if b.handler is not None and b.handler < self.n:
                work.append(b.handler)
        return seen

    def jump_at_end(self, block, natural, normal_exit=None, limit=8):
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
            last = self.instrs[block.end - 1]
            carried = self.values_pushed(block, carried)
            if last.op == "JUMP":
                nxt = self.cfg.at(last.target)
                if not carried or nxt is None or nxt.start in natural:
                    return last.target
                block = nxt
                continue
            if (last.op == "SEND" and self.instrs[last.index - 2].op == "GET_AWAITABLE"
                    and self.cfg.at(last.target) is not None):
                # an await (3.11+; not an async for's next item): its
                # delegation loop ends at the target
                block = self.cfg.at(last.target)
                carried = None
                continue
            if last.op in ("RETURN_VALUE", "RAISE_VARARGS", "RERAISE") or last.target is not None:
                return None
            if block.end >= self.n:
                return None
            nxt = self.cfg.at(block.end)
            if nxt.start in natural:
                return None
            if nxt.start == normal_exit and self.drops_iterator_before(first, nxt.start, natural):
                return normal_exit
            block = nxt
        return None

    def drops_iterator_before(self, block, end, natural):
        """Whether the straight code from ``block`` to ``end`` drops the
        iterator of the for loop of ``natural`` (a ``break``; a chained
        comparison's cleanup that falls into the loop's exit drops its kept
        operand, not the iterator)."""
        header = min(natural)
        if self.instrs[header].op != "FOR_ITER":
            return False
        return self.stack_kept_below(self.without_with_exit_calls(block.start, end),
                                     1 if block.start == header + 1 else 0) is False

    def values_pushed(self, block, before):
        """How many values the plain expression steps of ``block`` leave
        pushed above the stack it starts with, ``before`` values having
        been pushed already; None when ``before`` is, or when the block
        holds anything else or consumes a value from below."""
        if before is None:
            return None
        depth = before
        for k in range(block.start, block.end):
            ins = self.instrs[k]
            if ins.op == "JUMP" and k == block.end - 1:
                break
            pp = pops_pushes(ins)
            if pp is None or ins.target is not None or pp[0] > depth:
                return None
            depth += pp[1] - pp[0]
        return depth

    def loop_region(self, header: Block, exits, natural=frozenset()):
        """The blocks inside the loop: dominated by its header and not
        reachable from where it exits. The blocks of the natural loop
        (``natural``) are inside without a search: an exit that reached one
        without passing the header would be in the natural loop itself. The
        search from the exits, which covers the rest of the function, runs
        only when the walk asks about a block outside the natural loop."""
        dom = self.dominated_by(header)
        exits = {e for e in exits if e is not None and e < self.n}
        after = []

        def inside(i):
            if i == header.start or not dom(i):
                return False
            if i in natural:
                return True
            if i in exits:
                return False
            if not after:
                after.append(self.reachable_inside(header, dom, exits))
            return i not in after[0]
        return inside

    def reachable_inside(self, header, dom, starts):
        """Block starts reachable from ``starts`` through blocks that ``dom``
        holds, without passing ``header``."""
        seen = set()
        work = list(starts)
        while work:
            i = work.pop()
            if i in seen or i == header.start or not dom(i):
                continue
            seen.add(i)
            b = self.cfg.at(i)
            work.extend(x.start for x in b.succs)
            if b.handler is not None:
                work.append(b.handler)
        return seen

    def loop(self, header: Block, frame, outer: Optional[Loop]):
        natural = self.natural(header)
        first = self.instrs[header.start]
        self.active_loops.add(header.start)
        try:
            if first.op == "FOR_ITER":
                return self.for_loop(header, frame, natural, outer)
            if self.async_for_header(header) is not None:  # asyncs.py
                return self.async_for_loop(header, frame, natural, outer)
            if self.cfg.is_conditional(header) and all(
                    self.instrs[k].op not in self.special for k in range(header.start, header.end - 1)):
                probe = frame.copy()
                probe.stmts = []
                try:
                    for k in range(header.start, header.end - 1):
                        E.execute(probe, self.instrs[k])
                    c = self.condition(header, probe)
                except DecompilationError:
                    c = None
                if live(probe.stmts):
                    c = None  # statements before the test (a walrus in it is not one)
                if c is not None and not isinstance(c.true, tuple) and not isinstance(c.false, tuple):
                    natural = self.with_body_loop(c, natural, probe)
                    inside_t = c.true in natural
                    inside_f = c.false in natural
                    if inside_t != inside_f and not self.falls_out_of_test(c, inside_t):
                        test = c.expr if inside_t else negate(c.expr)
                        start = c.true if inside_t else c.false
                        exit_ = c.false if inside_t else c.true
                        # 3.10+: a ``continue`` jumps back to this top test,
                        # while the body also loops through a bottom test
                        body = self.past_cleanup_jump(start, c)
                        found = self.find_latch(body, exit_, probe, test) if body is not None else None
                        if found is not None and not same_test(test, found[1]):
                            found = None  # the bottom test is another one: not a copy of this
                        if found is not None and body.start not in self.active_loops:
                            self.active_loops.add(body.start)
                            try:
                                return self.while_loop(found[1], start, exit_, frame,
                                                       natural | self.natural(body), header,
                                                       found[0], skip=c.blocks, outer=outer)
                            finally:
                                self.active_loops.discard(body.start)
                        return self.while_loop(test, start, exit_, frame, natural, header, None,
                                               skip=c.blocks, outer=outer)
            return self.while_loop(None, header.start, None, frame, natural, header, None, outer=outer)
        finally:
            self.active_loops.discard(header.start)

    def with_body_loop(self, c: Cond, natural, probe):
        """The natural loop of a top test ``c`` whose only back edges come
        from except clauses (a ``continue`` in one): the CFG has no edge from
        a try body to its handler, so the body, a loop closed by a copy of
        ``c`` at its bottom (3.10+), is not in it. That loop's blocks join
        ``natural``; else ``natural`` as it is."""
        if c.true in natural or c.false in natural:
            return natural
        for start, exit_ in ((c.true, c.false), (c.false, c.true)):
            body = self.cfg.at(start)
            if body is None or not self.is_loop_header(body) or body.start in self.active_loops:
                continue
            test = c.expr if start == c.true else negate(c.expr)
            found = self.find_latch(body, exit_, probe, test)
            if found is not None and same_test(test, found[1]):
                return natural | self.natural(body)
        return natural

    def falls_out_of_test(self, c: Cond, inside_true):
        """Whether the loop header's condition falls through into the way
        out of the loop (see WHILE_BODY_FALLS_FROM_TEST)."""
        if not WHILE_BODY_FALLS_FROM_TEST:
            return False
        fall = c.blocks.end
        return (c.false if inside_true else c.true) == fall

    def for_loop(self, header, frame, natural, outer):
        it = frame.pop()
        if not isinstance(it, V.Iterator):
            self.fail("for loop over a non-iterator", header.start)
        exit_ = self.instrs[header.start].target
        node = ast.AsyncFor if it.is_async else ast.For
        return self.iteration(node, header, frame, it, header.end, exit_, natural, outer)

    def iteration(self, node_type, header, frame, it, body_start, exit_, natural, outer):
        """Structure a for (or async for) loop over ``it`` whose body starts
        at ``body_start`` and whose iterator runs out at ``exit_``; emit it
        and return where control continues."""
        brk = self.break_target(natural, exit_)
        if self.ctx.dynamo:  # (a comprehension's own list is the one its loop appends to)
            save_lists(frame)
        body = frame.copy()
        body.stmts = []
        body.loop = header.start
        body.push(it)
        target_box = []
        group = V.TargetGroup(1, lambda node: target_box.append(node))
        body.push(V.UnpackSlot(group, 0))
        loop = Loop(frozenset({header.start}), brk if brk is not None else exit_, header.start)
        region = self.loop_region(header, {exit_, brk}, natural)
        ex = self.walk(body_start, body, region, loop)
        if (ex.kind == "leave" and brk is None and exit_ is not None
                and not any(x is it for x in body.stack) and not self.async_for_exits_to(exit_, ex.target)
                and self.async_else_goes_to(exit_, ex.target, natural)):
            # (a body that never loops back drops the iterator and goes to the code
            # after the loop, which the else clause reaches too: there break goes;
            # 3.11+ async for falls there, a for loop's ``break`` jumps)
            brk = ex.target
        if ex.kind == "leave" and not any(x is it for x in body.stack) and (self.same_place(
                ex.target, loop.break_target) or ex.target == brk or self.async_for_exits_to(exit_, ex.target)):
            # the body's last statement is ``break``: it drops the iterator and
            # falls into the code after the loop (3.11 puts its POP_TOP right
            # before the loop's exit)
            body.emit(ast.Break())
        elif ex.kind == "leave" and not self.leaves_loop_as_expected(
                ex.target, loop.continue_targets, None, None):
            self.body_leaves_loop(ex.target, body, loop)
        if not target_box:
            self.fail("for loop target not found", body_start)
        target = target_box[0].elts[0]
        stmts = strip_trailing_continue(continues_as_else(body.stmts))
        orelse, follow = self.loop_else(exit_, brk, frame, outer)
        frame.emit(node_type(target=target, iter=it.expr, body=stmts or [ast.Pass()], orelse=orelse,
                             type_comment=None))
        return follow

    def loop_else(self, exit_, brk, frame, outer):
        """A loop's else clause runs from the normal exit up to where
        ``break`` goes; without breaks there is no telling it apart from the
        code after the loop, and none is made."""
        if brk is None or exit_ is None or brk == exit_:
            return [], exit_ if exit_ is not None else brk
        if self.instrs[exit_].op == "END_ASYNC_FOR" and (
                brk == exit_ + 1 or self.thread(exit_ + 1) == (brk, False)):
            # an async for's way out only drops the iterator and goes where
            # ``break`` goes (<=3.9 threads the break's jump): no else clause
            return [], exit_ + 1
        else_frame = frame.copy()
        else_frame.stmts = []
        start = self.cfg.at(exit_)
        dom = self.dominated_by(start) if start is not None else (lambda i: False)
        # (not where the enclosing loop's ``break`` goes, which only that way
        # out may reach: the clause is in the enclosing loop's body)
        out = outer.break_target if outer is not None else None
        ex = self.walk(exit_, else_frame, lambda i: i != brk and i != out and dom(i), outer)
        if ex.kind == "leave" and ex.target != brk and not self.same_after_copies(ex.target, brk) and not (
                self.same_code(self.past_any_finally_copy(ex.target), self.past_any_finally_copy(brk))):
            # (where break goes may be an enclosing finally body's inlined copy,
            # which the else clause's walk steps over; <=3.10 copies the small
            # exit after it, ``return x``, to each copy)
            self.fail("loop else clause ends in an unexpected place", exit_)
        return else_frame.stmts, brk

    def while_loop(self, test, start, exit_, frame, natural, header, latch, skip=(), outer=None):
        brk = self.break_target(natural, exit_)
        body = frame.copy()
        body.stmts = []
        body.loop = header.start
        conts = {header.start}
        if latch is not None:
            conts.add(latch)
        loop = Loop(frozenset(conts), brk if brk is not None else exit_, header.start,
                    header.start if test is not None and WHILE_TEST_COPIED_AT_BOTTOM else None)
        inside = self.loop_region(header, {exit_, brk}, natural)
        if test is None:
            region = lambda i: inside(i) or i == header.start
            ex = self.walk(start, body, lambda i: inside(i), loop, skip_header=header.start)
        else:
            skip_starts = {self.cfg.blocks[k].start for k in skip}
            region = lambda i: inside(i) and i != latch and i not in skip_starts
            self.active_latches.add(latch)
            # (only where the body starts at the header: a loop whose top test is
            # its header has its ``continue`` jump back there)
            inner = (self.inner_loop_sources(header, latch) if WHILE_TEST_COPIED_AT_BOTTOM
                     and latch is not None and start == header.start else [])
            if inner:
                self._inner_loop_at[header.start] = inner
                self.active_loops.discard(header.start)
            try:
                # an empty body: the loop's top is its bottom test (``while c: pass``)
                if start == header.start and latch is None:
                    # the top test jumps back to itself: the body only goes on looping
                    body.emit(continue_to(start, loop))
                    ex = END
                else:
                    ex = Exit("leave", start) if start == latch else self.walk(start, body, region, loop)
            finally:
                self.active_latches.discard(latch)
                if inner:
                    self._inner_loop_at.pop(header.start, None)
                    self.active_loops.add(header.start)
        if (ex.kind == "leave" and ex.target not in conts and loop.break_target is not None
                and self.same_place(ex.target, loop.break_target)):
            # the body's last statement leaves the loop: a ``break`` (3.11
            # reaches the code after the loop through a copy of it)
            body.emit(ast.Break())
        elif ex.kind == "leave" and ex.target not in conts and exit_ is None and brk is None \
                and ex.target not in natural:
            # ``while True:`` whose only way out is where the body goes on
            # (a test merged into a condition with its copied ``return``)
            body.emit(ast.Break())
            brk = ex.target
        elif ex.kind == "leave" and not self.leaves_loop_as_expected(ex.target, conts, exit_, brk):
            self.body_leaves_loop(ex.target, body, loop)
        stmts = strip_trailing_continue(continues_as_else(body.stmts))
        # (the else clause may break out of, or continue, the enclosing loop)
        orelse, follow = self.loop_else(exit_, brk, frame, outer)
        frame.emit(ast.While(test=test if test is not None else E.const(True),
                             body=stmts or [ast.Pass()], orelse=orelse))
        if follow is None:
            return None
        return follow

    def leaves_loop_as_expected(self, target, conts, exit_, brk):
        """Whether a while loop's body that ends by going to ``target``
        goes on looping or leaves the loop the way it is built (anything
        else would be dropped)."""
        t, _ = self.thread(target)
        if target in conts or t in conts:
            return True
        if not hasattr(self, "_reachable"):
            self._reachable = self.blocks_reachable_from(0)
        if target < self.n and self.cfg.containing(target).start not in self._reachable:
            return True  # unreachable code the compiler left (where a body would have gone on)
        return any(x is not None and self.same_place(target, x) for x in (exit_, brk))

    def body_leaves_loop(self, target, body, loop):
        """A loop body's walk that left the loop for ``target``, neither a
        continue nor a break: falling off the body's end would loop again.
        A copy of an exit (3.12+ copies ``return`` into each path that
        reaches it) ends the body there; anything else is refused."""
        if self.exit_copy(self.past_iterator_drops(target, body)) is None:
            self.fail("loop body leaves the loop", min(target, self.n - 1))
        self.walk(target, body, lambda i: True, loop)

    def past_iterator_drops(self, index, frame):
        """Past the ``POP_TOP``s at ``index`` that drop loop iterators on top
        of ``frame``'s stack: a ``return`` copied into the ways out of a with
        statement inside a for loop (3.8-3.10) first drops the iterator."""
        k = len(frame.stack)
        while (index < self.n and self.instrs[index].op == "POP_TOP" and k > 0
               and isinstance(frame.stack[k - 1], V.Iterator)):
            index += 1
            k -= 1
        return index

    def inverted_while(self, c: Cond, frame, region, loop):
        """3.10+ writes ``while c: body`` as ``if c: do body while c`` (and
        ``while not c`` with both jumps the other way round)."""
        if isinstance(c.true, tuple) or isinstance(c.false, tuple):
            return None
        for body_start, exit_ in ((c.true, c.false), (c.false, c.true)):
            h = self.past_cleanup_jump(body_start, c)
            if h is None or h.start in self.active_loops or not self.is_loop_header(h):
                continue  # (find_latch's answer; an if's test is not negated for nothing: the
                # negation recurses as deep as an and/or chain, 10,000 terms in bench/scale.py)
            entry = c.expr if body_start == c.true else negate_test(c.expr)
            found = self.find_latch(h, exit_, frame, entry)
            if found is None:
                continue
            lstart, test = found
            guard = None
            if not same_test(entry, test):
                guard = guard_before_test(entry, test)
                if guard is None:
                    continue  # the bottom test is not a copy of the entry's
            self.active_loops.add(h.start)
            try:
                if guard is None:
                    return self.while_loop(test, h.start, exit_, frame, self.natural(h), h, lstart, outer=loop)
                # ``if g: while c: body``: the compiler merged g with the
                # loop's entry test (both jump past the loop)
                inner = frame.copy()
                inner.stmts = []
                follow = self.while_loop(test, h.start, exit_, inner, self.natural(h), h, lstart, outer=loop)
                frame.emit(self.make_if(guard, inner.stmts, []))
                return follow
            finally:
                self.active_loops.discard(h.start)
        return None

    def past_cleanup_jump(self, start, c: Cond):
        """The block at ``start``, where test ``c`` goes into a loop's body; past it when it is
        only a chained comparison's jump over its cleanup."""
        h = self.cfg.at(start)
        if (h is not None and h.end - h.start == 1 and self.instrs[h.start].op == "JUMP"
                and not self.is_loop_header(h) and self.jump_over_cleanup(h.start, c.blocks)):
            h = self.cfg.at(self.instrs[h.start].target)
        return h

    def find_latch(self, h, exit_, frame, like=None):
        """When ``h`` heads a loop closed by a test that goes back to ``h``
        or out to ``exit_`` (the bottom test of an inverted ``while``): the
        start of that test and the condition that keeps the loop going.
        With ``like`` (the loop's top test), the start whose condition is
        that test is preferred to an earlier one: a test before the bottom
        test whose two ways both go to it (``assert b or -1`` compiles to
        ``b``'s jump over nothing) also reads as a link of the chain,
        ``(b or True) and c``."""
        if not self.is_loop_header(h):
            return None
        # the bottom test is laid out last (an ``if ...: continue`` may jump
        # back too; so do the earlier links of an and/or chain)
        latches = [lb for lb in self.cfg.back_edge_sources(h) if self.cfg.is_conditional(lb)]
        if not latches:
            return None
        latch = max(latches, key=lambda b: b.start)
        # the latch condition may start in an earlier block of an and/or
        # chain: the earliest start whose condition is the whole test
        first = None
        for lb in self.latch_chain_starts(latch, self.natural(h)):
            probe = frame.copy()
            probe.stmts = []
            try:
                lc = self.test_from(lb, probe)
            except DecompilationError:
                continue
            if lc is None or live(probe.stmts) or latch.id not in lc.blocks:
                continue  # statements before the test (a walrus in it is not one)
            found = None
            if lc.true == h.start and self.same_place(lc.false, exit_):
                found = lb.start, lc.expr
            elif lc.false == h.start and self.same_place(lc.true, exit_):
                found = lb.start, negate_test(lc.expr)  # ``while not c``: jumps back while c is false
            if found is not None and (like is None or same_test(like, found[1])):
                return found
            first = first or found
        return first

    def test_from(self, b: Block, frame):
        """The condition computed from ``b`` on, run in ``frame``: ``b``'s
        own test, or the one its operands lead to when they hold an and/or as
        a value (``b <= (c or e)``: ``b`` only pushes, see
        :meth:`short_circuit_operand`); None when neither."""
        if self.ends_in_test(b):
            for k in range(b.start, b.end - 1):
                E.execute(frame, self.instrs[k])
            return self.condition(b, frame)
        jump = self.short_circuit_operand(b, frame)
        if jump is None:
            return None
        test_block = self.cfg.containing(jump)
        c = self.condition(test_block, frame)
        c.blocks = self.blocks_from(b, test_block) | c.blocks
        return c

    def latch_chain_starts(self, latch: Block, body_starts, limit=64):
        """The blocks where the condition ending in ``latch`` may start,
        earliest first: ``latch`` and the test blocks laid out just before it
        that compute only their test (the links of an and/or chain)."""
        chain = [latch]
        b = latch
        operands_start = None
        back_to = self.instrs[latch.end - 1].target
        while len(chain) < limit and b.start > 0:
            r = self.value_operand_start(b, body_starts)
            if r is None and self.test_depth(b, 0) is None:
                r = self.ifexp_operand_test(b, body_starts)
            if r is not None:
                # (the link's operand holds an and/or: see short_circuit_operand; the
                # operands computed before it are blocks of their own, condition_starts)
                b = operands_start = self.pushed_operands_before(r, body_starts)
                continue
            p = self.cfg.containing(b.start - 1)
            target = self.instrs[p.end - 1].target if self.cfg.is_conditional(p) else None
            if target is not None and target < p.start and target != back_to:
                break  # another loop's bottom test (nested loops): links jump forward or back with the latch
            q = self.before_chain_cleanup(p)
            first = operand_link = None
            while (q is not p and q.start in body_starts and q.start > 0 and len(chain) < limit
                   and self.cfg.is_conditional(q) and chain_link_start(self.instrs, q.end - 1) != q.start):
                # a chained comparison's later links (no start of the test
                # there), back to its first
                first = chain_link_start(self.instrs, q.end - 1)
                if first is not None:
                    break  # the first link, whose operands span blocks (``v <= (c or a) != d``)
                if self.value_operand_start(q, body_starts) is not None:
                    # a later link whose operand holds an and/or (``b <= 2 > (x or c)``):
                    # its operand's blocks, then the links before, as from the latch
                    operand_link = q
                    break
                q, limit = self.cfg.containing(q.start - 1), limit - 1
            if first is not None and self.cfg.containing(first).start in body_starts:
                b = operands_start = self.cfg.containing(first)
                continue
            if operand_link is not None:
                b = operand_link
                continue
            if q is not p:
                p = q
            elif p.start in body_starts and self.chain_cleanup_or_jump(p):
                b = p  # (a chained comparison's link in the chain: its cleanup, the jump over it)
                continue
            if p.start not in body_starts or not self.cfg.is_conditional(p):
                break
            if self.test_depth(p, 0) is None and self.value_operand_start(p, body_starts) is not None:
                b = p  # (a link whose operand holds an and/or: ``v <= (c or a) or d``)
                continue
            if (self.test_depth(p, 0) != 1 and chain_link_start(self.instrs, p.end - 1) != p.start
                    and self.test_depth(p, 1) not in (1, 2)):
                break  # (nor the first link of a chained comparison, nor a later one)
            chain.append(p)
            b = operands_start = p
        if operands_start is not None and operands_start is not chain[-1]:
            chain.append(operands_start)  # the test starts with those operands (``b <= (c or e)``)
        return reversed(chain)

    def pushed_operands_before(self, b: Block, body_starts, limit=8):
        """The first of the blocks laid out just before ``b`` (among
        ``body_starts``) that only push operands and fall into the next:
        ``5 == (x or 1)`` computes ``5`` in a block of its own."""
        while limit and b.start > 0:
            q = self.cfg.containing(b.start - 1)
            depth = plain_steps_depth(self.instrs[q.start:q.end], 0)
            if q.start not in body_starts or depth is None or depth is BELOW or depth < 1:
                break
            b, limit = q, limit - 1
        return b

    def test_depth(self, b: Block, depth):
        """The stack depth before the conditional jump ending ``b`` when its
        code starts with ``depth`` values (1: a chained comparison's kept
        operand, which a later link consumes), or None when it takes more."""
        for k in range(b.start, b.end - 1):
            ins = self.instrs[k]
            if ins.op in ("SWAP", "COPY", "ROT") and isinstance(ins.arg, int):
                if ins.arg > depth:  # (how a link keeps its right operand)
                    return None
                depth += ins.op == "COPY"
                continue
            # (a walrus in the test, ``COPY 1; STORE_X``, stores the copy it made;
            # a ``(yield x)`` operand gets the value sent in for the one it yields)
            pp = (1, 0) if is_walrus_store(self.instrs, k) else (
                (1, 1) if ins.op == "YIELD_VALUE" else operand_pops_pushes(ins))
            if pp is None or pp[0] > depth:
                return None
            depth += pp[1] - pp[0]
        return depth

    def chain_cleanup_or_jump(self, b: Block) -> bool:
        """Whether ``b`` only drops a chained comparison's kept operand
        (``POP_TOP``, maybe then a jump) or only jumps (over that cleanup)."""
        ops = [x.op for x in self.instrs[b.start:b.end]]
        return ops in (["POP_TOP"], ["POP_TOP", "JUMP"], ["JUMP"])

    def value_operand_start(self, b: Block, body_starts, limit=16):
        """The first block of an and/or laid out just before ``b`` whose
        value ``b`` goes on with (every jump of it meets at ``b``), among
        ``body_starts``; or None."""
        found, cur = None, b
        while limit and cur.start > 0:
            q = self.cfg.containing(cur.start - 1)
            if q.start not in body_starts:
                break
            last = self.instrs[q.end - 1]
            if last.op in ("JUMP_IF_FALSE_OR_POP", "JUMP_IF_TRUE_OR_POP"):
                if self.follow_jumps(last.target) != b.start:
                    break
                found = q
            elif self.ends_in_test(q):
                break
            cur, limit = q, limit - 1
        return found

    def ifexp_operand_test(self, b: Block, body_starts, limit=16):
        """The block ending in the test of a conditional expression laid out
        just before ``b`` (among ``body_starts``) whose value ``b`` goes on
        with (``while n and (x if c else y) in s``: one arm jumps to ``b``,
        the other falls into it); or None."""
        joined, cur = False, b
        while limit and cur.start > 0:
            q = self.cfg.containing(cur.start - 1)
            if q.start not in body_starts:
                return None
            last = self.instrs[q.end - 1]
            if last.op == "JUMP" and last.target == b.start:
                joined = True
            elif last.op in CONDITIONAL_JUMPS and last.target is not None:
                return q if joined and q.end < last.target < b.start else None
            elif last.target is not None or last.op in TERMINATORS:
                return None
            cur, limit = q, limit - 1
        return None

    def before_chain_cleanup(self, block: Block) -> Block:
        """When ``block`` is a chained comparison's cleanup (``POP_TOP``
        and the way out) laid out after the lone jump of the chain's true
        path over it (``while a < b < c and d``'s bottom test): the block
        before that jump, the chain's last link; else ``block``."""
        if block.start < 2 or self.instrs[block.start].op != "POP_TOP":
            return block
        over = self.cfg.containing(block.start - 1)
        if (over.end - over.start != 1 or self.instrs[over.start].op != "JUMP"
                or self.instrs[over.start].target < block.end or over.start == 0):
            return block
        return self.cfg.containing(over.start - 1)


    def latch_start(self, latch: Block, body_starts):
        """First block of the condition chain that ends in ``latch``."""
        b = latch
        while True:
            preds = [p for p in b.preds if p.start in body_starts]
            if len(preds) == 1 and self.cfg.is_conditional(preds[0]) and preds[0].end == b.start:
                p = preds[0]
                # p is part of the chain only if its own statements are pure
                probe = E.Frame(self.ctx)
                try:
                    for k in range(p.start, p.end - 1):
                        E.execute(probe, self.instrs[k])
                except DecompilationError:
                    break
                if probe.stmts or len(probe.stack) != 1:
                    break
                pt = self.instrs[p.end - 1].target
                lt = self.instrs[latch.end - 1]
                if not (self.same_place(pt, lt.target) or self.same_place(pt, latch.end)):
                    break
                b = p
            else:
                break
        return b.start

    # ----------------------------------------------------------------- try
    def handler_kind(self, target):
        """What the handler at ``target`` is: "except"/"finally" for a try
        statement, "with" for a with block's cleanup, "cleanup" for the
        compiler's own re-raise blocks. (Found once per handler: new_try asks it of
        every handler around a block, at each level of nested try statements.)"""
        kind = self._handler_kinds.get(target)
        if kind is None:
            kind = self._handler_kinds[target] = self._read_handler_kind(target)
        return kind

    def _read_handler_kind(self, target):
        ins = self.instrs
        if target >= self.n:
            return "cleanup"
        if ins[target].op != "PUSH_EXC_INFO":
            return "cleanup"
        nxt = ins[target + 1] if target + 1 < self.n else None
        if nxt is None or nxt.op in ("WITH_EXCEPT_START",):
            return "with"
        if nxt.op == "POP_TOP":
            return "except"  # bare except:
        # typed except: the type is computed, then CHECK_EXC_MATCH
        k = target + 1
        while k < self.n and ins[k].target is None and ins[k].op not in (
                "CHECK_EXC_MATCH", "CHECK_EG_MATCH", "RERAISE", "RETURN_VALUE", "POP_TOP",
                "STORE_FAST", "STORE_NAME", "STORE_GLOBAL", "STORE_DEREF", "STORE_ATTR"):
            k += 1
        if k < self.n and ins[k].op in ("CHECK_EXC_MATCH", "CHECK_EG_MATCH"):
            return "except"
        return "finally"

    def new_try(self, block):
        """The outermost try statement that starts at ``block``, if any."""
        found = None
        seen = set()
        h = block.handler
        while h is not None and h not in seen:
            seen.add(h)
            if h in self.active_handlers:
                if h not in self.open_tries:
                    # the code of a try statement already made, walked again
                    # outside it: it would lose its handlers
                    self.fail("try statement structured twice", block.start)
                break
            if self.handler_kind(h) in ("except", "finally"):
                found = h
            hb = self.cfg.at(h)
            h = hb.handler if hb else None
        return found

    def try_(self, block, H, frame, region, loop):
        kind = self.handler_kind(H)
        self.active_handlers.add(H)
        depth = self.program_handler(H).depth
        covered = CoveredBy(self, H)
        if kind == "finally":
            fin = self.finally_body(H, frame, depth, region, loop)
            once = self._one_pass_exit  # (set by finally_body, read before a nested try resets it)
        body = frame.copy()
        body.stmts = []
        ex = self.walk(block.start, body, both(region, covered), loop)
        if ex.kind == "leave" and len(body.stack) > len(frame.stack):
            # a value computed inside the try (``return f()``): the statement
            # that uses it follows the protected range but belongs to the body
            ex = self.walk(ex.target, body, region, loop)
            if (ex.kind == "leave" and len(body.stack) > len(frame.stack)
                    and self.returns_at(ex.target, name_cleanups=True)
                    or self.returns_past_outer_with_exits(ex, body, frame)):
                # (out of an except clause that holds the try, past an enclosing
                # finally's inlined copy: the clause's end lies outside both)
                ex = self.walk(ex.target, body, lambda i: True, loop)
        self.keep_inside(body, frame)
        if self.ends_in_break(ex, body, len(frame.stack), region, loop):
            body.emit(ast.Break())
            ex = END
        ex = self.returned_into_dead_copy(ex, body, len(frame.stack))
        if ex.kind == "leave" and any(x in self.dead_end_copies for x in (ex.target, self.thread(ex.target)[0])):
            ex = END  # (into a copy of a finally body that raises or returns)
        if kind == "finally":
            node = ast.Try(body=body.stmts or [ast.Pass()], handlers=[], orelse=[],
                           finalbody=fin or [ast.Pass()])
            # try/except/finally: a try/except alone in a finally's body is one statement
            if len(node.body) == 1 and isinstance(node.body[0], ast.Try) and not node.body[0].finalbody:
                inner = node.body[0]
                node = ast.Try(body=inner.body, handlers=inner.handlers, orelse=inner.orelse,
                               finalbody=node.finalbody)
            if ex.kind == "leave" and live(fin) and not self.after_finally_copy(ex.target):
                # the body completes into code that is not a known copy of the
                # finally body: walked on, the copy would run the body twice
                self.fail("finally body's inlined copy not found", H)
            if once is not None:
                node = self.one_pass_loop(node, ex, once, H)
                ex = Exit("leave", once) if ex.kind == "leave" else ex
            frame.emit(node)
            frame.stack[:] = body.stack
            if ex.kind == "end":
                return END
            return self.go_on(ex.target, frame, region, loop)
        handlers, h_exit = self.except_clauses(H, frame, depth, region, loop)
        orelse = []
        follow = h_exit
        after = body  # (the frame whose stack the code after the try statement finds)
        if ex.kind == "leave":
            # the body's last jump is often left outside the protected range
            t, pops = self.thread(ex.target)
            if not pops and t != ex.target and t < self.n and region(self.cfg.containing(t).start):
                ex = Exit("leave", t)
        if (ex.kind == "leave" and h_exit is None and ex.target < H and region(self.cfg.containing(ex.target).start)
                and self.continues_in_else(ex.target, H)):
            # no handler falls through and the body's exit lies before the
            # handlers: that code is the else clause
            else_frame = frame.copy()
            else_frame.stmts = []
            start = self.cfg.containing(ex.target)
            dom = self.dominated_by(start)
            ex2 = self.walk(ex.target, else_frame, lambda i: region(i) and dom(i) and not covered(i), loop)
            ex2 = self.returned_through_with_exits(ex2, else_frame, len(frame.stack))
            frame.emit(ast.Try(body=body.stmts or [ast.Pass()], handlers=handlers,
                               orelse=else_frame.stmts, finalbody=[]))
            frame.stack[:] = else_frame.stack
            if ex2.kind == "end":
                return END
            return self.go_on(ex2.target, frame, region, loop)
        if ex.kind == "leave":
            if h_exit is None or self.same_after_copies(ex.target, h_exit) or self.same_copied_return(
                    ex.target, h_exit) or self.same_copied_raise(ex.target, h_exit) or self.same_code(
                    ex.target, h_exit):
                follow = ex.target
            else:
                # the body falls into the else block, which jumps to the follow
                else_frame = frame.copy()
                else_frame.stmts = []
                start = ex.target
                ex2 = self.walk(start, else_frame, lambda i: region(i) and i != h_exit and not covered(i)
                                and self.dominated_by(self.cfg.containing(start))(self.cfg.containing(i).start), loop)
                if ex2.kind == "leave" and len(else_frame.stack) > len(frame.stack):
                    # ``return f()`` in the else clause inside an enclosing try/finally:
                    # the return that uses the value follows the finally's inlined copy
                    ex2 = self.walk(ex2.target, else_frame, region, loop)
                if self.ends_in_break(ex2, else_frame, len(frame.stack), region, loop):
                    else_frame.emit(ast.Break())
                    ex2 = END
                elif self.ends_in_continue(ex2, else_frame, len(frame.stack), region, loop) and not (
                        self.same_after_copies(ex2.target, h_exit)):
                    # (the except clauses go on to the loop's bottom test, the else
                    # clause's continue to its top test: both through an
                    # enclosing finally body's inlined copies)
                    else_frame.emit(ast.Continue())
                    ex2 = END
                else:
                    ex2 = self.returned_through_with_exits(ex2, else_frame, len(frame.stack))
                if ex2.kind == "leave" and self.clause_tail_returns(
                        ex2.target, self.dominated_by(self.cfg.containing(start))):
                    # ``return`` out of an except clause that holds the try, through
                    # an enclosing finally: the return follows the finally's
                    # inlined copy, outside the clause's protected range
                    ex2 = self.walk(ex2.target, else_frame, lambda i: True, loop)
                orelse = else_frame.stmts
                if ex2.kind == "leave" and len(else_frame.stack) < len(body.stack) and all(
                        x is y for x, y in zip(else_frame.stack, body.stack)):
                    after = else_frame  # (its code dropped an enclosing clause's exception)
                if ex2.kind == "leave" and not self.same_after_copies(ex2.target, h_exit):
                    self.fail("try/else ends in an unexpected place", start)
                if ex2.kind == "end" and h_exit is None:
                    follow = None
        frame.emit(ast.Try(body=body.stmts or [ast.Pass()], handlers=handlers,
                           orelse=orelse, finalbody=[]))
        if ex.kind != "end":
            # (a body that returns took its stack with it, such as an enclosing with's
            # exit; the clauses go on with the stack the try statement began with)
            frame.stack[:] = after.stack
        if follow is None:
            return END
        return self.go_on(follow, frame, region, loop)

    def continues_in_else(self, start, H):
        """Whether the code at ``start``, where a try body (with handler ``H``)
        completes and that no except clause falls into, is the try's else
        clause rather than the code after the try statement. Both run the
        same; the layout decides. Up to 3.11 the handlers lie between the
        body and what follows the statement, the else clause before them.
        3.12+ lays both out right after the body and moves handlers to the
        end in compile order: handlers of code in the else clause come before
        ``H``, those of later code after it. With no handler there to tell,
        the code after the statement is what the programmer most likely wrote
        (and compiles the same)."""
        if not HANDLERS_LAID_OUT_LAST:
            return True
        after = self.dominated_by(self.cfg.containing(start))
        return any(h.target < H for h in self.program.handlers
                   if h.start >= start and h.target != H and after(self.cfg.containing(h.start).start))

    def ends_in_break(self, ex, frame, depth, region, loop):
        """Whether a try body or else clause whose walk stopped at ``ex``
        ends in ``break``: it leaves the region for where the loop's break
        goes, its stack back at ``depth``. 3.12+ lays the code after the
        loop out right after the protected range, or copies a small exit
        (``return x``) there: the walk falls into it, past the inlined copy
        of an enclosing finally body. (Or the walk stops at that copy,
        whose end jumps to where break goes.)"""
        if (ex.kind != "leave" or loop is None or loop.break_target is None
                or region(ex.target) or len(frame.stack) != depth):
            return False
        past = self.past_finally_copies(ex.target)
        return ex.target == loop.break_target or COPIES_EXIT_BLOCKS and self.same_code(
            ex.target, loop.break_target) or past != ex.target and self.thread(past)[0] == loop.break_target

    def ends_in_continue(self, ex, frame, depth, region, loop):
        """Whether a try body or else clause whose walk stopped at ``ex``
        ends in ``continue``: it leaves the region, its stack back at
        ``depth``, for a jump back to the loop's test, past the inlined
        copies of enclosing finally bodies."""
        if ex.kind != "leave" or loop is None or region(ex.target) or len(frame.stack) != depth:
            return False
        past = self.past_finally_copies(ex.target)
        return past != ex.target and self.thread(past)[0] in loop.continue_targets

    def go_on(self, target, frame, region, loop):
        """Where the walk goes on after a try statement: ``target`` when its
        block lies in the region (it may start mid-block, after a skipped
        finally copy), else a jump out of the region."""
        if target < self.n and region(self.cfg.containing(target).start):
            return target
        return self.transfer(target, frame, region, loop)

    def past_finally_copies(self, index):
        """Where the walk really goes on from ``index``: past the inlined
        copies of finally bodies it skips."""
        seen = set()
        while index in self.finally_copies and index not in seen:
            seen.add(index)  # (copies that lead to each other: a loop's)
            index = self.finally_copies[index]
        return index

    def after_finally_copy(self, index):
        """Whether ``index`` is where the walk resumes after an inlined copy
        of a finally body (or a copy starts there)."""
        t = self.thread(index)[0]
        resumes = self.copy_resumes()
        return any(x in resumes or x in self.finally_copies for x in (index, t))

    def copy_resumes(self):
        """Where walks resume after the finally copies found so far: each copy's end and
        where a jump there leads (a copy may end in a jump: the walk that steps over the copy
        follows it). Kept up to date as copies are added (:meth:`add_finally_copy`; asked once
        per try statement, rebuilding it each time was quadratic), rebuilt after a restore."""
        version, resumes = self._resumes
        if version != self.copies_version:
            resumes = set(self.finally_copies.values())
            resumes |= {self.thread(x)[0] for x in resumes if x < self.n}
            self._resumes = (self.copies_version, resumes)
        return resumes

    def add_finally_copy(self, start, end):
        current = self._resumes[0] == self.copies_version and start not in self.finally_copies
        self.finally_copies[start] = end
        self.copies_version += 1
        if current:
            resumes = self._resumes[1]
            resumes.add(end)
            if end < self.n:
                resumes.add(self.thread(end)[0])
            self._resumes = (self.copies_version, resumes)

    def same_after_copies(self, a, b):
        """Whether control leaving at ``a`` and at ``b`` goes to the same place:
        one may be the start of an inlined copy of a finally body, the other
        its end (where a walk that falls into the copy stops). Two copies of
        one finally body that never completes are one place: the end of its
        try body."""
        dead = self.dead_end_copies
        if a in dead and b in dead and dead[a] == dead[b]:
            return True
        if self.past_finally_copies(a) == self.past_finally_copies(b):
            return True
        # (a lone jump to a copy: the try body's last jump may lie outside
        # the range of the try's handler, in a block of its own)
        a, b = [x if pops else t for x, (t, pops) in ((a, self.thread(a)), (b, self.thread(b)))]
        past_a, past_b = self.past_finally_copies(a), self.past_finally_copies(b)
        if past_a == past_b:
            return True
        # each copy runs on into a return of the same value (``return x`` in
        # the try body, and the same ``return x`` after the statement)
        return (past_a, past_b) != (a, b) and self.same_copied_return(past_a, past_b, same_lines=False)

    def program_handler(self, target):
        if not hasattr(self, "_handler_at"):
            self._handler_at = {}
            for h in self.program.handlers:
                self._handler_at.setdefault(h.target, h)  # the first range with that target
        if target not in self._handler_at:
            self.fail("unknown handler", target)
        return self._handler_at[target]

    def handler_frame(self, H, frame, depth):
        f = frame.copy()
        f.stmts = []
        f.pending = []
        if depth >= 0:
            del f.stack[depth:]
        f.push(V.Exception_())
        return f

    @staticmethod
    def keep_inside(body, outer):
        """Values the protected code computed and leaves on the stack (Dynamo's code carries
        them on) are saved inside the try body: an exception they raise must meet the
        handlers, as in the bytecode."""
        for k, v in enumerate(body.stack):
            if k < len(outer.stack) and v is outer.stack[k]:
                continue
            if E.has_effects(v):
                body.save(k)

    def finally_body(self, H, frame, depth, region, loop):
        """Decompile the exceptional copy of a finally body (after
        PUSH_EXC_INFO, up to RERAISE) and note where its inlined copies are."""
        f = self.handler_frame(H, frame, depth)
        hb = self.cfg.at(H)
        ex = self.walk(H, f, self.dominated_by(hb), loop)
        # the copy ends by re-raising (RERAISE) wherever it ends: not source
        stmts = strip_tail_reraise(f.stmts)
        if leaves_reraise(stmts):
            self.fail("finally body re-raises where no branch ends", H)
        self._one_pass_exit = None
        if ex.kind == "leave":
            if not self.breaks_out_of_finally(H, ex.target):
                self.fail("finally body ends in an unexpected place", H)
            # a ``break`` that drops the exception and leaves a loop with no way
            # back to its start (every path of its body breaks): see one_pass_loop
            stmts = stmts + [ast.Break()]
            self._one_pass_exit = ex.target
        # the copy's instructions, to find the copies inlined on other paths
        k = H + 1
        self._finally_at = H
        # the whole exceptional copy lies between PUSH_EXC_INFO and the
        # cleanup that covers it (its branches may end in RERAISEs of their own)
        cleanup = self.cfg.at(H).handler
        while k < self.n and not self.ends_finally_body(k):
            k += 1
        # no RERAISE before the cleanup: every path of the body raises or returns
        never_completes = cleanup is not None and H < cleanup < k and not any(
            x.target is not None and not H <= x.target < cleanup for x in self.instrs[H:cleanup])
        # (a ``break``/``continue`` in the finally body jumps out: it goes on elsewhere)
        if never_completes or k >= self.n and cleanup is not None and H < cleanup:
            k = cleanup  # (no path completes: each raises, returns or breaks out)
        elif cleanup is not None and cleanup > k and all(
                self.instrs[j].op != "PUSH_EXC_INFO" for j in range(H + 1, cleanup)):
            k = cleanup
        pattern = [x for x in self.instrs[H + 1:k]
                   if x.op != "CLEANUP_THROW"]  # 3.12+ places it inline in handlers only (asyncs.py)
        if pattern:
            for p in self.finally_copy_starts(pattern):
                if self.covered_by(p, H) or H <= p <= k:
                    continue
                if p > 0 and self.instrs[p - 1].op == "PUSH_EXC_INFO":
                    continue  # another exceptional copy (of a finally inside a copied finally body)
                end = self.match_finally_copy(pattern, k, p)
                if end is None and cleanup is not None:
                    end = self.match_finally_copy_by_flow(H, k, cleanup, p)
                if end is not None and end != p and never_completes:
                    self.dead_end_copies[p] = H
                elif end is not None and end != p:
                    self.add_finally_copy(p, end)
                    self._reduced.clear()  # conditions read where copies end
        return stmts

    def breaks_out_of_finally(self, H, target):
        """Whether the exceptional copy of the finally body at ``H`` drops its
        exception (POP_EXCEPT) and jumps to ``target``: a ``break``."""
        cleanup = self.cfg.at(H).handler
        end = cleanup if cleanup is not None and cleanup > H else self.n
        return any(x.op == "JUMP" and self.same_place(self.follow_jumps(x.target), target)
                   and self.instrs[x.index - 1].op == "POP_EXCEPT" for x in self.instrs[H + 1:end])

    def one_pass_loop(self, node, ex, target, H):
        """The try statement ``node`` inside ``while True:``: its finally body
        ``break``s (its exceptional copy drops the exception and jumps to
        ``target``) out of no loop the walk knows, a loop whose body always
        breaks, so it has no jump back to its start (``while n < 4:`` /
        ``try: ...`` / ``finally: break`` is an ``if`` otherwise). The try
        body (``ex``: where it completes) must go on there too, and neither
        clause may hold another ``break``/``continue`` of an outer loop,
        which the ``while True:`` would capture."""
        if ex.kind == "leave" and not self.same_place(self.past_finally_copies(ex.target), target):
            self.fail("finally body's break leaves for another place than its try body", H)
        if leaves_loop(node.body) or leaves_loop(node.finalbody[:-1]):
            self.fail("finally body breaks out of a loop with a break or continue of another", H)
        return ast.While(test=ast.Constant(value=True), body=[node], orelse=[])

    def finally_copy_starts(self, pattern):
        """Where an inlined copy of the finally body whose exceptional copy is
        ``pattern`` may start: the places whose instructions equal the pattern's
        first ones, up to the first that an inlined copy may write differently
        (an exception unwind, a jump, the re-raise that ends the body; see
        match_finally_copy). Looked up in an index of instruction windows: trying
        every index for every finally made a run of try statements quadratic."""
        width = 0
        while (width < min(len(pattern), _COPY_WINDOW) and pattern[width].target is None
               and pattern[width].op not in ("RERAISE", "CLEANUP_THROW")
               and not any([_copy_key(x) for x in pattern[width:width + len(u)]] == u
                           for u in _FINALLY_UNWINDS)):
            width += 1
        if width == 0 or self._has_cleanup_throw:
            return range(self.n)
        windows = self._copy_windows.get(width)
        if windows is None:
            windows = self._copy_windows[width] = {}
            keys = [_copy_key(x) for x in self.instrs]
            for p in range(self.n - width + 1):
                windows.setdefault(tuple(keys[p:p + width]), []).append(p)
        return windows.get(tuple(_copy_key(x) for x in pattern[:width]), ())

    def match_finally_copy(self, pattern, reraise, p):
        """Where control goes on after an inlined copy of a finally body
        that starts at ``p``, when one does (None otherwise). ``pattern`` is
        the body's exceptional copy, which ends in the RERAISE at
        ``reraise``; the inlined copy lacks that copy's exception unwinds
        (see _FINALLY_UNWINDS), and where the exceptional copy completes
        (it jumps or falls to the RERAISE) the inlined one falls off its end
        or jumps on to the code after the try statement."""
        key = _copy_key
        start, k, at = p, 0, {}
        goes_on = {}  # where control goes on after the copy -> where the walk resumes
        jumps = []  # (target in the exceptional copy, target in the inlined one)
        # where the inlined copy completes into a RETURN_VALUE: it returns what was on the
        # stack when the copy began (the exceptional copy re-raises there, at that depth)
        returns = set()
        while k < len(pattern):
            for unwind in _FINALLY_UNWINDS:
                if ([key(x) for x in pattern[k:k + len(unwind)]] == unwind
                        and [key(x) for x in self.instrs[p:p + len(unwind)]] != unwind):
                    for x in pattern[k:k + len(unwind)]:
                        at[x.index] = p
                    k += len(unwind)  # only the exceptional copy drops an exception here
                    # ...and the copy on a ``return``'s path drops the pending value
                    drop = unwind[:-3] + [("POP_TOP", None)]  # ([SWAP 2,] POP_TOP)
                    if ([key(x) for x in self.instrs[p:p + len(drop)]] == drop
                            and [key(x) for x in pattern[k:k + len(drop)]] != drop):
                        p += len(drop)
                    break
            else:
                x = pattern[k]
                completes = self.ends_finally_body(x.index)
                if (x.op == "JUMP" and self.ends_finally_body(x.target) and x.target > x.index
                        and not (p < self.n and self.instrs[p].op == "JUMP")):
                    completes = True  # (a jump there: an inner finally's copy ends the body)
                if completes:
                    # the exceptional copy completes here; the inlined one
                    # jumps on (or falls, at its end) to the code after the try
                    at[pattern[k].index] = p
                    if p < self.n and self.instrs[p].op == "JUMP":
                        goes_on.setdefault(self.thread(p)[0], p)  # (the jump may be a break)
                        p += 1
                    elif k + 1 < len(pattern) and p < self.n and self.exit_copy(p) is not None:
                        # (3.12+ copies a small exit after the try into each branch)
                        goes_on.setdefault(p, p)
                        while self.instrs[p].op not in ("RETURN_VALUE", "RAISE_VARARGS"):
                            p += 1
                        p += 1
                    elif (k + 1 < len(pattern) or returns) and p < self.n and self.instrs[p].op == "RETURN_VALUE":
                        # (3.11+: ``return f()`` in the try body returns its value after the
                        # copy, and the compiler copies that RETURN_VALUE into each branch,
                        # the last one's too)
                        goes_on.setdefault(p, p)
                        returns.add(p)
                        p += 1
                    k += 1
                    continue
                if p < self.n and self.instrs[p].op == "CLEANUP_THROW":
                    # (left out of the pattern; 3.12+ places it after the loop that
                    # an inlined copy's ``async for`` ends with, with a jump back)
                    p += 2 if p + 1 < self.n and self.instrs[p + 1].op == "JUMP" else 1
                if p >= self.n or key(self.instrs[p]) != key(pattern[k]):
                    return None
                at[pattern[k].index] = p
                if pattern[k].target is not None:
                    jumps.append((pattern[k].target, self.instrs[p].target))
                k += 1
                p += 1
        if p == start:
            return None
        if self.instrs[p - 1].op not in ("JUMP", "RETURN_VALUE", "RAISE_VARARGS", "RERAISE"):
            goes_on[p] = p
        for t, u in jumps:
            if t == reraise or t < self.n and self.ends_finally_body(t):
                # (the compiler may copy the RERAISE to each branch)
                goes_on.setdefault(p if u == p else self.thread(u)[0], u)
                if u < self.n and self.instrs[u].op == "RETURN_VALUE":
                    returns.add(u)
            elif t in at and at[t] != u or t not in at and t != u:
                return None  # not the same code: its jumps go elsewhere
        # the compiler copies a small exit (``return None``) to each branch
        # (3.11: a branch jumps to a lone jump on to where another jumps: one place)
        places = {"return" if d in returns else self.exit_copy(self.follow_jumps(d)) or self.reraise_copy(d)
                  or self.return_copy(d) or self.alias(d) for d in goes_on}
        if len(places) > 1:
            return None
        if (not goes_on and pattern[-1].op == "JUMP" and self.instrs[p - 1].op == "JUMP"
                and not pattern[0].index <= pattern[-1].target <= reraise):
            return p - 1  # (the copy ends in its own ``break``: walked as the jump it is)
        return min(goes_on.values()) if goes_on else p

    def match_finally_copy_by_flow(self, H, reraise, cleanup, p):
        """``match_finally_copy`` for a copy laid out differently from the
        exceptional one: 3.12+ moves the blocks that only exceptions reach
        (a comprehension's or a with's cleanup, a nested handler) past the
        inlined copy's end, while they stay in place in the exceptional copy,
        itself cold. Both copies are walked side by side along their jumps
        and exception edges; they must match instruction by instruction."""
        key = _copy_key
        region_end = max(reraise, cleanup)
        inside = lambda i: H < i < region_end
        outer = []  # the handler over the inlined copy (its start may lie in a nested try)
        seen, goes_on, last = set(), {}, -1
        limit = 4 * (region_end - H)
        todo = [(H + 1, p)]
        while todo:
            i, j = todo.pop()
            i = self.follow_jumps(i)
            x = self.instrs[i] if i < self.n else None
            if x is not None and self.ends_finally_body(i):
                # the exceptional copy completes here: the inlined one goes on
                # to the code after the try statement (maybe by a jump, a break)
                if j < self.n and self.instrs[j].op == "JUMP":
                    goes_on.setdefault(self.thread(j)[0], j)
                else:
                    goes_on.setdefault(j, j)
                continue
            j = self.follow_jumps(j)
            if not inside(i):
                if i != j:
                    return None  # a jump out of the body (break, continue) goes elsewhere
                continue
            if j >= self.n or H <= j < region_end:
                return None
            for unwind in _FINALLY_UNWINDS:
                if ([key(y) for y in self.instrs[i:i + len(unwind)]] == unwind
                        and [key(y) for y in self.instrs[j:j + len(unwind)]] != unwind):
                    # only the exceptional copy drops an exception here (and
                    # the copy on a ``return``'s path drops the pending value)
                    drop = unwind[:-3] + [("POP_TOP", None)]
                    if ([key(y) for y in self.instrs[j:j + len(drop)]] == drop
                            and [key(y) for y in self.instrs[i + len(unwind):i + len(unwind) + len(drop)]] != drop):
                        j += len(drop)
                    todo.append((i + len(unwind), j))
                    break
            else:
                # (pairs, not a one-to-one map: either copy may repeat a
                # small tail that the other shares between its branches)
                if (i, j) in seen:
                    continue
                y = self.instrs[j]
                # (a jump over a jump is turned into the opposite test when
                # the inner jump is a bare ``continue``, which only the
                # inlined copy has: the exceptional one unwinds first)
                flipped = _OPPOSITE_JUMPS.get(x.op) == y.op
                if key(x) != key(y) and not flipped or len(seen) > limit:
                    return None
                seen.add((i, j))
                last = max(last, j)
                hi = self.cfg.containing(i).handler
                hj = self.cfg.containing(j).handler
                if hi == cleanup:
                    outer = outer or [hj]
                    if hj != outer[0]:
                        return None
                elif hi is not None and inside(hi):
                    if hj is None:
                        return None
                    todo.append((hi, hj))  # a handler inside the body: matched too
                elif hi != hj:
                    return None
                if x.op in ("RETURN_VALUE", "RAISE_VARARGS", "RERAISE"):
                    continue
                if flipped:
                    todo.extend([(x.target, j + 1), (i + 1, y.target)])
                    continue
                if x.target is not None:
                    todo.append((x.target, y.target))
                todo.append((i + 1, j + 1))
        if not seen:
            return None
        # (a copy on a ``return``'s path completes into RETURN_VALUEs, one per branch
        # that 3.12+ copies it to: each returns the value kept below the copy)
        places = {"return" if d < self.n and self.instrs[d].op == "RETURN_VALUE"
                  else self.exit_copy(d) or self.reraise_copy(d) or self.return_copy(d) or self.alias(d)
                  for d in goes_on}
        if len(places) > 1:
            return None
        return min(goes_on.values()) if goes_on else last + 1

    def follow_jumps(self, index, limit=16):
        """Where a run of unconditional jumps from ``index`` leads."""
        while limit and index < self.n and self.instrs[index].op == "JUMP":
            index = self.instrs[index].target
            limit -= 1
        return index

    def ends_finally_body(self, index):
        """Whether the instruction at ``index`` is a RERAISE that ends the
        exceptional copy of the finally body at ``self._finally_at`` (where
        an inlined copy completes). Not the re-raise of a handler inside the
        body, nor that of an except clause inside it that matched nothing:
        those lie under the inner statement's own cleanup, the body's end
        under the cleanup of the finally handler itself."""
        x = self.instrs[index] if index < self.n else None
        if x is None or (x.op, x.arg) != ("RERAISE", 0):
            return False
        if self.only_raised_into(index) and self.instrs[index - 1].op != "POP_EXCEPT":
            # (after POP_EXCEPT an except clause inside the body has completed:
            # 3.12+ copies the body's closing re-raise there)
            return False
        cleanup = self.cfg.at(self._finally_at).handler
        return cleanup is None or self.cfg.containing(index).handler == cleanup

    def only_raised_into(self, index, H=None):
        """Whether only exceptions reach the block holding ``index`` (the
        handler of a statement inside the finally body at ``H``, such as a
        3.12+ inlined comprehension's cleanup or an inner finally): its
        RERAISE is in every copy of the body."""
        H = self._finally_at if H is None else H
        b = self.cfg.containing(index)
        while b.start > 0 and not b.exc_preds and len(b.preds) == 1 and b.preds[0].end == b.start:
            b = b.preds[0]  # (a block it only falls from)
        # (an ``async for`` ends where StopAsyncIteration is caught: END_ASYNC_FOR)
        return (bool(b.exc_preds) and not b.preds and self.instrs[b.start].op != "END_ASYNC_FOR"
                and b.start != H)

    def except_clauses(self, H, frame, depth, region, loop):
        """The except clauses of the handler at ``H`` and where they go."""
        if self.is_except_star(H):
            return self.except_star_clauses(H, frame, depth, region, loop)  # exceptstar.py
        clauses = []
        exits = set()
        f = self.handler_frame(H, frame, depth)
        i = H
        if self.instrs[H].op == "PUSH_EXC_INFO":
            # every clause starts with the previous exception saved below
            _push_exc_info(self, self.instrs[H], f, region, loop)
            i = H + 1
        while True:
            cf = f.copy()
            cf.stmts = []
            k = i
            # the exception type test, if any
            while k < self.n and self.instrs[k].op != "CHECK_EXC_MATCH" \
                    and self.instrs[k].target is None and self.instrs[k].op not in ("POP_TOP", "RERAISE", "STORE_FAST", "STORE_NAME", "STORE_DEREF", "STORE_GLOBAL"):
                E.execute(cf, self.instrs[k])
                k += 1
            ins = self.instrs[k]
            if ins.op == "RERAISE":
                break  # no clause matched: the exception goes on
            typ = None
            next_clause = None
            if ins.op == "CHECK_EXC_MATCH":
                typ = cf.pop_expr(ins)
                jump = self.instrs[k + 1]
                if jump.op != "POP_JUMP_IF_FALSE":
                    self.fail("unexpected except test", k + 1)
                next_clause = jump.target
                k += 2
            # the clause body: binding the name (or dropping the exception) first
            name = None
            if self.instrs[k].op in ("STORE_FAST", "STORE_NAME", "STORE_DEREF", "STORE_GLOBAL"):
                name = self.instrs[k].arg
                cf.pop()
                cf.clause_names = cf.clause_names | {name}
                k += 1
            elif self.instrs[k].op == "POP_TOP":
                cf.pop()
                k += 1
            else:
                self.fail("unexpected except clause", k)
            dom = self.dominated_by(self.cfg.containing(k))
            ends = self.clause_ends(k, H)
            saved_tails, tails = self._clause_tails, self.clause_tails(k, H)
            self._clause_tails = dict(saved_tails)
            self._clause_tails.update((t, len(cf.stack)) for t in tails)
            try:
                ex = self.walk_dominated(k, cf, lambda i: region(i) and i not in ends, loop)
            finally:
                self._clause_tails = saved_tails
            if ex.kind == "leave" and cf.stack and self.returns_at(ex.target, name_cleanups=True):
                # ``return value`` out of the clause after an inlined finally
                ex = self.walk(ex.target, cf, lambda i: True, loop)
            elif (ex.kind == "leave" and ex.target not in ends and ex.target not in tails
                  and self.clause_tail_returns(ex.target, dom)):
                # ``break`` or ``return`` out of the clause through an
                # enclosing finally: the rest of the clause follows the
                # finally's inlined copy, outside its protected range
                ex = self.walk(ex.target, cf, lambda i: True, loop)
            ex = self.through_with_exits(k, ex, cf, loop)  # (``return`` in nested with statements)
            body = strip_name_cleanup(cf.stmts, name)
            if ex.kind == "leave" and not any(self.same_copied_return(x, ex.target) for x in exits):
                exits.add(ex.target)  # (copies of one return are one place)
            clauses.append(ast.ExceptHandler(type=typ, name=name, body=body or [ast.Pass()]))
            if next_clause is None:
                break
            i = next_clause
        if len(exits) > 1:
            self.fail("except clauses end in different places %r" % (exits,), H)
        return clauses, (exits.pop() if exits else None)

    def clause_ends(self, start, H):
        """Where the except clause starting at ``start`` jumps once it has
        dropped its exception (POP_EXCEPT, then the ``as`` name's cleanup):
        code there follows the try statement even when only the clause
        reaches it (the try body always returns), so it is not the clause's."""
        cleanup = self.cfg.at(H).handler if self.cfg.at(H) else None
        ends = set()
        # (only the clause's dominator subtree: a scan of every block made a run of
        # try statements quadratic)
        for b in self.cfg.dominated_blocks(self.cfg.containing(start)):
            last = self.instrs[b.end - 1]
            if last.op != "JUMP":
                continue
            k = b.end - 2
            while k >= b.start and self.instrs[k].op in (
                    "LOAD_CONST", "STORE_FAST", "STORE_NAME", "STORE_DEREF", "STORE_GLOBAL",
                    "DELETE_FAST", "DELETE_NAME", "DELETE_DEREF", "DELETE_GLOBAL"):
                k -= 1  # (the ``as`` name's cleanup: ``name = None; del name``)
            if (k >= b.start and self.instrs[k].op == "POP_EXCEPT"
                    and not (cleanup is not None and self.covered_by(b.start, cleanup))):
                ends.add(last.target)  # (a nested clause's POP_EXCEPT lies in this one's cleanup)
        return ends

    def clause_tails(self, start, H):
        """Where the except clause starting at ``start`` falls, after dropping
        its exception (POP_EXCEPT, then the ``as`` name's cleanup), into code
        that runs straight to a ``return`` and was written after the try
        statement (a later line): 3.12+ copies such a small exit into the
        clause instead of jumping to it. The clause ends there (see
        :func:`_pop_except`): inside it, the return value would be computed
        while the exception is still being handled."""
        tails = set()
        outer = self.handler_around_try(H)
        # (the clause's dominator subtree only: every block per clause made a run of tries quadratic)
        for b in self.cfg.dominated_blocks(self.cfg.containing(start)):
            for k in range(b.start, b.end):
                ins = self.instrs[k]
                if ins.op != "POP_EXCEPT" or ins.line is None:
                    continue
                j = self.after_name_cleanup(k + 1)
                if (j < self.n and self.instrs[j].line is not None and self.instrs[j].line > ins.line
                        and (self.runs_to_return(j) or self.straight_raise_end(j) is not None)
                        and self.returns_own_value(j)
                        and self.cfg.containing(j).handler == outer):
                    tails.add(j)
        return tails

    def handler_around_try(self, H):
        """The handler that covers the try statement whose except clauses
        start at ``H`` (the one that covers their cleanup), or None: code
        after the try statement lies under it too, while the inlined copy of
        an enclosing finally body that a ``return`` in a clause runs does not."""
        cleanup = self.cfg.at(H).handler if self.cfg.at(H) else None
        around = self.cfg.at(cleanup) if cleanup is not None else None
        return around.handler if around is not None else None

    def returns_own_value(self, index):
        """Whether the straight code at ``index`` returns a value it computes
        without consuming anything pushed before it (a ``break`` would drop
        a for loop's iterator on its way to a copied return). Statements may
        come first (``del x`` / ``x = 1`` then the function's implicit
        ``return None``: 3.12+ lays such a tail, reached from the clause
        only, right after it)."""
        depth = 0
        for ins in self.instrs[index:]:
            if ins.op == "RETURN_VALUE" or (ins.op, ins.arg) == ("RAISE_VARARGS", 1):
                return depth == 1  # (or raises it: 3.12+ copies ``raise E`` the same way)
            pp = STATEMENT_STEPS.get(ins.op) or pops_pushes(ins)
            if pp is None or pp[0] > depth:
                return False
            depth += pp[1] - pp[0]
        return False

    def after_name_cleanup(self, index):
        """``index``, or past the ``as`` name's cleanup (``name = None; del
        name``) that starts there."""
        ins = self.instrs
        if (index + 2 < self.n and (ins[index].op, ins[index].arg) == ("LOAD_CONST", None)
                and ins[index + 1].op.startswith("STORE_") and ins[index + 2].op.startswith("DELETE_")
                and ins[index + 1].arg == ins[index + 2].arg):
            return index + 3
        return index

    def clause_tail_returns(self, index, in_clause):
        """Whether the code at ``index`` belongs to the clause only (the
        clause dominates it) and runs straight to a ``return``."""
        if index >= self.n or not in_clause(self.cfg.containing(index).start):
            return False
        k = index
        while k < self.n and self.instrs[k].target is None and self.instrs[k].op not in (
                "RAISE_VARARGS", "RERAISE", "RETURN_VALUE"):
            k += 1
        return k < self.n and self.instrs[k].op == "RETURN_VALUE" and k < self.cfg.containing(index).end

    def block_then_walk(self, block, start, frame, region, loop):
        res = self.block(block, frame, region, loop, start=start)
        if isinstance(res, Exit):
            return res
        # (the block may stop mid-block: a with statement's body ends after
        # the ``__exit__`` call it consumed, before the jump to the join)
        inside = res < self.n and region(self.cfg.containing(res).start)
        return self.walk(res, frame, region, loop) if inside else Exit("leave", res)

    # ---------------------------------------------------------------- with
    def with_(self, ins, frame, region, loop):
        cm = frame.pop_expr(ins)
        is_async = ins.op == "BEFORE_ASYNC_WITH"
        frame.push(V.WithExit(cm, is_async))
        frame.push(V.WithEnter())
        start = ins.index + 1
        handler = self.cfg.at(start).handler if self.cfg.at(start) else None
        if handler is None:
            self.fail("with block without a handler", ins.index)
        body_end = self.with_body_end(handler, start)  # asyncs.py
        body = frame.copy()
        body.stmts = []
        inner = lambda i: region(i) and (self.covered_by(i, handler) or i < body_end and i >= start)
        ex = self.walk(start, body, inner, loop)
        if ex.kind == "leave" and len(body.stack) > len(frame.stack) - 1:
            # a value computed inside (``return x`` in the body): the exit
            # call runs, then the statement that uses the value
            ex = self.walk(ex.target, body, region, loop)
        if (ex.kind == "leave" and self.returns_through_with_exits(ex.target, body)
                and len(body.stack) == len(frame.stack) - 1):
            # ``return x`` whose RETURN_VALUE lies just past a try's region: a return
            # cannot raise, so the exception table stops before it; it is still the
            # with body's own return (a temporary set inside would be unbound when
            # ``__exit__`` swallows an exception from computing it). Inside nested
            # with statements the outer ones' exits are called first, outside
            # their bodies' ranges too.
            body.emit(ast.Return(value=body.pop_expr(self.instrs[ex.target])))
            ex = END
        ex = self.returned_through_exits_and_finally(ex, body, frame, loop)
        returned = self.constant_returned_from_with(ex, body, frame, handler)
        if returned is not None:
            E.execute(body, self.instrs[returned])
            body.emit(ast.Return(value=body.pop_expr()))
            ex = END
        ex = self.jumped_out_through_exit(ex, body, frame, handler, region, loop)
        if ex.kind == "leave":
            # ... unless that statement lies past the region (a try's
            # ``finally`` runs first): the value waits in a temporary, set
            # inside the with block where it was computed
            save_computed(body, len(frame.stack) - 2)
        target = None
        stmts = body.stmts
        if stmts and isinstance(stmts[0], ast.Assign) and getattr(stmts[0].value, "_with_enter", False):
            target = stmts[0].targets[0]
            stmts = stmts[1:]
        item = ast.withitem(context_expr=cm, optional_vars=target)
        node_t = ast.AsyncWith if is_async else ast.With
        stmts = [s for s in stmts if not getattr(s, "_cancelled", False)]
        # a with body holding a single with is ``with a, b:``
        if len(stmts) == 1 and type(stmts[0]) is node_t:
            node = node_t(items=[item] + stmts[0].items, body=stmts[0].body, type_comment=None)
        else:
            node = node_t(items=[item], body=stmts or [ast.Pass()], type_comment=None)
        frame.emit(node)
        if ex.kind == "end":
            # the body never falls through, but an exception __exit__
            # swallows continues after the block
            after = self.after_suppressed(handler)
            if after is None:
                return END
            del frame.stack[-2:]  # (the pops before ``after`` drop the with's exit and enter)
            return self.go_on(after, frame, region, loop)  # (after the pops: mid-block)
        # the normal exit: call __exit__(None, None, None) and drop the result
        frame.stack[:] = body.stack
        return ex.target

    def constant_returned_from_with(self, ex, body, frame, handler):
        """When the with body that left for ``ex`` (walked in ``body``; the
        statement began on ``frame``) ends in ``return <constant>`` (a bare
        ``return``: None), the index of that constant's LOAD_CONST; else None.
        The body's way out calls this ``__exit__`` and the enclosing with
        statements', then returns the constant, while an exception
        ``__exit__`` swallows goes on elsewhere. (A body that just ends goes
        on, either way, at one place or in copies of one return.)"""
        if ex.kind != "leave" or len(body.stack) != len(frame.stack) - 1:
            return None
        k = self.after_exit_call(ex.target)
        after = self.after_suppressed(handler)
        if k is None or after is None or k == after or self.same_copied_return(k, after):
            return None
        while self.after_exit_call(k) is not None:
            k = self.after_exit_call(k)
        if k + 1 < self.n and self.instrs[k].op == "LOAD_CONST" and self.instrs[k + 1].op == "RETURN_VALUE":
            return k
        return None

    def returned_through_exits_and_finally(self, ex, body, frame, loop):
        """``ex``, or END after ``return x`` ending the with body (walked in ``body``; the
        statement began on ``frame``) when the value leaves into the exit calls of
        enclosing with statements that go on into an inlined copy of a finally body
        before the return (``try: with a, b: return x`` / ``finally: if c: ...``): the
        copy's branches each end in a copy of the return, which the walk reads whole."""
        if (ex.kind != "leave" or len(body.stack) != len(frame.stack) - 1
                or not isinstance(body.stack[-1], ast.expr) or not self.with_exit_call_at(ex.target, body)):
            return ex  # (the value on top: this with's exit was called, the value waits above the next)
        trial = body.copy()
        got = self.walk(ex.target, trial, lambda i: True, loop)
        if got is not END or len(trial.stmts) != 1 or not isinstance(trial.stmts[0], ast.Return):
            return ex
        body.stmts.extend(trial.stmts)
        body.stack[:] = trial.stack
        return END

    def jumped_out_through_exit(self, ex, body, frame, handler, region, loop):
        """``ex``, or END after the ``break``/``continue`` that ends the with body (walked
        in ``body``; the statement began on ``frame``): its way out calls ``__exit__``,
        then goes elsewhere than an exception ``__exit__`` swallows does (which goes on
        after the statement, where a body that just ends goes too)."""
        if ex.kind != "leave" or len(body.stack) != len(frame.stack) - 1 or loop is None:
            return ex
        k = self.after_exit_call(ex.target)
        after = self.after_suppressed(handler)
        if k is None or after is None or self.same_place(k, after):
            return ex
        below = len(body.stack) - 2  # what lies below the exits called on the way
        while self.after_exit_call(k) is not None and below >= 0 and isinstance(body.stack[below], V.WithExit):
            k = self.after_exit_call(k)  # (``with a, b: break`` calls b's exit, then a's)
            below -= 1
        t, pops = self.thread(k)
        if (t == k and self.instrs[k].op == "POP_TOP" and below >= 0
                and isinstance(body.stack[below], V.Iterator)):
            t, pops = k + 1, True  # a for loop's ``break`` drops the iterator
        if t in loop.continue_targets and not region(t) and not pops:
            body.emit(continue_to(t, loop))
        elif loop.break_target is not None and not region(t) and (t == loop.break_target or (
                COPIES_EXIT_BLOCKS and self.same_code(t, loop.break_target))):
            body.emit(ast.Break())  # (3.10+ copies a small exit block into the ``break``)
        else:
            return ex
        return END

    def after_exit_call(self, index):
        """The index after ``__exit__(None, None, None)`` called at ``index``
        and its result dropped (awaited first: an async with), or None."""
        ins = self.instrs
        if not (index + 4 < self.n and all((x.op, x.arg) == ("LOAD_CONST", None) for x in ins[index:index + 3])
                and ins[index + 3].op == "CALL"):
            return None
        k = index + 4
        if ins[k].op == "GET_AWAITABLE":
            k = self.await_end(k)
        return k + 1 if k is not None and k < self.n and ins[k].op == "POP_TOP" else None

    def returned_through_with_exits(self, exit_, frame, depth):
        """``exit_``, or END after emitting ``return <value>`` into ``frame`` when control
        leaves with one value more than ``depth`` on the stack into the exit calls of
        enclosing with statements followed by the return (``return x`` in a try's else
        clause inside a with statement, 3.11+)."""
        if (exit_.kind == "leave" and len(frame.stack) == depth + 1 and exit_.target < self.n
                and self.instrs[exit_.target].op == "SWAP"
                and self.returns_through_with_exits(exit_.target, frame)):
            frame.emit(ast.Return(value=frame.pop_expr()))
            return END
        return exit_

    def returns_through_with_exits(self, index, frame):
        """Whether control at ``index`` returns the value on top of ``frame``'s stack,
        at once or after calling ``__exit__(None, None, None)`` of the with statements
        whose exits lie right below that value: ``return x`` inside nested with
        statements (3.11+) swaps the value above each exit in turn, calls it, returns."""
        ins, k, below = self.instrs, index, len(frame.stack) - 2
        while (k + 5 < self.n and (ins[k].op, ins[k].arg) == ("SWAP", 2) and below >= 0
               and isinstance(frame.stack[below], V.WithExit) and self.with_exit_call_at(k + 1, frame)):
            after = k + 5  # past the call
            if frame.stack[below].is_async:  # ``__aexit__``'s result is awaited
                after = self.await_end(after) if ins[after].op == "GET_AWAITABLE" else None
            if after is None or after >= self.n or ins[after].op != "POP_TOP":
                return False
            k, below = after + 1, below - 1
        while (k + 2 < self.n and (ins[k].op, ins[k].arg) == ("SWAP", 2) and ins[k + 1].op == "POP_TOP"
               and below >= 0 and isinstance(frame.stack[below], V.Iterator)):
            k, below = k + 2, below - 1  # (inside for loops: their iterators are dropped too)
        return k < self.n and ins[k].op == "RETURN_VALUE"

    def is_with_handler(self, handler):
        """Whether ``handler`` is a with statement's (3.9+: it calls
        ``__exit__`` with the exception first)."""
        ins = self.instrs
        k = handler + 1 if handler < self.n and ins[handler].op == "PUSH_EXC_INFO" else handler
        return k < self.n and ins[k].op == "WITH_EXCEPT_START"

    def after_suppressed(self, handler):
        """Where control goes when the with block's ``__exit__`` (handler at
        ``handler``) returns true: after its pops, or where its jump goes."""
        ins = self.instrs
        k = handler
        while k < self.n and ins[k].op != "WITH_EXCEPT_START":
            k += 1
        k += 1
        if k < self.n and ins[k].op == "GET_AWAITABLE":  # async with: __aexit__'s result awaited
            k = self.await_end(k)
            if k is None:
                return None
        if k >= self.n or ins[k].op != "POP_JUMP_IF_TRUE":
            return None
        k = ins[k].target
        while k < self.n and ins[k].op in ("POP_TOP", "POP_EXCEPT"):
            k += 1
        if k < self.n and ins[k].op == "JUMP":
            k = ins[k].target
        return k if k < self.n else None

    def covered_by(self, i, handler):
        """Whether the block at ``i`` lies in ``handler``'s protected range, directly or
        inside a nested try: whether ``handler`` is on the chain of handlers from the block's
        own (a handler's code is covered by the try around it)."""
        b = self.cfg.at(i)
        return b is not None and b.handler is not None and handler in self.handler_chain(b.handler)

    def handler_chain(self, h):
        """``h`` and the handlers of the handlers after it, as a set. Every enclosing try's
        region asks for each of its blocks: built once per handler, from the outer chain's
        set (deep nested tries would otherwise walk the chain again at each level)."""
        known = self._handler_chains.get(h)
        if known is not None:
            return known
        walked, seen = [], set()
        while h is not None and h not in seen and h not in self._handler_chains:
            walked.append(h)
            seen.add(h)
            hb = self.cfg.at(h)
            h = hb.handler if hb else None
        if h in seen:  # a chain that comes back on itself (corrupt input): kept for its start only
            return frozenset(walked)
        chain = self._handler_chains.get(h, frozenset())
        for h in reversed(walked):
            chain = self._handler_chains[h] = chain | {h}
        return chain


def _window_key(op, arg):
    """(op, arg) as a dictionary key; an unhashable argument keys by its op
    alone (the full comparison decides)."""
    try:
        hash(arg)
    except TypeError:
        return op, "<unhashable>"
    return op, arg


def save_computed(frame, depth):
    """Save in temporaries the values above ``depth`` on ``frame``'s stack
    that could give another result if evaluated later."""
    for k in range(depth, len(frame.stack)):
        v = frame.stack[k]
        if isinstance(v, V.SymList):  # a list display still being built
            tmp = frame.spill_all(v)
        elif isinstance(v, ast.expr) and not E.is_pure(v) and not getattr(v, "_saved", False):
            tmp = frame.stack[k] = frame.spill(v)
        else:
            continue
        tmp._saved = True  # a temporary: set once, read later


def save_lists(frame):
    """Lists the stack holds while a loop runs (Dynamo's code builds some, then
    iterates, then hands them on) are made before the loop, in a temporary each,
    where the original makes them: written out after the loop, each would be a
    new object made later, which the translation validator cannot pair with
    the original's list where the loop's paths join."""
    for v in list(frame.stack):
        if isinstance(v, V.SymList) or isinstance(v, ast.List):
            frame.spill_all(v)


def assigned_names(stmts):
    """Names that ``stmts`` assign at their top level (bound after them)."""
    out = set()
    for s in live(stmts):
        if isinstance(s, ast.Assign):
            out.update(t.id for t in s.targets if isinstance(t, ast.Name))
    return out


#: what a ``return``/``break``/``continue`` in the exceptional copy of a
#: finally body runs first to drop the exception (with the return value
#: kept above it or not); the inlined copies on the other paths have none
def _copy_key(x):
    """What an instruction of a finally body's inlined copy must share with its
    exceptional copy (jump targets differ between the copies)."""
    return (x.op, x.arg if x.target is None else None)


_COPY_WINDOW = 4  # instructions that index where an inlined finally copy may start

_FINALLY_UNWINDS = ([("POP_TOP", None), ("POP_EXCEPT", None)],
                    [("SWAP", 2), ("POP_TOP", None), ("SWAP", 2), ("POP_EXCEPT", None)])


_OPPOSITE_JUMPS = {"POP_JUMP_IF_FALSE": "POP_JUMP_IF_TRUE", "POP_JUMP_IF_TRUE": "POP_JUMP_IF_FALSE",
                   "POP_JUMP_IF_NONE": "POP_JUMP_IF_NOT_NONE", "POP_JUMP_IF_NOT_NONE": "POP_JUMP_IF_NONE"}


#: the empty results an inlined comprehension builds before its loop
_COMPREHENSION_RESULTS = ("BUILD_LIST", "BUILD_SET", "BUILD_MAP")


class TestStop:
    """In place of a kept operand (see Structurer._stops): the walk stops at
    the first test of the value it computes on a stack ``depth`` deep
    (short_circuit_operand)."""

    def __init__(self, depth):
        self.depth = depth


POP_JUMPS = ("POP_JUMP_IF_FALSE", "POP_JUMP_IF_TRUE", "POP_JUMP_IF_NONE", "POP_JUMP_IF_NOT_NONE")


def consumes_kept(frame, kept):
    """Whether the value on top of ``frame``'s stack is the comparison that
    consumed ``kept``, the operand a chained comparison kept for its next link."""
    top = frame.stack[-1] if frame.stack else None
    return (isinstance(top, ast.Compare) and top.left is kept
            and not any(v is kept for v in frame.stack[:-1]))


def shares_effects(expr, stack):
    """Whether ``expr`` contains a value still on ``stack`` whose
    evaluation has effects (it would be written out, and run, twice)."""
    kept = {id(v) for v in stack if isinstance(v, ast.expr) and E.has_effects(v)}
    return bool(kept) and any(id(n) in kept for n in ast.walk(expr))


def statements_fit_test(stmts, stack=()):
    """Whether the statements a test's code left are none of the source's
    own: assignments cancelled into a walrus, or to become one when the
    value they stored (still on ``stack``) is used."""
    if not stmts or all(getattr(s, "_walrus_ok", False) for s in stmts):
        return True
    pending = {id(v.assign) for v in stack if isinstance(v, V.Stored)}
    return all(isinstance(s, ast.Assign) and (getattr(s, "_cancelled", False) or id(s) in pending)
               for s in stmts)


def filling_of(pattern, node, hole):
    """The part of ``node`` at the place of ``hole`` in ``pattern`` when the
    two trees are otherwise the same; else None."""
    found = []

    def same(p, n):
        if p is hole:
            found.append(n)
            return isinstance(n, ast.expr)
        if p is n:
            return True
        if type(p) is not type(n):
            return False
        if isinstance(p, ast.AST):
            return all(same(getattr(p, f, None), getattr(n, f, None)) for f in p._fields)
        if isinstance(p, list):
            return len(p) == len(n) and all(same(a, b) for a, b in zip(p, n))
        return p == n and repr(p) == repr(n)  # (0.0 and -0.0 are equal)

    return found[0] if same(pattern, node) and len(found) == 1 else None


def merge_exit_copies(a, b, test):
    """The statements ``a`` and ``b`` (two copies of one exit, reached from
    the two branches of a test ``test``) as one list holding ``x if test else y``
    where they differ; None when they differ elsewhere than in one expression
    of their first statement. Everything the first statement evaluates before
    that expression must be the very same nodes in both (values computed
    before the test, kept on the stack), or constants: the merged text
    evaluates it before the test."""
    if len(a) != len(b) or not a or any(ast.dump(x) != ast.dump(y) for x, y in zip(a[1:], b[1:])):
        return None
    holes = []

    def same(p, n):
        if p is n:
            return True
        if isinstance(p, ast.Constant) or isinstance(p, ast.Name) and isinstance(p.ctx, ast.Store):
            return type(p) is type(n) and ast.dump(p) == ast.dump(n) and repr(getattr(p, "value", None)) == repr(
                getattr(n, "value", None))
        if isinstance(p, (ast.operator, ast.cmpop, ast.unaryop, ast.boolop, ast.expr_context)):
            return type(p) is type(n)
        return False

    def rebuild(p, n):
        """A copy of ``p`` with its one differing expression made conditional,
        or None."""
        if same(p, n):
            return p
        if type(p) is not type(n):
            return None
        fields = {}
        differing = []
        for f in p._fields:
            x, y = getattr(p, f, None), getattr(n, f, None)
            if isinstance(x, list):
                if not isinstance(y, list) or len(x) != len(y):
                    return None
                pairs = [(f, k, u, v) for k, (u, v) in enumerate(zip(x, y))]
            else:
                pairs = [(f, None, x, y)]
            for f_, k, u, v in pairs:
                if isinstance(u, ast.AST) and isinstance(v, ast.AST):
                    if not same(u, v):
                        differing.append((f_, k, u, v))
                elif not (u is v or u == v and repr(u) == repr(v)):
                    return None
            fields[f] = list(x) if isinstance(x, list) else x
        if len(differing) == 1:
            f, k, u, v = differing[0]
            inner = rebuild(u, v)
            if inner is None:
                if not isinstance(u, ast.expr) or isinstance(u, ast.Starred):
                    return None
                inner = ast.IfExp(test=test, body=u, orelse=v)
                holes.append(inner)
            if k is None:
                fields[f] = inner
            else:
                fields[f][k] = inner
            node = type(p)(**fields)
            return ast.copy_location(node, p) if hasattr(p, "lineno") else node
        return None  # (the whole node is the hole: its parent makes it conditional)

    first = rebuild(a[0], b[0])
    if first is None or len(holes) != 1 or not shared_expression(a[0], b[0]):
        return None
    return [first] + a[1:]


def shared_expression(a, b):
    """Whether trees ``a`` and ``b`` hold one same expression node: a value
    computed before the branches split, which only copies of one exit share
    (``raise AssertionError(m)`` and ``raise 0`` are two statements)."""
    ids = {id(x) for x in ast.walk(a) if isinstance(x, ast.expr)}
    return any(id(x) in ids for x in ast.walk(b) if isinstance(x, ast.expr))


def value_of_exits(stmts, pattern, hole):
    """The value that ``stmts`` give the copies of the exit ``pattern`` (statements
    ending in a ``return`` or ``raise`` that use ``hole``) they end in: the
    filling of one copy, or a conditional expression over an ``if`` whose
    every path ends in a copy (``raise E(a or (0 if b else c))``); else None."""
    value = filling_of(pattern, stmts, hole)
    if value is not None or not stmts or type(stmts[0]) is not ast.If:
        return value
    first = stmts[0]
    rest = stmts[1:] if not first.orelse else (live(first.orelse) if len(stmts) == 1 else None)
    if rest is None:
        return None
    body, orelse = value_of_exits(live(first.body), pattern, hole), value_of_exits(rest, pattern, hole)
    if body is None or orelse is None:
        return None
    return ast.IfExp(test=first.test, body=body, orelse=orelse)


def live(stmts):
    """Statements still standing (an assignment that became a walrus is not)."""
    return [s for s in stmts if not getattr(s, "_cancelled", False)]


#: the exits whose value the compiler copies with the code before them
EXITS_WITH_VALUE = {("RETURN_VALUE", None), ("RAISE_VARARGS", 1)}
RUN_BLOCKS = 256  # blocks a branch may run through to a copied exit (private_run_to_return)

#: (values popped, values pushed) of the straight-line steps that end a statement
STATEMENT_STEPS = {
    "STORE_FAST": (1, 0), "STORE_NAME": (1, 0), "STORE_GLOBAL": (1, 0), "STORE_DEREF": (1, 0),
    "STORE_ATTR": (2, 0), "STORE_SUBSCR": (3, 0), "POP_TOP": (1, 0), "DELETE_FAST": (0, 0),
    "DELETE_NAME": (0, 0), "DELETE_GLOBAL": (0, 0), "DELETE_DEREF": (0, 0), "DELETE_ATTR": (1, 0),
    "DELETE_SUBSCR": (2, 0), "NOP": (0, 0)}


#: what plain_steps_depth returns when a step consumes a value from below
BELOW = object()


def plain_steps_depth(instrs, depth, steps=pops_pushes):
    """The stack depth after running the plain expression steps ``instrs`` on
    ``depth`` values: BELOW as soon as one consumes more values than there
    are, None at the first step that is not a plain expression step (``steps``:
    what a step pops and pushes, None for one that is not plain)."""
    for ins in instrs:
        pp = steps(ins)
        if pp is None:
            return None
        if pp[0] > depth:
            return BELOW
        depth += pp[1] - pp[0]
    return depth


def store_or_step(ins):
    """:func:`pops_pushes`, where a store to a name or a drop also counts."""
    if ins.op == "POP_TOP" or ins.op.startswith("STORE_") and ins.op not in ("STORE_ATTR", "STORE_SUBSCR"):
        return (1, 0)
    if ins.op.startswith("DELETE_") and ins.op not in ("DELETE_ATTR", "DELETE_SUBSCR"):
        return (0, 0)
    return pops_pushes(ins)


def value_steps_depth(instrs, depth, floor):
    """The stack depth after running ``instrs`` on ``depth`` values, each a
    plain expression step or a stack shuffle (copy, swap, pop, a walrus's
    store), or None at any other step or when a step reaches below
    ``floor`` (no floor when None)."""
    for ins in instrs:
        op = ins.op
        if op in ("COPY", "SWAP"):
            pops, pushes = (ins.arg, ins.arg + 1) if op == "COPY" else (ins.arg, ins.arg)
        elif op in ("POP_TOP", "STORE_FAST", "STORE_DEREF", "STORE_NAME", "STORE_GLOBAL"):
            pops, pushes = 1, 0
        else:
            pp = pops_pushes(ins)
            if pp is None:
                return None
            pops, pushes = pp
        if floor is not None and depth - pops < floor:
            return None
        depth += pushes - pops
    return depth


def only_value(branch):
    """A branch that only computes the value on top of its stack: no statements,
    or only the assignment of a walrus that is that value (``(v := a) if b else 0``)."""
    stmts = live(branch.stmts)
    if not stmts:
        return True
    top = branch.stack[-1] if branch.stack else None
    return len(stmts) == 1 and isinstance(top, V.Stored) and top.assign is stmts[0]


def same_stack(a, b):
    """Whether two paths that meet hold the very same values on the stack (a
    branch works on its own copy of each symbolic list: compared by elements)."""
    return len(a) == len(b) and all(
        x is y or isinstance(x, V.SymList) and isinstance(y, V.SymList) and same_stack(x.elts, y.elts)
        for x, y in zip(a, b))


def assert_tests_under_if(instrs):
    """Where the test of each assert marked "under if" starts (3.12+, see
    instructions._mark_asserts_on_own_line): after the last conditional jump
    on a line before the assert's (the if's test; the assert's own test is on
    its lines). ``if c:`` / ``assert x`` compiles as ``assert not c or x`` does,
    but under ``python -O`` only the first evaluates ``c``: the if stays."""
    starts = set()
    for k, ins in enumerate(instrs):
        if ins.op != "LOAD_ASSERTION_ERROR" or ins.arg != "under if":
            continue
        j = k - 1
        while j >= 0 and not (instrs[j].op in CONDITIONAL_JUMPS and instrs[j].line is not None
                              and instrs[j].line < ins.line):
            j -= 1
        if j >= 0:
            start, hops = j + 1, 0
            while instrs[start].op == "JUMP" and start < instrs[start].target < k and hops < 4:
                # (a chained comparison's true path jumps over its cleanup to the body)
                start, hops = instrs[start].target, hops + 1
            starts.add(start)
    return starts


def assert_line_mark(raise_node):
    """"own line" / "under if" / None: what the lines say of the assert raising
    ``raise_node`` (see instructions._mark_asserts_on_own_line)."""
    exc = raise_node.exc.func if isinstance(raise_node.exc, ast.Call) else raise_node.exc
    return getattr(exc, "_line_mark", None)


def in_progress(frame):
    """Whether an expression is being computed on ``frame``: a value on top of its stack
    (a test there is part of it, not a statement's condition)."""
    return bool(frame.stack) and isinstance(frame.stack[-1], ast.expr)


def is_return_none(s):
    return isinstance(s, ast.Return) and (
        s.value is None or isinstance(s.value, ast.Constant) and s.value.value is None)


def continues_as_else(stmts):
    """A loop body's ``if c: A`` / ``continue`` / ``B`` (down to the body's
    end) where that ``continue`` is a test's jump straight back to the loop's
    start (or ``A``'s own closing jump, threaded there), not a ``continue``
    of its own: the source was ``if c: A`` / ``else: B`` (an if/elif chain
    ending the body). The compiler sends the jumps to the end of that
    statement straight back (3.11+: it has no backward conditional jump, so
    a test inside ``A`` jumps over a ``JUMP_BACKWARD``); a written
    ``continue`` is a jump with a line of its own, which the jumps inside
    ``A`` go to. A body that is only the ``continue`` stays written."""
    for k, st in enumerate(stmts):
        if (isinstance(st, ast.If) and not st.orelse and len(st.body) > 1 and k + 1 < len(stmts)
                and isinstance(st.body[-1], ast.Continue) and getattr(st.body[-1], "_implied", False)):
            st.body = continues_as_else(st.body[:-1])
            st.orelse = continues_as_else(stmts[k + 1:])
            return stmts[:k + 1]
    if stmts and isinstance(stmts[-1], ast.If):
        stmts[-1].body = continues_as_else(stmts[-1].body)
        stmts[-1].orelse = continues_as_else(stmts[-1].orelse)
    return stmts


def leaves_loop(stmts):
    """Whether ``stmts`` hold a ``break`` or ``continue`` of the loop around
    them (not one of a loop inside them, nor of a nested function)."""
    todo = list(stmts)
    while todo:
        st = todo.pop()
        if isinstance(st, (ast.Break, ast.Continue)):
            return True
        if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        if isinstance(st, (ast.For, ast.AsyncFor, ast.While)):
            todo += st.orelse  # (a loop's else clause belongs to the loop around it)
            continue
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            todo += [x for x in getattr(st, field, None) or [] if isinstance(x, ast.AST)]
    return False


def continue_to(target, loop):
    """The ``continue`` of a jump to ``target``, one of ``loop``'s continue targets; marked
    as written where the loop's body would not end that way (see WHILE_TEST_COPIED_AT_BOTTOM)."""
    node = ast.Continue()
    if target == loop.written_continue_target:
        node._written = True
    return node


def is_written_continue(s):
    return isinstance(s, ast.Continue) and getattr(s, "_written", False)


def ends_in_unwritten_continue(s):
    """Whether ``s`` is an ``if`` without else whose body ends in a ``continue`` not marked written."""
    return (isinstance(s, ast.If) and not s.orelse and isinstance(s.body[-1], ast.Continue)
            and not is_written_continue(s.body[-1]))


def strip_trailing_continue(stmts):
    """A ``continue`` at the very end of a loop body is implied (also at the
    end of a last statement's branches); not one the bytecode shows was
    written (see :meth:`_legacy_clauses_at`)."""
    if stmts and isinstance(stmts[-1], ast.Continue) and not is_written_continue(stmts[-1]):
        return strip_trailing_continue(stmts[:-1])
    if len(stmts) >= 2 and is_written_continue(stmts[-1]) and ends_in_unwritten_continue(stmts[-2]):
        # ``if t: <implied continue>`` then a written one: ``if not t: continue`` (the
        # walk takes the branches as laid out, the bottom test's way first)
        last = stmts[-2]
        rest = strip_trailing_continue(last.body[:-1])
        return stmts[:-2] + [ast.If(test=negate(last.test), body=[stmts[-1]], orelse=rest)]
    if stmts:
        last = stmts[-1]
        for field in ("body", "orelse"):  # (not a finally body's: its ``continue`` swallows
            sub = getattr(last, field, None)  # the exception it would re-raise)
            if isinstance(sub, list) and sub and not isinstance(last, (ast.For, ast.AsyncFor, ast.While)):
                setattr(last, field, strip_trailing_continue(sub)
                        or ([ast.Pass()] if field == "body" else []))
        for h in getattr(last, "handlers", None) or []:
            h.body = strip_trailing_continue(h.body) or [ast.Pass()]
    return stmts


def _push_exc_info(self, ins, frame, region, loop):
    exc = frame.pop(ins)
    frame.push(V.Exception_())
    frame.push(exc)


def _pop_except(self, ins, frame, region, loop):
    # leaving a handler: the saved exception below is dropped
    after = self.after_name_cleanup(ins.index + 1)
    if (len(frame.stack) == self._clause_tails.get(after)
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

# the <=3.10 block-stack instructions (POP_BLOCK, END_FINALLY, ...)
from .legacy import install as _install_legacy  # noqa: E402
_install_legacy(SPECIAL)
