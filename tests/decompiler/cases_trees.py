"""Differential cases found in third-party trees (torch, pip, ...: bench/corpus.py --tree),
each shrunk to the shape that was refused or wrong; none imports those packages."""
from cases_branches import ACM, CM


class _Keys:
    """Gives back the key it is subscripted with, and logs what is stored."""

    def __init__(self):
        self.stored = []

    def __getitem__(self, key):
        return key

    def __setitem__(self, key, value):
        self.stored.append((key, value))


# torch/distributions/beta.py Beta.mode: ``x[..., 0]`` loads the constant (Ellipsis, 0),
# which the unparsers wrote as ``(Ellipsis, 0)`` -- a global name, not the constant
def ellipsis_in_subscript_tuple(a, b):
    k = _Keys()
    k[..., a] = b
    k[(..., (b, ...)), ...] = a
    return k[..., 0], k[a, ...], k[(1, ...), 2], k.stored, (..., (a, ...))


# torch/_higher_order_ops/utils.py _maybe_fake_tracing (3.11+): ``return x`` inside
# ``with a, b:`` calls both exits, then returns; the value was kept in a temporary
# returned after the inner with, unbound when the inner ``__exit__`` suppresses
def with_two_items_return_value(a):
    log = []
    with CM(log, 1, suppress=a == 1), CM(log, 2, suppress=a == 2):
        log.append(3)
        if a >= 1:
            raise KeyError(a)
        x = log
        return x  # the exits append to it after it is taken
    log.append(4)
    return log


def with_three_nested_return_value(a):
    log = []
    with CM(log, 1, suppress=a == 1):
        with CM(log, 2, suppress=a == 2):
            with CM(log, 3, suppress=a == 3):
                if a:
                    raise KeyError(a)
                return log.append(5) or log
            log.append(6)
        log.append(7)
    return log


def with_return_value_in_loop(a):
    log = []
    with CM(log, 1, suppress=a == 1):
        for i in range(3):
            with CM(log, i + 2, suppress=a == 2):
                if a and i == 1:
                    raise KeyError(a)
                if i == 2:
                    return log
    log.append(8)
    return log


async def async_with_around_with_return_value(a):
    log = []
    async with ACM(log, 1, suppress=a == 1):
        with CM(log, 2, suppress=a == 2):
            if a:
                raise KeyError(a)
            return log
    log.append(8)
    return log


async def with_around_async_with_return_value(a):
    log = []
    with CM(log, 1, suppress=a == 1):
        async with ACM(log, 2, suppress=a == 2):
            if a:
                raise KeyError(a)
            return log
    log.append(8)
    return log


WITH_INPUTS = [(a,) for a in range(4)]


# torch/_dynamo/pgo.py get_local_code_state (3.11+): ``return x`` in a try's else clause
# inside with statements: the value is returned after the exit calls, outside the clause
def try_else_returns_value_in_with(a):
    log = []
    with CM(log, 1, suppress=a == 1):
        with CM(log, 2, suppress=a == 2):
            try:
                if a == 3:
                    raise ValueError(a)
                log.append(3)
            except ValueError:
                log.append(4)
            else:
                if a:
                    raise KeyError(a)
                log.append(5)
                return log
            log.append(6)
    log.append(7)
    return log


# torch/storage.py _share_memory_lock_protected, torch/_inductor/select_algorithm.py
# benchmark_choice (3.11+): ``return f()`` in a try body whose finally body branches: the
# finally's inlined copy ends in a RETURN_VALUE on each branch (the copy was not recognised:
# refused as evaluating the returned call twice)
def return_through_branching_finally(a, b):
    log = []
    try:
        return log.__iadd__([a])  # (the list itself)
    finally:
        if b is not None:
            log.append(b)


def return_through_branching_finally_raises(a, b):
    log = []
    try:
        if a == 2:
            raise KeyError(a)
        return log.__iadd__([a])  # (the list itself)
    finally:
        log.append(0)
        if b:
            log.append(b)
        elif a:
            log.append(-a)


class _Truth:
    """A value whose truth is logged each time it is taken."""

    def __init__(self, log, name, truth):
        self.log, self.name, self.truth = log, name, truth

    def __bool__(self):
        self.log.append(self.name)
        return self.truth

    def __eq__(self, other):  # (results compare by what they are, not by identity)
        return isinstance(other, _Truth) and (self.name, self.truth) == (other.name, other.truth)

    __hash__ = None


# torch/_inductor/runtime/triton_heuristics.py, torch/_dynamo/variables/torch.py (3.10, 3.11):
# an and/or operand on lines of its own whose value the enclosing and/or tests again;
# the compiler threads that jump (one truth test instead of two) only when the lines agree
def bool_operand_on_own_lines(a, b, c):
    log = []
    x, y, z = _Truth(log, "x", a), _Truth(log, "y", b), _Truth(log, "z", c)
    r1 = (
        x
        or y
    ) or z
    r2 = (
        x
        and y
    ) or z
    r3 = (
        x
        or y
    ) and z
    r4 = x or (
        y
        and z
    ) or x
    return [r.name for r in (r1, r2, r3, r4)], log


def bool_operand_on_own_lines_returned(a, b, c):
    log = []
    x, y, z = _Truth(log, "x", a), _Truth(log, "y", b), _Truth(log, "z", c)
    return (
        x
        and y
        and z
    ) or log


BOOL3 = [(a, b, c) for a in (False, True) for b in (False, True) for c in (False, True)]

# torch/_inductor/select_algorithm.py AlgorithmSelectorCache.benchmark (3.9+): ``for x in (v,)``
# inside a comprehension compiles to the assignment ``x = v`` (no loop)
def comprehension_single_item_loops(a, b):
    log = []
    got = [p for c in range(a) for m in (log.append(c) or c * b,) for p in [m + 1] if p % 2]
    pairs = {k: v for c in range(b) for k, v in ((c, -c),) if k != 1}
    gen = list(q for c in range(a) if c for q in (c,) for r in range(q))
    nested = [[y for y in (x,)] for x in range(b)]
    return got, pairs, gen, nested, log


async def async_comprehension_single_item_loop(a, b):
    return [y async for x in _arange(a) for y in (x * b,) if y]


async def _arange(n):
    for i in range(n):
        yield i


# torch/sparse/_semi_structured_conversions.py: ``m0, m2 = m1, m3 = value`` unpacks one
# value twice; the second unpacking read it as a new evaluation (refused)
def chained_unpacking_assignments(a, b):
    log = []
    m0, m2 = m1, m3 = log.append(a) or (a, b)
    x = y, z = p, q = log.append(b) or [b, a]
    k, (u, w) = v = log.append(0) or (a, (b, a))
    return m0, m1, m2, m3, x, y, z, p, q, k, u, w, v, log


# torch/_dynamo/pgo.py _get_closure_content (3.10+): a ``return None`` written last that two
# places reach (the compiler copies only its own implicit return into each) stays written
def explicit_return_none_last(a, b):
    if a and b:
        return a + b
    return None


def implicit_return_none_last(a, b):
    if a and b:
        return a + b


CASES = [
    (with_two_items_return_value, WITH_INPUTS),
    (explicit_return_none_last, [(1, 2), (0, 1), (1, 0)]),
    (implicit_return_none_last, [(1, 2), (0, 1), (1, 0)]),
    (return_through_branching_finally, [(1, None), (1, 2)]),
    (return_through_branching_finally_raises, [(a, b) for a in range(3) for b in range(2)]),
    (try_else_returns_value_in_with, WITH_INPUTS),
    (chained_unpacking_assignments, [(1, 2), ("a", None)]),
    (comprehension_single_item_loops, [(0, 0), (3, 2), (5, -1)]),
    (async_comprehension_single_item_loop, [(0, 0), (3, 2), (4, -1)]),
    (bool_operand_on_own_lines, BOOL3),
    (bool_operand_on_own_lines_returned, BOOL3),
    (with_three_nested_return_value, WITH_INPUTS),
    (with_return_value_in_loop, WITH_INPUTS),
    (async_with_around_with_return_value, WITH_INPUTS),
    (with_around_async_with_return_value, WITH_INPUTS),
    (ellipsis_in_subscript_tuple, [(1, 2), (0, "x")]),
]



def _keywords(*args, **kwargs):
    return args, sorted(kwargs.items())


# 16 or more keyword arguments after a ``**`` (transformers' and torch's call sites):
# 3.10+ build them in steps and merge them - written as a dict display they were
# built another way (refused); the group before a ``**`` too
def many_keywords_after_double_star(a, b, d):
    return (_keywords(a, *b, **d, k0=0, k1=1, k2=2, k3=3, k4=4, k5=5, k6=6, k7=7, k8=8, k9=9,
                      k10=10, k11=11, k12=12, k13=13, k14=14, k15=15, k16=16, k17=17, k18=18, k19=a),
            _keywords(k0=0, k1=1, k2=2, k3=3, k4=4, k5=5, k6=6, k7=7, k8=8, k9=9, k10=10,
                      k11=11, k12=12, k13=13, k14=14, k15=15, k16=16, k17=b, **d),
            _keywords(**{'x': a}, k0=0, k1=1, k2=2, k3=3, k4=4, k5=5, k6=6, k7=7, k8=8, k9=9,
                      k10=10, k11=11, k12=12, k13=13, k14=14, k15=15, k16=16, k17=17, k18=b, **d))


CASES += [
    (many_keywords_after_double_star, [(1, (2, 3), {"z": 4}), (0, [], {}), (1, (), {"k0": 1})]),
]


# bdb.Bdb.get_bpbynumber (stdlib, 3.12+): a try whose except clauses never fall through,
# then code that holds a try of its own. 3.12+ lays both the else clause and the code
# after the statement right after the body (handlers go last): it was written as an
# else clause, whose inner handler then came before the outer one
def try_raising_handler_then_try(arg, table, log):
    try:
        number = int(arg)
    except ValueError:
        log.append("bad")
        raise KeyError(arg) from None
    try:
        entry = table[number]
    except IndexError:
        raise KeyError(number) from None
    if entry is None:
        raise KeyError("deleted")
    return entry, log


# ... and the else clause it can be, told apart by the same handler order
def try_raising_handler_else_try(arg, table, log):
    try:
        number = int(arg)
    except ValueError:
        log.append("bad")
        raise KeyError(arg) from None
    else:
        try:
            entry = table[number]
        except IndexError:
            return None, log
        return entry, log


# in a loop, the handlers leave with continue / return
def try_continue_handler_then_try(xs, log):
    for x in xs:
        try:
            n = int(x)
        except ValueError:
            continue
        try:
            log.append(10 // n)
        except ZeroDivisionError:
            return log
        log.append(x)
    return log


TRY_TABLE = [None, "one", "two"]
CASES += [
    (try_raising_handler_then_try, [("1", TRY_TABLE, []), ("0", TRY_TABLE, []), ("x", TRY_TABLE, []),
                                    ("7", TRY_TABLE, [])]),
    (try_raising_handler_else_try, [("1", TRY_TABLE, []), ("x", TRY_TABLE, []), ("7", TRY_TABLE, [])]),
    (try_continue_handler_then_try, [(["1", "x", "2"], []), (["3", "0", "4"], []), ([], [])]),
]


# email._header_value_parser.get_phrase (stdlib, 3.11+): an if/else that ends a while
# loop's body; its first branch jumps forward to the copy of the loop's test at the
# bottom. It was written ``continue``, which jumps back to the test on top
def while_if_else_ends_body(value, log):
    while value and value[0] != "!":
        if value[0] == ".":
            log.append("dot")
            value = value[1:]
        else:
            try:
                log.append(int(value[0]))
            except ValueError:
                raise KeyError(value) from None
            value = value[2:]
    return value, log


CASES += [
    (while_if_else_ends_body, [("..1.2!3", []), ("", []), ("1x.", []), ("x", [])]),
]


# email._header_value_parser.Section.section_number (stdlib, 3.10+): the compiler copies the
# return after a conditional expression into both branches; it was written as an if
# statement with two returns (3.12+: whose second is a RETURN_CONST, not a copy)
def conditional_expression_returned(a, b):
    return a[0] if b else 0


def conditional_expression_returned_none(a, b):
    return a[0] if b else None


CASES += [
    (conditional_expression_returned, [([1], 1), ([], 0), ([], 1)]),
    (conditional_expression_returned_none, [([1], 1), ([], 0), ([], 1)]),
]


# http.client.HTTPResponse._check_close (stdlib, 3.10+): two ``return False`` written in
# two ifs; the compiler copies a small return into the jumps to it, keeping its line, so
# two returns with lines of their own were written apart (it came back ``if a or b``)
def same_return_written_twice(a, b):
    if a.get("k"):
        return False
    if b and "k" in b:
        return False
    return True


CASES += [
    (same_return_written_twice, [({"k": 1}, ""), ({}, "k"), ({}, ""), ({}, None)]),
]


# statistics.median (stdlib, 3.8/3.9): ``if c: return a`` / ``else:`` holding statements and
# a return, written last; the compiler appends a dead ``return None`` after it, which shows
# the last statement was no return (it came back without the else)
def else_clause_written_last(data):
    n = len(data)
    if n % 2 == 1:
        return data[n // 2]
    else:
        i = n // 2
        return (data[i - 1] + data[i]) / 2


CASES += [
    (else_clause_written_last, [([1, 2, 3],), ([1, 2],), ([],)]),
]


# site._init_pathinfo (stdlib, 3.8/3.9): ``except E: continue`` as the loop body's last
# statement; the clause's own exit follows the continue, unreached, which ``pass`` would
# run into (it came back as ``pass``)
def continue_ends_except_clause(xs, log):
    for x in xs:
        try:
            if x:
                log.append(10 // x)
        except ZeroDivisionError:
            continue
    return log


CASES += [
    (continue_ends_except_clause, [([1, 0, 2], []), ([], [])]),
]


# email._encoded_words.decode_b, statistics._exact_ratio (stdlib, 3.9): ``return v`` in a
# try inside except clauses (inside a try body); 3.9 keeps the value above each clause's
# exception (ROT_FOUR; POP_EXCEPT) and pops the enclosing blocks on its way: that return
# was taken for the try body's normal exit ("try body leaves values on the stack")
def return_in_try_in_nested_clauses(a):
    try:
        return 10 // a[0]
    except ZeroDivisionError:
        try:
            return 10 // a[1]
        except ZeroDivisionError:
            try:
                return 10 // a[2], 2
            except ZeroDivisionError:
                return a, 3


CASES += [
    (return_in_try_in_nested_clauses, [([1, 1, 1],), ([0, 1, 1],), ([0, 0, 1],), ([0, 0, 0],), ([],)]),
]


# argparse._parse_optional (stdlib): ``return None`` written in two ifs; before 3.10
# nothing copies a return, so two return blocks are two returns; 3.10+ lays each right
# after its test (see return_none_right_after_test) (it came back as ``if not a or b: return None``)
def return_none_written_twice(a, b):
    if not a:
        return None
    if not a[0] in b:
        return None
    return a, b


CASES += [
    (return_none_written_twice, [("", "x"), ("x", "x"), ("y", "x")]),
]


# configparser._read, cookiejar._really_load (stdlib): ``if x in y: continue`` in a loop; the
# ``not`` of ``if not x in y:`` around the rest of the body compiles as ``not in`` (another
# instruction argument), so it came back with the operator turned round
def continue_on_membership(xs, seen, log):
    for x in xs:
        if x in seen:
            continue
        log.append(x)
        if x is log:
            continue
        seen.append(x)
    return log


CASES += [
    (continue_on_membership, [([1, 2, 1, 3], [], []), ([1], [1], [])]),
]


# email/_header_value_parser-like guards, sndhdr._aiff, http.client._read_and_discard_trailer
# (stdlib, 3.10+): ``if not x: return None`` lies right after its test, which jumps over
# it; the compiler's copies of the implicit ``return None`` lie where jumps go. Taken for
# one of those copies, it merged with the next test (``if x and y: return 1``)
def return_none_right_after_test(h, n):
    if not h.startswith("F"):
        return None
    if h[1:3] in ("AI", "AF"):
        return "aiff"
    else:
        return None


CASES += [
    (return_none_right_after_test, [("FAI", 0), ("FXX", 0), ("G", 0)]),
]


# ipaddress._BaseNetwork.__getitem__, plistlib._read_ints (stdlib, 3.8/3.9): ``if c: ... return a``
# / ``else: ... if d: raise E`` / ``return b``: the dead ``return None`` after the last statement
# shows an if/else; the else belongs to the outer if, not to the inner ``if d: raise E`` (an if
# with an else keeps a dead jump after its raise)
def else_holds_raise_then_return(n, log):
    if n >= 0:
        if n > 5:
            raise IndexError("too big")
        return n + 1
    else:
        log.append(n)
        if n < -5:
            raise IndexError("too small")
        return log


CASES += [
    (else_holds_raise_then_return, [(a, []) for a in (-7, -1, 0, 3, 9)]),
]


# gettext.c2py, argparse.HelpFormatter._format_actions_usage, http.cookies.Morsel.OutputString
# (stdlib, 3.11+ most): an if/elif chain ending a loop body, an inner if's test in one branch;
# the jumps to the end of the chain go straight back to the loop's start, which came back as
# ``continue`` closing the branch and the elif as an if after it
def elif_chain_ends_loop_body(xs, log):
    depth = 0
    for c in xs:
        if c == "(":
            depth += 1
            if depth > 2:
                raise ValueError(depth)
        elif c == ")":
            if log:
                log.append(depth)
            depth -= 1
        else:
            log.append(c)
    return log


CASES += [
    (elif_chain_ends_loop_body, [("(()x)", []), ("((()))", []), (")x", [0])]),
]


# http.cookies.Morsel.OutputString (stdlib, 3.12): the same chain after two ``continue``
# tests; each branch's own jump to the end of the chain goes on to the loop's start
def elif_chain_after_continues(items, keys, log):
    for k, v in items:
        if v == "":
            continue
        if k not in keys:
            continue
        if k == "a":
            log.append(v)
        elif k == "b":
            if v:
                log.append(k)
        else:
            log.append(0)
    return log


CASES += [
    (elif_chain_after_continues, [([("a", 1), ("b", 0), ("b", 2), ("c", ""), ("d", 3)], "abd", [])]),
]


# bdb.Bdb.dispatch_exception (stdlib, 3.10+): ``if not (a and b is c and d is None)``; De Morgan
# turned the ``is`` test round (``b is not c``), which compiles to another IS_OP argument
def not_of_and_with_is_test(a, b, d, log):
    if not (a & 3 and b is StopIteration and d is None):
        log.append(1)
    return log


CASES += [
    (not_of_and_with_is_test, [(1, StopIteration, None, []), (1, StopIteration, 0, []), (0, None, None, []),
                               (1, ValueError, None, [])]),
]


# http.client.HTTPConnection.endheaders, http.cookiejar.iso2time (stdlib, all versions): ``if c: a``
# / ``else: raise`` / ``b``; the body's jump over the else says ``b`` follows the if statement,
# it came back inside the body (which dominates it, as the else never falls through)
def code_after_if_else_that_raises(n, log):
    if n > 0:
        log.append(n)
    else:
        raise ValueError(n)
    log.append(0)
    return log


CASES += [
    (code_after_if_else_that_raises, [(1, []), (0, []), (-2, [])]),
]


# email.message.MIMEPart.get_body, inspect.BoundArguments.args (stdlib, 3.10+): ``break`` out of a
# for loop into ``return body``: the compiler copies the small return into the break (the iterator
# dropped first); it came back as ``return body`` (which computes the value first)
def break_into_copied_return(xs, n):
    body = None
    for p in xs:
        if p < n:
            body = p
            if p == 0:
                break
    return body


CASES += [
    (break_into_copied_return, [([3, 0, 1], 2), ([5, 1], 2), ([], 0)]),
]
