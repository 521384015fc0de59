"""Differential cases: expressions and simple statements.

Each function is run original vs decompiled on every input of its entry in
``CASES`` (see test_differential.py); results and raised exception types
must match."""
import os
import os.path
import collections.abc

G_COUNTER = 0
G_NAME = "g"
INTS2 = [(1, 2), (5, 3), (0, 7), (-4, 9), (7, -7)]
INTS3 = [(1, 2, 3), (0, 0, 0), (3, -1, 2), (-2, 5, 0), (4, 4, 4)]


# ---------------------------------------------------------------- arithmetic

def arith_precedence(a, b, c):
    return a + b * c, (a + b) * c, a - b - c, a - (b - c), a * b % 7 + c, -a ** 2, (-a) ** 2


def arith_power_assoc(a, b):
    return 2 ** 3 ** 2, (2 ** 3) ** 2, a ** 2 ** 1, -(a ** 2), 2 ** -1


def arith_division(a, b):
    return a / b, a // b, a % b, divmod(a, b), -a // b, -(a // b)


def arith_floats(a, b):
    x = a * 1.5 - b / 4
    return round(x, 3), x > 0, int(x), 1e3 + a, 0.1 + 0.2 == 0.3


def bitwise_precedence(a, b, c):
    return a | b & c, (a | b) & c, a ^ b | c, a << 1 + b % 3, (a << 1) + 1, a & ~b, ~a & b, a >> 1 ^ c


def bitwise_shifts(a, b):
    return a << (b % 8), a >> (abs(b) % 4), (a | 0xF0) ^ 0x0F, -a & 0xFF


def unary_ops(a, b):
    return -a, +a, ~a, not a, -(-a), not not b, -~a, ~-a, - -b


def mixed_unary_binary(a, b):
    return -a * b, -(a * b), not a == b, not (a == b), (not a) == b, -a ** 2 + ~b


def complex_numbers(a, b):
    z = complex(a, b)
    return (z * 2j).real, abs(z) > 1, z.conjugate() == complex(a, -b)


def big_ints(a, b):
    return (a + 10 ** 30) * (b - 10 ** 20), 2 ** 100 // (abs(b) + 1)


def string_ops(a, b):
    s = "ab" * (abs(a) % 3) + "-" + str(b)
    return s, s.upper(), s[::-1], len(s), "x" in s, s.split("-"), s.replace("-", "+")


def string_concat_implicit(a, b):
    s = ("first " "second "
         "third")
    return s + str(a), b"bytes" + bytes([abs(b) % 256])


# -------------------------------------------------------------- comparisons

def cmp_chain_simple(a, b, c):
    return a < b < c, a <= b <= c, a < b > c, a == b == c, a != b != c


def cmp_chain_long(a, b, c):
    return 0 <= a < b <= c < 10, a < b < c < a + 100


def cmp_chain_calls(a, b, c):
    calls = []

    def f(x):
        calls.append(x)
        return x

    r = f(a) < f(b) < f(c)
    return r, calls


def cmp_identity_membership(a, b):
    xs = [a, 2, 3]
    return a is b, a is not None, b in xs, b not in xs, None is None, (a in xs) in [True]


def cmp_chain_in_condition(a, b, c):
    if a < b < c:
        return "inc"
    elif a > b > c:
        return "dec"
    elif a == b == c:
        return "eq"
    return "other"


def cmp_mixed_types(a, b):
    return a < b, [a] < [b], (a, b) < (b, a), "a" < "b" < "c"


# ------------------------------------------------------- boolean as values

def bool_or_value(a, b):
    return a or b


def bool_and_value(a, b):
    return a and b


def bool_and_or_mix(a, b, c):
    return a or b and c, (a or b) and c, a and b or c, a and (b or c)


def bool_not_groups(a, b, c):
    return not (a and b), not a and b, not (a or b) or c, not (a or (b and not c))


def bool_deep_nesting(a, b, c):
    return (a and b) or (b and c) or (a and c), ((a or b) and (b or c)) and (a or c)


def bool_short_circuit_effects(a, b, c):
    log = []

    def t(x):
        log.append(x)
        return x

    r = t(a) and t(b) or t(c)
    r2 = t(a) or (t(b) and t(c))
    return r, r2, log


def bool_in_if(a, b, c):
    if a and b or c:
        x = 1
    else:
        x = 2
    if not (a or b) and c:
        x += 10
    if a and (b or not c):
        x += 100
    return x


def bool_in_if_complex(a, b, c):
    r = []
    if (a or b) and (b or c) and not (a and c):
        r.append(1)
    if a or (b and c) or not b:
        r.append(2)
    if not a and not b or not c:
        r.append(3)
    return r


def bool_values_assigned(a, b, c):
    x = a and b
    y = a or b or c
    z = (a and b and c) or None
    return x, y, z


def bool_with_compare(a, b, c):
    return a < b and b < c or a == c, 0 < a and not b > c


# ------------------------------------------------- conditional expressions

def ifexp_simple(a, b):
    return a if a > b else b


def ifexp_nested_else(a, b, c):
    return "a" if a > b else "b" if b > c else "c"


def ifexp_nested_body(a, b, c):
    return (a if a > c else c) if a > b else (b if b > c else c)


def ifexp_with_bool(a, b, c):
    return (a and b) if (b or c) else (c or a)


def ifexp_as_arg(a, b):
    return max(a if a else 1, b if b > 0 else -b), [x if x % 2 else -x for x in range(abs(a) + 2)]


def ifexp_in_condition(a, b, c):
    if (a if b else c):
        return 1
    return 0


# ------------------------------------------------------------------- walrus

def walrus_in_if(a, b):
    if (n := a * b) > 10:
        return n, "big"
    return n, "small"


def walrus_in_while(a, b):
    items = list(range(abs(a) + abs(b)))
    out = []
    while (x := items.pop() if items else None) is not None:
        out.append(x * 2)
    return out


def walrus_in_comprehension(a, b):
    data = [a, b, a + b, a - b]
    return [y for x in data if (y := x * x) > 4], y


def walrus_in_comprehension_value(a, b):
    total = 0
    vals = [total := total + x for x in range(abs(a) + 1)]
    return vals, total


def walrus_nested_expr(a, b):
    return (x := a + 1) * (y := b - 1) + x + y


def walrus_in_bool(a, b):
    r = (p := a) and (q := b)
    return r, p, q if a else None


# ---------------------------------------------------------------- f-strings

def fstring_basic(a, b):
    return f"{a}", f"{a}{b}", f"a={a} b={b}", f"{a + b}", f"{{literal}} {a}"


def fstring_format_spec(a, b):
    return f"{a:>6}", f"{a:<6}|", f"{a:^7}", f"{a:+d}", f"{a:08.3f}", f"{a:x}", f"{a:#b}", f"{abs(a) * 1000:,}"


def fstring_nested_spec(a, b):
    w = abs(b) % 10 + 1
    p = abs(a) % 4
    return f"{a:{w}}", f"{a / 3:{w}.{p}f}", f"{'x':>{w}}", f"{a:{'<' if b > 0 else '>'}{w}}"


def fstring_conversions(a, b):
    s = "q'\"" + str(a)
    return f"{s!r}", f"{s!s}", f"{s!a}", f"{s!r:>20}", f"{b!r:^9}"


def fstring_debug(a, b):
    return f"{a=}", f"{a + b = }", f"{b=!s}", f"{a=:>4}"


def fstring_expressions(a, b):
    d = {"k": a}
    xs = [a, b]
    return f"{d['k']}-{xs[-1]}-{len(xs)}-{a if a > b else b}-{[x * 2 for x in xs]}"


def fstring_multi_line(a, b):
    return (f"first {a} "
            f"second {b!r} "
            "plain "
            f"third {a * b:5d}")


def fstring_bytes_and_format(a, b):
    return format(a, ">5"), "%d-%s" % (a, b), "{}:{}".format(a, b), "{0!r:>4}".format(b)


# -------------------------------------------------------------------- slices

def slice_all_forms(a, b):
    s = list(range(10))
    return s[a:b], s[a:], s[:b], s[:], s[::2], s[a::], s[:b:], s[::-1], s[a:b:2], s[b:a:-1], s[-3:]


def slice_extended(a, b):
    m = "slice(1, 2, None)"
    class _S:
        def __getitem__(self, key):
            return repr(key)
    o = _S()
    return o[a:b, ::2], o[..., a], o[a, b:], o[:, :, 1], o[1:2, ::3] == m and 0


def slice_assignment(a, b):
    s = list(range(8))
    s[a:b] = ["x", "y"]
    t = list(range(8))
    t[::2] = "abcd"
    u = list(range(5))
    u[:] = [a, b]
    return s, t, u


def slice_step_assignment_error(a, b):
    s = list(range(8))
    s[::2] = [a] * abs(b)
    return s


def slice_deletion(a, b):
    s = list(range(10))
    del s[a:b]
    t = list(range(10))
    del t[::3]
    u = list(range(10))
    del u[:], s[0]
    return s, t, u


def slice_negative_and_none(a, b):
    s = "abcdefghij"
    lo = None if a < 0 else a
    hi = None if b < 0 else b
    return s[lo:hi], s[-a:], s[:-b], s[slice(a, b)]


def slice_aug_assign(a, b):
    s = [1, 2, 3, 4, 5]
    s[1:3] += [a]
    s[a % 5] += b
    return s


# ------------------------------------------------------------ star unpacking

def star_in_call(a, b):
    args = [a, b]
    kw = {"sep": "-"}
    return "/".join(map(str, [*args, *args])), max(*args, 0), print_like(*args, *[9], **kw, end="!")


def print_like(*args, sep=" ", end="\n", **rest):
    return sep.join(map(str, args)) + end + str(sorted(rest))


def star_in_call_kwargs(a, b):
    d1 = {"x": a}
    d2 = {"y": b}
    return kwfn(**d1, **d2), kwfn(1, *[2], z=3, **d1), kwfn(*(a,), **{"q": b})


def kwfn(*args, **kwargs):
    return args, sorted(kwargs.items())


def star_in_call_duplicate(a, b):
    d = {"x": a} if a > 0 else {"y": a}
    return kwfn(x=b, **d)


def star_in_list_tuple_set(a, b):
    xs = [a, b]
    return [*xs, 0, *xs], (*xs, *xs), {*xs, 9}, (*xs,), [*range(abs(a) % 4)]


def star_in_dict(a, b):
    d = {"a": a}
    e = {"b": b, "a": -a}
    return {**d, **e}, {**e, **d}, {"z": 0, **d, "a": 99}, {**{}}


def star_unpack_assign(a, b):
    first, *mid, last = range(abs(a) + 3)
    *init, tail = [a, b, a]
    head, *rest = "xyz"
    (p, *q), r = [a, b, b], a
    return first, mid, last, init, tail, head, rest, p, q, r


def star_unpack_error(a, b):
    x, y, *z = range(abs(a))
    return x, y, z


def unpack_nested(a, b):
    (x, y), (z, [w, v]) = (a, b), (b, [a, a + b])
    for i, (j, k) in enumerate([(a, b), (b, a)]):
        x += i * j - k
    return x, y, z, w, v


def unpack_repeated_name(a, b):
    # 3.13 turns a store that the next one overwrites into POP_TOP
    _, _, c = a, b, a + b
    out = []
    for tag, _, _, _, v in [(a, 1, 2, 3, b), (b, 4, 5, 6, a)]:
        out.append((tag, v, _))
    return c, _, out, any(t > 0 for t, _, _ in [(a, b, 1), (b, a, 2)])

def unpack_wrong_count(a, b):
    x, y = [a] * abs(b)
    return x, y


# ----------------------------------------------------------------- displays

def display_dict(a, b):
    return {"a": a, "b": b, a: b, (a, b): [a], None: {}}, {}, dict(a=a)


def display_dict_dup_keys(a, b):
    return {1: a, 1: b, True: "t"}


def display_set(a, b):
    return {a, b, a}, set(), {(a, b), (b, a)}, frozenset({a}) | {b}


def display_list_tuple(a, b):
    return [a, [b, [a, [b]]]], (a,), (), (a, (b, (a,))), [[]], [(), ()]


def display_constants(a, b):
    return (1, 2, 3), [1, 2, 3], {1, 2, 3}, (1, (2, 3), "x", None, True, 1.5, -2, b"z"), ..., a * 0


def display_large_list(a, b):
    return [a, b, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22,
            23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, a + b]


def display_large_dict(a, b):
    return {"k%d" % i: i for i in range(3)} == {"k0": 0, "k1": 1, "k2": 2}, {
        "a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6, "g": 7, "h": 8, "i": 9, "j": 10,
        "k": 11, "l": 12, "m": 13, "n": 14, "o": 15, "p": 16, "q": 17, "r": a, "s": b}


# ------------------------------------------------------------ comprehensions

def comp_list_basic(a, b):
    return [x * 2 for x in range(a, b)]


def comp_multiple_ifs(a, b):
    return [x for x in range(-10, 10) if x % 2 if x > a if x < b]


def comp_nested_loops(a, b):
    return [(x, y) for x in range(abs(a) % 4) for y in range(abs(b) % 4) if x != y]


def comp_dependent_loops(a, b):
    return [y for x in range(abs(a) % 5) for y in range(x) if (x + y) % 2 == 0]


def comp_nested_comprehension(a, b):
    return [[x * y for y in range(abs(b) % 4)] for x in range(abs(a) % 4)]


def comp_set_dict(a, b):
    return {x % 3 for x in range(a, b)}, {x: x * x for x in range(a, b) if x}, {k: v for k, v in zip("abc", range(a, a + 3))}


def comp_generator_expr(a, b):
    g = (x * x for x in range(a, b))
    return sum(g), list(x for x in range(3)), any(x > b for x in range(a)), tuple(i for i in "ab" if i)


def comp_uses_outer_names(a, b):
    k = a * 2
    return [x + k for x in range(3)], {x: k for x in range(2)}, [lambda: x for x in range(2)][0]()


def comp_closure_capture(a, b):
    fs = [lambda y, x=x: x + y + a for x in range(3)]
    return [f(b) for f in fs]


def comp_shadowing(a, b):
    x = "outer"
    r = [x for x in range(abs(a) % 5)]
    return r, x


def comp_unpacking_target(a, b):
    pairs = [(a, b), (b, a), (a, a)]
    return [x - y for x, y in pairs], {k: v for (k, v) in pairs}, [z for _, z in sorted(pairs)]


def comp_with_conditional_expr(a, b):
    return [x if x > a else -x for x in range(b)], [x for x in range(b) if (x if a else not x)]


def comp_error_inside(a, b):
    return [10 // x for x in range(a, b)]


def comp_nested_generator_in_list(a, b):
    return [sum(y for y in range(x)) for x in range(abs(a) % 5)], sorted({abs(x) for x in (a, b, -a)})


def comp_async_free_star(a, b):
    xs = [a, b]
    return [*(x for x in xs), *[y * 2 for y in xs]]


# ----------------------------------------------------------------- lambdas

def lambda_basic(a, b):
    f = lambda x: x * 2
    g = lambda: a
    h = lambda x, y=3: x + y
    return f(a), g(), h(b), h(1, 2)


def lambda_defaults_kwonly(a, b):
    f = lambda x, *, k=a: x - k
    g = lambda *args, **kw: (args, sorted(kw))
    h = lambda x, /, y=b: (x, y)
    return f(b), f(b, k=1), g(1, 2, z=3), h(a), h(a, y=0)


def lambda_closure(a, b):
    f = lambda x: lambda y: x + y + a
    return f(b)(1), (lambda: (lambda: b)())()


def lambda_sort_key(a, b):
    xs = [(a, "x"), (b, "y"), (a + b, "z")]
    return sorted(xs, key=lambda p: (-p[0], p[1])), max(xs, key=lambda p: abs(p[0]))


def lambda_with_ifexp_and_bool(a, b):
    f = lambda x: "pos" if x > 0 else "neg" if x < 0 else "zero"
    g = lambda x, y: x and y or None
    return f(a), f(b), g(a, b)


def lambda_default_evaluated_once(a, b):
    fs = []
    for i in range(3):
        fs.append(lambda i=i: i * a)
    return [f() for f in fs]


# ----------------------------------------------------------- calls & attrs

def call_keywords(a, b):
    return sorted([b, a, 3], key=abs, reverse=a > b), dict(x=a, y=b), int("11", base=2 + abs(a) % 3)


def call_method_chain(a, b):
    s = " Hello World "
    return s.strip().lower().replace("o", str(a)).split(), "-".join(str(x) for x in (a, b)).upper()


def call_nested(a, b):
    return abs(min(a, b, max(a - b, b - a))), len(str(abs(a * b)))


def attribute_access(a, b):
    import types
    o = types.SimpleNamespace(x=a, y=types.SimpleNamespace(z=b))
    o.y.z += 1
    o.w = o.x * 2
    del o.x
    return o.y.z, o.w, hasattr(o, "x")


def attribute_missing(a, b):
    import types
    o = types.SimpleNamespace(x=a)
    if b > 0:
        del o.x
    return o.x


def subscript_ops(a, b):
    d = {"k": [a, b]}
    d["k"][0] = b
    d["k"][1] += a
    d["n"] = {"m": a}
    d["n"]["m"] -= 1
    del d["k"][0]
    return d


def subscript_missing(a, b):
    d = {1: "one", 2: "two"}
    return d[a], d.get(b, "none")


def index_error(a, b):
    xs = [1, 2, 3]
    return xs[a] + xs[b]


# -------------------------------------------------------------- assignment

def assign_chained(a, b):
    x = y = z = a + b
    p = q = [a]
    p.append(b)
    return x, y, z, q


def assign_multi_targets(a, b):
    d = {}
    l = [0, 0]
    d["x"], l[0], l[1] = a, b, a * b
    return d, l


def aug_assign_names(a, b):
    x = a
    x += b
    x -= 1
    x *= 3
    x //= 2 if b else 1
    x %= 1000
    x **= 2
    x <<= 1
    x >>= 2
    x &= 0xFFFF
    x |= 1
    x ^= 3
    y = float(a)
    y /= 4
    return x, y


def aug_assign_attributes(a, b):
    import types
    o = types.SimpleNamespace(v=a, s="s", l=[])
    o.v += b
    o.v *= 2
    o.s += str(b)
    o.l += [a]
    o.v -= o.v // 3
    return o.v, o.s, o.l


def aug_assign_subscripts(a, b):
    d = {"x": a, "y": [1]}
    l = [a, b, 0]
    d["x"] += b
    d["y"] += [b]
    l[0] *= 2
    l[-1] -= a
    l[a % 3] |= 4
    m = [[a]]
    m[0][0] += 1
    return d, l, m


def aug_assign_matmul_like(a, b):
    class _M:
        def __init__(self, v):
            self.v = v
        def __matmul__(self, o):
            return _M(self.v * o.v + 1)
        def __imatmul__(self, o):
            self.v = self.v - o.v
            return self
    m = _M(a)
    r = (m @ _M(b)).v
    m @= _M(b)
    return r, m.v


def annotated_assign(a, b):
    x: int = a
    y: "str"
    z: list = [b]
    import types
    o = types.SimpleNamespace()
    o.attr: int = a + b
    d = {}
    d["k"]: int = b
    return x, z, o.attr, d


def annotated_no_value(a, b):
    y: int
    return a


# ------------------------------------------------------------------- del

def del_name(a, b):
    x = a
    y = b
    del x
    z = y * 2
    del y, z
    return a + b


def del_then_use(a, b):
    x = a
    if b > 0:
        del x
    return x


def del_subscript_and_slice(a, b):
    d = {1: "a", 2: "b", 3: "c"}
    l = list(range(10))
    del d[a]
    del l[b], l[1:3]
    return d, l


def del_attribute(a, b):
    import types
    o = types.SimpleNamespace(p=a, q=b)
    del o.p
    return vars(o)


# ---------------------------------------------------------- global, import

def global_assign(a, b):
    global G_COUNTER
    G_COUNTER = a * 10 + b
    return G_COUNTER + 1


def global_read_and_aug(a, b):
    global G_NAME
    G_NAME = "g"
    G_NAME += str(a)
    return G_NAME, G_COUNTER is not None


def global_del(a, b):
    global G_TEMP
    G_TEMP = a
    r = G_TEMP + b
    del G_TEMP
    return r, "G_TEMP" in globals()


def import_forms(a, b):
    import os.path
    import os.path as osp
    import collections.abc as cabc
    from os import path as p, sep
    from os.path import join
    import json, math
    return (os.path.join("a", str(a)) == osp.join("a", str(a)) == p.join("a", str(a)) == join("a", str(a)),
            sep == os.sep, math.floor(a / 3), json.dumps([a, b]), issubclass(list, cabc.Sequence))


def import_inside_branch(a, b):
    if a > b:
        import math as m
        return m.gcd(a, b)
    else:
        from math import floor as fl, ceil
        return fl(a / 2) + ceil(b / 2)


def import_from_missing(a, b):
    if a > 0:
        from os import no_such_name_here
    return a


def import_dotted_module_attr(a, b):
    import xml.etree.ElementTree
    e = xml.etree.ElementTree.Element("x", a=str(a))
    return e.get("a"), xml.etree.ElementTree.tostring(e) != b""


# ------------------------------------------------------------ misc exprs

def builtins_mix(a, b):
    return list(zip(range(a, a + 3), "abc")), list(enumerate([b, a], start=1)), sorted(map(abs, [a, -b])), list(filter(None, [a, 0, b]))


def tuple_swap_rotate(a, b, c):
    a, b, c = c, a, b
    a, b = b, a
    return a, b, c


def conditional_import_name(a, b):
    name = "x" if a else "y"
    return {"x": 1, "y": 2}[name], str.__name__


def ellipsis_none_true(a, b):
    x = ...
    return x is Ellipsis, None if a else True, type(None)(), NotImplemented is not None


def starred_return_tuple(a, b):
    rest = [a, b]
    return (0, *rest)


def long_expression(a, b, c):
    return ((a + b) * (c - a) // ((b ** 2) + 1) % 97) + (a & b | c ^ (a << 2)) - ((~c) >> 1) + (a if b else c) * 3



def _seen(log, v):
    log.append(v)
    return v


def ifexp_before_copied_exit(log, a, b):
    # 3.10+ copies the rest of the expression (``* ...; +; return``) into
    # both branches of the conditional expression: it must run once
    return _seen(log, a) + (_seen(log, b) if a > b else -b) * _seen(log, 2), log


def ifexp_before_copied_call(log, a, b):
    return _seen(log, "f")(log, a if b else _seen(log, b))


def _exc_for(log):
    return KeyError if log else ValueError


def ifexp_before_copied_raise(a, b):
    # 3.10, 3.12+ copy ``CALL; RAISE_VARARGS`` into both branches; the
    # exception class is looked up before the test runs (issue 11)
    log = []
    raise _exc_for(log)(a if _seen(log, b) else -a)


def ifexp_with_or_before_copied_raise(a, b):
    # 3.10+ copies ``CALL; RAISE_VARARGS`` into both branches; the true
    # branch's value has an ``or`` of its own, the copy starts where it joins
    # (bench/fuzz.py 5000:429)
    log = []
    raise _exc_for(log)(_seen(log, a) or b if _seen(log, b) else -a)


def ifexp_with_and_before_copied_return(log, a, b):
    # the same before a copied ``+ ...; return``, both branches with a
    # short circuit of their own
    return _seen(log, 1) + ((_seen(log, a) and b) if a > b else (b or _seen(log, 3)))


def _value(x):
    return x() if callable(x) else x


def ifexp_lambda_before_copied_return(log, a, b):
    # a lambda (with defaults, with a closure) is a plain expression step:
    # the copied ``CALL; +; return`` after it (bench/fuzz.py 5000:432)
    return _seen(log, 1) + _value(a if b else lambda q=3: q * 2)


def ifexp_closure_before_copied_return(log, a, b):
    return _seen(log, 1) + _value(a if b else lambda q=3: q + a)


def assert_message_ifexp_with_or(a, b):
    # 3.10+ copies the assert's ``CALL; RAISE_VARARGS`` into both branches of
    # its message (bench/fuzz.py 5000:37)
    log = []
    assert a, _seen(log, a) or b if b >= 1 else log


def ifexp_test_ending_in_constant(a):
    # ``x or 1`` / ``x and 0`` tests x only: both ways go on at the same place,
    # in the middle of the expression (issue 11)
    log = []
    first = _seen(log, "l") + (_seen(log, "b") if _seen(log, a) or 1 else "d")
    second = _seen(log, "l") + ("d" if _seen(log, a) and 0 else _seen(log, "e"))
    return first, second, log


def ifexp_ending_statement_return(a, b):
    if a:
        return (a if b else 3) * 2
    return b



class _Truth:
    """Records each truth test of it into ``log``."""

    def __init__(self, log, name, value):
        self.log, self.name, self.value = log, name, value

    def __bool__(self):
        self.log.append(self.name)
        return self.value


def bool_nested_same_op(log, a, b, c):
    # the parenthesized operation's value is tested again (3.12+ bytecode)
    x, y, z = _Truth(log, "x", a), _Truth(log, "y", b), _Truth(log, "z", c)
    r1 = (x and y) and z
    r2 = (x or y) or z
    r3 = x and y and z
    return log, r1.name, r2.name, r3.name



def star_call_dict_literals(a, b):
    # keyword groups and ``**{...}`` displays stay apart: a duplicate key is
    # a TypeError when the call runs, not a SyntaxError
    xs = [a]
    out = [kwfn(*xs, x=1, **{"y": b}), kwfn(*xs, **{"class": a}), {**{}, **{"k": a}}]
    try:
        kwfn(*xs, x=a, **{"x": b})
    except TypeError as e:
        out.append(type(e).__name__)
    try:
        kwfn(*xs, **{1: b})
    except TypeError as e:
        out.append(type(e).__name__)
    return out


class LoudStr:
    """A value whose str() shows when it runs."""

    def __init__(self, log, tag):
        self.log, self.tag = log, tag

    def __str__(self):
        self.log.append(("str", self.tag))
        return str(self.tag)


def percent_format_of_fstring(log, a, b):
    # the f-prefix keeps the compiler (3.11+) from folding the % into an f-string:
    # both operands are computed before either is turned into text
    x = f"<%s|%r>" % (LoudStr(log, a), log.append(("second", b)))
    y = "<%s|%s>" % (LoudStr(log, b), log.append(("third", a)))   # folded on 3.11+
    return x, y, log


CASES = [
    (percent_format_of_fstring, [([], 1, 2), ([], "a", None)]),
    (arith_precedence, INTS3),
    (arith_power_assoc, INTS2),
    (arith_division, INTS2 + [(1, 0), (-7, 2)]),
    (arith_floats, INTS2 + [(1, 0)]),
    (bitwise_precedence, INTS3),
    (bitwise_shifts, INTS2 + [(-1, 3)]),
    (unary_ops, INTS2),
    (mixed_unary_binary, INTS2),
    (complex_numbers, INTS2),
    (big_ints, INTS2),
    (string_ops, INTS2),
    (string_concat_implicit, INTS2),
    (cmp_chain_simple, INTS3 + [(1, 2, 1), (3, 2, 1)]),
    (cmp_chain_long, INTS3 + [(1, 2, 3), (0, 5, 9)]),
    (cmp_chain_calls, INTS3 + [(1, 2, 3), (3, 1, 2)]),
    (cmp_identity_membership, INTS2 + [(2, 2), (None, None)]),
    (cmp_chain_in_condition, INTS3 + [(1, 2, 3), (3, 2, 1)]),
    (cmp_mixed_types, INTS2 + [(1, "x")]),
    (bool_or_value, [(0, 5), (3, 5), ("", []), (None, 0), ([1], 0)]),
    (bool_and_value, [(0, 5), (3, 5), ("", []), (None, 0), ([1], "x")]),
    (bool_and_or_mix, [(x, y, z) for x in (0, 1) for y in (0, 2) for z in (0, 3)]),
    (bool_not_groups, [(x, y, z) for x in (0, 1) for y in (0, 2) for z in (0, 3)]),
    (bool_deep_nesting, [(x, y, z) for x in (0, 1) for y in ("", "b") for z in (None, 3)]),
    (bool_short_circuit_effects, [(x, y, z) for x in (0, 1) for y in (0, 2) for z in (0, 3)]),
    (bool_in_if, [(x, y, z) for x in (0, 1) for y in (0, 2) for z in (0, 3)]),
    (bool_in_if_complex, [(x, y, z) for x in (0, 1) for y in (0, 2) for z in (0, 3)]),
    (bool_values_assigned, [(x, y, z) for x in (0, 1) for y in (0, 2) for z in (0, 3)]),
    (bool_with_compare, INTS3 + [(1, 2, 3), (1, 0, 1)]),
    (ifexp_simple, INTS2),
    (ifexp_nested_else, INTS3 + [(1, 2, 3), (3, 2, 1)]),
    (ifexp_nested_body, INTS3 + [(1, 2, 3), (3, 2, 1), (2, 1, 3)]),
    (ifexp_with_bool, [(x, y, z) for x in (0, 1) for y in (0, 2) for z in (0, 3)]),
    (ifexp_as_arg, INTS2),
    (ifexp_in_condition, [(x, y, z) for x in (0, 1) for y in (0, 2) for z in (0, 3)]),
    (walrus_in_if, INTS2 + [(4, 4)]),
    (walrus_in_while, INTS2),
    (walrus_in_comprehension, INTS2),
    (walrus_in_comprehension_value, INTS2),
    (walrus_nested_expr, INTS2),
    (walrus_in_bool, [(0, 1), (2, 0), (3, 4)]),
    (fstring_basic, INTS2 + [("s", None)]),
    (fstring_format_spec, INTS2 + [(2.5, 0), ("s", 1)]),
    (fstring_nested_spec, INTS2),
    (fstring_conversions, INTS2 + [(0, "é")]),
    (fstring_debug, INTS2),
    (fstring_expressions, INTS2),
    (fstring_multi_line, INTS2 + [(1, "x")]),
    (fstring_bytes_and_format, INTS2),
    (slice_all_forms, INTS2 + [(-3, -1), (8, 2)]),
    (slice_extended, INTS2),
    (slice_assignment, INTS2 + [(5, 2)]),
    (slice_step_assignment_error, [(0, 4), (0, 3)]),
    (slice_deletion, INTS2 + [(2, 6)]),
    (slice_negative_and_none, INTS2 + [(-1, -1), (3, -2)]),
    (slice_aug_assign, INTS2),
    (star_in_call, INTS2),
    (star_in_call_kwargs, INTS2),
    (star_in_call_duplicate, INTS2),
    (star_in_list_tuple_set, INTS2),
    (star_in_dict, INTS2),
    (star_unpack_assign, INTS2),
    (star_unpack_error, [(0, 0), (1, 0), (2, 0), (5, 0)]),
    (unpack_nested, INTS2),
    (unpack_repeated_name, INTS2),
    (unpack_wrong_count, [(1, 1), (1, 2), (1, 3)]),
    (display_dict, INTS2),
    (display_dict_dup_keys, INTS2),
    (display_set, INTS2),
    (display_list_tuple, INTS2),
    (display_constants, INTS2),
    (display_large_list, INTS2),
    (display_large_dict, INTS2),
    (comp_list_basic, INTS2),
    (comp_multiple_ifs, INTS2 + [(-5, 5)]),
    (comp_nested_loops, INTS2 + [(3, 3)]),
    (comp_dependent_loops, INTS2 + [(4, 0)]),
    (comp_nested_comprehension, INTS2),
    (comp_set_dict, INTS2),
    (comp_generator_expr, INTS2),
    (comp_uses_outer_names, INTS2),
    (comp_closure_capture, INTS2),
    (comp_shadowing, INTS2),
    (comp_unpacking_target, INTS2),
    (comp_with_conditional_expr, INTS2),
    (comp_error_inside, [(1, 4), (-2, 2), (0, 3)]),
    (comp_nested_generator_in_list, INTS2),
    (comp_async_free_star, INTS2),
    (lambda_basic, INTS2),
    (lambda_defaults_kwonly, INTS2),
    (lambda_closure, INTS2),
    (lambda_sort_key, INTS2),
    (lambda_with_ifexp_and_bool, INTS2 + [(0, 0)]),
    (lambda_default_evaluated_once, INTS2),
    (call_keywords, INTS2),
    (call_method_chain, INTS2),
    (call_nested, INTS2),
    (attribute_access, INTS2),
    (attribute_missing, [(1, 0), (1, 1)]),
    (subscript_ops, INTS2),
    (subscript_missing, [(1, 2), (2, 5), (3, 1)]),
    (index_error, [(0, 1), (2, -1), (3, 0), (-4, 0)]),
    (assign_chained, INTS2),
    (assign_multi_targets, INTS2),
    (aug_assign_names, INTS2),
    (aug_assign_attributes, INTS2),
    (aug_assign_subscripts, INTS2),
    (aug_assign_matmul_like, INTS2),
    (annotated_assign, INTS2),
    (annotated_no_value, INTS2),
    (del_name, INTS2),
    (del_then_use, [(1, 0), (1, 1)]),
    (del_subscript_and_slice, [(1, 0), (2, 3), (3, -1), (4, 0)]),
    (del_attribute, INTS2),
    (global_assign, INTS2),
    (global_read_and_aug, INTS2),
    (global_del, INTS2),
    (import_forms, INTS2),
    (import_inside_branch, INTS2 + [(12, 18)]),
    (import_from_missing, [(0, 0), (1, 0)]),
    (import_dotted_module_attr, INTS2),
    (builtins_mix, INTS2),
    (tuple_swap_rotate, INTS3),
    (conditional_import_name, INTS2 + [(0, 0)]),
    (ellipsis_none_true, INTS2 + [(0, 0)]),
    (starred_return_tuple, INTS2),
    (long_expression, INTS3),
    (star_call_dict_literals, INTS2),
    (bool_nested_same_op, [([], a, b, c) for a in (False, True) for b in (False, True) for c in (False, True)]),
    (ifexp_before_copied_exit, [([], 1, 2), ([], 3, 0)]),
    (ifexp_before_copied_call, [([], 1, 2), ([], 3, 0)]),
    (ifexp_ending_statement_return, INTS2 + [(0, 0), (1, 0)]),
    (ifexp_before_copied_raise, [(1, 2), (3, 0)]),
    (ifexp_test_ending_in_constant, [(0,), (1,), ("",)]),
    (ifexp_with_or_before_copied_raise, [(1, 2), (0, 2), (3, 0), (0, 0)]),
    (ifexp_with_and_before_copied_return, [([], 1, 2), ([], 3, 0), ([], 0, 0), ([], 3, 2)]),
    (assert_message_ifexp_with_or, [(0, 2), (0, 0), (1, 0), ([], 2)]),
    (ifexp_lambda_before_copied_return, [([], 1, 2), ([], 3, 0)]),
    (ifexp_closure_before_copied_return, [([], 1, 2), ([], 3, 0)]),
]


# a walrus in a conditional expression's branch stored again after the join
# (``COPY 1; STORE`` then a store at the join: read as the cases of a match
# statement, 3.10+, whose next case the other branch reaches too)
def walrus_branch_stored_again(a, b, c, log):
    v = (v := c) if b else 0
    if a == (log.append(v) or a):
        return log
    return log + [v]


CASES += [
    (walrus_branch_stored_again, [(1, 1, 2, []), (1, 0, 2, []), (0, 1, 0, []), (2, 0, 0, [])]),
]
