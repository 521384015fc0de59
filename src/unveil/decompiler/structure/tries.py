"""``try`` statements, 3.11+ (<=3.10: legacy.py): :func:`try_` is called by the
walk at a block where a new handler's range starts; the body is walked in the region that
handler covers (:class:`CoveredBy`); then the except clauses (:func:`except_clauses`, ``except*``:
exceptstar.py) or the finally body (:func:`finally_body`), whose inlined copies on the body's ways
out are found and skipped (finally_copies.py).
"""
import ast

from .. import expressions as E
from .. import values as V
from .regions import END, Exit, both, leaves_reraise, strip_name_cleanup, strip_tail_reraise
from .statement_parts import live
from .state import dominated_by, fail
from .jumps import returns_at, same_after_copies, same_copied_raise, same_copied_return, thread
from .with_facts import covered_by, handler_chain, returned_through_with_exits, same_code
from .finally_copies import (add_finally_copy, after_finally_copy, breaks_out_of_finally, clause_ends,
                             clause_tail_returns, clause_tails, continues_in_else, ends_finally_body,
                             ends_in_break, ends_in_continue, finally_copy_starts, handler_frame,
                             handler_kind, keep_inside, match_finally_copy, match_finally_copy_by_flow,
                             one_pass_loop, program_handler)
from .branch_facts import returned_into_dead_copy, returns_past_outer_with_exits
from .withs import go_on
from .branches import through_with_exits, walk_dominated
from .exceptstar import except_star_clauses, is_except_star


def try_(w, block, H, frame, region, loop):
    kind = handler_kind(w, H)
    w.active_handlers.add(H)
    depth = program_handler(w, H).depth
    covered = CoveredBy(w, H)
    if kind == "finally":
        fin = finally_body(w, H, frame, depth, region, loop)
        once = w._one_pass_exit  # (set by finally_body, read before a nested try resets it)
    body = frame.copy()
    body.stmts = []
    ex = w.walk(block.start, body, both(region, covered), loop)
    if ex.kind == "leave" and len(body.stack) > len(frame.stack):
        # a value computed inside the try (``return f()``): the statement
        # that uses it follows the protected range but belongs to the body
        ex = w.walk(ex.target, body, region, loop)
        if (ex.kind == "leave" and len(body.stack) > len(frame.stack)
                and returns_at(w, ex.target, name_cleanups=True)
                or returns_past_outer_with_exits(w, ex, body, frame)):
            # (out of an except clause that holds the try, past an enclosing
            # finally's inlined copy: the clause's end lies outside both)
            ex = w.walk(ex.target, body, lambda i: True, loop)
    keep_inside(body, frame)
    if ends_in_break(w, ex, body, len(frame.stack), region, loop):
        body.emit(ast.Break())
        ex = END
    ex = returned_into_dead_copy(w, ex, body, len(frame.stack))
    if ex.kind == "leave" and any(x in w.dead_end_copies for x in (ex.target, thread(w, ex.target)[0])):
        ex = END  # (into a copy of a finally body that raises or returns)
    if kind == "finally":
        node = ast.Try(body=body.stmts or [ast.Pass()], handlers=[], orelse=[],
                       finalbody=fin or [ast.Pass()])
        # try/except/finally: a try/except alone in a finally's body is one statement
        if len(node.body) == 1 and isinstance(node.body[0], ast.Try) and not node.body[0].finalbody:
            inner = node.body[0]
            node = ast.Try(body=inner.body, handlers=inner.handlers, orelse=inner.orelse,
                           finalbody=node.finalbody)
        if ex.kind == "leave" and live(fin) and not after_finally_copy(w, ex.target):
            # the body completes into code that is not a known copy of the
            # finally body: walked on, the copy would run the body twice
            fail(w, "finally body's inlined copy not found", H)
        if once is not None:
            node = one_pass_loop(w, node, ex, once, H)
            ex = Exit("leave", once) if ex.kind == "leave" else ex
        frame.emit(node)
        frame.stack[:] = body.stack
        if ex.kind == "end":
            return END
        return go_on(w, ex.target, frame, region, loop)
    handlers, h_exit = except_clauses(w, H, frame, depth, region, loop)
    orelse = []
    follow = h_exit
    after = body  # (the frame whose stack the code after the try statement finds)
    if ex.kind == "leave":
        # the body's last jump is often left outside the protected range
        t, pops = thread(w, ex.target)
        if not pops and t != ex.target and t < w.n and region(w.cfg.containing(t).start):
            ex = Exit("leave", t)
    if (ex.kind == "leave" and h_exit is None and ex.target < H and region(w.cfg.containing(ex.target).start)
            and continues_in_else(w, ex.target, H)):
        # no handler falls through and the body's exit lies before the
        # handlers: that code is the else clause
        else_frame = frame.copy()
        else_frame.stmts = []
        start = w.cfg.containing(ex.target)
        dom = dominated_by(w, start)
        ex2 = w.walk(ex.target, else_frame, lambda i: region(i) and dom(i) and not covered(i), loop)
        ex2 = returned_through_with_exits(w, ex2, else_frame, len(frame.stack))
        frame.emit(ast.Try(body=body.stmts or [ast.Pass()], handlers=handlers,
                           orelse=else_frame.stmts, finalbody=[]))
        frame.stack[:] = else_frame.stack
        if ex2.kind == "end":
            return END
        return go_on(w, ex2.target, frame, region, loop)
    if ex.kind == "leave":
        if h_exit is None or same_after_copies(w, ex.target, h_exit) or same_copied_return(w, 
                ex.target, h_exit) or same_copied_raise(w, ex.target, h_exit) or same_code(w, 
                ex.target, h_exit):
            follow = ex.target
        else:
            # the body falls into the else block, which jumps to the follow
            else_frame = frame.copy()
            else_frame.stmts = []
            start = ex.target
            ex2 = w.walk(start, else_frame, lambda i: region(i) and i != h_exit and not covered(i)
                            and dominated_by(w, w.cfg.containing(start))(w.cfg.containing(i).start), loop)
            if ex2.kind == "leave" and len(else_frame.stack) > len(frame.stack):
                # ``return f()`` in the else clause inside an enclosing try/finally:
                # the return that uses the value follows the finally's inlined copy
                ex2 = w.walk(ex2.target, else_frame, region, loop)
            if ends_in_break(w, ex2, else_frame, len(frame.stack), region, loop):
                else_frame.emit(ast.Break())
                ex2 = END
            elif ends_in_continue(w, ex2, else_frame, len(frame.stack), region, loop) and not (
                    same_after_copies(w, ex2.target, h_exit)):
                # (the except clauses go on to the loop's bottom test, the else
                # clause's continue to its top test: both through an
                # enclosing finally body's inlined copies)
                else_frame.emit(ast.Continue())
                ex2 = END
            else:
                ex2 = returned_through_with_exits(w, ex2, else_frame, len(frame.stack))
            if ex2.kind == "leave" and clause_tail_returns(w, 
                    ex2.target, dominated_by(w, w.cfg.containing(start))):
                # ``return`` out of an except clause that holds the try, through
                # an enclosing finally: the return follows the finally's
                # inlined copy, outside the clause's protected range
                ex2 = w.walk(ex2.target, else_frame, lambda i: True, loop)
            orelse = else_frame.stmts
            if ex2.kind == "leave" and len(else_frame.stack) < len(body.stack) and all(
                    x is y for x, y in zip(else_frame.stack, body.stack)):
                after = else_frame  # (its code dropped an enclosing clause's exception)
            if ex2.kind == "leave" and not same_after_copies(w, ex2.target, h_exit):
                fail(w, "try/else ends in an unexpected place", start)
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
    return go_on(w, follow, frame, region, loop)


def finally_body(w, H, frame, depth, region, loop):
    """Decompile the exceptional copy of a finally body (after
    PUSH_EXC_INFO, up to RERAISE) and note where its inlined copies are."""
    f = handler_frame(w, H, frame, depth)
    hb = w.cfg.at(H)
    ex = w.walk(H, f, dominated_by(w, hb), loop)
    # the copy ends by re-raising (RERAISE) wherever it ends: not source
    stmts = strip_tail_reraise(f.stmts)
    if leaves_reraise(stmts):
        fail(w, "finally body re-raises where no branch ends", H)
    w._one_pass_exit = None
    if ex.kind == "leave":
        if not breaks_out_of_finally(w, H, ex.target):
            fail(w, "finally body ends in an unexpected place", H)
        # a ``break`` that drops the exception and leaves a loop with no way
        # back to its start (every path of its body breaks): see one_pass_loop
        stmts = stmts + [ast.Break()]
        w._one_pass_exit = ex.target
    # the copy's instructions, to find the copies inlined on other paths
    k = H + 1
    w._finally_at = H
    # the whole exceptional copy lies between PUSH_EXC_INFO and the
    # cleanup that covers it (its branches may end in RERAISEs of their own)
    cleanup = w.cfg.at(H).handler
    while k < w.n and not ends_finally_body(w, k):
        k += 1
    # no RERAISE before the cleanup: every path of the body raises or returns
    never_completes = cleanup is not None and H < cleanup < k and not any(
        x.target is not None and not H <= x.target < cleanup for x in w.instrs[H:cleanup])
    # (a ``break``/``continue`` in the finally body jumps out: it goes on elsewhere)
    if never_completes or k >= w.n and cleanup is not None and H < cleanup:
        k = cleanup  # (no path completes: each raises, returns or breaks out)
    elif cleanup is not None and cleanup > k and all(
            w.instrs[j].op != "PUSH_EXC_INFO" for j in range(H + 1, cleanup)):
        k = cleanup
    pattern = [x for x in w.instrs[H + 1:k]
               if x.op != "CLEANUP_THROW"]  # 3.12+ places it inline in handlers only (asyncs.py)
    if pattern:
        for p in finally_copy_starts(w, pattern):
            if covered_by(w, p, H) or H <= p <= k:
                continue
            if p > 0 and w.instrs[p - 1].op == "PUSH_EXC_INFO":
                continue  # another exceptional copy (of a finally inside a copied finally body)
            end = match_finally_copy(w, pattern, k, p)
            if end is None and cleanup is not None:
                end = match_finally_copy_by_flow(w, H, k, cleanup, p)
            if end is not None and end != p and never_completes:
                w.dead_end_copies[p] = H
            elif end is not None and end != p:
                add_finally_copy(w, p, end)
                w._reduced.clear()  # conditions read where copies end
    return stmts


def except_clauses(w, H, frame, depth, region, loop):
    """The except clauses of the handler at ``H`` and where they go."""
    if is_except_star(w, H):
        return except_star_clauses(w, H, frame, depth, region, loop)  # exceptstar.py
    clauses = []
    exits = set()
    f = handler_frame(w, H, frame, depth)
    i = H
    if w.instrs[H].op == "PUSH_EXC_INFO":
        # every clause starts with the previous exception saved below
        _push_exc_info(w, w.instrs[H], f, region, loop)
        i = H + 1
    while True:
        cf = f.copy()
        cf.stmts = []
        k = i
        # the exception type test, if any
        while k < w.n and w.instrs[k].op != "CHECK_EXC_MATCH" \
                and w.instrs[k].target is None and w.instrs[k].op not in ("POP_TOP", "RERAISE", "STORE_FAST", "STORE_NAME", "STORE_DEREF", "STORE_GLOBAL"):
            E.execute(cf, w.instrs[k])
            k += 1
        ins = w.instrs[k]
        if ins.op == "RERAISE":
            break  # no clause matched: the exception goes on
        typ = None
        next_clause = None
        if ins.op == "CHECK_EXC_MATCH":
            typ = cf.pop_expr(ins)
            jump = w.instrs[k + 1]
            if jump.op != "POP_JUMP_IF_FALSE":
                fail(w, "unexpected except test", k + 1)
            next_clause = jump.target
            k += 2
        # the clause body: binding the name (or dropping the exception) first
        name = None
        if w.instrs[k].op in ("STORE_FAST", "STORE_NAME", "STORE_DEREF", "STORE_GLOBAL"):
            name = w.instrs[k].arg
            cf.pop()
            cf.clause_names = cf.clause_names | {name}
            k += 1
        elif w.instrs[k].op == "POP_TOP":
            cf.pop()
            k += 1
        else:
            fail(w, "unexpected except clause", k)
        dom = dominated_by(w, w.cfg.containing(k))
        ends = clause_ends(w, k, H)
        saved_tails, tails = w._clause_tails, clause_tails(w, k, H)
        w._clause_tails = dict(saved_tails)
        w._clause_tails.update((t, len(cf.stack)) for t in tails)
        try:
            ex = walk_dominated(w, k, cf, lambda i: region(i) and i not in ends, loop)
        finally:
            w._clause_tails = saved_tails
        if ex.kind == "leave" and cf.stack and returns_at(w, ex.target, name_cleanups=True):
            # ``return value`` out of the clause after an inlined finally
            ex = w.walk(ex.target, cf, lambda i: True, loop)
        elif (ex.kind == "leave" and ex.target not in ends and ex.target not in tails
              and clause_tail_returns(w, ex.target, dom)):
            # ``break`` or ``return`` out of the clause through an
            # enclosing finally: the rest of the clause follows the
            # finally's inlined copy, outside its protected range
            ex = w.walk(ex.target, cf, lambda i: True, loop)
        ex = through_with_exits(w, k, ex, cf, loop)  # (``return`` in nested with statements)
        body = strip_name_cleanup(cf.stmts, name)
        if ex.kind == "leave" and not any(same_copied_return(w, x, ex.target) for x in exits):
            exits.add(ex.target)  # (copies of one return are one place)
        clauses.append(ast.ExceptHandler(type=typ, name=name, body=body or [ast.Pass()]))
        if next_clause is None:
            break
        i = next_clause
    if len(exits) > 1:
        fail(w, "except clauses end in different places %r" % (exits,), H)
    return clauses, (exits.pop() if exits else None)


def _push_exc_info(w, ins, frame, region, loop):
    exc = frame.pop(ins)
    frame.push(V.Exception_())
    frame.push(exc)


class CoveredBy:
    """A region: the blocks in ``handler``'s protected range, directly or inside a nested
    try (3.11+'s exception table; ``with_facts.covered_by``)."""
    __slots__ = ("w", "handler")

    def __init__(self, w, handler):
        self.w, self.handler = w, handler

    def __call__(self, i):
        return covered_by(self.w, i, self.handler)

    def implies(self, other) -> bool:
        """Whether every block covered here is in ``other`` too: ``other`` is the range of
        a handler on this one's chain (a try around this try, or around its handler)."""
        return (isinstance(other, CoveredBy) and other.w is self.w
                and other.handler in handler_chain(self.w, self.handler))
