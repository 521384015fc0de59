"""One ``case`` of a ``match`` statement read from its code (see match.py for the
layout): :class:`CaseParser` runs the pattern code on a small stack of its own, whose values are
match_facts' slots, and gives the pattern, the guard and where the body starts. It follows
where each failing test jumps (the next case, or an or-pattern's next alternative); the
pattern is built from the slots by pattern_nodes.py, the guard read by case_guards.py (its
functions take the parser).
"""
import ast

from .. import expressions as E
from ..errors import DecompilationError
from .jumps import same_place
from .match_facts import (Case, Const, Joined, Keys, Len, NegIdx, NoMatch, OrCtx, Parts, Rest, Slot, Subject,
                          Test, _POP_JUMPS, STORES, VALUE_OPS, is_dotted, resolve)
from .pattern_nodes import build
from . import case_guards


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
            elif self.op(i) != "POP_TOP" and case_guards.goes_to_next_case(self, i):
                # a guard the compiler found always false (``if not 1``):
                # neither it nor the body is compiled
                guard, body = E.const(False), None
            else:
                guard, t = case_guards.guard(self, i)
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
                    guard, body = case_guards.guard(self, i)
                except (NoMatch, DecompilationError):
                    guard, body = None, i
                if guard is not None and body is not None and case_guards.body_test(self, i, body):
                    guard, body = None, i
        pattern = build(top)
        return Case(pattern, guard, body, copy, self.landing, self.stores)

    def op(self, i):
        return self.instrs[i].op if 0 <= i < self.n else None

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
            if op in STORES:
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
            if op in VALUE_OPS and isinstance(top, Slot) and (top.fresh() or top.kind == "map"):
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
        while j < self.n and self.instrs[j].op in VALUE_OPS:
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
                if not (isinstance(key, ast.Constant) or is_dotted(key) and isinstance(key, ast.Attribute)):
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
                  or isinstance(v, ast.Attribute) and is_dotted(v))
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
        if not is_dotted(cls):
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
