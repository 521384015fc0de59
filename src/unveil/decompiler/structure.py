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
from typing import Callable, List, NamedTuple, Optional

from . import expressions as E
from . import values as V
from .cfg import CFG, Block
from .errors import DecompilationError
from .instructions import CONDITIONAL_JUMPS


class Exit(NamedTuple):
    """How a walk ended: ``kind`` is "leave" (control went to ``target``,
    outside the region) or "end" (return/raise/break/continue: no fallthrough)."""
    kind: str
    target: Optional[int] = None


END = Exit("end")


class Loop(NamedTuple):
    continue_targets: frozenset
    break_target: Optional[int]
    header: int


class Cond:
    """A (possibly compound) condition: true -> ``true``, false -> ``false``."""

    def __init__(self, expr, true, false, frame, blocks):
        self.expr = expr
        self.true = true
        self.false = false
        self.frame = frame  # state after the condition (expr popped)
        self.blocks = blocks  # ids of the blocks it spans


def negate(e):
    if isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.Not):
        return e.operand
    if isinstance(e, ast.Compare) and len(e.ops) == 1:
        flip = {ast.Is: ast.IsNot, ast.IsNot: ast.Is, ast.In: ast.NotIn, ast.NotIn: ast.In}
        t = type(e.ops[0])
        if t in flip:
            return ast.Compare(left=e.left, ops=[flip[t]()], comparators=e.comparators)
    return ast.UnaryOp(op=ast.Not(), operand=e)


def bool_op(op, a, b):
    """``a op b`` with same-operator operands flattened (same bytecode)."""
    vals = []
    for x in (a, b):
        if isinstance(x, ast.BoolOp) and isinstance(x.op, op) and not getattr(x, "_paren", False):
            vals.extend(x.values)
        else:
            vals.append(x)
    return ast.BoolOp(op=op(), values=vals)


def chain_compare(a, b):
    """``a`` and ``b`` as one chained comparison when ``b`` starts with ``a``'s
    last operand (the same node: it was kept on the stack)."""
    if (isinstance(a, ast.Compare) and isinstance(b, ast.Compare)
            and b.left is a.comparators[-1]):
        return ast.Compare(left=a.left, ops=a.ops + b.ops,
                           comparators=a.comparators + b.comparators)
    return None


class Structurer:
    def __init__(self, ctx, program):
        self.ctx = ctx
        self.program = program
        self.instrs = program.instrs
        self.cfg = CFG(program)
        self.n = len(self.instrs)
        self.active_loops = set()
        self._doms = {}

    # ------------------------------------------------------------ regions
    def dominated_by(self, head: Block) -> Callable[[int], bool]:
        key = head.id
        if key not in self._doms:
            self._doms[key] = {b.start for b in self.cfg.blocks if self.cfg.dominates(head, b)}
        s = self._doms[key]
        return lambda i: i in s

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
        i = start
        first = True
        while True:
            if i >= self.n:
                return Exit("leave", i)
            if not first and not region(i):
                return Exit("leave", i)
            if loop is not None and not first:
                if i in loop.continue_targets:
                    return Exit("leave", i)
            block = self.cfg.at(i)
            if block is None:
                self.fail("jump into the middle of a block", i)
            if (block.start != skip_header and self.is_loop_header(block)
                    and block.start not in self.active_loops):
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

    def is_loop_header(self, block: Block) -> bool:
        return bool(self.cfg.back_edge_sources(block))

    def transfer(self, target: int, frame, region, loop) -> object:
        """A jump to ``target``: a continue, a break, or just the next place."""
        if loop is not None:
            if target in loop.continue_targets and not region(target):
                frame.emit(ast.Continue())
                return END
            if target == loop.break_target and not region(target):
                frame.emit(ast.Break())
                return END
        if not region(target):
            return Exit("leave", target)
        return target

    def block(self, block: Block, frame, region, loop):
        """Run one block; return the next index or an :class:`Exit`."""
        instrs = self.instrs
        last = instrs[block.end - 1]
        stop = block.end - 1 if (last.target is not None or last.op in (
            "RETURN_VALUE", "RAISE_VARARGS", "RERAISE", "BEFORE_WITH",
            "BEFORE_ASYNC_WITH")) else block.end
        for k in range(block.start, stop):
            ins = instrs[k]
            if ins.op in SPECIAL:
                r = SPECIAL[ins.op](self, ins, frame, region, loop)
                if r is not None:
                    return r
                continue
            E.execute(frame, ins)
        if stop == block.end:
            return block.end if block.end < self.n else Exit("leave", block.end)
        op = last.op
        if op in ("RETURN_VALUE", "RAISE_VARARGS"):
            E.execute(frame, last)
            return END
        if op == "RERAISE":
            frame.emit(ast.Raise(exc=None, cause=None))
            return END
        if op in ("BEFORE_WITH", "BEFORE_ASYNC_WITH"):
            return self.with_(last, frame, region, loop)
        if op == "JUMP":
            return self.transfer(last.target, frame, region, loop)
        if op in CONDITIONAL_JUMPS:
            return self.branch(block, frame, region, loop)
        if op == "FOR_ITER":
            self.fail("for loop without a loop", last.index)
        if op in ("SETUP_FINALLY", "SETUP_WITH", "SETUP_ASYNC_WITH"):
            self.fail("old-style exception blocks are not supported yet", last.index)
        self.fail("unsupported control flow", last.index)

    # ---------------------------------------------------------- conditions
    def condition(self, block: Block, frame) -> Cond:
        """The condition ending ``block`` (the block's statements already
        ran in ``frame``), merged with the condition blocks that follow it."""
        last = self.instrs[block.end - 1]
        f = frame
        test = f.pop_expr(last)
        nxt = block.end
        tgt = last.target
        op = last.op
        if op == "POP_JUMP_IF_FALSE":
            c = Cond(test, nxt, tgt, f, {block.id})
        elif op == "POP_JUMP_IF_TRUE":
            c = Cond(test, tgt, nxt, f, {block.id})
        elif op == "POP_JUMP_IF_NONE":
            c = Cond(ast.Compare(left=test, ops=[ast.IsNot()], comparators=[E.const(None)]),
                     nxt, tgt, f, {block.id})
        elif op == "POP_JUMP_IF_NOT_NONE":
            c = Cond(ast.Compare(left=test, ops=[ast.Is()], comparators=[E.const(None)]),
                     nxt, tgt, f, {block.id})
        else:
            self.fail("unexpected conditional jump", last.index)
        c.true = self.through_trampoline(c.true, c.frame)
        c.false = self.through_trampoline(c.false, c.frame)
        while self.merge_next(c):
            pass
        return c

    def through_trampoline(self, target, frame):
        """A block that only drops the value a chained comparison kept
        (``POP_TOP; JUMP X``) counts as a jump to X."""
        b = self.cfg.at(target)
        if b is None or not frame.stack:
            return target
        ins = self.instrs[b.start:b.end]
        if (len(ins) == 2 and ins[0].op == "POP_TOP" and ins[1].op == "JUMP"
                and len(b.preds) == 1):
            return ("pop", ins[1].target)
        if (len(ins) == 3 and ins[0].op == "SWAP" and ins[1].op == "POP_TOP"
                and ins[2].op == "JUMP"):
            return target
        return target

    def pure_condition(self, index, frame, chain_blocks):
        """The condition computed by the block at ``index`` with no other
        effect, or None."""
        if isinstance(index, tuple):
            return None
        b = self.cfg.at(index)
        if b is None or not self.cfg.is_conditional(b):
            return None
        if any(p.id not in chain_blocks for p in b.preds) or b.exc_preds:
            return None
        if self.is_loop_header(b):
            return None
        last = self.instrs[b.end - 1]
        if last.op not in ("POP_JUMP_IF_FALSE", "POP_JUMP_IF_TRUE", "POP_JUMP_IF_NONE",
                           "POP_JUMP_IF_NOT_NONE"):
            return None
        f = frame.copy()
        depth = len(f.stack)
        try:
            for k in range(b.start, b.end - 1):
                ins = self.instrs[k]
                if ins.op in SPECIAL:
                    return None
                E.execute(f, ins)
        except DecompilationError:
            return None
        if f.stmts and not all(getattr(s, "_walrus_ok", False) for s in f.stmts):
            if any(not isinstance(s, ast.Assign) or not getattr(s, "_cancelled", False) for s in f.stmts):
                return None
        if len(f.stack) != depth + 1:
            return None
        sub = self.condition_from(b, f)
        return sub

    def condition_from(self, block, f):
        last = self.instrs[block.end - 1]
        test = f.pop_expr(last)
        nxt, tgt = block.end, last.target
        if last.op == "POP_JUMP_IF_FALSE":
            c = Cond(test, nxt, tgt, f, {block.id})
        elif last.op == "POP_JUMP_IF_TRUE":
            c = Cond(test, tgt, nxt, f, {block.id})
        elif last.op == "POP_JUMP_IF_NONE":
            c = Cond(ast.Compare(left=test, ops=[ast.IsNot()], comparators=[E.const(None)]), nxt, tgt, f, {block.id})
        else:
            c = Cond(ast.Compare(left=test, ops=[ast.Is()], comparators=[E.const(None)]), nxt, tgt, f, {block.id})
        return c

    def merge_next(self, c: Cond) -> bool:
        """Merge ``c`` with a following condition block when they form
        ``and``/``or``; True when merged."""
        for side in ("true", "false"):
            idx = getattr(c, side)
            frame = c.frame
            if isinstance(idx, tuple):
                continue
            sub = self.pure_condition(idx, frame, c.blocks)
            if sub is None:
                continue
            st, sf = sub.true, sub.false
            st = self.through_trampoline(st, sub.frame)
            sf = self.through_trampoline(sf, sub.frame)
            other = c.false if side == "true" else c.true
            other = other[1] if isinstance(other, tuple) else other
            stn = st[1] if isinstance(st, tuple) else st
            sfn = sf[1] if isinstance(sf, tuple) else sf
            if side == "true":
                if other == sfn:
                    expr = chain_compare(c.expr, sub.expr) or bool_op(ast.And, c.expr, sub.expr)
                elif other == stn:
                    expr = bool_op(ast.Or, negate(c.expr), sub.expr)
                else:
                    continue
            else:
                if other == stn:
                    expr = bool_op(ast.Or, c.expr, sub.expr)
                elif other == sfn:
                    expr = bool_op(ast.And, negate(c.expr), sub.expr)
                else:
                    continue
            c.expr = expr
            c.true, c.false = stn, sfn
            c.frame = sub.frame
            c.blocks = c.blocks | sub.blocks
            return True
        return False

    # --------------------------------------------------------------- if
    def branch(self, block: Block, frame, region, loop):
        last = self.instrs[block.end - 1]
        if last.op in ("JUMP_IF_FALSE_OR_POP", "JUMP_IF_TRUE_OR_POP"):
            return self.short_circuit(block, frame, region, loop)
        if last.op == "JUMP_IF_NOT_EXC_MATCH":
            self.fail("old-style except clause outside a try", last.index)
        c = self.condition(block, frame)
        frame.stack[:] = c.frame.stack
        # while loop entered through its duplicated test (3.10+ layout)
        w = self.inverted_while(c, frame, region, loop)
        if w is not None:
            return w
        return self.if_(c, frame, region, loop)

    def branch_region(self, index, region):
        b = self.cfg.at(index)
        if b is None or len(b.preds) != 1 and False:
            return region
        dom = self.dominated_by(b)
        return lambda i: region(i) and dom(i)

    def if_(self, c: Cond, frame, region, loop):
        t, fl = c.true, c.false
        then = frame.copy()
        then.stmts = []
        t_exit = self.walk(t, then, self.branch_region(t, region), loop) if t != fl else Exit("leave", t)
        depth = len(frame.stack)
        # value-producing diamond: a conditional expression
        if t_exit.kind == "leave" and len(then.stack) == depth + 1 and not then.stmts:
            other = frame.copy()
            other.stmts = []
            f_exit = self.walk(fl, other, self.branch_region(fl, region), loop)
            if (f_exit.kind == "leave" and f_exit.target == t_exit.target
                    and len(other.stack) == depth + 1 and not other.stmts):
                body, orelse = then.pop_expr(), other.pop_expr()
                frame.push(ast.IfExp(test=c.expr, body=body, orelse=orelse))
                return t_exit.target
            self.fail("conditional expression with unbalanced branches", self.cfg.at(t).start)
        if t_exit.kind == "leave" and t_exit.target == fl:
            # if without else
            frame.emit(self.make_if(c.expr, then.stmts, []))
            frame.stack[:] = then.stack
            return self.transfer(fl, frame, region, loop) if not region(fl) else fl
        other = frame.copy()
        other.stmts = []
        if t_exit.kind == "end":
            # the then-branch never falls through: what follows is not an else
            frame.emit(self.make_if(c.expr, then.stmts, []))
            return self.transfer(fl, frame, region, loop) if not region(fl) else fl
        f_exit = self.walk(fl, other, self.branch_region(fl, region), loop)
        frame.emit(self.make_if(c.expr, then.stmts, other.stmts))
        if f_exit.kind == "end":
            frame.stack[:] = then.stack
            return self.transfer(t_exit.target, frame, region, loop) if not region(t_exit.target) else t_exit.target
        if f_exit.target != t_exit.target:
            self.fail("if branches end in different places", self.cfg.at(fl).start)
        frame.stack[:] = then.stack
        return self.transfer(t_exit.target, frame, region, loop) if not region(t_exit.target) else t_exit.target

    def make_if(self, test, body, orelse):
        if not body:
            if orelse:
                return ast.If(test=negate(test), body=orelse, orelse=[])
            body = [ast.Pass()]
        # ``assert`` compiles to a jump over ``raise AssertionError``
        if (not orelse and len(body) == 1 and isinstance(body[0], ast.Raise)
                and self.is_assert_raise(body[0])):
            exc = body[0].exc
            msg = exc.args[0] if isinstance(exc, ast.Call) and exc.args else None
            return ast.Assert(test=negate(test), msg=msg)
        return ast.If(test=test, body=body, orelse=orelse)

    def is_assert_raise(self, node):
        exc = node.exc
        if isinstance(exc, ast.Call):
            exc = exc.func
        return getattr(exc, "_assertion", False) and node.cause is None

    def short_circuit(self, block, frame, region, loop):
        """``a and b`` / ``a or b`` as a value (JUMP_IF_X_OR_POP)."""
        last = self.instrs[block.end - 1]
        left = frame.pop_expr(last)
        right_frame = frame.copy()
        right_frame.stmts = []
        target = last.target
        ex = self.walk(block.end, right_frame, self.branch_region(block.end, region), loop)
        if ex.kind != "leave" or right_frame.stmts:
            self.fail("short-circuit operand with statements", last.index)
        right = right_frame.pop_expr()
        op = ast.And if last.op == "JUMP_IF_FALSE_OR_POP" else ast.Or
        if ex.target == target:
            frame.push(bool_op(op, left, right))
            frame.stack[:-1] = right_frame.stack
            return self.transfer(target, frame, region, loop) if not region(target) else target
        # chained comparison: the false path drops the kept operand
        tb = self.cfg.at(target)
        ins = self.instrs[tb.start:tb.end] if tb else []
        if (len(ins) >= 2 and ins[0].op == "SWAP" and ins[1].op == "POP_TOP"
                and tb.end == ex.target or (len(ins) == 3 and ins[2].op == "JUMP" and ins[2].target == ex.target)):
            merged = chain_compare(left, right)
            if merged is None:
                self.fail("unrecognised chained comparison", last.index)
            frame.stack[:] = right_frame.stack[:-1] if False else frame.stack[:-1]
            frame.push(merged)
            return self.transfer(ex.target, frame, region, loop) if not region(ex.target) else ex.target
        self.fail("short-circuit operands end in different places", last.index)

    # ------------------------------------------------------------- loops
    def natural(self, header: Block):
        body = self.cfg.loop_body(header)
        # exception handlers inside the loop belong to it too
        changed = True
        while changed:
            changed = False
            for b in self.cfg.blocks:
                if b.id in body:
                    continue
                if b.handler is not None and b.exc_preds == [] and False:
                    pass
                if any(p.id in body for p in b.exc_preds) and any(
                        s.id in body for s in b.succs):
                    body.add(b.id)
                    changed = True
        return {self.cfg.blocks[k].start for k in body}

    def break_target(self, body_starts, exits):
        """Where ``break`` goes: the one place outside the loop that its
        body jumps to, other than the normal exits."""
        targets = set()
        for b in self.cfg.blocks:
            if b.start not in body_starts:
                continue
            last = self.instrs[b.end - 1]
            if last.op == "JUMP" and last.target not in body_starts and last.target not in exits:
                targets.add(last.target)
        if len(targets) == 1:
            return targets.pop()
        if not targets:
            return None
        return max(targets)

    def loop(self, header: Block, frame, outer: Optional[Loop]):
        body_starts = self.natural(header)
        first = self.instrs[header.start]
        self.active_loops.add(header.start)
        try:
            if first.op == "FOR_ITER":
                return self.for_loop(header, frame, body_starts, outer)
            if self.cfg.is_conditional(header) and all(
                    self.instrs[k].op not in SPECIAL for k in range(header.start, header.end - 1)):
                probe = frame.copy()
                for k in range(header.start, header.end - 1):
                    E.execute(probe, self.instrs[k])
                if not probe.stmts:
                    c = self.condition(header, probe)
                    inside_t = c.true in body_starts if not isinstance(c.true, tuple) else False
                    inside_f = c.false in body_starts if not isinstance(c.false, tuple) else False
                    if inside_t != inside_f:
                        test = c.expr if inside_t else negate(c.expr)
                        start = c.true if inside_t else c.false
                        exit_ = c.false if inside_t else c.true
                        return self.while_loop(test, start, exit_, frame, body_starts, header, None)
            return self.while_loop(None, header.start, None, frame, body_starts, header, None)
        finally:
            self.active_loops.discard(header.start)

    def for_loop(self, header, frame, body_starts, outer):
        it = frame.pop()
        if not isinstance(it, V.Iterator):
            self.fail("for loop over a non-iterator", header.start)
        ins = self.instrs[header.start]
        exit_ = ins.target
        brk = self.break_target(body_starts, {exit_})
        body = frame.copy()
        body.stmts = []
        body.push(it)
        target_box = []
        group = V.TargetGroup(1, lambda node: target_box.append(node))
        body.push(V.UnpackSlot(group, 0))
        loop = Loop(frozenset({header.start}), brk if brk is not None else exit_, header.start)
        region = lambda i: i in body_starts and i != header.start
        ex = self.walk(header.end, body, region, loop)
        if not target_box:
            self.fail("for loop target not found", header.end)
        target = target_box[0].elts[0]
        stmts = strip_trailing_continue(body.stmts)
        node = ast.AsyncFor if it.is_async else ast.For
        orelse = []
        follow = exit_
        if brk is not None and brk != exit_:
            else_frame = frame.copy()
            else_frame.stmts = []
            ex2 = self.walk(exit_, else_frame, lambda i: i != brk and i not in body_starts, outer)
            orelse = else_frame.stmts
            follow = brk
        frame.emit(node(target=target, iter=it.expr, body=stmts or [ast.Pass()], orelse=orelse,
                        type_comment=None))
        return follow

    def while_loop(self, test, start, exit_, frame, body_starts, header, latch):
        brk = self.break_target(body_starts, {exit_} if exit_ is not None else set())
        body = frame.copy()
        body.stmts = []
        conts = {header.start}
        if latch is not None:
            conts.add(latch)
        loop = Loop(frozenset(conts), brk if brk is not None else exit_, header.start)
        if test is None:
            region = lambda i: i in body_starts
            ex = self.walk(start, body, region, loop, skip_header=header.start)
        else:
            region = lambda i: i in body_starts and i != header.start and i != latch
            ex = self.walk(start, body, region, loop)
        stmts = strip_trailing_continue(body.stmts)
        orelse = []
        follow = exit_
        if brk is not None and exit_ is not None and brk != exit_:
            else_frame = frame.copy()
            else_frame.stmts = []
            self.walk(exit_, else_frame, lambda i: i != brk and i not in body_starts, None)
            orelse = else_frame.stmts
            follow = brk
        if follow is None:
            follow = brk
        frame.emit(ast.While(test=test if test is not None else E.const(True),
                             body=stmts or [ast.Pass()], orelse=orelse))
        return follow

    def inverted_while(self, c: Cond, frame, region, loop):
        """3.10+ writes ``while c: body`` as ``if c: do body while c``."""
        if isinstance(c.true, tuple) or isinstance(c.false, tuple):
            return None
        h = self.cfg.at(c.true)
        if h is None or not self.is_loop_header(h) or h.start in self.active_loops:
            return None
        latches = self.cfg.back_edge_sources(h)
        latch = None
        for lb in latches:
            if self.cfg.is_conditional(lb):
                latch = lb
        if latch is None:
            return None
        # the latch condition may start in an earlier block of an and/or chain
        body_starts = self.natural(h)
        lstart = self.latch_start(latch, body_starts)
        probe = frame.copy()
        lb = self.cfg.at(lstart)
        try:
            for k in range(lb.start, lb.end - 1):
                E.execute(probe, self.instrs[k])
            if probe.stmts:
                return None
            lc = self.condition(lb, probe)
        except DecompilationError:
            return None
        if lc.true != h.start or lc.false != c.false:
            return None
        self.active_loops.add(h.start)
        try:
            return self.while_loop(lc.expr, h.start, c.false, frame, body_starts - {lstart} | set(), h, lstart)
        finally:
            self.active_loops.discard(h.start)

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
                if pt not in (lt.target, latch.end):
                    break
                b = p
            else:
                break
        return b.start

    # ---------------------------------------------------------------- with
    def with_(self, ins, frame, region, loop):
        cm = frame.pop_expr(ins)
        is_async = ins.op == "BEFORE_ASYNC_WITH"
        frame.push(V.WithExit(cm, is_async))
        enter = ast.Name(id="__with_enter__", ctx=ast.Load())
        enter._with_enter = True
        frame.push(enter)
        start = ins.index + 1
        handler = self.cfg.at(start).handler if self.cfg.at(start) else None
        if handler is None:
            self.fail("with block without a handler", ins.index)
        body_end = max(h.end for h in self.program.handlers if h.target == handler)
        body = frame.copy()
        body.stmts = []
        inner = lambda i: region(i) and (self.covered_by(i, handler) or i < body_end and i >= start)
        ex = self.walk(start, body, inner, loop)
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
            return END
        # the normal exit: call __exit__(None, None, None) and drop the result
        frame.stack[:] = body.stack
        return ex.target

    def covered_by(self, i, handler):
        b = self.cfg.at(i)
        seen = set()
        h = b.handler if b else None
        while h is not None and h not in seen:
            if h == handler:
                return True
            seen.add(h)
            hb = self.cfg.at(h)
            h = hb.handler if hb else None
        return False


def strip_trailing_continue(stmts):
    """A ``continue`` at the very end of a loop body is implied."""
    if stmts and isinstance(stmts[-1], ast.Continue):
        return stmts[:-1]
    return stmts


def _nop(self, ins, frame, region, loop):
    return None


def _pop_except(self, ins, frame, region, loop):
    # leaving a handler: the saved exception below is dropped
    for k in range(len(frame.stack) - 1, -1, -1):
        if isinstance(frame.stack[k], V.Exception_):
            del frame.stack[k]
            break
    return None


SPECIAL = {
    "POP_EXCEPT": _pop_except,
}
