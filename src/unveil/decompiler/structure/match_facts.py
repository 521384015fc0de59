"""The values and facts of reading ``match`` statements (see match.py and
patterns.py): the slots a pattern's code tests (:class:`Slot` and the by-products of the MATCH_*
instructions), one case as read (:class:`Case`), where a case's failure and its body go.
Nothing here walks.
"""
import ast

from .. import values as V
from ..stack_effects import pops_pushes
from .regions import bool_op, chain_into, strip_name_cleanup
from .state import fail
from .jumps import past_finally_copies, same_copied_return, same_place, thread
from .legacy_facts import past_legacy_finally_copy
from .finally_copies import after_name_cleanup


STORES = ("STORE_FAST", "STORE_NAME", "STORE_GLOBAL", "STORE_DEREF")


_POP_JUMPS = ("POP_JUMP_IF_FALSE", "POP_JUMP_IF_TRUE", "POP_JUMP_IF_NONE", "POP_JUMP_IF_NOT_NONE")


VALUE_OPS = ("LOAD_CONST", "LOAD_GLOBAL", "LOAD_NAME", "LOAD_FAST", "LOAD_DEREF",
              "LOAD_ATTR", "BUILD_TUPLE", "UNARY_NEGATIVE", "BINARY_OP", "LOAD_CLASSDEREF",
              "LOAD_FROM_DICT_OR_DEREF", "LOAD_FROM_DICT_OR_GLOBALS", "LOAD_LOCALS")


def _anywhere(i):
    """The region of a guard's operands: their own extent is found by
    dominance, as for any branch."""
    return True


def conjunction(parts):
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


class OrCtx:
    def __init__(self, slot, depth):
        self.slot = slot
        self.depth = depth
        self.next = None


class Case:
    def __init__(self, pattern, guard, body, copy, landing, stores):
        self.pattern, self.guard, self.body = pattern, guard, body
        self.copy, self.landing, self.stores = copy, landing, stores


def is_dotted(e):
    while isinstance(e, ast.Attribute):
        e = e.value
    return isinstance(e, ast.Name)


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


def copy_then_consumed(w, c):
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
    k = c + 1
    if k >= w.n or not w.instrs[k].op.startswith("STORE_") or w.instrs[k].op in (
            "STORE_ATTR", "STORE_SUBSCR", "STORE_SLICE"):
        return False
    depth = 0  # values above the subject
    walrus = False  # the step before was a copy above the subject
    for ins in w.instrs[k + 1:k + 256]:
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


def match_branch(w, block, frame, region, loop):
    if frame is w.guard_frame and w.instrs[block.end - 1].op in _POP_JUMPS:
        return GuardTest(block)
    return None


def resolve(w, t):
    hops = 0
    while t is not None and t < w.n and w.instrs[t].op == "JUMP" and hops < 20:
        t = w.instrs[t].target
        hops += 1
    return t


def depth_after_cases(w, leaves, depths, depth, where):
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
        x = clause_exit_after(w, resolve(w, leaves[k]))
        if d != depth or x is None or not any(
                same_place(w, x, t) or same_copied_return(w, x, t) for t in own):
            fail(w, "match cases end in different places", where)
        leaves[k], depths[k] = own[0], low
    return low


def past_any_finally_copy(w, index):
    """Where the walk goes on from ``index`` past the inlined copy of a
    finally body there (3.9/3.10 after its ``POP_BLOCK``), and through
    jumps."""
    return resolve(w, past_finally_copies(w, past_legacy_finally_copy(w, index)))


def clause_exit_after(w, index):
    """Where the code at ``index`` goes when it only drops the exception
    being handled (``POP_EXCEPT``, the ``as`` name's cleanup, a jump),
    or None."""
    if index is None or index >= w.n or w.instrs[index].op != "POP_EXCEPT":
        return None
    return thread(w, after_name_cleanup(w, index + 1))[0]


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


def reachable_from(w, t, case):
    """Starts of the blocks reachable from ``t`` (the code after the
    match statement) without going back before the match: in a loop the
    code after it reaches the loop's header, which dominates the
    ``case`` block, and from there the cases again."""
    out = set()
    work = [t]
    dominates = w.cfg.dominates
    while work:
        k = work.pop()
        if k is None or k >= w.n or k in out:
            continue
        b = w.cfg.containing(k)
        if b.start in out or dominates(b, case):
            continue
        out.add(b.start)
        work.extend(x.start for x in b.succs)
    return out
