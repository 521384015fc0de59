"""Differential cases: match statements (Python 3.10+ only; imported by
test_differential.py only when sys.version_info >= (3, 10))."""
import dataclasses


@dataclasses.dataclass
class Pt:
    x: int
    y: int


class Circle:
    __match_args__ = ("r",)

    def __init__(self, r):
        self.r = r


class Color:
    RED = "red"
    GREEN = "green"


SUBJECTS = [(0,), (1,), (2,), (-1,), ("a",), ("hello",), (None,), (True,), (3.5,),
            ([],), ([1],), ([1, 2],), ([1, 2, 3],), ((4, 5),), ({"k": 1},),
            ({"k": 2, "v": "x"},), ({"type": "pt", "x": 1},), (Pt(0, 0),), (Pt(1, 2),),
            (Circle(0),), (Circle(3),), ("red",), (b"x",)]


def match_literal(x):
    match x:
        case 0:
            return "zero"
        case 1 | 2:
            return "one-or-two"
        case "a":
            return "letter a"
        case None:
            return "none"
        case True:
            return "true"
        case -1:
            return "minus one"
        case 3.5:
            return "float"
        case b"x":
            return "bytes"
    return "no match"


def match_capture_wildcard(x):
    match x:
        case 0:
            r = "zero"
        case _:
            r = "other"
    match x:
        case y:
            pass
    return r, type(y).__name__


def match_capture_guard(x):
    match x:
        case int(n) if n > 1:
            return "int>1", n
        case int(n) if n < 0:
            return "neg", n
        case str(s) if len(s) > 2:
            return "long str", s
        case str() as s:
            return "short str", s
        case other if other is None:
            return "none"
        case _:
            return "fallback"


def match_sequence(x):
    match x:
        case []:
            return "empty"
        case [a]:
            return "one", a
        case [a, b]:
            return "two", a + b
        case [a, *rest] if len(rest) > 1:
            return "many", a, rest
        case (a, b, c):
            return "three", a, b, c
        case _:
            return "not a sequence"


def match_sequence_star_middle(x):
    match x:
        case [first, *_, last]:
            return first, last
        case [*all_]:
            return all_
        case _:
            return None


def match_sequence_nested(x):
    match x:
        case [[a, b], [c, *d]]:
            return "nested", a, b, c, d
        case [(1 | 2) as head, *tail]:
            return "head12", head, tail
        case [int(), str()]:
            return "int-str"
    return "none"


def match_mapping(x):
    match x:
        case {"type": "pt", "x": px}:
            return "pt", px
        case {"k": 1}:
            return "k1"
        case {"k": k, **rest}:
            return "k", k, rest
        case {}:
            return "some mapping"
        case _:
            return "other"


def match_class(x):
    match x:
        case Pt(x=0, y=0):
            return "origin"
        case Pt(x=px, y=py) if px == py:
            return "diag", px
        case Pt(px, py):
            return "pt", px, py
        case Circle(0):
            return "dot"
        case Circle(r=r):
            return "circle", r
        case int() | float():
            return "number"
        case list() | tuple():
            return "seq"
        case dict():
            return "dict"
        case _:
            return "other"


def match_or_patterns(x):
    match x:
        case 0 | 1 | 2:
            return "small"
        case [0 | 1, 0 | 1]:
            return "bits"
        case {"k": 1 | 2} | {"type": "pt"}:
            return "mapping-or"
        case "a" | "hello":
            return "word"
    return "none"


def match_as_patterns(x):
    match x:
        case [1, 2] as pair:
            return "pair", pair
        case (int() | str()) as scalar:
            return "scalar", scalar
        case {"k": (1 | 2) as k} as whole:
            return "k", k, len(whole)
        case Pt() as p:
            return "pt", p.x
        case _ as anything:
            return "any", type(anything).__name__


def match_value_patterns(x):
    match x:
        case Color.RED:
            return "RED"
        case Color.GREEN:
            return "GREEN"
        case _:
            return "?"


def match_in_loop(x):
    out = []
    items = x if isinstance(x, (list, tuple)) else [x]
    for item in items:
        match item:
            case 1:
                continue
            case 3:
                break
            case n:
                out.append(n)
    return out


def match_no_default_falls_through(x):
    r = "initial"
    match x:
        case 0:
            r = "zero"
        case [_, _]:
            r = "pair"
    r += "!"
    return r


def match_return_from_all(x):
    match x:
        case int():
            return 1
        case str():
            return 2
        case _:
            return 3


def match_subject_expression(x):
    match x, type(x).__name__:
        case (0, _):
            return "zero"
        case (_, "str"):
            return "string"
        case (_, "list" | "tuple"):
            return "sequence"
        case _:
            return "other"


def match_guard_empty_bodies(x):
    log = []
    match x:
        case int() if x > 1:
            pass
        case [*_] if len(x) > 1:
            pass
        case _:
            log.append("default")
    log.append("end")
    return log


def match_or_tail_copies(x):
    match x:
        case [1 | 2, y]:
            return y
        case {"k": "a" | "b"}:
            return "k"
        case str() | bytes():
            return "text"
        case _:
            return None


def match_guard_side_effects(x):
    log = []

    def g(tag):
        log.append(tag)
        return False

    match x:
        case int() if g("int"):
            pass
        case [*_] if g("seq"):
            pass
        case _:
            log.append("default")
    return log


def match_nested_match(x):
    match x:
        case [a, b]:
            match a:
                case 1:
                    return "one-first", b
                case _:
                    return "pair", a
        case _:
            return "other"


def match_in_try(x):
    try:
        match x:
            case [a, b]:
                return a / b
            case _:
                raise KeyError(x)
    except ZeroDivisionError:
        return "div"
    except KeyError:
        return "key"


def match_string_dispatch(cmd):
    match cmd.split():
        case ["go", direction]:
            return "move " + direction
        case ["go", *_]:
            return "go where?"
        case ["look"]:
            return "looking"
        case ["take", item, *more] if more:
            return "take many", [item, *more]
        case ["take", item]:
            return "take " + item
        case []:
            return "empty"
        case _:
            return "unknown"


def match_walrus_and_ifexp(x):
    match (y := x if isinstance(x, int) else -1):
        case 0:
            r = "zero"
        case n if n > 0:
            r = "pos"
        case _:
            r = "neg"
    return r, y


CMDS = [("go north",), ("go",), ("go a b",), ("look",), ("take key",), ("take a b c",), ("",), ("jump",)]

# issue 11: a finally body with a guarded match that returns runs once

def match_guard_return_in_finally(a):
    log = []
    try:
        log.append(1)
    finally:
        match a:
            case 5 if log:
                return 4
            case _:
                log.append(2)
    return log



def match_guard_with_or(x):
    log = []
    match x:
        case 0:
            log.append(0)
        case int(v) if v <= (log.append(1) or v):
            log.append(v)
        case [v, *_] if 0 < v < (log.append(2) or 5):
            log.append(v)
        case _:
            log.append(None)
    return log



def match_guard_chain_walrus_in_and(x, b=3):
    log = []
    match x:
        case 0:
            log.append(0)
        case {"k": v} if 0 <= b == (v or 3):
            log.append(v)
        case [1 | 3, *_] if 0 < b < 5:
            log.append(1)
        case str() if (n := len(x)) in (1, 5):
            log.append(n)
        case _:
            log.append(None)
    return log


# issue 11 (fuzzer): guards whose code spans several blocks (and/or as a
# value, a conditional expression, a chained comparison, a walrus) and a
# guard the compiler found always false (neither it nor its body compiled)

def match_guard_or_value(x, b=0):
    log = []
    match x:
        case {"k": v}:
            log.append(v)
        case 0 if 5 >= (log.append(4) or b):
            log.append("zero")
        case [_, _] if (log.append(1) and b) or len(x) > 1:
            log.append("pair")
        case _:
            log.append("other")
    return log


def match_guard_chain_and_walrus(x, b=1):
    log = []
    match x:
        case int(v) if 0 < b != (log.append(v) or v):
            log.append(("int", v))
        case str() if (w := len(x)):
            log.append(("str", w))
        case [v, *_] if not (0 <= v < 3):
            log.append(("seq", v))
        case _:
            log.append("other")
    return log


def match_guard_ifexp(x, b=2):
    match x:
        case {"k": k} if 3 if b else 0:
            return k
        case [y, _] if y if y > 0 else b < 0:
            return y
        case int() if (x if b else -x) > 1:
            return -1
    return None


def match_guard_always_false(x):
    log = []
    match x:
        case {"k": 1 | 3} if not 1:
            log.append("never")
        case [1, *_] if 0:
            log.append("never")
        case v:
            log.append(v)
    return log


def match_guard_or_first(x, a=0, b=1):
    log = []
    match x:
        case int(v) if a or (5 < (log.append(2) or b)):
            log.append(("int", v))
        case {"k": 1 | 3} if b or (a and (log.append(x) or a)):
            log.append("k")
        case [*_] if not a or (log.append(3) or b) > 1:
            log.append("seq")
        case _:
            log.append("other")
    return log


def match_guard_not_chain(x, a=0, c=1):
    log = []
    match x:
        case [1, _] if not a < c > len(log):
            log.append("pair")
        case {"k": 1 | 3} if not a <= c < len(log):
            log.append("k")
        case v:
            log.append(v)
    return log


class _CM:
    """Records enter/exit into ``log``."""

    def __init__(self, log, tag):
        self.log, self.tag = log, tag

    def __enter__(self):
        self.log.append(("enter", self.tag))
        return self.tag

    def __exit__(self, t, v, tb):
        self.log.append(("exit", self.tag))


# 3.10: a with statement of two items closing a case: the inner exit jumps
# past the outer's cleanup to where the outer exit jumps (bench/fuzz.py 1400:1719)
def match_case_ends_in_with_two_items(x, log=None):
    log = []
    match x:
        case [_, _]:
            with _CM(log, 1) as a, _CM(log, 2) as b:
                log.append(a + b)
    assert log or x != 5
    return log


# 3.10: the code after the match, copied into each exit, yields: the copies
# are one place (bench/fuzz.py 1400:1297)
def match_case_with_then_yield(x, log=None):
    log = []
    match x:
        case [_, _]:
            with _CM(log, 1):
                log.append(x)
    return (yield log)


match_case_with_then_yield.drive_sends = True


# 3.10: a case whose body ends in a with statement followed by more code: the
# with's exit stops mid-block, the case goes on past it (bench/fuzz.py 5000:353)
def match_case_with_then_statement(x):
    log = []
    match x:
        case [_, _]:
            log.append("pair")
        case v:
            with _CM(log, 1):
                pass
            log.append(v)
    log.append("end")
    log.append(len(log))
    return log


# 3.10: a default case in a loop: the code after the match reaches the loop's
# header and from there the cases again (bench/fuzz.py 5000:494)
def match_default_in_loop(x, a=0):
    log = []
    n = 0
    while n < 2:
        n += 1
        match x:
            case [0, v]:
                log.append(v)
            case _:
                if a:
                    pass
                log.append(n)
    return log


# a guard whose last conjunct the compiler found false: its jump to the next
# case replaces the test (bench/fuzz.py 5000:22)
def match_guard_and_const_false(x):
    log = []
    match x:
        case int(v) if (log.append(v) or v) and not 1:
            log.append("never")
        case [_, _] if 0 <= len(log):
            log.append("pair")
    return log


# a guard ``chain or 4``: the chained comparison's false way jumps over its
# cleanup to the body, as its true way does (bench/fuzz.py 5000:125)
def match_guard_chain_or_const(x, b=1):
    log = []
    match x:
        case [0, _]:
            match x[1]:
                case int(v) if b != v <= len(log) or 4:
                    log.append(v)
                case [v, *s]:
                    log.append(s)
    return log


# an or-pattern jumps to a case body that only raises, inside a with inside a
# loop: no ``break`` (bench/fuzz.py 5000:1012)
def match_assert_in_with_in_loop(x):
    log = []
    n = 0
    while n < 2:
        n += 1
        with _CM(log, n):
            match x:
                case 0:
                    return log
                case {"k": 1 | 3}:
                    assert 0, 0
        continue
    return log

# the last case's body is an assert whose test reads like a guard: the tests
# jump past the body's start into the raise (bench/fuzz.py 5000:1060)
def match_last_case_assert(x, a=1, c=0):
    log = []
    match x:
        case 0 if log.append(0) or a:
            log.append("zero")
        case [0, v]:
            assert 0 != a and not (0 > c < len(log) + v), log
    return log


# the last case's guard goes where its empty body does, the code after the
# match (bench/fuzz.py 5000:923)
def match_last_case_empty_guarded(x, a=0):
    log = []
    n = 0
    while n < 2:
        n += 1
        match x:
            case 0:
                log.append("zero")
            case int(v) if not (log.append(v) or a):
                pass
        log.append(n)
    return log


# an or-pattern's alternatives jump to their case's cleanup, whose body is
# ``break``: that is no break target (bench/fuzz.py 5000:867)
def match_or_case_breaks(x):
    log = []
    n = 0
    while n < 4:
        n += 1
        match x:
            case [0, v]:
                log.append(v)
            case {"k": 1 | 3}:
                break
    log.append(n)
    return log


def match_guard_walk_meets_own_match(a, log=None):
    # fuzz 900:369 (3.13): reading the guard of the ``if`` after the case's
    # pattern walked on through ``continue`` into the same match statement,
    # and each level read it again - a hang
    log = []
    n = 0
    while n < 2:
        n += 1
        match {'k': a}:
            case 1 | 2:
                if a % 2:
                    continue
                yield 'x'
        log.append(n)
    return log


CASES = [
    (match_literal, SUBJECTS),
    (match_capture_wildcard, SUBJECTS),
    (match_capture_guard, SUBJECTS),
    (match_sequence, SUBJECTS),
    (match_sequence_star_middle, SUBJECTS),
    (match_sequence_nested, SUBJECTS + [([[1, 2], [3, 4, 5]],), ([2, 9],), ([1, "s"],)]),
    (match_mapping, SUBJECTS),
    (match_class, SUBJECTS),
    (match_or_patterns, SUBJECTS + [([0, 1],), ([1, 2],)]),
    (match_as_patterns, SUBJECTS),
    (match_value_patterns, SUBJECTS),
    (match_in_loop, SUBJECTS + [([5, 1, 2, 3, 4],)]),
    (match_no_default_falls_through, SUBJECTS),
    (match_return_from_all, SUBJECTS),
    (match_subject_expression, SUBJECTS),
    (match_guard_empty_bodies, [(0,), (5,), ([],), ([1, 2],), ("s",)]),
    (match_or_tail_copies, [([1, 5],), ([3, 5],), ({"k": "b"},), ({"k": "c"},), ("s",), (b"b",), (0,)]),
    (match_guard_side_effects, SUBJECTS),
    (match_nested_match, SUBJECTS + [([1, 9],)]),
    (match_in_try, SUBJECTS + [([1, 0],), ([6, 3],)]),
    (match_string_dispatch, CMDS),
    (match_walrus_and_ifexp, SUBJECTS),
    (match_guard_return_in_finally, [(5,), (3,), (None,)]),
    (match_guard_with_or, SUBJECTS + [([2, 1],), ([9],)]),
    (match_guard_chain_walrus_in_and, SUBJECTS + [({"k": 3},), ({"k": 0},), ({"k": 2},), ([3, 1],), ([1],)]),
    (match_guard_or_value, SUBJECTS + [(0, 9), ([1, 2], 1), ({"k": 3}, 1)]),
    (match_guard_chain_and_walrus, SUBJECTS + [(3, 5), (3, 3), ([7],), ("",)]),
    (match_guard_ifexp, SUBJECTS + [([-1, 2], 0), ([-1, 2], -1), (5, 0)]),
    (match_guard_always_false, SUBJECTS + [({"k": 3},), ([1, 2],)]),
    (match_guard_or_first, SUBJECTS + [(7, 1, 0), (7, 0, 9), ({"k": 3}, 0, 0), ({"k": 1}, 2, 0),
                                       ([1], 1, 0), ([1], 1, 5)]),
    (match_guard_not_chain, SUBJECTS + [([1, 2], 0, 5), ([1, 2], 2, 1), ({"k": 3}, 0, 5),
                                        ({"k": 3}, 3, 1)]),
    (match_case_ends_in_with_two_items, SUBJECTS + [([1, 2],), ((3, 4),)]),
    (match_case_with_then_yield, SUBJECTS + [([1, 2],), ((3, 4),)]),
    (match_case_with_then_statement, SUBJECTS),
    (match_default_in_loop, SUBJECTS + [([0, 5],), ([0, 5], 1), (3, 1)]),
    (match_guard_and_const_false, SUBJECTS),
    (match_guard_chain_or_const, SUBJECTS + [([0, 1],), ([0, 0],), ([0, 1], 2), ([0, [2, 3]],), ([0, []],)]),
    (match_assert_in_with_in_loop, SUBJECTS + [({"k": 3},), ({"k": 2},)]),
    (match_last_case_empty_guarded, SUBJECTS + [(5, 1), (0, 1)]),
    (match_or_case_breaks, SUBJECTS + [({"k": 3},), ({"k": 2},), ([0, 7],)]),
    (match_last_case_assert, SUBJECTS + [([0, 1],), ([0, 1], 0), ([0, 1], 1, -1), ([0, -5], 1, -1)]),
    (match_guard_walk_meets_own_match, [(1,), (2,), ({'k': 1},)]),
]


# a match case's guard is a chained comparison before a return, in a coroutine
# (3.13: the guard's last jump was left out of the exception table)
async def match_guard_chain_returns(a, b, c):
    match a:
        case [_, _]:
            if 0 < b != (c < 2) <= 5:
                return 1
    return b


def chain_asserted_in_match_case_in_generator(a, b, c):
    match a:
        case v:
            assert b < len([v]) != c
    v = yield 0
    yield v


chain_asserted_in_match_case_in_generator.drive_sends = True

CASES += [
    (match_guard_chain_returns, [([1, 2], 1, 0), ([1, 2], 3, 5), ([1, 2], 0, 1), (5, 1, 0), ((1, 2), 2, 9)]),
    (chain_asserted_in_match_case_in_generator, [(0, 1, 2), (1, 0, 1), (0, 0, 0), (2, -1, 3)]),
]


# a conditional expression inside an operand of a chain inside a match guard
# (3.11: the guard reader was handed the operand's own test - internal error)
def match_guard_chain_with_conditional_operand(k, s0, b, v0):
    match k:
        case 0 | 3 if (k >= len(s0) > (2 if b else 5)) >= v0:
            return 1
        case v0:
            return v0


CASES += [
    (match_guard_chain_with_conditional_operand,
     [(0, [1], True, 0), (0, [], True, 1), (3, [], False, False), (3, [1, 2, 3, 4], True, 0), (5, [], 1, 0)]),
]


# a match statement as a finally body, alone or followed by a short tail:
# 3.12+ copies the tail and the re-raise that ends the body into the case
# that falls out of the match ("finally body re-raises where no branch ends");
# 3.11 ends the inlined copy's case body with its own jump on, where the
# no-match path jumps to a lone jump ("finally body's inlined copy not found")
def finally_match_last(a, log):
    try:
        log.append(10 // a)
    finally:
        match a:
            case 0 | 2:
                log.append('m')
    return log


def finally_match_guard_then_code(a, b, log):
    try:
        log.append(10 // a)
    finally:
        match log:
            case [x] if x > b:
                log.append(x)
        v = b


CASES += [
    (finally_match_last, [(0, []), (2, []), (3, [])]),
    (finally_match_guard_then_code, [(0, 1, []), (2, 1, []), (2, 9, []), (5, 1, [1])]),
]


# capture patterns with guards that store (walruses) and read their capture (k) in a
# comprehension, then ``a = b = v`` and a loop: the subject copy followed by a store and a
# guard is a case, the copy followed by a store and statements is not (match.copy_then_consumed)
def match_capture_guard_walrus_then_loop(x, log):
    match x:
        case n if (m := len(log)) > n:
            log.append(m)
        case n if (k := n) and [j for j in range(k)]:
            for j in range(k):
                log.append(j)
        case _:
            log.append(-1)
    a = b = len(log)
    log.append(a)
    for c in range(b):
        log.append(c)
    return log


CASES += [
    (match_capture_guard_walrus_then_loop, [(0, []), (2, []), (-1, []), (3, [7]), (0, [1, 2])]),
]


# a chained comparison in a match case inside a try: 3.13 leaves its last
# test's jump out of the try's ranges ("chained comparison that could not be
# merged", 3.13)
def match_case_chain_in_try(a, b, c, log):
    try:
        match a:
            case 0:
                if 0 > (b or log.append(c) or c) == log.append(a):
                    pass
    finally:
        pass
    return log


CASES += [
    (match_case_chain_in_try, [(a, b, c, []) for a in (0, 1) for b in (0, -1, 1) for c in (0, -2)]),
]


# a match inside a try whose case ends in an ``assert`` or an ``if`` (3.13
# threads that test's jump to the match's end as a new instruction, left out
# of the exception table: the case's walk ran on past the match)
def match_case_ends_in_test_in_try(s, b, log):
    try:
        match s:
            case []:
                log.append(1)
            case 1:
                assert b <= 4
            case [0, v0]:
                log.append(v0)
                if b:
                    log.append(2)
            case v2:
                log.append(v2)
        log.append(3)
    finally:
        log.append(4)
    return log


CASES += [
    (match_case_ends_in_test_in_try,
     [([], 0, []), (1, 2, []), (1, 5, []), ([0, 7], 0, []), ([0, 7], 1, []), ("x", 0, [])]),
]


# a match that ends an except clause: each case leaves the clause through its
# own copy of the clause's exit (the ``as`` name's cleanup, a small return
# after the try statement), dropping the saved exception on its way
def match_ends_except_clause(s, b, log):
    for i in range(2):
        try:
            log.append(s[i])
        except (IndexError, TypeError) as e:
            match s:
                case [0, v1]:
                    if v1:
                        continue
                case 1 | 2:
                    log.append(e.__class__.__name__)
        log.append(5)
    return log


def match_ends_except_clause_before_return(s, log):
    try:
        log.append(s[0])
    except Exception:
        match s:
            case 1 | 2:
                log.append(1)
    return log


CASES += [
    (match_ends_except_clause, [([0, 1], 0, []), ([0], 0, []), (1, 0, []), ([0, 0, 3], 0, []), (5, 0, [])]),
    (match_ends_except_clause_before_return, [([3], []), (1, []), (2, []), (5, []), ([], [])]),
]


# a case that ends the except clause with a try statement of its own: the
# inner try's body falls into the outer clause's exit (the stack after the
# inner try is the one after that exit, without the outer exception)
def match_case_try_ends_except_clause(a, log):
    try:
        log.append(a[0])
    except (KeyError, TypeError) as e1:
        match a:
            case 1:
                try:
                    log.append(a)
                except ValueError:
                    pass
            case [_, _]:
                log.append(e1.__class__.__name__)
    finally:
        log.append(3)
    return log


CASES += [
    (match_case_try_ends_except_clause, [(1, []), ({}, []), ([5], []), (2, [])]),
]


# the only case that falls out of a match in nested with statements (the
# default raises): the code after the match, the with exits, is its alone,
# and its walk goes on into them (3.10)
def match_only_way_out_in_nested_with(s, log):
    with _CM(log, 1) as v1, _CM(log, 2):
        match s:
            case []:
                log.append(v1)
            case _:
                raise ValueError(s)
    return log


# match cases in a try/finally (3.10): one walks through its own inlined
# copy of the finally body, another stops at the shared one
def match_cases_end_around_finally_copy(s, b, log):
    try:
        match s:
            case 1 | 2:
                assert b
            case [0, v2] if 0 % 3:
                pass
            case _:
                pass
    finally:
        log.append("f")
    return log


# and where the finally body raises: every copy of it is a dead end
def match_cases_end_in_raising_finally(s, log):
    try:
        match s:
            case {"k": v1}:
                with _CM(log, v1):
                    pass
            case 0:
                return
    finally:
        if 0:
            pass
        raise KeyError(len(log))


CASES += [
    (match_only_way_out_in_nested_with, [([], []), ([1], []), (0, [])]),
    (match_cases_end_around_finally_copy,
     [(1, 1, []), (2, 0, []), ([0, 5], 1, []), ([0, 5], 0, []), ("x", 0, [])]),
    (match_cases_end_in_raising_finally, [({"k": 1}, []), (0, []), (3, [])]),
]


# a match ending an except clause in a try whose finally returns: one case
# leaves the clause through its own copy of the return, another through the
# clause's shared exit (3.11+)
def match_cases_leave_clause_two_ways(a, b, c, log):
    try:
        log.append(a[0])
    except (KeyError, TypeError, IndexError):
        match a:
            case {"k": v0} if c <= 2:
                log.append(v0)
            case [] if b:
                return 5
    finally:
        return log


CASES += [
    (match_cases_leave_clause_two_ways,
     [({"k": 1}, 0, 1, []), ({"k": 1}, 0, 3, []), ([], 1, 0, []), ([], 0, 0, []), (5, 0, 0, []), ([7], 0, 0, [])]),
]


# ``return`` (no value) in a match case inside a try/finally: the return
# follows the finally body's inlined copy, outside the protected range (3.13)
def match_case_returns_in_try_finally(a, c, log):
    try:
        match a:
            case int(v2) if c:
                log.append(v2)
                return
            case [0, v2]:
                pass
        log.append(1)
    finally:
        log.append(2)
    return log


CASES += [
    (match_case_returns_in_try_finally, [(1, 1, []), (1, 0, []), ([0, 3], 0, []), ("x", 1, [])]),
]


# an and/or as a statement whose right operand is an and/or of its own, in a
# case body: each way out of the inner one drops the value and jumps past the
# match ("short-circuit operand with statements", 3.11-3.13; fuzz 43:334)
def and_of_or_statement_in_case(a, b, c):
    log = []
    for x in [a, [a, b], [c]]:
        match x:
            case [v2, *s0]:
                (4 or 3) and (b or log.append(v2))
            case _:
                c or (b and log.append(x))
        log.append(0)
    return log


# a guard ``b and c`` whose true path falls into the subject's POP_TOP, alone
# in its block before the body's first test: the pop starts the body, it is
# no chained comparison's cleanup (3.12+)
def match_guard_and_before_body_test(a, b, c, log):
    match a:
        case {"k": 1}:
            log.append(0)
        case 2 if b and c:
            if log:
                return
        case v0:
            log.append(v0)
    return log


CASES += [
    (and_of_or_statement_in_case, [(0, 1, 2), (1, 0, 0), (0, 0, 1), ([], 3, 0)]),
    (match_guard_and_before_body_test,
     [({"k": 1}, 0, 0, []), (2, 1, 1, []), (2, 1, 1, [9]), (2, 0, 1, []), (2, 1, 0, []), (3, 1, 1, [])]),
]


# a match statement that ends a finally body: each case ends in the
# exceptional copy's own re-raise, and the ``case _`` body runs on into
# another; only a subject no case takes reaches it (3.11+)
def match_case_default_ends_finally(a, b, c, log):
    try:
        log.append(0)
    finally:
        match a:
            case [0, v2]:
                pass
            case {"k": 1} if b:
                if c:
                    return 4
                log.append(3)
            case _:
                log.append(1)
                if b:
                    log.append(2)
    return log


CASES += [
    (match_case_default_ends_finally,
     [([0, 5], 0, 0, []), ({"k": 1}, 1, 0, []), ({"k": 1}, 1, 1, []), ({"k": 1}, 0, 0, []), (7, 1, 0, []), (7, 0, 0, [])]),
]
