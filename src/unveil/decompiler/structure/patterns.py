"""One ``case`` of a ``match`` statement read from its code (see match.py for the
layout): :class:`CaseParser` runs the pattern code on a small stack of its own, whose values are
match_facts' slots, and gives the pattern, the guard and where the body starts.
"""
import ast

from .. import expressions as E
from ..errors import DecompilationError
from .regions import bool_op, is_chain, negate
from .jumps import Poison, same_place
from .branch_facts import restore_trial_state, trial_state
from .match_facts import Case, Const, GuardTest, Joined, Keys, Len, NegIdx, NoMatch, OrCtx, Parts, Rest, Slot, Subject, Test, _POP_JUMPS, _STORES, _VALUE_OPS, _anywhere, _conjunction, _is_dotted, _live, resolve
from .conditions import condition, pure_condition
from .branches import if_


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
                    t = resolve(self.w, t)
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
        t = resolve(self.w, body)
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
        saved = trial_state(w)
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
                    c = condition(w, r.block, f)
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
                            if self.copy and self.op(resolve(w, k)) == "POP_TOP":
                                if any(not same_place(w, b, k) for _, b in alts):
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
            restore_trial_state(w, saved)
            if found is None or self.copy:
                raise
            return found
        finally:
            w.guard_frame = outer
        restore_trial_state(w, saved)
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
                c.true == c.false or resolve(self.w, c.true) == resolve(self.w, c.false)):
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
        if self.op(resolve(self.w, t)) == "POP_TOP" and self.op(resolve(self.w, fl)) != "POP_TOP":
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
        a = pure_condition(w, c.true, c.frame, c.blocks)
        b = pure_condition(w, c.false, c.frame, c.blocks) if a is not None else None
        if b is None:
            return None
        ta, tb = self.guard_conjunct(a, base), self.guard_conjunct(b, base)
        if ta is None or tb is None or not self.guard_stack_holds(a.frame, base) \
                or len(a.frame.stack) != len(base) or len(b.frame.stack) != len(base):
            return None
        if not (same_place(w, ta[1], tb[1]) or self.tail(ta[1]) is not None
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
        k = if_(w, c, f, _anywhere, None)
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
        return same_place(self.w, a, b) or (self.tail(a) is not None and self.tail(a) == self.tail(b))

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
