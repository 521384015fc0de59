"""Statement lists and stack steps, shared by the constructs: what a run of plain
steps leaves on the stack (:func:`plain_steps_depth`, :func:`shuffle_or_step`), merging the
copies the compiler makes of an exit (:func:`merge_exit_copies`), the ``continue`` written or
implied at the end of a loop body, the tests of ``assert`` statements. Nothing here walks or
reads the walk state.
"""
import ast

from .. import expressions as E
from .. import values as V
from ..stack_effects import pops_pushes
from ..stream import CONDITIONAL_JUMPS
from .regions import negate


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
def copy_key(x):
    """What an instruction of a finally body's inlined copy must share with its
    exceptional copy (jump targets differ between the copies)."""
    return (x.op, x.arg if x.target is None else None)


COPY_WINDOW = 4  # instructions that index where an inlined finally copy may start


FINALLY_UNWINDS = ([("POP_TOP", None), ("POP_EXCEPT", None)],
                    [("SWAP", 2), ("POP_TOP", None), ("SWAP", 2), ("POP_EXCEPT", None)])


OPPOSITE_JUMPS = {"POP_JUMP_IF_FALSE": "POP_JUMP_IF_TRUE", "POP_JUMP_IF_TRUE": "POP_JUMP_IF_FALSE",
                   "POP_JUMP_IF_NONE": "POP_JUMP_IF_NOT_NONE", "POP_JUMP_IF_NOT_NONE": "POP_JUMP_IF_NONE"}


#: the empty results an inlined comprehension builds before its loop
COMPREHENSION_RESULTS = ("BUILD_LIST", "BUILD_SET", "BUILD_MAP")


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


def plain_steps_depth(instrs, depth, steps=pops_pushes, floor=0):
    """The stack depth after running the plain steps ``instrs`` on ``depth`` values: BELOW as
    soon as one would leave fewer than ``floor`` values (no floor when None), None at the first
    step that is not plain. ``steps`` says what a step pops and pushes (None for one that is
    not plain): :func:`pops_pushes` (expression steps), :func:`store_or_step` (also stores to
    names and drops) or :func:`shuffle_or_step` (also stack shuffles). The one walk over a run
    of steps for "what does it leave on the stack"."""
    for ins in instrs:
        pp = steps(ins)
        if pp is None:
            return None
        if floor is not None and depth - pp[0] < floor:
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


def shuffle_or_step(ins):
    """:func:`pops_pushes`, where a stack shuffle (copy, swap), a drop and a walrus's store
    also count."""
    op = ins.op
    if op == "COPY":
        return (ins.arg, ins.arg + 1)
    if op == "SWAP":
        return (ins.arg, ins.arg)
    if op in ("POP_TOP", "STORE_FAST", "STORE_DEREF", "STORE_NAME", "STORE_GLOBAL"):
        return (1, 0)
    return pops_pushes(ins)


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
    read_rewrites.mark_asserts_on_own_line): after the last conditional jump
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
    ``raise_node`` (see read_rewrites.mark_asserts_on_own_line)."""
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
    written (see :func:`_legacy_clauses_at`)."""
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
