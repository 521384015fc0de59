"""What the structurer and the constructs built on it share: how a walk ends
(:class:`Exit`), a loop's targets, conditions put together (negation, and/or,
chained comparisons), and the compiler's additions dropped from statement lists
(a finally body's re-raise, an ``except ... as`` name's cleanup). It imports
nothing of the decompiler: every other module of the structurer depends on it, never the
other way.
"""
import ast
from typing import NamedTuple, Optional




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
    #: the top test of a ``while c:`` whose body ends through a bottom copy of the test
    #: (3.10+): a jump here is a ``continue`` that was written, even at the body's end
    written_continue_target: Optional[int] = None


class AllOf:
    """A region: the indices every one of ``tests`` holds. Nested branches
    each add a test; kept in one flat tuple, asking stays one call deep
    (``lambda i: region(i) and dom(i)`` costs a frame per level of nesting)."""
    __slots__ = ("tests",)

    def __init__(self, tests):
        self.tests = tests

    def __call__(self, i):
        for test in self.tests:
            if not test(i):
                return False
        return True


def both(region, test) -> AllOf:
    """The region ``region`` narrowed to the indices ``test`` holds. A test that can say
    which earlier tests it implies (``implies``: :class:`CoveredBy`, :class:`WithinRange`)
    replaces them: nested try statements keep one such test, not one per level."""
    tests = region.tests if isinstance(region, AllOf) else (region,)
    implies = getattr(test, "implies", None)
    if implies is not None:
        tests = tuple(t for t in tests if not implies(t))
    return AllOf(tests + (test,))


class WithinRange:
    """A region: the indices strictly between ``start`` and ``end``, but not those in
    ``excluded`` (a try body before 3.11: from its SETUP_* to its handler)."""
    __slots__ = ("start", "end", "excluded")

    def __init__(self, start, end, excluded):
        self.start, self.end, self.excluded = start, end, excluded

    def __call__(self, i):
        return self.start < i < self.end and i not in self.excluded

    def implies(self, other) -> bool:
        """Whether every index here is in ``other`` too: its range holds this one and it
        excludes none of this one's indices."""
        return (isinstance(other, WithinRange) and other.start <= self.start and self.end <= other.end
                and all(x in self.excluded for x in other.excluded if self.start < x < self.end))


def negate(e):
    if isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.Not):
        return e.operand
    if isinstance(e, ast.Compare) and len(e.ops) == 1:
        flip = {ast.Is: ast.IsNot, ast.IsNot: ast.Is, ast.In: ast.NotIn, ast.NotIn: ast.In}
        t = type(e.ops[0])
        if t in flip:
            out = ast.Compare(left=e.left, ops=[flip[t]()], comparators=e.comparators)
            out._flipped = not getattr(e, "_flipped", False)  # (see unflip_negations)
            return out
    return ast.UnaryOp(op=ast.Not(), operand=e)


def unflip_negations(test):
    """``not a or b is not c``, every operand a negation and one an ``is``/``in``
    test that :func:`negate` turned round: ``not (a and b is c)`` (De Morgan:
    the same operands, the same jumps). The compiler writes ``not`` of an
    ``is``/``in`` test as ``is not``/``not in``, another instruction argument:
    only this form keeps the comparison as compiled. (``is not None`` tests
    compile to a jump either way.)"""
    if not isinstance(test, ast.BoolOp) or getattr(test, "_paren", False):
        return test
    values, todo = [], list(reversed(test.values))
    while todo:  # (a right operand with the same operator is not flattened yet)
        v = todo.pop()
        if isinstance(v, ast.BoolOp) and type(v.op) is type(test.op) and not getattr(v, "_paren", False):
            todo.extend(reversed(v.values))
        else:
            values.append(v)
    flipped = [getattr(v, "_flipped", False) for v in values]
    if not any(flipped):
        return test
    for v, f in zip(values, flipped):
        if not (f or isinstance(v, ast.UnaryOp) and isinstance(v.op, ast.Not)
                or isinstance(v, ast.Compare) and len(v.ops) == 1 and isinstance(v.ops[0], ast.IsNot)
                and isinstance(v.comparators[0], ast.Constant) and v.comparators[0].value is None):
            return test
    op = ast.Or if isinstance(test.op, ast.And) else ast.And
    return ast.UnaryOp(op=ast.Not(), operand=ast.BoolOp(op=op(), values=[negate(v) for v in values]))


def chain_compare(a, b):
    """``a`` and ``b`` as one chained comparison when ``b`` starts with ``a``'s
    last operand (the same node: it was kept on the stack)."""
    if (isinstance(a, ast.Compare) and isinstance(b, ast.Compare)
            and b.left is a.comparators[-1]):
        return ast.Compare(left=a.left, ops=a.ops + b.ops,
                           comparators=a.comparators + b.comparators)
    return None


def chains_into(a, b):
    """Whether :func:`chain_into` would chain ``a`` with ``b``, without building
    the chain (a copy of every link: asked once per link of a long chain, n^2)."""
    if isinstance(b, ast.BoolOp) and isinstance(b.op, ast.And) and not getattr(b, "_paren", False):
        b = b.values[0]
    return isinstance(a, ast.Compare) and isinstance(b, ast.Compare) and b.left is a.comparators[-1]


def chain_into(a, b):
    """``a`` chained with ``b``'s comparison (:func:`chain_compare`), also when
    ``b`` is an ``and`` whose first operand is that comparison (the rest of the
    chain's links merged first): ``0 <= k < 10 and x``."""
    if isinstance(b, ast.BoolOp) and isinstance(b.op, ast.And) and not getattr(b, "_paren", False):
        first = chain_compare(a, b.values[0])
        return first and ast.BoolOp(op=ast.And(), values=[first] + b.values[1:])
    return chain_compare(a, b)


def bool_op(op, a, b):
    """``a op b`` with same-operator operands flattened (same bytecode). A
    right operand with the same operator stays whole until the text is
    written (emit._flatten): a chain reduced from its end would copy
    every tail, n^2 operands for n links."""
    vals = []
    if isinstance(a, ast.BoolOp) and isinstance(a.op, op) and not getattr(a, "_paren", False):
        vals.extend(a.values)
    else:
        vals.append(a)
    vals.append(b)
    return ast.BoolOp(op=op(), values=vals)


def join_operands(op, left, right, last):
    """``left op right`` for the and/or whose test is ``last``. A test 3.14 left out of
    the exception table (``last.arg == "nested"``, see read_rewrites.nested_operand_tests)
    belongs to an and/or that is itself an operand of the same operator, not its last:
    ``left`` and the first of ``right``'s operands are written as one, in parentheses
    (``(a or b) or c``); a run of such tests makes one group (``(a or b or c) or d``)."""
    node = bool_op(op, left, right)
    if not (last.arg == "nested" and isinstance(right, ast.BoolOp) and isinstance(right.op, op)
            and not getattr(right, "_paren", False) and len(right.values) >= 2):
        return node
    first = right.values[0]
    group = ast.BoolOp(op=op(), values=[left] + (first.values if getattr(first, "_nested", False) else [first]))
    group._paren = group._nested = True
    return ast.BoolOp(op=op(), values=[group] + right.values[1:])


def is_chain(e):
    """Whether ``e`` is a chained comparison (``a < b < c``)."""
    return isinstance(e, ast.Compare) and len(e.ops) > 1


def strip_tail_reraise(stmts):
    """Drop the compiler's re-raise from every place a finally body ends.
    ``if c: A; <re-raise>`` followed by ``B`` is ``if c: A else: B``: only
    the else path reaches ``B``."""
    stmts = list(stmts)
    while stmts and getattr(stmts[-1], "_reraise", False):
        stmts.pop()
    if stmts and isinstance(stmts[-1], (ast.While, ast.For, ast.AsyncFor)) and not stmts[-1].orelse:
        # the way out of a loop that ends the body is the re-raise (3.10+ puts
        # no jump there): ``break``
        stmts[-1].body = reraise_as_break(stmts[-1].body)
    for k, st in enumerate(stmts[:-1]):
        if isinstance(st, ast.If) and not st.orelse and ends_in_reraise(st.body):
            st.body = strip_tail_reraise(st.body) or [ast.Pass()]
            st.orelse = strip_tail_reraise(stmts[k + 1:])
            return stmts[:k + 1]
        if type(st).__name__ == "Match":
            drop_copied_tails(st.cases, stmts[k + 1:])
            if ends_match_in_reraise(st):
                # ``case P: A; <re-raise>`` in every case: only a subject that no
                # case takes reaches the code after the match, its ``case _``
                for case in st.cases:
                    case.body = strip_tail_reraise(case.body) or [ast.Pass()]
                st.cases.append(ast.match_case(pattern=ast.MatchAs(pattern=None, name=None), guard=None,
                                               body=strip_tail_reraise(stmts[k + 1:]) or [ast.Pass()]))
                return stmts[:k + 1]
    if stmts:
        last = stmts[-1]
        if isinstance(last, (ast.If, ast.Try)):
            last.body = strip_tail_reraise(last.body) or [ast.Pass()]
            last.orelse = strip_tail_reraise(last.orelse)
            for h in getattr(last, "handlers", []):
                h.body = strip_tail_reraise(h.body) or [ast.Pass()]
        elif type(last).__name__ == "Match":  # (ast.Match: 3.10+)
            for case in last.cases:
                case.body = strip_tail_reraise(case.body) or [ast.Pass()]
    return stmts


def reraise_as_break(stmts):
    """``stmts`` (a loop's body) with the compiler's re-raises in it made
    ``break`` statements: in the statements of ifs and match cases, not in
    inner loops (a break there leaves them), functions or try statements."""
    out = []
    for st in stmts:
        if getattr(st, "_reraise", False):
            st = ast.Break()
        elif isinstance(st, ast.If):
            st.body = reraise_as_break(st.body)
            st.orelse = reraise_as_break(st.orelse)
        elif type(st).__name__ == "Match":
            for case in st.cases:
                case.body = reraise_as_break(case.body)
        out.append(st)
    return out


def ends_in_loop_left_by_break(stmts):
    """Whether the last of ``stmts`` is a loop that a ``break`` of its own
    leaves (see reraise_as_break): the statements complete that way."""
    if not stmts or not isinstance(stmts[-1], (ast.While, ast.For, ast.AsyncFor)):
        return False
    return any(isinstance(st, ast.Break) for st in loop_level_statements(stmts[-1].body))


def loop_level_statements(body):
    """The statements of a loop's ``body`` at the loop's own level: through if
    and match statements, not into nested loops (whose ``break`` is their own)."""
    todo = list(body)
    while todo:
        st = todo.pop()
        yield st
        if isinstance(st, ast.If):
            todo += st.body + st.orelse
        elif type(st).__name__ == "Match":
            todo += [x for case in st.cases for x in case.body]


def ends_match_in_reraise(match):
    """Whether no case of ``match`` completes, the compiler's re-raise ends
    one of them, and a subject may fall through them all (no last case that
    takes every subject)."""
    last = match.cases[-1]
    takes_all = last.guard is None and type(last.pattern).__name__ == "MatchAs" and last.pattern.pattern is None
    return not takes_all and all(never_completes(c.body) or ends_in_reraise(c.body) for c in match.cases) and any(
        ends_in_reraise(c.body) for c in match.cases)


def drop_copied_tails(cases, rest):
    """3.12+ copies a short tail of a finally body (``v = x; <re-raise>``)
    into each path that reaches it: a match case whose body ends in its own
    copy of ``rest`` (the statements after the match statement) and the
    re-raise falls into ``rest`` instead. A case ending otherwise is left as
    it is (the re-raise left in it refuses the finally body)."""
    tail = [ast.dump(s) for s in rest]
    for case in cases:
        body = case.body
        if not (body and getattr(body[-1], "_reraise", False)) or len(body) - 1 < len(tail):
            continue
        own = body[len(body) - 1 - len(tail):-1]
        if [ast.dump(s) for s in own] == tail:
            case.body = body[:len(body) - 1 - len(tail)] or [ast.Pass()]


def endless_loop_left_by_reraise(st):
    """Whether ``st`` is a ``while True:`` loop left only by the compiler's
    re-raises (no ``break`` of its own): its ``break`` jumps to the end of the
    finally body it is in, whose re-raise 3.10+ copies there (see
    reraise_as_break), so the statement never completes."""
    if not (isinstance(st, ast.While) and isinstance(st.test, ast.Constant) and st.test.value is True
            and not st.orelse):
        return False
    own = list(loop_level_statements(st.body))
    return (not any(isinstance(x, ast.Break) for x in own)
            and any(getattr(x, "_reraise", False) for x in own))


def ends_in_reraise(stmts):
    """Whether ``stmts`` never complete and the compiler's re-raise ends one
    of their paths (``if c: return`` / ``else: <re-raise>``): the code after
    them is reached only on the other paths of the test they are under."""
    if not stmts:
        return False
    last = stmts[-1]
    if getattr(last, "_reraise", False) or endless_loop_left_by_reraise(last):
        return True
    return (isinstance(last, ast.If) and never_completes(last.body) and never_completes(last.orelse)
            and (ends_in_reraise(last.body) or ends_in_reraise(last.orelse)))


def never_completes(stmts):
    """Whether control never falls off the end of ``stmts``."""
    if not stmts:
        return False
    last = stmts[-1]
    if isinstance(last, (ast.Return, ast.Raise, ast.Continue, ast.Break)):
        return True
    return isinstance(last, ast.If) and never_completes(last.body) and never_completes(last.orelse)


def leaves_reraise(stmts):
    """Whether a compiler's re-raise is left inside ``stmts``."""
    return any(getattr(n, "_reraise", False) for st in stmts for n in ast.walk(st))


def strip_name_cleanup(stmts, name):
    """``except E as e:`` ends (on every path) with ``e = None; del e``,
    which the compiler adds."""
    if name is None:
        return stmts
    out = []
    k = 0
    while k < len(stmts):
        s = stmts[k]
        if (isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name)
                and s.targets[0].id == name and isinstance(s.value, ast.Constant) and s.value.value is None
                and k + 1 < len(stmts) and isinstance(stmts[k + 1], ast.Delete)
                and len(stmts[k + 1].targets) == 1 and isinstance(stmts[k + 1].targets[0], ast.Name)
                and stmts[k + 1].targets[0].id == name):
            k += 2
            continue
        for field in ("body", "orelse", "finalbody"):
            sub = getattr(s, field, None)
            if isinstance(sub, list):
                setattr(s, field, strip_name_cleanup(sub, name))
        for h in getattr(s, "handlers", None) or ():
            # (a ``return`` in an inner clause clears the outer clause's name too)
            h.body = strip_name_cleanup(h.body, name) or [ast.Pass()]
        for c in getattr(s, "cases", None) or ():
            # (a match case that ends the clause has its own copy of the cleanup)
            c.body = strip_name_cleanup(c.body, name) or [ast.Pass()]
        out.append(s)
        k += 1
    return out
