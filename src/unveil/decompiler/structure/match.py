"""Structuring of ``match`` statements (3.10+).

Two entry points: :func:`match_op` for the instructions in ``MATCH_OPS`` met by the walk
(walk.block), and :func:`.match_facts.match_branch`, asked first by branches.branch for every
conditional jump (None lets the ordinary ``if`` structuring proceed). One case's pattern is
read by patterns.CaseParser; the values of that reading are in match_facts.py.

How the compiler lays out ``match subject: case ...``: the subject stays on
the stack; every case but the last non-default one starts with ``COPY 1``;
the pattern code tests and takes apart the copy, jumping on failure to a run
of ``POP_TOP`` that cleans the stack and falls into the next case; captured
values are rotated under the values still to be matched and stored at the
end; then comes the guard (jumping to the next case when false), ``POP_TOP``
of the subject and the body.  A trailing ``case _`` has no pattern code.

The pattern code is read by a small symbolic execution of its own: the values
on that stack are :class:`Slot` objects (a value being matched) and the
by-products of the MATCH_* instructions; the tests an instruction applies to
a slot, and what finally happens to it (popped: ``_``; stored: a capture),
give its pattern.  Or-patterns are the one place with inner control flow:
each alternative tests its own copy, fails into the next alternative and
jumps (or, when the compiler copied the small tail, falls) to a common end.
Anything that does not fit exactly is refused: the ``COPY`` is then run as an
ordinary instruction (it was a walrus or a chained comparison).
"""
import ast
from functools import partial
import sys

from .. import expressions as E
from .. import values as V
from ..errors import DecompilationError
from .regions import END, Exit
from .state import dominated_by, fail
from .jumps import branch_returns_outside, past_finally_copies, same_copied_return, same_place
from .match_facts import (NoMatch, copy_then_consumed, depth_after_cases, left_except_clause,
                          only_name_cleanup, past_any_finally_copy, reachable_from, resolve)
from .branches import walk_dominated
from .patterns import CaseParser


#: instructions that the walk (walk.block) hands to ``match_op`` (none before
#: 3.10, which has no match statement)
MATCH_OPS = frozenset() if sys.version_info < (3, 10) else frozenset({
    "COPY", "MATCH_SEQUENCE", "MATCH_MAPPING", "MATCH_CLASS", "MATCH_KEYS", "GET_LEN",
    "COPY_DICT_WITHOUT_KEYS"})


def match_op(w, ins, frame, region, loop):
    if ins.op == "COPY":
        r = None
        if ins.arg == 1 and frame.stack and not copy_then_consumed(w, ins.index):
            r = match_statement(w, ins.index, frame, region, loop, None)
        if r is not None:
            return r
        E.execute(frame, ins)
        return w.block(w.cfg.containing(ins.index), frame, region, loop, start=ins.index + 1)
    if ins.op in ("MATCH_SEQUENCE", "MATCH_MAPPING", "MATCH_CLASS"):
        # a match statement with one case: no copy of the subject
        k = 3 if ins.op == "MATCH_CLASS" else 1
        st = frame.stack
        if len(st) >= k and not (len(st) > k and st[-k - 1] is st[-k]):
            pre = None
            if ins.op == "MATCH_CLASS":
                pre = (st[-2], st[-1])
                probe = frame.copy()
                del probe.stack[-2:]
                r = match_statement(w, ins.index, probe, region, loop, pre)
                if r is not None:
                    frame.stack[:] = probe.stack
                    frame.stmts.extend(probe.stmts)
                    return r
            else:
                r = match_statement(w, ins.index, frame, region, loop, None)
                if r is not None:
                    return r
    fail(w, "unrecognised match statement", ins.index)


def match_statement(w, c, frame, region, loop, pre):
    """The match statement whose subject is on top of ``frame`` and
    whose first case starts at ``c``; the index after it (or an Exit),
    or None when the code there is no match statement."""
    subj = frame.stack[-1]
    if not (isinstance(subj, ast.expr) or isinstance(subj, V.Stored)):
        return None
    if c in w.matches_being_read:
        # a guard's operand walked on (``continue`` in a case body)
        # back into its own match statement: reading it again from
        # there would nest without end
        fail(w, "match statement met again while reading its own cases", c)
    # (self.matches_being_read: the first case of each match statement
    # whose cases are being read)
    outer_depth = len(frame.stack) - 1
    w.matches_being_read.add(c)
    try:
        cases = match_cases(w, c, outer_depth, pre, 0)
    finally:
        w.matches_being_read.discard(c)
    if cases is None:
        return None
    if len(cases) == 1:
        p = cases[0].pattern
        if isinstance(p, (ast.MatchAs, ast.MatchValue, ast.MatchSingleton)) and (
                not isinstance(p, ast.MatchAs) or p.pattern is None):
            return None  # the same code as an assignment or an if
    return emit_match(w, cases, frame, region, loop)


def match_cases(w, i, outer_depth, pre, count):
    """The cases from ``i`` on (the last one has no copy of the
    subject), or None. A case read as keeping the subject must be
    followed by more cases; when they cannot be read, the case is read
    again as the last one."""
    if count > 200 or i is None or i >= w.n:
        return None
    ins = w.instrs[i]
    choices = (True, False) if (ins.op == "COPY" and ins.arg == 1
                                and not (count == 0 and pre is not None)) else (False,)
    for copy in choices:
        try:
            found = CaseParser(w, outer_depth).parse(i, copy, pre if count == 0 else None)
        except (NoMatch, DecompilationError):
            continue
        if not copy:
            return [found]
        if found.landing is None or not w.cfg.dominates(
                w.cfg.containing(i), w.cfg.containing(found.landing)):
            # (the next case is reached only through this one's tests:
            # ``x if b else (v := y)`` joins a store like a capture's
            # from another way)
            continue
        rest = match_cases(w, found.landing, outer_depth, pre, count + 1)
        if rest is not None:
            return [found] + rest
    return None


def emit_match(w, cases, frame, region, loop):
    subject = frame.pop_expr()
    ctx = w.ctx
    for case in cases:
        for op, name in case.stores:
            if op == "STORE_GLOBAL":
                ctx.declare_global(name)
            elif op == "STORE_DEREF":
                ctx.declare_nonlocal(ctx.deref_name(name))
    depth = len(frame.stack)
    out = []
    leaves = []
    depths = []  # the stack's depth after each case in ``leaves`` (None: unbalanced)
    unbalanced = []  # the cases that leave with another stack
    for case in cases:
        if case.body is None:  # never runs: no code
            out.append(ast.match_case(pattern=case.pattern, guard=case.guard, body=[ast.Pass()]))
            continue
        if case is cases[-1] and not case.copy and any(
                same_place(w, resolve(w, t), resolve(w, case.body)) for t in leaves):
            # the last case's body starts where the others end: it is empty
            # (``case v if g: pass``: both ways of the guard go there)
            out.append(ast.match_case(pattern=case.pattern, guard=case.guard, body=[ast.Pass()]))
            leaves.append(case.body)
            depths.append(depth)
            continue
        bf = frame.copy()
        bf.stmts = []
        ex = walk_from(w, case.body, bf, region, loop)
        if ex.kind == "leave" and len(bf.stack) > depth:
            # a value computed in the case (``return a / b`` in a try):
            # the statement using it lies past the protected range
            ex = w.walk(ex.target, bf, region, loop)
        elif ex.kind == "leave" and branch_returns_outside(w, 
                w.cfg.containing(case.body).start, past_finally_copies(w, ex.target)):
            # ``return <constant>`` in a try/finally: the return follows
            # the finally's inlined copy, outside the protected range
            ex = w.walk(ex.target, bf, lambda i: True, loop)
        if ex.kind == "leave":
            if len(bf.stack) != depth and not left_except_clause(ex, bf, frame):
                # (allowed when no other way leaves the match, see below)
                unbalanced.append(case.body)
                depths.append(None)
            else:
                depths.append(len(bf.stack))
            leaves.append(ex.target)
        out.append(ast.match_case(pattern=case.pattern, guard=case.guard,
                                  body=bf.stmts or [ast.Pass()]))
    left_depth = depth_after_cases(w, leaves, depths, depth, cases[0].body)
    end = None
    for t in leaves:
        t = resolve(w, t)
        if end is None:
            end = t
        elif not same_place(w, end, t):
            # (a case whose own copy of a finally body it walked ends
            # after the copy; the walk of the others stops before it)
            past = partial(past_any_finally_copy, w)
            if past(end) == end and past(t) == t or not same_place(w, past(end), past(t)):
                fail(w, "match cases end in different places", cases[0].body)
            if past(t) != t:
                end = t  # (the walk after the match runs the try's exit)
    last = resolve(w, cases[-1].landing)
    if unbalanced and (len(leaves) > 1 or last is not None and same_place(w, last, end)):
        # a case whose walk went on past the match's end, into code
        # (an enclosing with's exit) that only it reaches, is the one
        # way out of the match: it goes on there, like an if's branch
        # whose other branch never ends; with another way out, no
        fail(w, "match case leaves values on the stack", unbalanced[0])
    follow = end
    # the cases fall out of the except clause that the match ends
    dropped_exception = left_depth is not None and left_depth < depth
    if end is None:
        follow = last
    elif last is not None and same_place(w, last, end) and dropped_exception:
        # (no path out of the match without leaving the except clause)
        fail(w, "default case ends in an unexpected place", last)
    elif last is not None and not same_place(w, last, end):
        # the code between the last case and the end: ``case _``
        bf = frame.copy()
        bf.stmts = []
        blk = w.cfg.containing(last)
        after = reachable_from(w, end, blk)
        dom = dominated_by(w, blk)
        ex = walk_from(w, last, bf, lambda j: region(j) and dom(j) and j not in after, loop)
        dropped = left_except_clause(ex, bf, frame)
        if ex.kind == "leave" and (not same_place(w, resolve(w, ex.target), end) and not (
                dropped and same_copied_return(w, resolve(w, ex.target), end)) or (
                dropped or dropped_exception) and len(bf.stack) != left_depth):
            fail(w, "default case ends in an unexpected place", last)
        if ex.kind == "leave" and unbalanced:
            fail(w, "match case leaves values on the stack", unbalanced[0])
        if not (dropped and only_name_cleanup(bf.stmts, frame)):
            # (else no code of its own: that path only leaves the except
            # clause, through its own copy of the clause's exit)
            out.append(ast.match_case(pattern=ast.MatchAs(pattern=None, name=None), guard=None,
                                      body=bf.stmts or [ast.Pass()]))
    frame.emit(ast.Match(subject=subject, cases=out))
    if follow is None:
        return END
    if dropped_exception:
        # the match ends its except clause: each case left it on its own
        del frame.stack[left_depth:]
        return Exit("leave", follow)
    if not region(w.cfg.containing(follow).start if follow < w.n else follow):
        return w.transfer(follow, frame, region, loop)
    return follow


def walk_from(w, start, frame, region, loop):
    if start >= w.n:
        return Exit("leave", start)
    return walk_dominated(w, start, frame, region, loop)
