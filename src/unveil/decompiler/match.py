"""Structuring of ``match`` statements (3.10+).

A mixin of :class:`structure.Structurer`. Two entry points:
``match_op`` for the instructions in ``MATCH_OPS`` met by ``block()``, and
``match_branch``, asked first by ``branch()`` for every conditional jump
(return None to let the ordinary ``if`` structuring proceed).

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
import sys

from . import expressions as E
from . import values as V
from .errors import DecompilationError
from .regions import END, Exit, bool_op, chain_into, is_chain, negate, strip_name_cleanup

#: instructions that ``Structurer.block()`` hands to ``match_op`` (none before
#: 3.10, which has no match statement)
MATCH_OPS = frozenset() if sys.version_info < (3, 10) else frozenset({
    "COPY", "MATCH_SEQUENCE", "MATCH_MAPPING", "MATCH_CLASS", "MATCH_KEYS", "GET_LEN",
    "COPY_DICT_WITHOUT_KEYS"})

_STORES = ("STORE_FAST", "STORE_NAME", "STORE_GLOBAL", "STORE_DEREF")
_POP_JUMPS = ("POP_JUMP_IF_FALSE", "POP_JUMP_IF_TRUE", "POP_JUMP_IF_NONE", "POP_JUMP_IF_NOT_NONE")
_VALUE_OPS = ("LOAD_CONST", "LOAD_GLOBAL", "LOAD_NAME", "LOAD_FAST", "LOAD_DEREF",
              "LOAD_ATTR", "BUILD_TUPLE", "UNARY_NEGATIVE", "BINARY_OP", "LOAD_CLASSDEREF",
              "LOAD_FROM_DICT_OR_DEREF", "LOAD_FROM_DICT_OR_GLOBALS", "LOAD_LOCALS")


def _anywhere(i):
    """The region of a guard's operands: their own extent is found by
    dominance, as for any branch."""
    return True


def _conjunction(parts):
    """The guard whose conjuncts the walker could not merge itself: a
    chained comparison continued by the next test, else ``and``."""
    expr = parts[0]
    for p in parts[1:]:
        expr = chain_into(expr, p) or bool_op(ast.And, expr, p)
    return expr


def _live(stmts):
    return [st for st in stmts if not getattr(st, "_cancelled", False)]


class NoMatch(Exception):
    """The code at hand is not (this reading of) a match statement."""


class Slot:
    """A value being matched against a pattern."""

    def __init__(self):
        self.kind = None  # 'value', 'single', 'seq', 'map', 'cls'
        self.value = None
        self.length = None  # (op, n) of a length test
        self.elems = None  # sequence: slots from UNPACK_*
        self.star = None
        self.subs = {}  # sequence (by index) / mapping values / class attributes (3.10)
        self.parts = None  # mapping values / class attributes from UNPACK_SEQUENCE
        self.keys = None
        self.rest = None
        self.cls = None
        self.nargs = 0
        self.kwnames = ()
        self.alts = None  # or-pattern alternatives (slots)
        self.as_copy = None  # as-pattern: the copy the subpattern tests
        self.name = None
        self.popped = False

    def fresh(self):
        return (self.kind is None and self.alts is None and self.as_copy is None
                and self.name is None and not self.popped)


class Subject:
    """The case subject kept under the case's copy."""


class Test:
    def __init__(self, slot, kind, data=None):
        self.slot, self.kind, self.data = slot, kind, data


class Len:
    def __init__(self, slot):
        self.slot = slot


class Const:
    def __init__(self, value):
        self.value = value


class NegIdx:
    def __init__(self, slot, k):
        self.slot, self.k = slot, k


class Keys:
    def __init__(self, slot):
        self.slot = slot


class Parts:
    """Mapping values / class attributes extracted by MATCH_KEYS/MATCH_CLASS."""

    def __init__(self, slot):
        self.slot = slot


class Rest:
    def __init__(self, slot):
        self.slot = slot


class Joined:
    """The same capture made by every alternative of an or-pattern."""

    def __init__(self, items):
        self.items = items


class GuardTest:
    """What the walker returns at a test of the guard being read."""

    def __init__(self, block):
        self.block = block


class Poison(V.Marker):
    """A stack entry a guard must not touch."""


class OrCtx:
    def __init__(self, slot, depth):
        self.slot = slot
        self.depth = depth
        self.next = None


class Case:
    def __init__(self, pattern, guard, body, copy, landing, stores):
        self.pattern, self.guard, self.body = pattern, guard, body
        self.copy, self.landing, self.stores = copy, landing, stores


def _is_dotted(e):
    while isinstance(e, ast.Attribute):
        e = e.value
    return isinstance(e, ast.Name)


class CaseParser:
    """Reads one case's pattern, guard and body start."""

    def __init__(self, w, outer_depth):
        self.w = w
        self.instrs = w.instrs
        self.n = w.n
        self.ctx = w.ctx
        self.outer_depth = outer_depth
        self.landing = None
        self.ors = []
        self.stores = []  # (op, name) of the captures, for declarations

    # -------------------------------------------------------------- case
    def parse(self, i, copy, pre=None):
        self.copy = copy
        self.fail_depth = 1 if copy else 0
        top = Slot()
        st = [Subject(), top] if copy else [top]
        if copy:
            i += 1
        if pre is not None:
            cls, names = pre
            i = self.match_class(i, st, cls, names)
        i = self.run(i, st, None)
        guard = None
        if copy:
            if self.op(i) == "POP_TOP":
                body = i + 1
            elif self.op(i) != "POP_TOP" and self.goes_to_next_case(i):
                # a guard the compiler found always false (``if not 1``):
                # neither it nor the body is compiled
                guard, body = E.const(False), None
            else:
                guard, t = self.guard(i)
                if t is None:
                    body = None  # (a guard found always false: no body)
                else:
                    t = self.w.resolve(t)
                    if self.op(t) != "POP_TOP":
                        raise NoMatch
                    body = t + 1
        else:
            body = i
            if self.landing is not None:
                try:
                    guard, body = self.guard(i)
                except (NoMatch, DecompilationError):
                    guard, body = None, i
                if guard is not None and body is not None and self.body_test(i, body):
                    guard, body = None, i
        pattern = self.build(top)
        return Case(pattern, guard, body, copy, self.landing, self.stores)

    def op(self, i):
        return self.instrs[i].op if 0 <= i < self.n else None

    def body_test(self, i, body):
        """Whether the tests read as the guard of the last case (from ``i``,
        its body at ``body``) are the test of the body's first statement
        instead: an assert's own test (the line of its error tells, see
        instructions._mark_asserts_on_own_line; a guard would still run under
        ``python -O``), or tests that jump past the body's start, a lone jump,
        into the code it goes to and not to the next case (``assert a and not
        b``: ``a`` false goes straight to the raise that ``not b`` false
        reaches through a jump)."""
        t = self.w.resolve(body)
        if self.op(t) == "LOAD_ASSERTION_ERROR" and self.instrs[t].arg is None:
            return True
        if self.op(body) != "JUMP" or not any(ins.target == t for ins in self.instrs[i:body]):
            return False
        landing = self.landing
        try:
            self.fail_jump(t, self.fail_depth)
        except NoMatch:
            return True
        finally:
            self.landing = landing
        return False

    def guard(self, i):
        """The guard starting at ``i`` (the case's pattern matched and only
        the subject is left): its expression and where its true path goes.
        The guard's code is run by the walker like any expression (and/or
        as values, conditional expressions, comprehensions, awaits); the
        walker stops at each test of the guard's own frame. Each test that
        goes to the next case one way is a conjunct of the guard (merged
        by the walker where it can); the guard ends where the subject is
        dropped (a case that copied it) or where no more of it can be read
        (the last case)."""
        w = self.w
        base = [Poison() for _ in range(self.outer_depth + (1 if self.copy else 0))]
        f = E.Frame(self.ctx, base)
        k = i
        parts = []
        alts = []  # (test, body start): ``a or ...`` whose a goes to the body
        found = None  # (guard, true target) read so far, for the last case
        outer = w.guard_frame
        # a guard read too far walks on into the case's body, met again when the body is walked
        saved = w.trial_state()
        try:
            for _ in range(64):
                w.guard_frame = f
                r = w.block(w.cfg.containing(k), f, _anywhere, None, start=k)
                w.guard_frame = outer
                if not isinstance(r, GuardTest):
                    k = r  # (a short circuit's or a jump's target)
                    if _live(f.stmts) or f.pending:
                        raise NoMatch  # (statements: the case's body, not its guard)
                else:
                    c = w.condition(r.block, f)
                    if _live(f.stmts) or f.pending:
                        raise NoMatch  # (a walrus in the test is no statement once tested)
                    conjunct = self.guard_conjunct(c, base) or self.ifexp_conjunct(c, base)
                    alt = None if conjunct is not None or parts else self.guard_alternative(c, base)
                    if alt is not None:
                        expr, body, k = alt
                        alts.append((expr, body))
                        f = c.frame
                    elif conjunct is None:
                        k = self.guard_operand(c, f)
                    else:
                        expr, k = conjunct
                        parts.append(expr)
                        f = c.frame
                        if len(f.stack) == len(base) and not _live(f.stmts):
                            found = (_conjunction(parts), k)
                            if self.copy and not alts and self.goes_to_next_case(k):
                                # the last conjunct is a constant the compiler found
                                # false (``g and not 1``): its jump to the next case
                                # replaces the test, and the body is not compiled
                                return _conjunction(parts + [E.const(False)]), None
                            if self.copy and self.op(w.resolve(k)) == "POP_TOP":
                                if any(not w.same_place(b, k) for _, b in alts):
                                    raise NoMatch
                                if alts:
                                    expr = found[0]
                                    for a, _ in reversed(alts):
                                        expr = bool_op(ast.Or, a, expr)
                                    found = (expr, k)
                                return found
                if not isinstance(k, int) or not self.guard_stack_holds(f, base):
                    raise NoMatch
        except (NoMatch, DecompilationError):
            w.restore_trial_state(saved)
            if found is None or self.copy:
                raise
            return found
        finally:
            w.guard_frame = outer
        w.restore_trial_state(saved)
        if found is None or self.copy:
            raise NoMatch
        return found

    @staticmethod
    def guard_stack_holds(f, base):
        """The values of the match statement (and of the code around it)
        are still there, untouched, below the guard's own."""
        return len(f.stack) >= len(base) and all(a is b for a, b in zip(f.stack, base))

    def guard_conjunct(self, c, base):
        """When condition ``c`` (``base``: the values of the statement on
        the stack) is a conjunct of the guard, i.e. one of its ways goes to
        the next case: (the test, where it goes when it holds); else None."""
        if not self.guard_stack_holds(c.frame, base) or len(c.frame.stack) > len(base) + 1:
            return None
        # a target that only pops and jumps (the subject's POP_TOP before an
        # empty body's jump to the end) is a ("pop", ...) trampoline: the
        # case reads the pop itself
        if isinstance(c.true, int) and isinstance(c.false, int) and (
                c.true == c.false or self.w.resolve(c.true) == self.w.resolve(c.false)):
            # both ways go on: a test the compiler found always true once
            # its operand was tested (``x or 1``), which ``x or True`` keeps
            # (a chained comparison's false way jumps over its cleanup)
            return ast.BoolOp(op=ast.Or(), values=[c.expr, E.const(True)]), c.true
        if self.fails_to_next_case(c.false, c.frame, base):
            return c.expr, c.true[2] if isinstance(c.true, tuple) else c.true
        if self.fails_to_next_case(c.true, c.frame, base):
            return negate(c.expr), self.past_chain_cleanup(c)
        return None

    def guard_alternative(self, c, base):
        """``a or ...`` at the start of a guard of a case that copied the
        subject: one way of ``a`` drops the subject (the body), the other
        goes on with the guard. (The test, the body's start, where the
        guard goes on) or None; the guard's end checks the body's start."""
        if not self.copy or len(c.frame.stack) != len(base) or not self.guard_stack_holds(c.frame, base):
            return None
        ways = [x[2] if isinstance(x, tuple) else x for x in (c.true, c.false)]
        if isinstance(c.false, tuple) or not all(isinstance(x, int) for x in ways):
            return None
        t, fl = ways
        if self.op(self.w.resolve(t)) == "POP_TOP" and self.op(self.w.resolve(fl)) != "POP_TOP":
            return c.expr, t, fl
        return None

    def ifexp_conjunct(self, c, base):
        """``a if c else b`` as a conjunct of the guard, each branch a test
        that goes to the next case one way: the compiler copies a small
        body that ends the function (``return y``) to each branch's true
        path. (The conjunct, where it holds) or None."""
        w = self.w
        if isinstance(c.true, tuple) or isinstance(c.false, tuple):
            return None
        a = w.pure_condition(c.true, c.frame, c.blocks)
        b = w.pure_condition(c.false, c.frame, c.blocks) if a is not None else None
        if b is None:
            return None
        ta, tb = self.guard_conjunct(a, base), self.guard_conjunct(b, base)
        if ta is None or tb is None or not self.guard_stack_holds(a.frame, base) \
                or len(a.frame.stack) != len(base) or len(b.frame.stack) != len(base):
            return None
        if not (w.same_place(ta[1], tb[1]) or self.tail(ta[1]) is not None
                and self.tail(ta[1]) == self.tail(tb[1])):
            return None
        c.frame = a.frame
        return ast.IfExp(test=c.expr, body=ta[0], orelse=tb[0]), ta[1]

    def past_chain_cleanup(self, c):
        """Where a false condition ``c`` goes on. The false path of a
        chained comparison's first link drops the operand it kept first
        (the other links jump past that ``POP_TOP``): the guard ``not (a <
        b < c)`` holds past it."""
        x = c.false
        if not is_chain(c.expr):
            return x[2] if isinstance(x, tuple) else x
        if isinstance(x, tuple):
            return x[1]
        if self.copy:
            # (with the subject below, a cleanup reached from one link only
            # is a ("pop", ...) trampoline: ``x`` is the last link's way on)
            return x
        b = self.w.cfg.at(x)
        if b is not None and b.end - b.start == 1 and self.instrs[b.start].op == "JUMP":
            return self.instrs[b.start].target  # the last link's jump over the cleanup
        if b is None or self.instrs[b.start].op != "POP_TOP" or b.end - b.start > 2:
            raise NoMatch
        if b.end - b.start == 1:
            return b.end
        if self.instrs[b.start + 1].op != "JUMP":
            raise NoMatch
        return self.instrs[b.start + 1].target

    def fails_to_next_case(self, target, frame, base):
        """Whether a test's jump to ``target`` with ``frame``'s stack goes
        to the next case."""
        if isinstance(target, tuple):
            # a chained comparison's false path first drops the operand it
            # kept: ("pop", where it goes, the cleanup)
            target, depth = target[2], len(base) + 1
        else:
            depth = len(frame.stack)
        landing = self.landing
        try:
            self.fail_jump(target, depth - self.outer_depth)
        except NoMatch:
            self.landing = landing
            return False
        return True

    def guard_operand(self, c, f):
        """``x if c else y`` as an operand of the guard: the walker's
        ``if`` structuring turns the diamond into a conditional expression
        on ``f``'s stack; the index where the guard's code goes on."""
        w = self.w
        f.stack[:] = c.frame.stack
        before = len(f.stack)
        k = w.if_(c, f, _anywhere, None)
        if not isinstance(k, int) or len(f.stack) != before + 1 or _live(f.stmts) \
                or not isinstance(f.stack[-1], ast.IfExp):
            raise NoMatch
        return k

    def goes_to_next_case(self, i):
        """Whether the jump at ``i`` (taken once the pattern matched) goes
        straight to the next case."""
        if self.op(i) != "JUMP":
            # (3.12+ copies a next case that ends the function, like
            # ``case v: return v``, to each path that jumps to it)
            return self.landing is not None and self.tail(i) is not None and self.same_landing(self.landing, i)
        landing = self.landing
        try:
            self.fail_jump(i, self.fail_depth)
        except NoMatch:
            self.landing = landing
            return False
        return True

    # ----------------------------------------------------------- failing
    def fail_jump(self, t, depth):
        """A jump taken when a test fails, with ``depth`` values of the case
        on the stack: it must reach the next case (or alternative)."""
        j = t
        hops = 0
        while j < self.n:
            op = self.instrs[j].op
            if op == "JUMP":
                hops += 1
                if hops > 20:
                    raise NoMatch
                j = self.instrs[j].target
                continue
            if op == "POP_TOP" and depth > self.fail_depth:
                depth -= 1
                j += 1
                continue
            break
        if depth == self.fail_depth:
            if depth > 0 and self.op(j) == "POP_TOP":
                raise NoMatch
            if self.landing is None:
                self.landing = j
            elif not self.same_landing(self.landing, j):
                raise NoMatch
            return
        for ctx in self.ors:
            if ctx.depth == depth:
                ins = self.instrs[j] if j < self.n else None
                if ins is None or ins.op != "COPY" or ins.arg != 1:
                    raise NoMatch
                if ctx.next is None:
                    ctx.next = j
                elif ctx.next != j:
                    raise NoMatch
                return
        raise NoMatch

    def same_landing(self, a, b):
        """Whether failing tests that reach ``a`` and ``b`` go to the same
        next case: the same place, or two copies of a small tail that ends
        the function (3.12+ copies a ``case _`` body like ``return x`` to
        each failure path of the case before it)."""
        return self.w.same_place(a, b) or (self.tail(a) is not None and self.tail(a) == self.tail(b))

    # ---------------------------------------------------------- patterns
    def run(self, i, st, orctx):
        """Execute pattern code from ``i``; at case level until only the
        subject is left, in an or-alternative until its end. Returns the
        index reached (and how, for alternatives)."""
        instrs = self.instrs
        while True:
            if orctx is None:
                if (self.copy and len(st) == 1) or (not self.copy and not st):
                    if self.copy and not isinstance(st[0], Subject):
                        raise NoMatch
                    return i
            else:
                if len(st) < orctx.depth or st[orctx.depth - 1] is not orctx.slot:
                    raise NoMatch
            if i >= self.n:
                raise NoMatch
            ins = instrs[i]
            op = ins.op
            if orctx is not None:
                if op == "JUMP":
                    return i, "jump"
                if op == "POP_TOP" and st[-1] is orctx.slot:
                    return i, "inline"
            if not st:
                raise NoMatch
            top = st[-1]
            if op == "COPY":
                if ins.arg != 1:
                    raise NoMatch
                if isinstance(top, Slot) and top.fresh():
                    i = self.copy_pattern(i, st)
                    continue
                if isinstance(top, Slot) and top.kind == "seq" or isinstance(top, Parts):
                    st.append(top)
                    i += 1
                    continue
                raise NoMatch
            if op in ("SWAP", "ROT"):
                n = ins.arg
                if n > len(st) or n < 2:
                    raise NoMatch
                if op == "SWAP":
                    st[-1], st[-n] = st[-n], st[-1]
                else:
                    x = st.pop()
                    st.insert(len(st) - (n - 1), x)
                i += 1
                continue
            if op == "POP_TOP":
                x = st.pop()
                if isinstance(x, Slot):
                    if x.popped or x.name is not None or x.as_copy is not None:
                        raise NoMatch
                    if x.kind in ("value", "single"):
                        raise NoMatch
                    x.popped = True
                elif not isinstance(x, (Keys, Parts)):
                    raise NoMatch
                i += 1
                continue
            if op in _STORES:
                x = st.pop()
                if orctx is not None:
                    raise NoMatch
                self.bind(x, ins.arg)
                self.stores.append((op, ins.arg))
                i += 1
                continue
            if op in ("MATCH_SEQUENCE", "MATCH_MAPPING"):
                if not (isinstance(top, Slot) and top.fresh()):
                    raise NoMatch
                st.append(Test(top, "seq" if op == "MATCH_SEQUENCE" else "map"))
                i += 1
                continue
            if op == "GET_LEN":
                if not isinstance(top, Slot):
                    raise NoMatch
                st.append(Len(top))
                i += 1
                continue
            if op == "LOAD_CONST" and isinstance(top, Len):
                st.append(Const(ins.arg))
                i += 1
                continue
            if (op == "LOAD_CONST" and type(ins.arg) is int and self.op(i + 1) == "BINARY_SUBSCR"
                    and (isinstance(top, Slot) and top.kind == "seq" or isinstance(top, Parts))):
                st.append(Const(ins.arg))
                i += 1
                continue
            if op in _VALUE_OPS and isinstance(top, Slot) and (top.fresh() or top.kind == "map"):
                i = self.values(i, st)
                continue
            if op == "COMPARE_OP":
                if len(st) < 2 or not isinstance(top, Const) or not isinstance(st[-2], Len):
                    raise NoMatch
                if ins.arg not in ("==", ">=") or type(top.value) is not int:
                    raise NoMatch
                ln = st[-2]
                del st[-2:]
                st.append(Test(ln.slot, "len", (ins.arg, top.value)))
                i += 1
                continue
            if op == "BINARY_OP":
                if ins.arg != "-" or len(st) < 2 or not isinstance(top, Const) or not isinstance(st[-2], Len):
                    raise NoMatch
                ln = st[-2]
                del st[-2:]
                st.append(NegIdx(ln.slot, top.value))
                i += 1
                continue
            if op == "BINARY_SUBSCR":
                if len(st) < 2:
                    raise NoMatch
                holder, idx = st[-2], top
                if isinstance(idx, NegIdx) and isinstance(holder, Slot) and idx.slot is holder:
                    key = -idx.k
                elif isinstance(idx, Const) and type(idx.value) is int:
                    key = idx.value
                else:
                    raise NoMatch
                if isinstance(holder, Slot) and holder.kind == "seq":
                    owner = holder
                elif isinstance(holder, Parts) and key >= 0:
                    owner = holder.slot
                else:
                    raise NoMatch
                if key in owner.subs:
                    raise NoMatch
                e = Slot()
                owner.subs[key] = e
                del st[-2:]
                st.append(e)
                i += 1
                continue
            if op in _POP_JUMPS:
                st.pop()
                if op == "POP_JUMP_IF_FALSE" and isinstance(top, Test):
                    self.apply(top)
                elif op == "POP_JUMP_IF_NONE" and isinstance(top, Parts):
                    pass
                elif op == "POP_JUMP_IF_NOT_NONE" and isinstance(top, Slot) and top.fresh():
                    top.kind, top.value = "single", None
                else:
                    raise NoMatch
                self.fail_jump(ins.target, len(st))
                i += 1
                continue
            if op == "UNPACK_SEQUENCE":
                st.pop()
                n = ins.arg
                if isinstance(top, Slot) and top.kind == "seq" and top.elems is None and not top.subs:
                    top.elems = [Slot() for _ in range(n)]
                    st.extend(reversed(top.elems))
                elif isinstance(top, Parts) and top.slot.parts is None and not top.slot.subs:
                    top.slot.parts = [Slot() for _ in range(n)]
                    st.extend(reversed(top.slot.parts))
                else:
                    raise NoMatch
                i += 1
                continue
            if op == "UNPACK_EX":
                st.pop()
                if not (isinstance(top, Slot) and top.kind == "seq" and top.elems is None and not top.subs):
                    raise NoMatch
                before, after = ins.arg & 0xFF, ins.arg >> 8
                top.elems = [Slot() for _ in range(before + after + 1)]
                top.star = before
                st.extend(reversed(top.elems))
                i += 1
                continue
            if op == "COPY_DICT_WITHOUT_KEYS":
                if not (isinstance(top, Keys) and len(st) >= 2 and st[-2] is top.slot):
                    raise NoMatch
                st[-1] = Rest(top.slot)
                i += 1
                continue
            if op == "BUILD_MAP" and ins.arg == 0:
                i = self.rest_idiom(i, st)
                continue
            raise NoMatch

    def apply(self, t):
        s = t.slot
        if t.kind in ("seq", "map"):
            s.kind = t.kind
        elif t.kind == "len":
            if s.length is not None or s.kind not in ("seq", "map"):
                raise NoMatch
            s.length = t.data
        elif t.kind in ("value", "single"):
            s.kind, s.value = t.kind, t.data
        elif t.kind != "noop":
            raise NoMatch

    def bind(self, x, name):
        if isinstance(x, Slot):
            if x.name is not None or x.popped or x.kind is not None or x.alts is not None:
                raise NoMatch
            x.name = name
        elif isinstance(x, Joined):
            for y in x.items:
                self.bind(y, name)
        elif isinstance(x, Rest):
            if x.slot.rest is not None:
                raise NoMatch
            x.slot.rest = name
        else:
            raise NoMatch

    def values(self, i, st):
        """A value pattern, a class pattern's class and attribute names, or a
        mapping pattern's keys: evaluated up to the instruction using them."""
        top = st[-1]
        f = E.Frame(self.ctx)
        j = i
        while j < self.n and self.instrs[j].op in _VALUE_OPS:
            try:
                E.execute(f, self.instrs[j])
            except DecompilationError:
                raise NoMatch
            j += 1
        ins = self.instrs[j] if j < self.n else None
        if ins is None or not all(isinstance(v, ast.expr) for v in f.stack):
            raise NoMatch
        if top.kind == "map":
            if ins.op != "MATCH_KEYS" or len(f.stack) != 1 or top.keys is not None:
                raise NoMatch
            k = f.stack[0]
            if isinstance(k, ast.Constant) and isinstance(k.value, tuple):
                keys = [ast.Constant(value=v) for v in k.value]
            elif isinstance(k, ast.Tuple):
                keys = list(k.elts)
            else:
                raise NoMatch
            for key in keys:
                if not (isinstance(key, ast.Constant) or _is_dotted(key) and isinstance(key, ast.Attribute)):
                    raise NoMatch
            top.keys = keys
            st.append(Keys(top))
            st.append(Parts(top))
            if self.op(j + 1) == "POP_JUMP_IF_FALSE":
                st.append(Test(top, "noop"))
            return j + 1
        if ins.op == "MATCH_CLASS":
            if len(f.stack) != 2:
                raise NoMatch
            return self.match_class(j, st, f.stack[0], f.stack[1])
        if len(f.stack) != 1:
            raise NoMatch
        v = f.stack[0]
        if ins.op == "COMPARE_OP" and ins.arg == "==":
            ok = (isinstance(v, ast.Constant) and type(v.value) in (int, float, complex, str, bytes)
                  or isinstance(v, ast.Attribute) and _is_dotted(v))
            if not ok:
                raise NoMatch
            st.pop()
            st.append(Test(top, "value", v))
            return j + 1
        if ins.op == "IS_OP" and ins.arg == 0:
            if not (isinstance(v, ast.Constant) and v.value in (None, True, False)
                    and type(v.value) in (bool, type(None))):
                raise NoMatch
            st.pop()
            st.append(Test(top, "single", v.value))
            return j + 1
        raise NoMatch

    def match_class(self, j, st, cls, names):
        """MATCH_CLASS at ``j`` with its class and attribute names known."""
        ins = self.instrs[j]
        if ins.op != "MATCH_CLASS":
            raise NoMatch
        top = st[-1]
        if not (isinstance(top, Slot) and top.fresh()):
            raise NoMatch
        if not _is_dotted(cls):
            raise NoMatch
        if not (isinstance(names, ast.Constant) and isinstance(names.value, tuple)
                and all(isinstance(x, str) for x in names.value)):
            raise NoMatch
        top.kind = "cls"
        top.cls = cls
        top.nargs = ins.arg
        top.kwnames = names.value
        st.pop()
        st.append(Parts(top))
        if self.op(j + 1) == "POP_JUMP_IF_FALSE":
            st.append(Test(top, "noop"))
        return j + 1

    def rest_idiom(self, i, st):
        """3.11+: ``**rest`` copies the mapping and deletes the keys."""
        if len(st) < 2 or not isinstance(st[-1], Keys) or st[-2] is not st[-1].slot:
            raise NoMatch
        s = st[-1].slot
        size = len(s.keys)
        want = [("BUILD_MAP", 0), ("SWAP", 3), ("DICT_UPDATE", 2), ("UNPACK_SEQUENCE", size)]
        for k in range(size, 0, -1):
            want += [("COPY", 1 + k), ("SWAP", 2), ("DELETE_SUBSCR", None)]
        for k, (op, arg) in enumerate(want):
            ins = self.instrs[i + k] if i + k < self.n else None
            if ins is None or ins.op != op or (arg is not None and ins.arg != arg):
                raise NoMatch
        del st[-2:]
        st.append(Rest(s))
        return i + len(want)

    def copy_pattern(self, c, st):
        """``COPY 1`` of a value still to be matched: an or-pattern's first
        alternative or an as-pattern's subpattern."""
        landing = self.landing
        stores = list(self.stores)
        saved = list(st)
        try:
            return self.or_pattern(c, st)
        except NoMatch:
            self.landing = landing
            self.stores = stores
            st[:] = saved
        s = st[-1]
        s.as_copy = Slot()
        st.append(s.as_copy)
        return c + 1

    def or_pattern(self, c, st):
        s = st[-1]
        d = len(st)
        ctx = OrCtx(s, d)
        self.ors.append(ctx)
        try:
            alts, ends = [], []
            start = c
            while True:
                ins = self.instrs[start]
                if ins.op != "COPY" or ins.arg != 1 or len(alts) > 64:
                    raise NoMatch
                a = Slot()
                sub = list(st) + [a]
                ctx.next = None
                j, how = self.run(start + 1, sub, ctx)
                alts.append(a)
                ends.append((j, how, sub[d:]))
                if ctx.next is None:
                    break
                start = ctx.next
        finally:
            self.ors.pop()
        if len(alts) < 2:
            raise NoMatch
        hows = {e[1] for e in ends}
        if len(hows) != 1:
            raise NoMatch
        how = hows.pop()
        width = len(ends[0][2])
        if any(len(e[2]) != width for e in ends):
            raise NoMatch
        if how == "jump":
            targets = {self.instrs[e[0]].target for e in ends}
            if len(targets) != 1:
                raise NoMatch
            nxt = targets.pop()
        else:
            if width:
                raise NoMatch
            tails = [self.tail(e[0]) for e in ends]
            if any(t != tails[0] for t in tails) or tails[0] is None:
                raise NoMatch
            nxt = ends[0][0]
        joined = [Joined([e[2][k] for e in ends]) for k in range(width)]
        s.alts = alts
        st[:] = st[:d] + joined
        return nxt

    def tail(self, j):
        """The straight-line code from ``j`` to a return/raise (copied by the
        compiler into every alternative), as (op, arg) pairs."""
        out = []
        while j < self.n and len(out) < 8:
            ins = self.instrs[j]
            if ins.target is not None:
                return None
            out.append((ins.op, repr(ins.arg)))
            if ins.op in ("RETURN_VALUE", "RAISE_VARARGS", "RERAISE"):
                return out
            j += 1
        return None

    # ------------------------------------------------------------ build
    def build(self, s):
        p = None
        if s.alts is not None:
            if s.kind is not None or s.as_copy is not None or s.name is not None:
                raise NoMatch
            pats = []
            for a in s.alts:
                x = self.build(a)
                pats.extend(x.patterns if isinstance(x, ast.MatchOr) else [x])
            return ast.MatchOr(patterns=pats)
        if s.as_copy is not None:
            if s.kind is not None or s.name is None:
                raise NoMatch
            p = self.build(s.as_copy)
            if isinstance(p, ast.MatchAs) and p.pattern is None:
                raise NoMatch
        elif s.kind == "value":
            p = ast.MatchValue(value=s.value)
        elif s.kind == "single":
            p = ast.MatchSingleton(value=s.value)
        elif s.kind == "seq":
            p = self.build_seq(s)
        elif s.kind == "map":
            p = self.build_map(s)
        elif s.kind == "cls":
            p = self.build_cls(s)
        elif s.kind is not None:
            raise NoMatch
        if p is None:
            if s.name is None and not s.popped:
                raise NoMatch
            return ast.MatchAs(pattern=None, name=s.name)
        if s.name is not None:
            if s.kind is not None:
                raise NoMatch
            return ast.MatchAs(pattern=p, name=s.name)
        return p

    def wild(self):
        return ast.MatchAs(pattern=None, name=None)

    def star(self, e):
        if not e.fresh() and not (e.name is not None or e.popped) or e.kind is not None \
                or e.alts is not None or e.as_copy is not None:
            raise NoMatch
        if e.name is None and not e.popped:
            raise NoMatch
        return ast.MatchStar(name=e.name)

    def build_seq(self, s):
        if s.elems is not None:
            n = len(s.elems)
            if s.star is None:
                if s.length != ("==", n):
                    raise NoMatch
            elif s.length != (">=", n - 1) and not (n == 1 and s.length is None):
                raise NoMatch
            pats = [self.star(e) if k == s.star else self.build(e) for k, e in enumerate(s.elems)]
            return ast.MatchSequence(patterns=pats)
        if s.length is None:
            if s.subs:
                raise NoMatch
            return ast.MatchSequence(patterns=[ast.MatchStar(name=None)])
        op, n = s.length
        if op == "==":
            if s.subs:
                raise NoMatch
            return ast.MatchSequence(patterns=[self.wild() for _ in range(n)])
        size = n + 1
        pos = [k for k in s.subs if k >= 0]
        neg = [-k for k in s.subs if k < 0]
        star = max(pos) + 1 if pos else 0
        if neg and size - max(neg) <= star or any(k >= size - 1 + 1 for k in pos) \
                or any(k > size - 1 for k in neg):
            raise NoMatch
        pats = []
        for j in range(size):
            if j == star:
                pats.append(ast.MatchStar(name=None))
            elif j < star:
                pats.append(self.build(s.subs[j]) if j in s.subs else self.wild())
            else:
                k = -(size - j)
                pats.append(self.build(s.subs[k]) if k in s.subs else self.wild())
        return ast.MatchSequence(patterns=pats)

    def parts_of(self, s, count):
        if s.parts is not None:
            if len(s.parts) != count or s.subs:
                raise NoMatch
            return [self.build(p) for p in s.parts]
        if any(k < 0 or k >= count for k in s.subs):
            raise NoMatch
        return [self.build(s.subs[k]) if k in s.subs else self.wild() for k in range(count)]

    def build_map(self, s):
        keys = s.keys or []
        if s.keys is None:
            if s.rest is not None or s.length is not None or s.subs or s.parts:
                raise NoMatch
            return ast.MatchMapping(keys=[], patterns=[], rest=None)
        if keys and s.length != (">=", len(keys)) or not keys and s.length is not None:
            raise NoMatch
        pats = self.parts_of(s, len(keys))
        return ast.MatchMapping(keys=keys, patterns=pats, rest=s.rest)

    def build_cls(self, s):
        count = s.nargs + len(s.kwnames)
        pats = self.parts_of(s, count)
        return ast.MatchClass(cls=s.cls, patterns=pats[:s.nargs], kwd_attrs=list(s.kwnames),
                              kwd_patterns=pats[s.nargs:])


def only_name_cleanup(stmts, frame):
    """Whether ``stmts`` are nothing, or only the cleanup of the name of
    an except clause around (``e = None; del e``)."""
    names = getattr(frame, "clause_names", ())
    return all(isinstance(s, (ast.Assign, ast.Delete)) for s in stmts) and any(
        not strip_name_cleanup(list(stmts), name) for name in names) or not stmts


#: (values popped, values pushed) of the steps besides plain expression steps
#: that copy_then_consumed goes over
_STEPS = {"STORE_FAST": (1, 0), "STORE_NAME": (1, 0), "STORE_GLOBAL": (1, 0), "STORE_DEREF": (1, 0),
          "POP_TOP": (1, 0), "STORE_ATTR": (2, 0), "STORE_SUBSCR": (3, 0), "GET_ITER": (1, 1)}


class MatchStatements:
    def match_op(self, ins, frame, region, loop):
        if ins.op == "COPY":
            r = None
            if ins.arg == 1 and frame.stack and not self.copy_then_consumed(ins.index):
                r = self.match_statement(ins.index, frame, region, loop, None)
            if r is not None:
                return r
            E.execute(frame, ins)
            return self.block(self.cfg.containing(ins.index), frame, region, loop, start=ins.index + 1)
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
                    r = self.match_statement(ins.index, probe, region, loop, pre)
                    if r is not None:
                        frame.stack[:] = probe.stack
                        frame.stmts.extend(probe.stmts)
                        return r
                else:
                    r = self.match_statement(ins.index, frame, region, loop, None)
                    if r is not None:
                        return r
        self.fail("unrecognised match statement", ins.index)

    def copy_then_consumed(self, c):
        """Whether the value copied by the ``COPY 1`` at ``c`` is stored and
        then the value below it (a match statement's subject) is consumed by
        plain expression steps before any jump: ``x = y = v`` or a walrus,
        never the first case of a match (a case keeps its subject for the
        next until its first test). Reading a case there is a costly trial
        that fails; Dynamo's code has dozens of these.

        Also when a statement ends before any jump: a store that is not a
        walrus's, or a POP_TOP. The case would be ``case name if guard:``,
        and up to its first test a guard is an expression (Dynamo's
        attribute-store replay keeps the subject below a long run of
        statements, then loops: LLaMA's code)."""
        from .instructions import pops_pushes
        k = c + 1
        if k >= self.n or not self.instrs[k].op.startswith("STORE_") or self.instrs[k].op in (
                "STORE_ATTR", "STORE_SUBSCR", "STORE_SLICE"):
            return False
        depth = 0  # values above the subject
        walrus = False  # the step before was a copy above the subject
        for ins in self.instrs[k + 1:k + 256]:
            pp = _STEPS.get(ins.op) or pops_pushes(ins)
            if ins.op == "COPY" and isinstance(ins.arg, int) and ins.arg <= depth:
                pp = (ins.arg, ins.arg + 1)  # (a copy above the subject: a walrus)
            elif pp is None or ins.op in ("COPY", "SWAP"):
                return False
            if pp[0] > depth:
                return True
            if ins.op == "POP_TOP" or ins.op in _STEPS and ins.op.startswith("STORE_") and not walrus:
                return True  # a statement ended: no guard
            walrus = ins.op == "COPY"
            depth += pp[1] - pp[0]
        return False

    #: the frame of the guard being read (CaseParser.guard): the walker
    #: hands its tests back instead of making statements of them
    guard_frame = None

    def match_branch(self, block, frame, region, loop):
        if frame is self.guard_frame and self.instrs[block.end - 1].op in _POP_JUMPS:
            return GuardTest(block)
        return None

    # ------------------------------------------------------------------
    def match_statement(self, c, frame, region, loop, pre):
        """The match statement whose subject is on top of ``frame`` and
        whose first case starts at ``c``; the index after it (or an Exit),
        or None when the code there is no match statement."""
        subj = frame.stack[-1]
        if not (isinstance(subj, ast.expr) or isinstance(subj, V.Stored)):
            return None
        if c in self.matches_being_read:
            # a guard's operand walked on (``continue`` in a case body)
            # back into its own match statement: reading it again from
            # there would nest without end
            self.fail("match statement met again while reading its own cases", c)
        # (self.matches_being_read: the first case of each match statement
        # whose cases are being read)
        outer_depth = len(frame.stack) - 1
        self.matches_being_read.add(c)
        try:
            cases = self.match_cases(c, outer_depth, pre, 0)
        finally:
            self.matches_being_read.discard(c)
        if cases is None:
            return None
        if len(cases) == 1:
            p = cases[0].pattern
            if isinstance(p, (ast.MatchAs, ast.MatchValue, ast.MatchSingleton)) and (
                    not isinstance(p, ast.MatchAs) or p.pattern is None):
                return None  # the same code as an assignment or an if
        return self.emit_match(cases, frame, region, loop)

    def match_cases(self, i, outer_depth, pre, count):
        """The cases from ``i`` on (the last one has no copy of the
        subject), or None. A case read as keeping the subject must be
        followed by more cases; when they cannot be read, the case is read
        again as the last one."""
        if count > 200 or i is None or i >= self.n:
            return None
        ins = self.instrs[i]
        choices = (True, False) if (ins.op == "COPY" and ins.arg == 1
                                    and not (count == 0 and pre is not None)) else (False,)
        for copy in choices:
            try:
                found = CaseParser(self, outer_depth).parse(i, copy, pre if count == 0 else None)
            except (NoMatch, DecompilationError):
                continue
            if not copy:
                return [found]
            if found.landing is None or not self.cfg.dominates(
                    self.cfg.containing(i), self.cfg.containing(found.landing)):
                # (the next case is reached only through this one's tests:
                # ``x if b else (v := y)`` joins a store like a capture's
                # from another way)
                continue
            rest = self.match_cases(found.landing, outer_depth, pre, count + 1)
            if rest is not None:
                return [found] + rest
        return None

    def resolve(self, t):
        hops = 0
        while t is not None and t < self.n and self.instrs[t].op == "JUMP" and hops < 20:
            t = self.instrs[t].target
            hops += 1
        return t

    def emit_match(self, cases, frame, region, loop):
        subject = frame.pop_expr()
        ctx = self.ctx
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
                    self.same_place(self.resolve(t), self.resolve(case.body)) for t in leaves):
                # the last case's body starts where the others end: it is empty
                # (``case v if g: pass``: both ways of the guard go there)
                out.append(ast.match_case(pattern=case.pattern, guard=case.guard, body=[ast.Pass()]))
                leaves.append(case.body)
                depths.append(depth)
                continue
            bf = frame.copy()
            bf.stmts = []
            ex = self.walk_from(case.body, bf, region, loop)
            if ex.kind == "leave" and len(bf.stack) > depth:
                # a value computed in the case (``return a / b`` in a try):
                # the statement using it lies past the protected range
                ex = self.walk(ex.target, bf, region, loop)
            elif ex.kind == "leave" and self.branch_returns_outside(
                    self.cfg.containing(case.body).start, self.past_finally_copies(ex.target)):
                # ``return <constant>`` in a try/finally: the return follows
                # the finally's inlined copy, outside the protected range
                ex = self.walk(ex.target, bf, lambda i: True, loop)
            if ex.kind == "leave":
                if len(bf.stack) != depth and not self.left_except_clause(ex, bf, frame):
                    # (allowed when no other way leaves the match, see below)
                    unbalanced.append(case.body)
                    depths.append(None)
                else:
                    depths.append(len(bf.stack))
                leaves.append(ex.target)
            out.append(ast.match_case(pattern=case.pattern, guard=case.guard,
                                      body=bf.stmts or [ast.Pass()]))
        left_depth = self.depth_after_cases(leaves, depths, depth, cases[0].body)
        end = None
        for t in leaves:
            t = self.resolve(t)
            if end is None:
                end = t
            elif not self.same_place(end, t):
                # (a case whose own copy of a finally body it walked ends
                # after the copy; the walk of the others stops before it)
                past = self.past_any_finally_copy
                if past(end) == end and past(t) == t or not self.same_place(past(end), past(t)):
                    self.fail("match cases end in different places", cases[0].body)
                if past(t) != t:
                    end = t  # (the walk after the match runs the try's exit)
        last = self.resolve(cases[-1].landing)
        if unbalanced and (len(leaves) > 1 or last is not None and self.same_place(last, end)):
            # a case whose walk went on past the match's end, into code
            # (an enclosing with's exit) that only it reaches, is the one
            # way out of the match: it goes on there, like an if's branch
            # whose other branch never ends; with another way out, no
            self.fail("match case leaves values on the stack", unbalanced[0])
        follow = end
        # the cases fall out of the except clause that the match ends
        dropped_exception = left_depth is not None and left_depth < depth
        if end is None:
            follow = last
        elif last is not None and self.same_place(last, end) and dropped_exception:
            # (no path out of the match without leaving the except clause)
            self.fail("default case ends in an unexpected place", last)
        elif last is not None and not self.same_place(last, end):
            # the code between the last case and the end: ``case _``
            bf = frame.copy()
            bf.stmts = []
            blk = self.cfg.containing(last)
            after = self.reachable_from(end, blk)
            dom = self.dominated_by(blk)
            ex = self.walk_from(last, bf, lambda j: region(j) and dom(j) and j not in after, loop)
            dropped = self.left_except_clause(ex, bf, frame)
            if ex.kind == "leave" and (not self.same_place(self.resolve(ex.target), end) and not (
                    dropped and self.same_copied_return(self.resolve(ex.target), end)) or (
                    dropped or dropped_exception) and len(bf.stack) != left_depth):
                self.fail("default case ends in an unexpected place", last)
            if ex.kind == "leave" and unbalanced:
                self.fail("match case leaves values on the stack", unbalanced[0])
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
        if not region(self.cfg.containing(follow).start if follow < self.n else follow):
            return self.transfer(follow, frame, region, loop)
        return follow

    def depth_after_cases(self, leaves, depths, depth, where):
        """The stack's depth after the cases that leave the match (None when
        none does). Cases that leave the except clause the match ends drop
        its exception on their way (left_except_clause); a case that stops
        at the clause's shared exit (``POP_EXCEPT``, the name's cleanup, a
        jump to the code after the try statement) leaves it there too, when
        that code is what the others' own copies of it do (3.11+ copies a
        small ``return`` after the try into a path that ends the clause):
        its place in ``leaves`` becomes theirs."""
        known = [d for d in depths if d is not None]
        if not known:
            return None
        low = min(known)
        if low == max(known):
            return low
        own = [t for t, d in zip(leaves, depths) if d == low]
        for k, d in enumerate(depths):
            if d is None or d == low:
                continue
            x = self.clause_exit_after(self.resolve(leaves[k]))
            if d != depth or x is None or not any(
                    self.same_place(x, t) or self.same_copied_return(x, t) for t in own):
                self.fail("match cases end in different places", where)
            leaves[k], depths[k] = own[0], low
        return low

    def past_any_finally_copy(self, index):
        """Where the walk goes on from ``index`` past the inlined copy of a
        finally body there (3.9/3.10 after its ``POP_BLOCK``), and through
        jumps."""
        return self.resolve(self.past_finally_copies(self.past_legacy_finally_copy(index)))

    def clause_exit_after(self, index):
        """Where the code at ``index`` goes when it only drops the exception
        being handled (``POP_EXCEPT``, the ``as`` name's cleanup, a jump),
        or None."""
        if index is None or index >= self.n or self.instrs[index].op != "POP_EXCEPT":
            return None
        return self.thread(self.after_name_cleanup(index + 1))[0]

    @staticmethod
    def left_except_clause(ex, case_frame, frame):
        """Whether a case's walk ended by leaving the except clause that
        holds the match: its ``POP_EXCEPT`` dropped the saved exception
        (see _pop_except). The compiler copies the clause's exit (the
        ``as`` name's cleanup, a small return after the try) into each case
        that ends the clause, so each case leaves the clause on its own."""
        below, left = case_frame.stack, frame.stack
        return (ex.kind == "leave" and len(below) < len(left)
                and all(x is y for x, y in zip(below, left))
                and all(isinstance(x, V.Exception_) for x in left[len(below):]))

    def walk_from(self, start, frame, region, loop):
        if start >= self.n:
            return Exit("leave", start)
        return self.walk_dominated(start, frame, region, loop)

    def reachable_from(self, t, case):
        """Starts of the blocks reachable from ``t`` (the code after the
        match statement) without going back before the match: in a loop the
        code after it reaches the loop's header, which dominates the
        ``case`` block, and from there the cases again."""
        out = set()
        work = [t]
        dominates = self.cfg.dominates
        while work:
            k = work.pop()
            if k is None or k >= self.n or k in out:
                continue
            b = self.cfg.containing(k)
            if b.start in out or dominates(b, case):
                continue
            out.add(b.start)
            work.extend(x.start for x in b.succs)
        return out
