"""Functions with match statements (3.10+ syntax; imported by test_match.py
only where the interpreter has ``match``)."""
import dataclasses


@dataclasses.dataclass
class Pt:
    x: int
    y: int


class Color:
    RED = "red"
    GREEN = "green"


def lit_int(x):
    match x:
        case 0:
            return "zero"
        case 1:
            return "one"
    return "other"


def lit_str_bytes(x):
    match x:
        case "a":
            return 1
        case b"b":
            return 2
        case 2.5:
            return 3
        case -3:
            return 4
    return 0


def singletons(x):
    match x:
        case None:
            return "none"
        case True:
            return "true"
        case False:
            return "false"
    return "other"


def capture_last(x):
    match x:
        case 0:
            return "zero"
        case y:
            return ("got", y)


def wildcard_default(x):
    match x:
        case [1]:
            r = "one"
        case _:
            r = "default"
    return r


def value_dotted(x):
    match x:
        case Color.RED:
            return "R"
        case Color.GREEN:
            return "G"
    return "?"


def seq_fixed(x):
    match x:
        case []:
            return "empty"
        case [a]:
            return ("one", a)
        case [a, b]:
            return ("two", a, b)
        case (a, b, c):
            return ("three", a, b, c)
    return "no"


def seq_star(x):
    match x:
        case [a, *rest]:
            return (a, rest)
    return None


def seq_star_middle(x):
    match x:
        case [first, *mid, last]:
            return (first, mid, last)
        case _:
            return None


def seq_star_wild(x):
    match x:
        case [first, *_, last]:
            return (first, last)
        case [*_]:
            return "seq"
    return "no"


def seq_wildcards(x):
    match x:
        case [_, _]:
            return 2
        case [_, _, *_]:
            return 3
    return 0


def seq_nested(x):
    match x:
        case [[a, b], [c, *d]]:
            return (a, b, c, d)
        case [(1 | 2) as head, *tail]:
            return (head, tail)
    return "none"


def mapping_basic(x):
    match x:
        case {"k": 1}:
            return "k1"
        case {"k": v}:
            return ("k", v)
        case {}:
            return "mapping"
    return "other"


def mapping_rest(x):
    match x:
        case {"a": a, **rest}:
            return (a, rest)
        case {**rest}:
            return rest
    return None


def mapping_dotted_key(x):
    match x:
        case {Color.RED: v}:
            return v
    return None


def class_kw(x):
    match x:
        case Pt(x=0, y=0):
            return "origin"
        case Pt(x=0, y=yy):
            return ("yaxis", yy)
    return "no"


def class_positional(x):
    match x:
        case Pt(a, b) if a == b:
            return ("diag", a)
        case Pt(a, b):
            return ("pt", a, b)
    return "no"


def class_builtin(x):
    match x:
        case int(n):
            return ("int", n)
        case str() as s:
            return ("str", s)
        case list() | tuple():
            return "seq"
    return "other"


def class_single_case(x):
    match x:
        case Pt(x=a):
            return a
    return None


def or_values(x):
    match x:
        case 0 | 1 | 2:
            return "small"
        case "a" | "b":
            return "letter"
    return "none"


def or_with_capture(x):
    match x:
        case [a, 1] | [1, a]:
            return a
    return None


def or_nested(x):
    match x:
        case [0 | 1, 0 | 1]:
            return "bits"
    return "no"


def as_patterns(x):
    match x:
        case [1, 2] as pair:
            return pair
        case (int() | str()) as scalar:
            return ("scalar", scalar)
        case _ as anything:
            return ("any", anything)


def guards(x):
    match x:
        case int(n) if n > 10:
            return "big"
        case int(n) if n < 0 and n != -1:
            return "neg"
        case n if n is None:
            return "none"
        case _:
            return "other"


def guard_walrus(x):
    match x:
        case [a, b] if (s := a + b) > 3:
            return s
    return 0


def fallthrough(x):
    r = "start"
    match x:
        case 0:
            r = "zero"
        case [_, _]:
            r = "pair"
    r += "!"
    return r


def multi_statement_bodies(x):
    out = []
    match x:
        case [a, b]:
            out.append(a)
            out.append(b)
        case {"k": k}:
            out.append(k)
            if k:
                out.append("truthy")
        case _:
            out.append(None)
    return out


def in_loop(items):
    out = []
    for item in items:
        match item:
            case 1:
                continue
            case 3:
                break
            case n:
                out.append(n)
    return out


def in_while(items):
    i = 0
    out = []
    while i < len(items):
        i += 1
        match items[i - 1]:
            case "skip":
                continue
            case "stop":
                break
            case v:
                out.append(v)
    return out


def nested_match(x):
    match x:
        case [a, b]:
            match a:
                case 1:
                    return ("one", b)
                case _:
                    return ("pair", a)
        case _:
            return "other"


def subject_tuple(x):
    match x, len(x) if hasattr(x, "__len__") else -1:
        case (_, 0):
            return "empty"
        case ([a, *_], n):
            return (a, n)
    return "no"


def subject_call(cmd):
    match cmd.split():
        case ["go", direction]:
            return "move " + direction
        case ["look"]:
            return "look"
        case ["take", item, *more] if more:
            return ("many", item, more)
        case ["take", item]:
            return "take " + item
        case []:
            return "empty"
        case _:
            return "unknown"


def match_then_code(x):
    match x:
        case 1:
            y = 10
        case 2:
            y = 20
        case _:
            y = 0
    y += 1
    return y


def in_if(x, flag):
    if flag:
        match x:
            case [1]:
                return "one"
            case _:
                pass
        return "flag"
    return "noflag"


def match_global(x):
    global MATCHED
    match x:
        case [MATCHED]:
            return MATCHED
    return None


MATCHED = None


def closure_capture(x):
    match x:
        case [v]:
            pass
        case _:
            v = None

    def get():
        return v
    return get()


SUBJECTS = [(0,), (1,), (2,), (3,), (-1,), (-3,), (11,), (2.5,), ("a",), ("b",), (b"b",), (None,),
            (True,), (False,), ([],), ([1],), ([1, 2],), ([2, 1],), ([1, 2, 3],), ([1, 2, 3, 4],),
            ((4, 5),), ([[1, 2], [3, 4, 5]],), ([0, 1],), ([3, 1],), ({"k": 1},), ({"k": 0},),
            ({"k": 2, "v": "x"},), ({"a": 1, "b": 2},), ({},), ({"red": 5},), (Pt(0, 0),), (Pt(0, 3),),
            (Pt(2, 2),), (Pt(1, 2),), ("red",), ("green",), ("hello",), ((),), ([5, 1, 2, 3, 4],)]

CASES = [(fn, SUBJECTS) for fn in [
    lit_int, lit_str_bytes, singletons, capture_last, wildcard_default, value_dotted, seq_fixed,
    seq_star, seq_star_middle, seq_star_wild, seq_wildcards, seq_nested, mapping_basic,
    mapping_rest, mapping_dotted_key, class_kw, class_positional, class_builtin,
    class_single_case, or_values, or_with_capture, or_nested, as_patterns, guards, guard_walrus,
    fallthrough, multi_statement_bodies, nested_match, subject_tuple, match_then_code,
    match_global, closure_capture]]
CASES += [
    (in_loop, [([1, 2, 3, 4],), ([5, 1, 2],), ([],)]),
    (in_while, [(["a", "skip", "b", "stop", "c"],), ([],), (["x"],)]),
    (subject_call, [("go north",), ("go",), ("look",), ("take key",), ("take a b c",), ("",), ("jump",)]),
    (in_if, [(1, True), ([1], True), ([2], True), ([1], False)]),
]
