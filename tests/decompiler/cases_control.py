"""Differential cases: control flow (if/elif/else, loops, break/continue,
else clauses, nesting) and realistic "kitchen sink" functions."""

INTS1 = [(0,), (1,), (5,), (-3,), (12,)]
INTS2 = [(1, 2), (5, 3), (0, 7), (-4, 9), (7, -7), (3, 3)]


# --------------------------------------------------------------------- if

def if_only(a):
    r = "start"
    if a > 2:
        r = "big"
    return r


def if_else(a):
    if a % 2 == 0:
        r = "even"
    else:
        r = "odd"
    return r


def if_elif_chain(a):
    if a < 0:
        return "neg"
    elif a == 0:
        return "zero"
    elif a < 5:
        return "small"
    elif a < 10:
        return "medium"
    else:
        return "large"


def if_elif_no_else(a):
    r = []
    if a < 0:
        r.append("neg")
    elif a == 0:
        r.append("zero")
    elif a > 10:
        r.append("big")
    r.append("end")
    return r


def if_nested(a, b):
    if a > 0:
        if b > 0:
            r = "pp"
        else:
            if b == 0:
                r = "p0"
            else:
                r = "pn"
    else:
        if b > 0:
            r = "np"
        elif b < -5:
            r = "nN"
        else:
            r = "nn"
    return r


def if_early_returns(a, b):
    if a == b:
        return 0
    if a > b:
        if a - b > 5:
            return 2
        return 1
    if b - a > 5:
        return -2
    return -1


def if_return_none_then_shared_follow(a, b):
    # ``if x: ...; if y: return None`` whose fall-through is shared with the
    # outer if's false branch (pkgutil.get_loader)
    if a in (1, 2, 3):
        a = {1: None, 2: "two", 3: 3}[a]
        if a is None:
            return None
    if isinstance(a, int):
        n = a * 2
        if n > b:
            return n
        if b == 7:
            return None
        name = str(n)
    else:
        name = repr(a)
    return name + "!"

def if_pass_bodies(a, b):
    if a:
        pass
    elif b:
        pass
    else:
        a = 7
    return a


def if_empty_then_else(a, b):
    if a > b:
        pass
    else:
        return "le"
    return "gt"


def if_constant_conditions(a, b):
    r = 0
    if True:
        r += 1
    if 0:
        r += 100
    while False:
        r += 1000
    if a and True:
        r += 10
    return r


def if_side_effect_condition(a, b):
    log = []
    def chk(x):
        log.append(x)
        return x
    if chk(a) and chk(b) or chk(a + b):
        log.append("T")
    else:
        log.append("F")
    return log


# ------------------------------------------------------------------ loops

def for_simple(a):
    s = 0
    for i in range(a):
        s += i
    return s


def for_body_always_returns(a):
    # no back edge: the first iteration returns (configparser's popitem)
    d = {k: k * k for k in range(abs(a))}
    for key in sorted(d, reverse=a < 0):
        value = d[key]
        del d[key]
        return key, value, len(d)
    return "empty"

def for_else_no_break(a):
    r = []
    for i in range(a):
        r.append(i)
    else:
        r.append("else")
    return r


def for_else_break(a):
    for i in range(2, 20):
        if i * i > a and a % i == 0:
            r = ("found", i)
            break
    else:
        r = ("none", None)
    return r


def for_continue(a):
    out = []
    for i in range(abs(a) + 3):
        if i % 3 == 0:
            continue
        out.append(i)
    return out


def for_break_continue_mixed(a):
    out = []
    for i in range(20):
        if i % 2:
            continue
        if i > a:
            break
        out.append(i)
    else:
        out.append("done")
    return out


def for_break_out_of_both_loops(xs, ys, log):
    # the inner loop's break goes to the outer loop's break (email.header's
    # _ValueFormatter._append_chunk): its POP_TOP drops the outer iterator
    for ch in xs:
        for i in ys:
            log.append((ch, i))
            if i == ch:
                break
        else:
            continue
        break
    log.append("after")
    return log


def for_nested_break(a, b):
    pairs = []
    for i in range(abs(a) + 1):
        for j in range(abs(b) + 1):
            if j > i:
                break
            if (i + j) % 3 == 0:
                continue
            pairs.append((i, j))
        else:
            pairs.append("inner-done")
        if len(pairs) > 8:
            break
    return pairs


def for_nested_else_both(a, b):
    r = []
    for i in range(a % 4):
        for j in range(b % 4):
            if i == j == 2:
                break
        else:
            r.append(i)
            continue
        r.append(-i)
    else:
        r.append("outer")
    return r


def for_return_inside(a):
    for i in range(10):
        if i == a:
            return "hit", i
    return "miss", None


def for_over_dict_items(a, b):
    d = {"x": a, "y": b, "z": a + b}
    out = []
    for k, v in sorted(d.items()):
        if v < 0:
            continue
        out.append(k * (v % 4))
    return out


def for_target_attr_subscript(a, b):
    import types
    o = types.SimpleNamespace(v=None)
    d = {}
    for o.v in range(a, b):
        pass
    for d["k"] in "ab":
        pass
    return o.v, d


def for_modify_loop_var(a):
    r = []
    for i in range(5):
        i = i * a
        r.append(i)
    return r, i


def for_empty_iterable_else(a):
    x = "unset"
    for x in []:
        pass
    else:
        x = ("else", x)
    return x


def while_simple(a):
    n = abs(a)
    steps = 0
    while n > 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps


def while_else(a):
    i = 0
    while i < abs(a):
        if i == 7:
            break
        i += 1
    else:
        return "completed", i
    return "broke", i


def while_true_break(a):
    i = 0
    total = 0
    while True:
        i += 1
        if i % 2 == 0:
            continue
        total += i
        if total > a:
            break
    return i, total


def while_nested(a, b):
    i = 0
    out = []
    while i < abs(a) % 5:
        j = 0
        while j < abs(b) % 5:
            if j == i:
                j += 1
                continue
            out.append((i, j))
            j += 1
        i += 1
    return out


def while_complex_condition(a, b):
    i, j = 0, 10
    while i < j and (a > 0 or i < 3) and not (i == b):
        i += 1
        j -= 1
    return i, j



def _tested(log, name, v):
    log.append(name)
    return v


def while_or_chain_condition(log, a, b):
    # each link of the test is evaluated in order at the top and at the bottom
    i = 0
    while _tested(log, "a", i < a) or (_tested(log, "b", b) and i < 4) or not _tested(log, "c", i != 6):
        i += 1
        if i > 10:
            break
    return log, i


def while_negated_and_condition(log, a, b):
    i = 0
    while not (_tested(log, "a", i >= a) and _tested(log, "b", b)) and i < 9:
        i += 1
    return log, i



def chain_and_in_if(log, k, x):
    # the chained comparison's middle operand is computed once
    if 0 <= _tested(log, "k", k) < 10 and (k != 4 or _tested(log, "x", x)):
        return log, 1
    return log, 2


def assert_chain_and(log, k, x):
    assert 0 <= _tested(log, "k", k) < 10 and _tested(log, "x", x), log
    return log


def while_return_in_loop(a):
    x = 0
    while x < 100:
        x += 7
        if x % (abs(a) + 2) == 0:
            return x
    return -1


def while_else_with_continue(a):
    i = 0
    out = []
    while i < 6:
        i += 1
        if i % 2:
            continue
        out.append(i)
        if i == a:
            break
    else:
        out.append("else")
    return out


def while_walrus_loop(a):
    data = list(range(abs(a) + 2))
    out = []
    while (n := len(data)) > 2:
        out.append(data.pop(0) * n)
    return out, n


def while_walrus_call_at_end(a):
    # ``while x := f():`` as the function's last statement (shutil.copyfileobj)
    src = iter(range(abs(a) + 1, 0, -1))
    out = []
    read = lambda: next(src) - 1
    while chunk := read():
        out.append(chunk)
    out.append(None)
    if a > 100:
        return out

def while_walrus_continue(a):
    # ``while x := f():`` whose body continues (mimetypes.MimeTypes.readfp):
    # 3.12+ jumps from the if straight back to the loop's top test
    lines = iter(["a b", "# c", "d e", "#", "f"][:abs(a) + 1] + [""])
    out = []
    while line := next(lines):
        words = line.split()
        if words[0].startswith("#"):
            continue
        out.extend(words)
    return out

def loop_in_loop_else_return(a, b):
    for i in range(3):
        while b > i:
            b -= 1
            if b == a:
                return "eq", i, b
        else:
            if i == a:
                return "i", i
    return "end", b


# ------------------------------------------------------------ kitchen sink

def binary_search(xs, target):
    lo, hi = 0, len(xs) - 1
    while lo <= hi:
        mid = (lo + hi) // 2
        if xs[mid] == target:
            return mid
        elif xs[mid] < target:
            lo = mid + 1
        else:
            hi = mid - 1
    return -1


def gcd(a, b):
    while b:
        a, b = b, a % b
    return abs(a)


def primes_upto(n):
    if n < 2:
        return []
    sieve = [True] * (n + 1)
    sieve[0] = sieve[1] = False
    for i in range(2, int(n ** 0.5) + 1):
        if sieve[i]:
            for j in range(i * i, n + 1, i):
                sieve[j] = False
    return [i for i, p in enumerate(sieve) if p]


def is_prime(n):
    if n < 2:
        return False
    if n % 2 == 0:
        return n == 2
    i = 3
    while i * i <= n:
        if n % i == 0:
            return False
        i += 2
    return True


def fizzbuzz(n):
    out = []
    for i in range(1, n + 1):
        if i % 15 == 0:
            out.append("FizzBuzz")
        elif i % 3 == 0:
            out.append("Fizz")
        elif i % 5 == 0:
            out.append("Buzz")
        else:
            out.append(str(i))
    return out


def tokenize(s):
    tokens = []
    i = 0
    while i < len(s):
        c = s[i]
        if c.isspace():
            i += 1
            continue
        if c.isdigit():
            j = i
            while j < len(s) and s[j].isdigit():
                j += 1
            tokens.append(("num", int(s[i:j])))
            i = j
        elif c.isalpha() or c == "_":
            j = i
            while j < len(s) and (s[j].isalnum() or s[j] == "_"):
                j += 1
            tokens.append(("name", s[i:j]))
            i = j
        elif c in "+-*/()":
            tokens.append(("op", c))
            i += 1
        else:
            raise ValueError("bad character %r at %d" % (c, i))
    return tokens


def eval_expr(s):
    """Recursive-descent evaluator for + - * / and parentheses."""
    toks = [t for t in s.replace("(", " ( ").replace(")", " ) ").split()]
    pos = [0]

    def peek():
        return toks[pos[0]] if pos[0] < len(toks) else None

    def take():
        t = toks[pos[0]]
        pos[0] += 1
        return t

    def atom():
        t = take()
        if t == "(":
            v = expr()
            if take() != ")":
                raise SyntaxError("expected )")
            return v
        if t == "-":
            return -atom()
        return int(t)

    def term():
        v = atom()
        while peek() in ("*", "/"):
            if take() == "*":
                v *= atom()
            else:
                v //= atom()
        return v

    def expr():
        v = term()
        while peek() in ("+", "-"):
            op = take()
            v = v + term() if op == "+" else v - term()
        return v

    result = expr()
    if peek() is not None:
        raise SyntaxError("trailing input")
    return result


def parse_kv(text):
    out = {}
    for lineno, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if "=" not in line:
            raise ValueError("line %d: missing '='" % lineno)
        key, _, value = line.partition("=")
        key, value = key.strip(), value.strip()
        if value.isdigit():
            value = int(value)
        elif value.lower() in ("true", "false"):
            value = value.lower() == "true"
        elif value.startswith('"') and value.endswith('"'):
            value = value[1:-1]
        out[key] = value
    return out


def word_freq(text):
    counts = {}
    for w in text.lower().split():
        w = w.strip(".,;!?")
        if not w:
            continue
        counts[w] = counts.get(w, 0) + 1
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:5]


def format_table(rows):
    if not rows:
        return ""
    widths = [max(len(str(r[i])) for r in rows) for i in range(len(rows[0]))]
    lines = []
    for r in rows:
        cells = []
        for i, cell in enumerate(r):
            if isinstance(cell, (int, float)):
                cells.append(f"{cell:>{widths[i]}}")
            else:
                cells.append(f"{cell:<{widths[i]}}")
        lines.append(" | ".join(cells))
    return "\n".join(lines)


def merge_dicts_deep(a, b):
    out = dict(a)
    for k, v in b.items():
        if k in out and isinstance(out[k], dict) and isinstance(v, dict):
            out[k] = merge_dicts_deep(out[k], v)
        elif isinstance(v, list) and isinstance(out.get(k), list):
            out[k] = out[k] + v
        else:
            out[k] = v
    return out


def group_by_len(words):
    groups = {}
    for w in words:
        groups.setdefault(len(w), []).append(w)
    return {k: sorted(v) for k, v in sorted(groups.items()) if len(v) > 0}


def invert_dict(d):
    inv = {}
    for k, v in d.items():
        if v in inv:
            if isinstance(inv[v], list):
                inv[v].append(k)
            else:
                inv[v] = [inv[v], k]
        else:
            inv[v] = k
    return inv


class LoggedItems:
    """Records every item read and write into ``log``."""

    def __init__(self, log):
        self.log = log
        self.items = {}

    def __getitem__(self, k):
        self.log.append(("get", k))
        return self.items.get(k, k)

    def __setitem__(self, k, v):
        self.log.append(("set", k, v))
        self.items[k] = v


def swap_logged_items(log, i):
    # the right side is read left to right, then the targets stored left to
    # right, each target's key computed just before its store
    xs = LoggedItems(log)
    xs[i], xs[i + 1] = xs[i + 1], xs[i]
    a, xs[i * 2], xs[a] = xs[0], i, xs[1]
    return log, a


def walrus_in_tuple_target(log, i):
    # both values are computed before the first store, the walrus after it
    xs = LoggedItems(log)
    a, xs[(c := xs[i] + 1)] = xs[i + 1], xs[i + 2]
    return log, a, c


def bubble_sort(xs):
    xs = list(xs)
    n = len(xs)
    for i in range(n):
        swapped = False
        for j in range(n - 1 - i):
            if xs[j] > xs[j + 1]:
                xs[j], xs[j + 1] = xs[j + 1], xs[j]
                swapped = True
        if not swapped:
            break
    return xs


def quicksort(xs):
    if len(xs) <= 1:
        return list(xs)
    pivot, *rest = xs
    return quicksort([x for x in rest if x < pivot]) + [pivot] + quicksort([x for x in rest if x >= pivot])


def roman(n):
    if not 0 < n < 4000:
        raise ValueError(n)
    table = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
             (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]
    out = ""
    for value, sym in table:
        while n >= value:
            out += sym
            n -= value
    return out


def run_length(s):
    if not s:
        return []
    out = []
    prev, count = s[0], 1
    for c in s[1:]:
        if c == prev:
            count += 1
        else:
            out.append((prev, count))
            prev, count = c, 1
    out.append((prev, count))
    return out


def matrix_mult(a, b):
    if len(a[0]) != len(b):
        raise ValueError("shape")
    return [[sum(a[i][k] * b[k][j] for k in range(len(b))) for j in range(len(b[0]))] for i in range(len(a))]


def flatten(xs):
    out = []
    stack = [iter(xs)]
    while stack:
        for x in stack[-1]:
            if isinstance(x, (list, tuple)):
                stack.append(iter(x))
                break
            out.append(x)
        else:
            stack.pop()
    return out


def balanced_brackets(s):
    pairs = {")": "(", "]": "[", "}": "{"}
    stack = []
    for c in s:
        if c in "([{":
            stack.append(c)
        elif c in pairs:
            if not stack or stack.pop() != pairs[c]:
                return False
    return not stack


def camel_to_snake(s):
    out = []
    for i, c in enumerate(s):
        if c.isupper() and i and (s[i - 1].islower() or (i + 1 < len(s) and s[i + 1].islower())):
            out.append("_")
        out.append(c.lower())
    return "".join(out)


def collatz_max(n):
    best, arg = 0, 0
    for start in range(1, n + 1):
        x, steps = start, 0
        while x != 1:
            x = x // 2 if x % 2 == 0 else 3 * x + 1
            steps += 1
        if steps > best:
            best, arg = steps, start
    return arg, best


def histogram(values, buckets):
    if buckets <= 0:
        raise ValueError("buckets")
    lo, hi = min(values), max(values)
    width = (hi - lo) / buckets or 1
    counts = [0] * buckets
    for v in values:
        idx = min(int((v - lo) / width), buckets - 1)
        counts[idx] += 1
    return counts


# ------------------------------------------- else after a body that leaves
# (3.8/3.9 keep the jump over the else clause as dead code: the else is
# visible in the layout)

def else_after_nested_returns(a, b):
    if a > 0:
        v = a * b
        if v > 10:
            return [v, a]
        else:
            return v
    else:
        return b


def else_after_raise(a, b):
    if a > 0:
        if b > 0:
            return 1
        else:
            raise ValueError(b)
    else:
        a = b + 1
    b += a
    return a, b


def else_ending_loop_body(xs):
    out = []
    for x in xs:
        if x > 2:
            if x > 5:
                return out
            else:
                return x
        else:
            out.append(x)
    return out


def else_after_continue(xs):
    out = []
    for x in xs:
        if x % 2:
            continue
        else:
            out.append(x)
        out.append(-x)
    return out


def else_after_break(xs):
    out = []
    for x in xs:
        if x > 3:
            out.append(0)
            break
        else:
            out.append(x)
        out.append(-x)
    return out


# ------------------------------------------------ bodies that are one jump
# (<=3.10: ``if x: pass``/``continue`` is a conditional jump falling into a
# lone jump, not an ``and``/``or``)

def if_pass_elif(a, b):
    r = [a]
    if a == 2:
        pass
    elif not b:
        r.append(b)
    return r


def continue_then_if(xs):
    out = []
    for x in xs:
        if x < 0:
            continue
        if x % 2:
            out.append(x)
    return out


def while_continue_then_if(n):
    out = []
    while n > 0:
        n -= 1
        if n == 3:
            continue
        if n % 2:
            out.append(n)
    return out


def chained_condition_raise(p, hi):
    if not 0 <= p <= hi:
        raise ValueError(p)
    return p


# ---------------------------------- and/or links with an is/in comparison
# (negating ``a is None`` makes ``a is not None``, which compiles to other
# jumps: the link is written so that the comparison stays as compiled)

def is_none_and_not(usage, actions):
    r = 0
    if usage is not None:
        r = 1
    elif usage is None and not actions:
        r = 2
    return r


def in_or_not(a, b, c):
    r = [a]
    if a in b or not c:
        r.append(c)
    return r


def not_in_and_not(a, b, c):
    r = [a]
    if a not in b and not c:
        r.append(c)
    return r


# ------------------------------------ if/else ending a while loop's body
# (3.10: the first branch jumps forward to the loop's repeated test; a
# ``continue`` would jump back)

def bisect_if_else(a, x):
    lo, hi = 0, len(a)
    while lo < hi:
        mid = (lo + hi) // 2
        if x < a[mid]:
            hi = mid
        else:
            lo = mid + 1
    return lo


def while_if_continue_else(n):
    out = []
    while n > 0:
        n -= 1
        if n % 3 == 0:
            out.append(n)
            continue
        else:
            out.append(-n)
        out.append(0)
    return out


# ---------------------------- while True whose body starts with a way out
# (<=3.10: ``while c:`` falls from its test into the body; a test falling
# into a return is an if statement in a ``while True:`` body)

def while_true_exit_first(action, explicit, limit):
    out = []
    while True:
        if action is None:
            out.append("none")
            return out
        if explicit is not None:
            out.append(explicit)
            if len(out) < limit:
                action = action - 1 if action > 0 else None
                continue
            break
        out.append(action)
        break
    return out


# -------------------------- a while loop ending the function (3.10 copies
# the final ``return None`` to both of its exits)

def while_not_ends_function(box):
    box.append(len(box))
    while not len(box) > 3:
        box.append(len(box) * 2)


# ------------- a return in a for loop reached by a jump that keeps the iterator
# (3.12+: ``b and 1`` tests b only; its true path jumps to the return, which
# drops the iterator itself: no break)

def for_return_after_constant_and(a, b, c):
    for x in a:
        if b and 1 or c:
            return x
    return -1


# ------------------- a chained comparison's middle operand is evaluated once
# (issue 11: 3.12+ copies the exit after the first link's cleanup POP_TOP)

def chain_operand_once_if(a, b, c):
    log = []
    if a != (log.append(1) or b) <= c:
        return 1, log
    return log


def chain_operand_once_while(a, b, c):
    log = []
    n = 0
    while n < 2 and a != (log.append(1) or b) <= c:
        n += 1
    return log


def chain_plain_while(a, b, c):
    log = []
    n = 0
    while n < 2 and a < b < c:
        n += 1
        log.append(n)
    return log


def chain_operand_once_assert(a, b):
    log = []

    def g():
        log.append(a)
        return a

    try:
        assert 0 <= g() < 10
    except AssertionError:
        return "failed", log
    return log


def chain_operand_once_assert_msg(a, b):
    log = []
    assert b < (log.append(1) or a) <= 10, "msg"
    return log


def chain_operand_once_then_code(a, b, c):
    log = []
    if a < (log.append(1) or b) <= c:
        log.append(2)
    else:
        log.append(4)
    log.append(3)
    return log


def chain_operand_once_in_for(a, b, c):
    log = []
    for i in range(2):
        if a < (log.append(i) or b) < c:
            continue
        log.append(9)
    return log


def chain_operand_once_long(a, b, c):
    log = []
    if a < (log.append(1) or b) < c < (log.append(2) or a):
        return 1, log
    return log


def chain_operand_once_value(a, b, c):
    log = []
    y = 1 if a < (log.append(1) or b) <= c else 2
    return y, log


CHAIN3 = [(0, 1, 2), (1, 0, 2), (0, None, 2), (3, 3, 3), (5, 2, 1), (0, 5, 9)]

# ------------- chained comparisons whose operands hold control flow of their
# own (an ``or``, a conditional expression, another chain): the operand is
# structured as it is anywhere else, each operand evaluated once

def chain_last_operand_or_if(a, b, c):
    log = []
    if a <= b > (log.append(1) or c):
        log.append(2)
    return log


def chain_last_operand_or_value(a, b, c):
    log = []
    x = a <= b > (log.append(1) or c)
    return x, log


def chain_last_operand_or_return(a, b, c):
    return a <= b > (c or a)


def chain_operands_nested(a, b, c):
    log = []
    x = a < b < (log.append(1) or c < a < b) < (c if a else b)
    if a < b < (log.append(2) or c < a < b) < (c if a else b):
        log.append(3)
    return x, log


def chain_assert_operand_ifexp(a, b, c):
    assert a == (b if c else a) == (0 if b else c), "no"
    return 1


def chain_while_last_operand_or(a, b, c):
    log = []
    n = 0
    while n < 3 and a <= b > (log.append(n) or c):
        n += 1
    return n, log


def chain_lambda_operand(a, b, c):
    log = []
    if a <= (lambda p: p)(b) > (log.append(1) or c):
        log.append(2)
    return log


def chain_in_call_argument(a, b, c):
    return (lambda p: p)(a > b <= (c or 0))


def chain_in_ifexp_test(a, b, c):
    log = []
    return (1 if b < a <= (log.append(1) or c) else 2), log


def chain_walrus_kept(a, b, c):
    x = a < (y := b) < c
    if a < (z := b) < c:
        return x, y, z
    return x, y


def chain_not_then_continue(a, b, c):
    log = []
    n = 0
    while n < 3:
        n += 1
        if not a == (log.append(n) or b) != c:
            continue
        log.append(-n)
    return log


def chain_or_next(log, k, x):
    if 0 <= _tested(log, "k", k) < 10 or _tested(log, "x", x):
        return log, 1
    return log, 2


def chain3_or_next(log, k, x):
    if 0 <= k < 10 < _tested(log, "x", x) or _tested(log, "k", k):
        return log, 1
    return log, 2


def chain_in_and_or(log, k, x):
    if x and 0 <= _tested(log, "k", k) < 10 and x < k < 20 or _tested(log, "x", x):
        return log, 1
    return log, 2


def assert_chain3_or_and(log, k, x):
    assert (0 <= _tested(log, "k", k) < 10 < x or _tested(log, "x", x)) and x != 5, log
    return log


def chain_generator_operand(a, b):
    log = []
    if a <= (yield b) > (log.append(1) or b):
        log.append(2)
    yield log


# ------------- chained comparisons in more layouts (issue 11: refused)

def chain_raise_operand_ifexp(a, b, c):
    # 3.10+ copies the ``raise`` into each branch of the conditional expression
    raise ValueError(a < b <= (c if a else 2))


def chain_raise_value_ifexp(a, b, c):
    raise 2 <= b // 1 <= (a if c else 2)


def chain_comprehension_middle_operand(a, b, c):
    # 3.12+ inlines the comprehension; its restore handler covers the link
    log = []
    if 0 <= a >= sum([q for q in range(b or 0)]) < c:
        log.append(1)
    if 0 < (a or 0) < len({q for q in range(c)}) != 3:
        log.append(2)
    return log


def raise_and_folded_or(a, b, c):
    # 3.12+: ``4 or b`` is folded, the raise copied into the and's right path
    if c:
        raise a[0] or (4 and b)
    raise a[1] and (4 or b)


def chain_operand_ifexp_chained_test(a, b, c):
    # the last operand's conditional expression tests a chain of its own;
    # 3.10+ copies the return into both of its branches
    return c <= b <= (a if a >= b == -1 else b)


def chain_assert_msg_ifexp_chained_test(a, b, c):
    assert a, c <= b <= (a if a >= b == -1 else b)
    return 1


def _raise_value(x):
    raise ValueError(x)


def and_statement_at_end(a, b, c):
    # 3.10+ copies the final return into the right operand's path
    a and _raise_value(b)


def or_statement_at_end(a, b, c):
    b or _raise_value(c) == a


def chain_in_except_clause(a, b, c):
    # 3.13 copies the clause's exit (POP_EXCEPT; JUMP) into each false path
    try:
        c = 1 // a
    except ZeroDivisionError:
        if 0 < (b - 1) <= c:
            raise
    return abs(c), abs(b)


def chain_in_except_clause_raise(a, b, c):
    try:
        c = 1 // a
    except ZeroDivisionError:
        if c < (b - 1) <= 5:
            raise ValueError(b)
    return abs(c)


# ------------- a ``break`` right after an inner loop (issue 11: 3.10/3.11 put
# its POP_TOP of the iterator right before the loop's exit; it was dropped)

def break_after_inner_for(b):
    log = []
    for i in range(3):
        for j in [b]:
            pass
        break
    log.append(i)
    return log


def break_after_inner_for_if(b):
    log = []
    for i in range(3):
        for j in [b]:
            log.append(j)
        if b:
            break
    log.append(i)
    return log


def break_after_inner_while(b):
    log = []
    for i in range(3):
        while b and len(log) < 2:
            log.append(b)
        break
    log.append(i)
    return log


def break_after_two_inner_fors(b):
    log = []
    for i in range(3):
        for j in [b]:
            for k in [j]:
                pass
            break
        break
    log.append(i)
    return log


def break_after_inner_for_continue(b):
    log = []
    for i in range(3):
        for j in [b]:
            pass
        if i == b:
            continue
        break
    log.append(i)
    return log


CASES = [
    (if_only, INTS1),
    (if_else, INTS1),
    (if_elif_chain, INTS1 + [(7,), (10,)]),
    (if_elif_no_else, INTS1 + [(11,)]),
    (if_nested, INTS2 + [(-1, -9), (2, 0), (-1, 0)]),
    (if_early_returns, INTS2 + [(20, 1), (1, 20)]),
    (if_return_none_then_shared_follow, INTS2 + [(1, 0), (2, 0), (3, 9), (3, 1), (0, 7)]),
    (if_pass_bodies, [(0, 0), (1, 0), (0, 1), (2, 2)]),
    (if_empty_then_else, INTS2),
    (if_constant_conditions, [(0, 0), (1, 1)]),
    (if_side_effect_condition, [(0, 0), (1, 0), (0, 1), (2, 3), (1, -1)]),
    (for_simple, INTS1),
    (for_body_always_returns, INTS1),
    (for_else_no_break, INTS1),
    (for_else_break, [(0,), (9,), (49,), (60,), (97,)]),
    (for_continue, INTS1),
    (for_break_continue_mixed, INTS1 + [(30,)]),
    (for_nested_break, INTS2),
    (for_break_out_of_both_loops, [([1, 2], [0, 2], []), ([], [1], []), ([3], [1, 2], []), ([5, 1], [1], [])]),
    (for_nested_else_both, INTS2 + [(3, 3), (11, 7)]),
    (for_return_inside, INTS1),
    (for_over_dict_items, INTS2),
    (for_target_attr_subscript, INTS2),
    (for_modify_loop_var, INTS1),
    (for_empty_iterable_else, INTS1),
    (while_simple, INTS1 + [(27,)]),
    (while_else, INTS1 + [(8,)]),
    (while_true_break, INTS1 + [(40,)]),
    (while_nested, INTS2),
    (while_complex_condition, INTS2 + [(0, 2), (-1, 9)]),
    (chain_and_in_if, [([], k, x) for k in (-1, 0, 4, 10) for x in (0, 1)]),
    (assert_chain_and, [([], k, x) for k in (-1, 0, 4, 10) for x in (0, 1)]),
    (while_or_chain_condition, [([], 0, 0), ([], 3, 0), ([], 0, 1), ([], 2, 1)]),
    (while_negated_and_condition, [([], 0, 0), ([], 3, 0), ([], 0, 1), ([], 2, 1)]),
    (while_return_in_loop, INTS1 + [(1000,)]),
    (while_else_with_continue, INTS1 + [(4,)]),
    (while_walrus_loop, INTS1),
    (while_walrus_call_at_end, INTS1 + [(200,)]),
    (while_walrus_continue, INTS1),
    (loop_in_loop_else_return, INTS2 + [(0, 5), (2, 1)]),
    (binary_search, [([1, 3, 5, 7, 9], 7), ([1, 3, 5, 7, 9], 1), ([1, 3, 5, 7, 9], 4), ([], 1), ([2], 2), ([1, 2], None)]),
    (gcd, [(12, 18), (17, 5), (0, 9), (9, 0), (-12, 8), (2 ** 40, 2 ** 20 * 3)]),
    (primes_upto, [(0,), (1,), (2,), (30,), (100,)]),
    (is_prime, [(n,) for n in (-1, 0, 1, 2, 3, 4, 9, 25, 97, 7919, 7917)]),
    (fizzbuzz, [(0,), (15,), (31,)]),
    (tokenize, [("x + 12*(y_1 - 3)",), ("",), ("   ",), ("a $ b",), ("abc123 45",)]),
    (eval_expr, [("1 + 2 * 3",), ("(1 + 2) * 3",), ("10 / 3 - -2",), ("2 * (3 + (4 - 1)) / 2",), ("1 +",), ("(1",), ("1 2",), ("1 / 0",)]),
    (parse_kv, [("a = 1\nb=true\n# c\n\nname = \"x y\"\nz = hello",), ("",), ("oops",), ("k=FALSE\nk=2",)]),
    (word_freq, [("The cat and the hat. The end!",), ("",), ("a a b b c",), ("!! ?? ..",)]),
    (format_table, [([("name", "qty"), ("apple", 3), ("kiwi", 12)],), ([],), ([(1.5, "x"), (22, "yy")],)]),
    (merge_dicts_deep, [({"a": 1, "b": {"c": 2, "l": [1]}}, {"b": {"d": 3, "l": [2]}, "e": 5}), ({}, {}), ({"a": [1]}, {"a": [2]}), ({"a": {}}, {"a": 1})]),
    (group_by_len, [(["a", "bb", "cc", "d", "eee"],), ([],), (["x"],)]),
    (invert_dict, [({"a": 1, "b": 2, "c": 1, "d": 1},), ({},), ({"a": []},)]),
    (swap_logged_items, [([], 0), ([], 3)]),
    (walrus_in_tuple_target, [([], 0), ([], 3)]),
    (bubble_sort, [([3, 1, 2],), ([],), ([1, 2, 3],), ([5, -1, 5, 0, 2],), ([1, "a"],)]),
    (quicksort, [([3, 1, 2],), ([],), ([1],), ([5, -1, 5, 0, 2, 9, 3],)]),
    (roman, [(1,), (4,), (9,), (14,), (1994,), (3999,), (0,), (4000,)]),
    (run_length, [("aaabccdddd",), ("",), ("x",), ("abab",)]),
    (matrix_mult, [([[1, 2], [3, 4]], [[5, 6], [7, 8]]), ([[1, 2, 3]], [[1], [2], [3]]), ([[1, 2]], [[1, 2]])]),
    (flatten, [([1, [2, [3, 4]], (5,), [], 6],), ([],), ([[[[]]]],), ([1, 2],)]),
    (balanced_brackets, [("([]{})",), ("([)]",), ("(((",), ("",), ("a(b)c]",), ("}",)]),
    (camel_to_snake, [("CamelCase",), ("HTTPServerError",), ("already_snake",), ("",), ("aB",)]),
    (collatz_max, [(1,), (10,), (30,)]),
    (histogram, [([1, 2, 2, 3, 9], 3), ([5, 5, 5], 2), ([1, 2], 0), ([], 2)]),
    (else_after_nested_returns, INTS2 + [(4, 4)]),
    (else_after_raise, INTS2 + [(2, -1)]),
    (else_ending_loop_body, [([],), ([1, 2],), ([1, 3],), ([1, 9],)]),
    (else_after_continue, [([],), ([1, 2, 3, 4],), ([2],)]),
    (else_after_break, [([],), ([1, 2, 5, 1],), ([7],)]),
    (if_pass_elif, INTS2 + [(2, 0), (3, 0)]),
    (continue_then_if, [([],), ([1, -2, 3, 4, -5],)]),
    (while_continue_then_if, INTS1 + [(9,)]),
    (chained_condition_raise, INTS2 + [(0, 0), (-1, 5)]),
    (is_none_and_not, [(None, []), (None, [1]), (0, []), (5, [2])]),
    (in_or_not, [(1, [1], 0), (1, [2], 0), (1, [2], 3), (2, [2], 5)]),
    (not_in_and_not, [(1, [1], 0), (1, [2], 0), (1, [2], 3), (2, [2], 5)]),
    (bisect_if_else, [([], 1), ([1, 2, 3], 2), ([1, 2, 3], 0), ([1, 2, 3], 9)]),
    (while_if_continue_else, INTS1 + [(7,)]),
    (while_true_exit_first, [(None, 1, 3), (2, None, 3), (3, "e", 2), (1, "e", 9), (0, "e", 9)]),
    (for_return_after_constant_and, [([], 1, 0), ([5, 6], 0, 0), ([5, 6], 1, 0), ([5], 0, 1)]),
    (while_not_ends_function, [([],), ([1, 2, 3, 4],), ([1, 2],), ([500, 500],)]),
    (chain_operand_once_if, CHAIN3),
    (chain_operand_once_while, CHAIN3),
    (chain_plain_while, CHAIN3),
    (chain_operand_once_then_code, CHAIN3),
    (chain_operand_once_in_for, CHAIN3),
    (chain_operand_once_long, CHAIN3),
    (chain_operand_once_value, CHAIN3),
    (chain_operand_once_assert, [(0, 0), (5, 0), (-1, 0), (10, 0), (None, 0)]),
    (chain_last_operand_or_if, CHAIN3),
    (chain_last_operand_or_value, CHAIN3),
    (chain_last_operand_or_return, CHAIN3),
    (chain_operands_nested, CHAIN3),
    (chain_assert_operand_ifexp, CHAIN3 + [(0, 0, 0), (1, 1, 0)]),
    (chain_while_last_operand_or, CHAIN3),
    (chain_lambda_operand, CHAIN3),
    (chain_in_call_argument, CHAIN3),
    (chain_in_ifexp_test, CHAIN3),
    (chain_walrus_kept, CHAIN3),
    (chain_not_then_continue, CHAIN3 + [(1, 1, 2)]),
    (chain_or_next, [([], k, x) for k in (-1, 0, 4, 10) for x in (0, 1)]),
    (chain3_or_next, [([], k, x) for k in (-1, 0, 4, 10) for x in (0, 11, 12)]),
    (chain_in_and_or, [([], k, x) for k in (-1, 0, 4, 12) for x in (0, 1, 5)]),
    (chain_generator_operand, [(0, 0), (1, 2), (2, 1)]),
    (assert_chain3_or_and, [([], k, x) for k in (-1, 0, 4, 12) for x in (0, 5, 11)]),
    (chain_operand_once_assert_msg, [(0, 0), (5, 0), (-1, 0), (11, 0), (None, 0)]),
    (chain_raise_operand_ifexp, CHAIN3),
    (and_statement_at_end, CHAIN3),
    (or_statement_at_end, CHAIN3),
    (chain_operand_ifexp_chained_test, CHAIN3 + [(-1, -1, -2), (2, 1, 1), (0, -1, -1)]),
    (chain_assert_msg_ifexp_chained_test, CHAIN3 + [(0, -1, -2), (0, 1, 1), (0, -1, -1)]),
    (raise_and_folded_or, [([0, 0], KeyError(3), 1), ([KeyError(1), 0], None, 1), ([0, 0], 1, 0),
                           ([0, KeyError(2)], 1, 0)]),
    (chain_comprehension_middle_operand, CHAIN3 + [(9, 3, 4), (5, 3, 9)]),
    (chain_raise_value_ifexp, CHAIN3),
    (chain_in_except_clause, CHAIN3 + [(0, 3, 5), (0, 1, 5), (0, 9, 5), (1, 2, 3)]),
    (chain_in_except_clause_raise, CHAIN3 + [(0, 3, 0), (0, 1, 0), (0, 9, 1)]),
    (break_after_inner_for, [(0,), (1,), (None,), (2,)]),
    (break_after_inner_for_if, [(0,), (1,), (None,), (2,)]),
    (break_after_inner_while, [(0,), (1,), (None,), (2,)]),
    (break_after_two_inner_fors, [(0,), (1,), (None,), (2,)]),
    (break_after_inner_for_continue, [(0,), (1,), (None,), (2,)]),
]


# ``if g: while c: ...`` with code after the if (3.10+: g's jump and the
# loop's entry test merge into ``g and c``; the loop was not found, the
# code after it copied into two branches: "an expression would be
# evaluated more than once"; rich's Lines.justify)
def guarded_while_then_code(a, b, log):
    for i in range(a):
        if b:
            while len(log) < i:
                log.append(1)
        w = []
        for j in enumerate(log):
            w.append(j)
    if b and a:
        while log.append(3):
            pass
    return log


CASES += [
    (guarded_while_then_code, [(0, 0, []), (3, 0, []), (3, 1, []), (4, 2, [])]),
]


# ``continue`` in an except clause of a while loop with code after the try
# (3.10+: the loop's top test is reached back only from the handler, which
# the CFG does not link to the try body: "try/else ends in an unexpected
# place"; distlib's Locator.get_errors)
def while_except_continue_then_code(a, log):
    while a:
        a -= 1
        try:
            log.append(10 // a)
        except ZeroDivisionError:
            continue
        log.append(a)
    return log


CASES += [
    (while_except_continue_then_code, [(0, []), (1, []), (3, [])]),
]


# ``(x or <true>) and y``: x's jump goes where it falls, both ways to y (the
# condition became ``y if x else y``, one y in two places: "an expression
# would be evaluated more than once"; all versions)
def always_true_or_then_and(a, b, log):
    if not (a or 3) or len(log) < b:
        log.append(1)
    if (log.append(a) or True) and len(log) > b:
        log.append(2)
    return log


CASES += [
    (always_true_or_then_and, [(0, 0, []), (1, 5, []), (0, 1, [7])]),
]


# ``break`` as the last statement of a try body in a while loop, code after
# the loop (3.12+ lays that code out right after the protected range: the
# body fell into it, "try/else ends in an unexpected place"; pip's
# StashedUninstallPathSet._get_file_stash; 3.8 still refuses)
def while_try_break_then_code(a, d, log):
    head = a
    while head >= 0:
        try:
            log.append(d[head])
            break
        except KeyError:
            pass
        head -= 1
    if log and log[0] != 2:
        log.append(3)
    return log


CASES += [
    (while_try_break_then_code, [(0, {}, []), (3, {1: 2}, []), (3, {2: 5}, []), (2, {0: 1}, [])]),
]


# ``break`` as the last statement of an else clause of a try/except inside
# a try/finally in a loop: 3.10+ copies the small code after the loop
# (``return log``) after the finally body's inlined copy; the else clause
# fell into it ("try/else ends in an unexpected place", 3.10, 3.12, 3.13)
def while_try_else_break_in_finally(a, log):
    n = 0
    while n < 2:
        n += 1
        try:
            try:
                log.append(10 // a)
            except ZeroDivisionError:
                log.append(0)
            else:
                log.append(1)
                break
        finally:
            log.append(2)
# ``if a < b < c: break``: the chain's true path jumps over its cleanup
# (POP_TOP) to the break, which was taken for the way out of the loop (the
# else clause or the code after the loop was refused: "loop else clause ends
# in an unexpected place", "stack underflow"; all versions)
def for_break_on_chain(xs, b, c, log):
    for x in xs:
        log.append(x)
        if b < x < c:
            break
    else:
        log.append('else')
    log.append('after')
    return log


def while_break_on_chain(xs, b, c, log):
    n = 0
    while n < len(xs):
        n += 1
        if b < xs[n - 1] <= c:
            break
        log.append(n)
    else:
        log.append('else')
    return log


def nested_for_break_on_chain(xs, b, c, log):
    for x in xs:
        for y in xs:
            if b < y < c:
                break
            log.append(y)
        else:
            continue
        log.append(x)
        if x < b < c:
            break
    return log


CHAIN_BREAK_INPUTS = [([1, 2, 3], 0, 5, []), ([1, 2, 3], 1, 3, []), ([], 0, 1, []), ([4, 0], 2, 3, [])]
CASES += [
    (for_break_on_chain, CHAIN_BREAK_INPUTS),
    (while_break_on_chain, CHAIN_BREAK_INPUTS),
    (nested_for_break_on_chain, CHAIN_BREAK_INPUTS),
]


# ``assert a <= x < b`` and ``assert 0, G if 1 else 2`` in a loop: the
# assert's jumps to its raise (over the chain's cleanup; a conditional
# expression's jump carrying its values) were taken for a break ("loop else
# clause ends in an unexpected place"; 3.8/3.9)
def for_assert_chain_in_if(a, xs, log):
    if a:
        for x in xs:
            assert 3 >= x != -1, 0
            log.append(x)
    else:
        log.append(a)
    return log


def while_assert_ifexp_in_for(xs, b, log):
    for x in xs:
        while b < 1:
            b += 1
            assert x, G if 3 else 3
        else:
            log.append(x)
    return log


CASES += [
    (while_try_else_break_in_finally, [(0, []), (5, []), ('x', [])]),
    (for_assert_chain_in_if, [(1, [1, 2], []), (1, [4], []), (1, [-1], []), (0, [], [])]),
    (while_assert_ifexp_in_for, [([1, 2], 0, []), ([0], 0, []), ([0], 2, [])]),
]


# a finally body in a loop that never completes: it continues the loop or
# raises (3.9/3.10: "finally handler does not end in RERAISE")
def while_finally_continues_or_raises(a, log):
    n = 0
    while n < 2:
        n += 1
        try:
            log.append(n)
        finally:
            if a:
                continue
            raise ValueError(n)
    return log


# ``while a < b < c and n < 4`` with a ``continue``: 3.11 copies the test to
# the bottom of the loop, where the chain's cleanup lies between its links and
# the last test; the copy was not found, the continue (a jump to the top test)
# left the loop ("loop body leaves the loop"; 3.11)
def while_chain_test_continue(a, b, c, log):
    n = 0
    while a < b < c and n < 4:
        n += 1
        if len(log) % 2:
            log.append(-n)
            continue
        log.append(n)
    return log


CASES += [
    (while_finally_continues_or_raises, [(0, []), (1, [])]),
    (while_chain_test_continue, [(0, 1, 2, []), (0, 1, 2, [7]), (2, 1, 0, []), (0, 3, 2, [])]),
]


# an if/else in a loop whose test is a chained comparison: its cleanup
# (dropping the kept operand) jumps to the else clause, which ends in a
# break (3.12+: a copy of the return after the loop); that jump is no break
# of its own ("loop body leaves the loop", 3.10-3.13)
def loop_if_chain_else_then_break(a, b, c, log):
    for j in a:
        if j > 1 >= b:
            if c:
                continue
        else:
            log.append(j)
        log.append(2)
        break
    return log


CASES += [
    (loop_if_chain_else_then_break, [([0, 5], 0, True, []), ([5, 0], 0, True, []), ([5, 0], 0, False, []),
                                     ([5], 3, False, []), ([], 0, 0, [])]),
]


# a while loop whose test ends in ``not (b and 1)``, in a try/finally whose
# finally returns: 3.11 ends the entry test and the bottom test each in a
# jump of its own to the finally's copy, which is no break ("loop else
# clause ends in an unexpected place")
def while_and_not_in_try_finally_returns(a, b, log):
    try:
        while a < 3 and (not (b and 1)):
            a += 1
            log.append(a)
    except Exception as e:
        log.append('e')
    finally:
        return log


CASES += [
    (while_and_not_in_try_finally_returns, [(0, 0, []), (0, 1, []), (5, 0, []), ('x', 0, [])]),
]


# ``continue`` in an except clause of a try/finally whose finally body ends in
# a branch of its own: 3.9 threads the jump at the end of the finally's copy
# on the continue path straight to the loop's header ("several ways out of a
# block", then "try/else ends in an unexpected place")
def for_except_continue_finally_raises_on_some(xs, log):
    for x in xs:
        try:
            log.append(10 // x)
        except ZeroDivisionError:
            continue
        finally:
            if x == 5:
                raise KeyError(x)
        log.append(x)
    return log


CASES += [
    (for_except_continue_finally_raises_on_some, [([], []), ([0, 1], []), ([2, 5, 1], []), ([0, 0], []), (['x'], [])]),
]


# a for body that never loops back (it ends in ``raise``) holding nested
# try/finally statements: 3.11 jumps over the inner finally's handler with the
# iterator still on the stack, after a POP_TOP that drops a call's result
# (the inlined copy's): no break ("try statement structured twice")
def for_body_nested_try_finally_never_loops(xs, log):
    for x in xs:
        try:
            try:
                log.append(10 // x)
            finally:
                log.append(2)
            v = x
        finally:
            log.append(3)
        raise KeyError(v)
    return log


CASES += [
    (for_body_nested_try_finally_never_loops, [([], []), ([1], []), ([0], []), ([2, 3], [])]),
]


# ---------------------------------------------------- loops (tryloops8)
# a for body that ends in ``break`` inside a with statement: the break's drop
# of the iterator falls into the loop's exit, whose code (the with's exit call
# and its jump) was taken for the break's (3.8-3.10: "loop body leaves the
# loop"; fuzz 3300:1054)
def for_break_ends_body_in_with(xs, log):
    from cases_exceptions import Rec
    with Rec(log, "a") as v0, Rec(log, "b"):
        for x in xs:
            log.append(x)
            break
    return log, v0


# a for body whose with statement is followed by ``return``: 3.8-3.10 copy the
# return (with the drop of the iterator first) into each way out of the with,
# and the jump that keeps the iterator to the with's normal exit was taken for
# a break; 3.12/3.13 took the jumps of the with's handlers (``__exit__``
# swallowed the exception) to the return for breaks ("loop body leaves the
# loop"; fuzz 3300:854)
def for_with_continue_then_return(xs, log):
    from cases_exceptions import Rec
    for x in xs:
        with Rec(log, "a", (ZeroDivisionError,)), Rec(log, "b", (KeyError,)):
            log.append(10 // x)
            if x > 1:
                continue
        return 5, log
    return log


CASES += [
    (for_break_ends_body_in_with, [([], []), ([1], []), ([1, 2], [])]),
    (for_with_continue_then_return, [([], []), ([1], []), ([0], []), ([-1], []), ([2, 3, 1], []),
                                     ([2, 0], [])]),
]


# a finally body that ends in ``return`` after a with statement: the handler's
# copy re-raises what the with's __exit__ does not swallow (no end of the
# finally body), and its with's exits join at one return where the inlined copy
# repeats the return in each (3.9/3.10: "finally handler does not end in
# RERAISE"; fuzz 3300:348)
def finally_with_then_return(a, log):
    from cases_exceptions import Rec
    try:
        log.append(10 // a)
    finally:
        with Rec(log, "w", (KeyError,)):
            if a < 0:
                raise KeyError(a)
            log.append(2)
        return 0, log


# a while loop whose test ends in ``or 0``: the entry test's way out is a jump
# to where the bottom test's goes (inside a with statement, whose exit call and
# jump were taken for the code a break goes to: "loop else clause ends in an
# unexpected place", 3.10; fuzz 3300:1455)
def while_test_or_false_constant_in_with(a, log):
    from cases_exceptions import Rec
    n = 0
    with Rec(log, "w"):
        while n < 2 and (not a or 0):
            n += 1
    log.append(n)
    return log


CASES += [
    (finally_with_then_return, [(1, []), (0, []), (-1, [])]),
    (while_test_or_false_constant_in_with, [(0, []), (1, [])]),
]


# a while test whose last operand is a chained comparison ``or 0``: its false
# way out jumps past the loop's own exit to a copy of the ``return`` after the
# loop (3.12/3.13), which was taken for where ``break`` goes ("loop else clause
# ends in an unexpected place"; fuzz 3300:89 on 3.13)
def while_test_chain_or_false_constant(a, b, c, log):
    n = 0
    while n < 3 and (a != b != c or 0):
        n += 1
        yield n
        continue


CASES += [
    (while_test_chain_or_false_constant, [(0, 1, 2, []), (0, 0, 2, []), (0, 1, 1, [])]),
]


# a while loop with an else clause inside a for loop: its test's chained
# comparison cleanup falls into the loop's exit, which is no break (taken for
# one while fixing the above: the else clause vanished; fuzz 43:842)
def for_while_chain_test_break_else(a, b, c):
    out = []
    for i in range(2):
        n = 0
        while n < 1 and c < (1 if 0 else b) <= 3:
            n += 1
            if a:
                break
        else:
            out.append(n)
        out.append(i)
    return out


CASES += [
    (for_while_chain_test_break_else, [(0, 1, 0), (1, 1, 0), (0, 0, 0), (0, 5, 0), (1, 2, 1)]),
]


# a loop's else clause inside try/finally: break goes to the finally body's
# inlined copy, which the else clause's walk steps over (3.11+)
def while_else_break_into_finally_copy(a, b, log):
    try:
        while a < 3:
            if b:
                break
            a += 1
        else:
            log.append(1)
    finally:
        log.append(2)
    return log


def for_else_break_into_finally_copy(xs, b, log):
    try:
        for x in xs:
            if x == b:
                break
            log.append(x)
        else:
            log.append(-1)
    finally:
        log.append(-2)
    return log


CASES += [
    (while_else_break_into_finally_copy, [(0, 0, []), (0, 1, []), (5, 0, []), (0, None, [])]),
    (for_else_break_into_finally_copy, [([1, 2], 2, []), ([1, 2], 3, []), ([], 0, []), (None, 0, [])]),
]


# a test whose two ways both go to the loop's bottom test (``assert b or -1``:
# the true constant folded away) is no link of that test: the bottom test is
# the copy of the top one, in a finally body too (3.12+)
def while_bottom_test_after_folded_assert(a, b, log):
    try:
        log.append(0)
    finally:
        while a < 2:
            a += 1
            assert b or -1
            log.append(a)
    return log


CASES += [
    (while_bottom_test_after_folded_assert, [(0, 0, []), (0, 1, []), (5, 1, []), (0, [], [])]),
]


# a while loop's else clause that breaks out of the enclosing while loop
# (whose way out continues the for loop around it)
def while_else_breaks_enclosing_while(a, b, c, log):
    for i in a:
        while b < 3:
            b += 1
            while c <= 3:
                c += 1
                if c == log[0]:
                    break
            else:
                if log[1]:
                    break
                raise ValueError
            log.append((i, b, c))
    return log


CASES += [
    (while_else_breaks_enclosing_while,
     [([1, 2], 0, 0, [2, 1]), ([1], 0, 0, [9, 1]), ([1], 0, 0, [9, 0]), ([1, 2], 5, 0, [2, 0]), ([], 0, 0, [])]),
]


# an inner while's else clause that breaks the middle loop, whose own else
# breaks the outer one: the middle loop's ``break`` goes to the outer loop's
# bottom test, which only that break reaches (it lies in the inner else
# clause's dominated code and was walked as the clause's); 3.10+ ("loop else
# clause ends in an unexpected place"; 3.11: "if branches end in different
# places", fuzz 43:1700)
def while_else_breaks_through_two_loops(a, b, c, log):
    while a < 1:
        a += 1
        while b <= 0:
            b += 1
            while c < 3:
                c += 1
                if log[0]:
                    break
            else:
                break
        else:
            break
    else:
        log.append(2)
    return log


CASES += [
    (while_else_breaks_through_two_loops,
     [(0, 0, 0, [0]), (0, 0, 0, [1]), (0, 5, 0, [0]), (5, 0, 0, [0]), (0, 0, 5, [1]), (-1, -1, 0, [0])]),
]


# 3.10+: ``while c:`` rotated, its body starting with ``while True:`` (in a try
# or not): the body's start and the inner loop's header are one block (only
# NOPs apart), the inner loop's jump back was taken for the outer ``continue``
# (heapq.merge, refused by the proof on 3.11-3.13)
def while_body_starts_with_while_true_in_try(h, log):
    h = [iter(x) for x in h]
    while len(h) > 1:
        try:
            while True:
                v = h[0]
                log.append(next(v))
        except StopIteration:
            h.pop(0)
    return log


def while_body_starts_with_while_true(h, log):
    while len(h) > 1:
        while True:
            v = h.pop()
            log.append(v)
            if v > 2 or len(h) < 2:
                break
    return log


CASES += [
    (while_body_starts_with_while_true_in_try, [([], []), ([[1]], []), ([[1, 2], [3]], []), ([[], [4], [5, 6]], [])]),
    (while_body_starts_with_while_true, [([], []), ([1, 2], []), ([3, 1, 4, 1], []), ([0, 0, 0], [])]),
]
