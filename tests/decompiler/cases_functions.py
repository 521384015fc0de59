"""Differential cases: nested defs, closures, nonlocal, decorators,
defaults, classes (methods, properties, classmethods, staticmethods,
super()), generators (yield, yield from, return values, send).

Some entries are closures themselves (``make_*(...)`` returns the function
under test), to exercise the ``__unveil_closure_<name>`` wrapper."""
import functools

from drive import sends

INTS1 = [(0,), (1,), (5,), (-3,)]
INTS2 = [(1, 2), (5, 3), (0, 7), (-4, 9)]


def deco_twice(f):
    @functools.wraps(f)
    def wrapper(*args, **kwargs):
        return f(*f(*args, **kwargs))
    return wrapper


def deco_tag(tag):
    def deco(f):
        f.tag = tag
        return f
    return deco


# ------------------------------------------------------------ nested defs

def nested_def_simple(a, b):
    def add(x, y):
        return x + y
    return add(a, b), add.__name__


def nested_def_defaults(a, b):
    def f(x, y=a, *args, z=b, **kw):
        return x, y, args, z, sorted(kw.items())
    return f(1), f(1, 2, 3, z=4, w=5), f.__defaults__, f.__kwdefaults__


def nested_def_posonly(a, b):
    def f(p, /, q, *, r=3):
        return p - q * r
    try:
        f(p=a, q=b)
    except TypeError:
        err = "posonly"
    return f(a, b), f(a, q=b, r=1), err


def nested_def_closure(a, b):
    def outer(x):
        def inner(y):
            return x * y + a
        return inner
    return outer(b)(2), outer(3)(b)


def nested_def_closure_late_binding(a, b):
    fs = []
    for i in range(3):
        def f():
            return i * a
        fs.append(f)
    return [f() for f in fs]


def nested_def_nonlocal(a, b):
    count = 0

    def bump(step):
        nonlocal count
        count += step
        return count

    bump(a)
    bump(b)
    return count, bump(0)


def nested_def_nonlocal_deep(a, b):
    x = a

    def middle():
        def inner():
            nonlocal x
            x = x * 2 + b
        inner()
        inner()
        return x

    return middle(), x


def nested_def_recursive(a, b):
    def fact(n):
        return 1 if n <= 1 else n * fact(n - 1)
    return fact(abs(a) % 10), fact(abs(b) % 10)


def nested_def_mutual_recursion(a, b):
    def is_even(n):
        return True if n == 0 else is_odd(n - 1)

    def is_odd(n):
        return False if n == 0 else is_even(n - 1)

    return is_even(abs(a)), is_odd(abs(b))


def nested_def_decorated(a, b):
    @deco_tag("t%d" % a)
    def f(x):
        return x, x + b

    @deco_twice
    def g(x):
        return x, x * 2

    @deco_tag("outer")
    @deco_tag("inner")
    def h():
        return 1

    return f(a), f.tag, g.__name__, h.tag, h()


def nested_def_annotations(a, b):
    def f(x: int, y: "str" = "s", *args: int, k: float = 1.0, **kw: dict) -> list:
        return [x, y, args, k]
    return f(a), sorted(f.__annotations__)


def nested_def_docstring(a, b):
    def f():
        """The docstring."""
        return a
    return f(), f.__doc__


def nested_def_varargs_call(a, b):
    def f(*args, **kwargs):
        return len(args), sorted(kwargs)
    xs = list(range(abs(a) % 5))
    return f(*xs), f(*xs, **{"k": b}), f(a, *xs, b, x=1, **{"y": 2})


def nested_def_default_mutable(a, b):
    def f(x, acc=[]):
        acc.append(x)
        return list(acc)
    f(a)
    return f(b)


def nested_def_global_in_nested(a, b):
    def setter(v):
        global G_NESTED
        G_NESTED = v
        return G_NESTED
    return setter(a + b), G_NESTED


def nested_class_in_function(a, b):
    class Point:
        dims = 2

        def __init__(self, x, y):
            self.x = x
            self.y = y

        def __repr__(self):
            return "Point(%r, %r)" % (self.x, self.y)

        def __add__(self, other):
            return Point(self.x + other.x, self.y + other.y)

        def norm1(self):
            return abs(self.x) + abs(self.y)

    p = Point(a, b) + Point(1, 1)
    return repr(p), p.norm1(), Point.dims


def nested_class_property_classmethod(a, b):
    class Temp:
        scale = "C"

        def __init__(self, deg):
            self._deg = deg

        @property
        def deg(self):
            return self._deg

        @deg.setter
        def deg(self, v):
            if v < -273:
                raise ValueError("below absolute zero")
            self._deg = v

        @classmethod
        def freezing(cls):
            return cls(0)

        @staticmethod
        def to_f(c):
            return c * 9 / 5 + 32

    t = Temp(a)
    t.deg = b * 100
    return t.deg, Temp.freezing().deg, Temp.to_f(a), Temp.scale


def nested_class_super(a, b):
    class Base:
        def __init__(self, v):
            self.v = v

        def describe(self):
            return ["base", self.v]

    class Child(Base):
        def __init__(self, v, w):
            super().__init__(v)
            self.w = w

        def describe(self):
            return super().describe() + ["child", self.w]

    class Grand(Child):
        def describe(self):
            return super(Child, self).describe() + ["grand"]

    return Child(a, b).describe(), Grand(a, b).describe()


def nested_class_class_body_logic(a, b):
    class K:
        x = a
        y = x * 2
        if b > 0:
            sign = "pos"
        else:
            sign = "nonpos"
        items = [i for i in range(3)]
        for i in range(2):
            x += i
        del i

        def method(self):
            return self.x + self.y

    return K.x, K.y, K.sign, K.items, K().method()


def nested_class_closure_over_function_local(a, b):
    factor = a * 2

    class C:
        f = factor

        def get(self):
            return factor + b

    return C.f, C().get()


def nested_class_decorated_and_inheritance(a, b):
    def register(cls):
        cls.registered = True
        return cls

    class Base:
        kind = "base"

    @register
    class Sub(Base, object):
        def __init__(self, *args, **kw):
            self.args = args
            self.kw = kw

    s = Sub(a, b, z=1)
    return Sub.kind, Sub.registered, s.args, s.kw, [c.__name__ for c in Sub.__mro__]


def nested_class_dunder_methods(a, b):
    class Vec:
        __slots__ = ("xs",)

        def __init__(self, *xs):
            self.xs = xs

        def __len__(self):
            return len(self.xs)

        def __getitem__(self, i):
            return self.xs[i]

        def __eq__(self, other):
            return isinstance(other, Vec) and self.xs == other.xs

        def __iter__(self):
            return iter(self.xs)

        def __contains__(self, x):
            return x in self.xs

        __hash__ = None

    v = Vec(a, b, a)
    return len(v), v[1], v == Vec(a, b, a), list(v), b in v, v[-1:]


def nested_class_keyword_metaclass(a, b):
    class Meta(type):
        def __new__(mcs, name, bases, ns, **kw):
            ns["extra"] = kw.get("extra", 0)
            return super().__new__(mcs, name, bases, ns)

    class C(metaclass=Meta, extra=a + b):
        pass

    return C.extra, type(C).__name__


def nested_class_dataclass(a, b):
    import dataclasses

    @dataclasses.dataclass(frozen=True)
    class P:
        x: int
        y: int = 0

        def total(self):
            return self.x + self.y

    p = P(a, b)
    return p.total(), p == P(a, b), dataclasses.astuple(p)


def nested_class_private_names(a, b):
    class C:
        __secret = a

        def __hidden(self):
            return self.__secret + b

        def reveal(self):
            return self.__hidden()

    return C().reveal(), hasattr(C, "_C__secret")


# ------------------------------------------------------ closures under test

def make_adder(n):
    def adder(x):
        return x + n
    return adder


def make_multi_free(a, b, c):
    def multi_free(x, y=1):
        return (a * x + b * y) if c else (a - b)
    return multi_free


def make_nonlocal_setter(start):
    value = start

    def nonlocal_setter(v):
        nonlocal value
        value = v
        value *= 2
        return value
    return nonlocal_setter


def make_closure_with_nested(k):
    def closure_with_nested(x):
        def inner(y):
            return y + k + x
        return inner(x * 2), [inner(i) for i in range(3)]
    return closure_with_nested


def make_closure_over_class():
    class Helper:
        def go(self):
            return 7

    def closure_over_class(x):
        return Helper().go() * x
    return closure_over_class


def make_method_with_super():
    class Base:
        def val(self, x):
            return x + 1

    class Derived(Base):
        def val(self, x):
            return super().val(x) * 2

    return Derived.val, Derived()


DERIVED_VAL, DERIVED_OBJ = make_method_with_super()


# ------------------------------------------------------------- generators

def gen_simple(n):
    for i in range(n):
        yield i * i


def gen_with_return(n):
    total = 0
    for i in range(n):
        total += i
        yield i
    return total


@sends
def gen_send(n):
    received = []
    x = yield "start"
    while x is not None and x < n:
        received.append(x)
        x = yield x * 10
    return received


def gen_yield_from(n):
    r = yield from gen_with_return(n)
    yield "inner returned"
    yield r
    r2 = yield from [n, n + 1]
    return r2


def gen_yield_from_generator_expression(n):
    yield from (i * 2 for i in range(n))
    yield from range(n, 0, -1)


def gen_conditional_yields(n):
    if n < 0:
        return "negative"
    yield "a"
    if n > 2:
        yield "b"
        return "big"
    yield "c"


def gen_try_finally(n):
    try:
        for i in range(n):
            if i == 3:
                raise ValueError("three")
            yield i
    finally:
        yield "cleanup"


def gen_try_except(n):
    for i in range(n):
        try:
            yield 10 // (i - 2)
        except ZeroDivisionError:
            yield "div"


@sends
def gen_yield_as_expression(n):
    a = (yield n) or 0
    b = (yield a + 1) or 0
    yield [a, b, (yield)]


def gen_yield_in_while_true(n):
    i = 0
    while True:
        if i >= n:
            return i
        yield i
        i += 2


def gen_nested_generator_def(n):
    def inner(k):
        for i in range(k):
            yield -i
    yield from inner(n)
    yield sum(inner(n))


def gen_bare_yield_and_empty(n):
    if n:
        yield
    return n


def gen_unreachable_yield_only(n):
    return n * 2
    yield


def local_store_unreachable(n):
    if False:
        INTS1 = n  # the compiler drops the store, yet INTS1 stays a local
    return INTS1 if n > 2 else n


def cell_store_unreachable(n):
    if False:
        INTS1 = n

    def read():
        return INTS1
    return read() if n > 2 else n


def gen_lambda_generator(n):
    g = lambda k: (yield k)
    return list(g(n))


def gen_expression_consumed(n):
    g = (x for x in range(n) if x % 2)
    first = next(g, None)
    return first, list(g)


def genexp_of_none(n):
    # issue 11 #9: a genexp yielding None crashed the decompiler
    return tuple(None for _ in range(n))


def unpack_genexp_of_none(n):
    a, b = (None for _ in (1, 2))
    return a, b, n


def comprehensions_of_constants(n):
    xs = range(n)
    return ([None for _ in xs], {None for _ in xs}, {None: None for _ in xs},
            {0 for _ in xs}, list(() for _ in xs), list((1, None) for _ in xs),
            list(... for _ in xs), list(False for _ in xs), sum(1 for _ in xs))


def nested_genexps_of_none(n):
    rows = [tuple(None for _ in range(k)) for k in range(n)]
    nested = [list(g) for g in ((None for _ in range(k)) for k in range(n))]
    return rows, nested, [[None for _ in range(k)] for k in range(n)]


def gen_with_statement(n):
    import contextlib

    @contextlib.contextmanager
    def ctx(log):
        log.append("enter")
        try:
            yield "res"
        finally:
            log.append("exit")

    log = []
    with ctx(log) as r:
        for i in range(n):
            yield r, i
    yield log


# issue 11: a yield as a chained comparison's middle operand runs once

@sends
def gen_yield_chain_operand(a, c):
    if a != (yield a) <= c:
        return 1


@sends
def gen_yield_chain_operand_while(a, c):
    while a != (yield a) <= c:
        a += 1
        if a > 5:
            return "stop"


CASES = [
    (nested_def_simple, INTS2),
    (nested_def_defaults, INTS2),
    (nested_def_posonly, INTS2),
    (nested_def_closure, INTS2),
    (nested_def_closure_late_binding, INTS2),
    (nested_def_nonlocal, INTS2),
    (nested_def_nonlocal_deep, INTS2),
    (nested_def_recursive, INTS2),
    (nested_def_mutual_recursion, INTS2),
    (nested_def_decorated, INTS2),
    (nested_def_annotations, INTS2),
    (nested_def_docstring, INTS2),
    (nested_def_varargs_call, INTS2),
    (nested_def_default_mutable, INTS2),
    (nested_def_global_in_nested, INTS2),
    (nested_class_in_function, INTS2),
    (nested_class_property_classmethod, INTS2 + [(1, -3)]),
    (nested_class_super, INTS2),
    (nested_class_class_body_logic, INTS2),
    (nested_class_closure_over_function_local, INTS2),
    (nested_class_decorated_and_inheritance, INTS2),
    (nested_class_dunder_methods, INTS2),
    (nested_class_keyword_metaclass, INTS2),
    (nested_class_dataclass, INTS2),
    (nested_class_private_names, INTS2),
    (make_adder(10), INTS1 + [("x",)]),
    (make_multi_free(2, 3, True), INTS2 + [(1,)]),
    (make_multi_free(2, 3, False), INTS2),
    (make_nonlocal_setter(5), INTS1),
    (make_closure_with_nested(4), INTS1),
    (make_closure_over_class(), INTS1),
    (DERIVED_VAL, [(DERIVED_OBJ, 1), (DERIVED_OBJ, 5), (None, 1)]),
    (gen_simple, INTS1),
    (gen_with_return, INTS1),
    (gen_send, [(0,), (3,), (10,)]),
    (gen_yield_from, INTS1),
    (gen_yield_from_generator_expression, INTS1),
    (gen_conditional_yields, INTS1),
    (gen_try_finally, INTS1),
    (gen_try_except, INTS1),
    (gen_yield_as_expression, INTS1),
    (gen_yield_in_while_true, INTS1),
    (gen_nested_generator_def, INTS1),
    (gen_bare_yield_and_empty, INTS1),
    (gen_unreachable_yield_only, INTS1),
    (local_store_unreachable, INTS1),
    (cell_store_unreachable, INTS1),
    (gen_lambda_generator, INTS1),
    (gen_expression_consumed, INTS1),
    (gen_with_statement, INTS1),
    (genexp_of_none, INTS1),
    (unpack_genexp_of_none, INTS1),
    (comprehensions_of_constants, INTS1),
    (nested_genexps_of_none, INTS1),
    (gen_yield_chain_operand, [(0, 2), (1, 0), (0, -1), (2, 2)]),
    (gen_yield_chain_operand_while, [(0, 2), (1, 0), (0, 9), (2, 2)]),
]
