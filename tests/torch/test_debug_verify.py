"""verify.py: equivalence of acyclic code with branches, path by path; refusal of the rest."""
import pytest

from unveil.torch.verify import Unverifiable, paths, same_effects


def code(src):
    ns = {}
    exec(src, ns)
    return ns["fn"].__code__


def test_same_program_with_branches_written_differently():
    a = code("def fn(x, y):\n    if x:\n        return f(y)\n    return g(y)\n")
    b = code("def fn(x, y):\n    if not x:\n        return g(y)\n    else:\n        return f(y)\n")
    assert len(paths(a)) == 2
    same_effects(a, b)


def test_temporaries_and_star_calls_are_transparent():
    a = code("def fn(x):\n    return h(*[x, 1])\n")
    b = code("def fn(x):\n    t = x\n    return h(t, 1)\n")
    same_effects(a, b)


@pytest.mark.parametrize("other", [
    "def fn(x, y):\n    if x:\n        return g(y)\n    return f(y)\n",      # branches swapped
    "def fn(x, y):\n    if y:\n        return f(y)\n    return g(y)\n",      # other condition
    "def fn(x, y):\n    if x:\n        return f(y)\n    return g(x)\n",      # other argument
])
def test_different_programs_are_told_apart(other):
    a = code("def fn(x, y):\n    if x:\n        return f(y)\n    return g(y)\n")
    with pytest.raises(Unverifiable):
        same_effects(a, code(other))


def test_keyword_names_are_part_of_a_call():
    """3.11's dis gives KW_NAMES no value: the names are read from the constants (a keyword
    call in Dynamo's code made the check fail with a TypeError, hiding the real reason)."""
    a = code("def fn(x):\n    return h(x, key=1)\n")
    same_effects(a, code("def fn(x):\n    t = x\n    return h(t, key=1)\n"))
    with pytest.raises(Unverifiable):
        same_effects(a, code("def fn(x):\n    return h(x, other=1)\n"))


def test_order_of_calls_and_reads_matters():
    a = code("def fn():\n    t = h()\n    a = t[0]\n    b = t[1]\n    return k(a, b)\n")
    b = code("def fn():\n    t = h()\n    b = t[1]\n    a = t[0]\n    return k(a, b)\n")
    with pytest.raises(Unverifiable):
        same_effects(a, b)
    c = code("def fn():\n    p = f()\n    q = g()\n    return (p, q)\n")
    d = code("def fn():\n    q = g()\n    p = f()\n    return (p, q)\n")
    with pytest.raises(Unverifiable):
        same_effects(c, d)


def test_graph_outputs_may_be_read_in_any_order():
    a = code("def fn():\n    t = __compiled_fn_1_x()\n    a = t[0]\n    b = t[1]\n    return k(a, b)\n")
    b = code("def fn():\n    t = __compiled_fn_1_x()\n    b = t[1]\n    a = t[0]\n    return k(a, b)\n")
    same_effects(a, b)


@pytest.mark.parametrize("src", [
    "def fn(x):\n    for i in x:\n        f(i)\n",
    "def fn(x):\n    while x:\n        x = f(x)\n",
    "def fn(x):\n    with f(x):\n        return g(x)\n",   # with statements are not modelled
])
def test_loops_and_with_are_refused(src):
    with pytest.raises(Unverifiable):
        paths(code(src))


@pytest.mark.parametrize("one,other", [
    # one list handed to two calls is not two equal lists: the first call may keep and change it
    ("def fn():\n    l = []\n    f(l)\n    return g(l)\n", "def fn():\n    f([])\n    return g([])\n"),
    ("def fn(a):\n    l = [a]\n    f(l)\n    return l[0]\n", "def fn(a):\n    f([a])\n    return a\n"),
    ("def fn(a):\n    l = [a]\n    f(l)\n    x, = l\n    return x\n", "def fn(a):\n    f([a])\n    return a\n"),
    ("def fn(a):\n    l = [a]\n    f(l)\n    return g(*l)\n", "def fn(a):\n    f([a])\n    return g(a)\n"),
    ("def fn():\n    l = []\n    f(l, l)\n", "def fn():\n    f([], [])\n"),
    # a list added to another is the same object inside it: changed later, the change shows
    ("def fn(a):\n    l = []\n    m = [l]\n    l.append(a)\n    return f(m)\n",
     "def fn(a):\n    l = []\n    m = [[]]\n    l.append(a)\n    return f(m)\n"),
    # `is` of containers the code built: identity is not in their items
    ("def fn():\n    l = []\n    return f(l is l)\n", "def fn():\n    return f([] is [])\n"),
])
def test_a_container_handed_out_is_one_object(one, other):
    with pytest.raises(Unverifiable):
        same_effects(code(one), code(other))


def test_a_list_changed_after_a_call_kept_it_is_an_effect():
    changed = code("def fn(x):\n    l = [1]\n    f(l)\n    l[0] = 2\n    return l\n")
    same_effects(changed, code("def fn(x):\n    l = [1]\n    f(l)\n    t = 2\n    l[0] = t\n    return l\n"))
    with pytest.raises(Unverifiable):
        same_effects(changed, code("def fn(x):\n    l = [1]\n    f(l)\n    return l\n"))


def test_empty_and_string_keyed_dicts_merged_into_a_call():
    # Dynamo passes the dict it built as the call's keyword arguments; source merges a display
    same_effects(code("def fn(a, t):\n    return g(*t, **{})\n"), code("def fn(a, t):\n    d = {}\n    return g(*t, **d)\n"))
    same_effects(code("def fn(a, t):\n    d = {'k': a}\n    return g(*t, **d)\n"),
                 code("def fn(a, t):\n    return g(*t, **{'k': a})\n"))
    sixteen = ", ".join("'k%d': a + %d" % (k, k) for k in range(16))
    as_keywords = ", ".join("k%d=a + %d" % (k, k) for k in range(16))
    same_effects(code("def fn(a, t):\n    return g(*t, %s)\n" % as_keywords),  # BUILD_MAP 0, MAP_ADD each
                 code("def fn(a, t):\n    d = {%s}\n    return g(*t, **d)\n" % sixteen))
    with pytest.raises(Unverifiable):
        same_effects(code("def fn(a, t):\n    return g(*t, %s)\n" % as_keywords),
                     code("def fn(a, t):\n    return g(*t, %s)\n" % as_keywords.replace("k15=a", "k15=t")))
    with pytest.raises(Unverifiable):  # another key, another value
        same_effects(code("def fn(a, t):\n    return g(*t, **{'k': a})\n"),
                     code("def fn(a, t):\n    return g(*t, **{'j': a})\n"))


def test_displays_the_compiler_folds_equal_the_ones_dynamo_builds():
    # BUILD_CONST_KEY_MAP / a folded constant tuple against BUILD_MAP / BUILD_TUPLE
    same_effects(code("def fn(x, y):\n    return {'a': x, 'b': y}\n"),
                 code("def fn(x, y):\n    k = 'a'\n    return {k: x, 'b': y}\n"))
    same_effects(code("def fn():\n    return h((1, 2))\n"), code("def fn():\n    a = 1\n    return h((a, 2))\n"))
    with pytest.raises(Unverifiable):
        same_effects(code("def fn(x, y):\n    return {'a': x, 'b': y}\n"),
                     code("def fn(x, y):\n    k = 'a'\n    return {k: y, 'b': x}\n"))


def test_functions_made_inside_are_compared_by_their_code():
    a = code("def fn(x):\n    return h(lambda: x + 1)\n")
    same_effects(a, code("def fn(x):\n    g = lambda: x + 1\n    return h(g)\n"))
    for other in ("def fn(x):\n    return h(lambda: x + 2)\n",   # another body
                  "def fn(x):\n    return h(lambda y=1: x + 1)\n"):  # another signature
        with pytest.raises(Unverifiable):
            same_effects(a, code(other))


def test_storing_a_cell_back_is_no_effect():
    a = code("def fn():\n    x = h()\n    def g():\n        return x\n    x = x\n    return k(g)\n")
    same_effects(a, code("def fn():\n    x = h()\n    def g():\n        return x\n    return k(g)\n"))
    with pytest.raises(Unverifiable):  # the value read is used as well: the store is kept
        same_effects(code("def fn():\n    x = h()\n    def g():\n        return x\n    y = x\n    x = y\n    return k(g, y)\n"),
                     code("def fn():\n    x = h()\n    def g():\n        return x\n    y = x\n    return k(g, y)\n"))
    with pytest.raises(Unverifiable):  # a cell read moved past a call
        same_effects(code("def fn():\n    x = h()\n    def g():\n        return x\n    y = x\n    h()\n    return k(g, y)\n"),
                     code("def fn():\n    x = h()\n    def g():\n        return x\n    h()\n    return k(g, x)\n"))


TRY_FINALLY = "def fn(x):\n    try:\n        a = f(x)\n    finally:\n        g()\n    return h(a)\n"


def test_exception_paths_go_through_the_handlers():
    a = code(TRY_FINALLY)
    # f returns (g, h, return), or f raises (g runs, f's exception goes on), or g raises too
    assert len(paths(a)) == 3
    same_effects(a, code("def fn(x):\n    try:\n        a = f(x)\n    finally:\n        g()\n    b = a\n    return h(b)\n"))
    same_effects(code("def fn(x):\n    try:\n        return f(x)\n    except E:\n        return g(x)\n"),
                 code("def fn(x):\n    try:\n        r = f(x)\n    except E:\n        r = g(x)\n    return r\n"))


@pytest.mark.parametrize("other", [
    "def fn(x):\n    try:\n        pass\n    finally:\n        g()\n    a = f(x)\n    return h(a)\n",  # f outside
    "def fn(x):\n    try:\n        a = f(x)\n    finally:\n        k()\n    return h(a)\n",  # other cleanup
    "def fn(x):\n    try:\n        a = f(x)\n    except E:\n        raise\n    finally:\n        g()\n    return h(a)\n",
])
def test_exception_paths_are_told_apart(other):
    with pytest.raises(Unverifiable):
        same_effects(code(TRY_FINALLY), code(other))


def test_handlers_are_told_apart():
    a = code("def fn(x):\n    try:\n        return f(x)\n    except E:\n        return g(x)\n")
    for other in ("def fn(x):\n    try:\n        return f(x)\n    except F:\n        return g(x)\n",
                  "def fn(x):\n    try:\n        return f(x)\n    except E:\n        return h(x)\n"):
        with pytest.raises(Unverifiable):
            same_effects(a, code(other))
