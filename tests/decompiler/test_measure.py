"""The round-trip measure (DESIGN.md section 3) compares code, not line breaks."""
from unveil.decompiler.measure import normalized


def code_of(src):
    namespace = {}
    exec(src, namespace)
    return namespace["f"].__code__


def test_fused_local_pairs_compare_split():
    # 3.13 fuses two local loads (or a store and a load) only on one line
    one_line = code_of("def f(a, b):\n    x = a\n    return x + b\n")
    two_lines = code_of("def f(a, b):\n    x = (\n        a)\n    return (x\n            + b)\n")
    assert normalized(one_line) == normalized(two_lines)


def test_other_order_is_different():
    assert normalized(code_of("def f(a, b):\n    return a + b\n")) != normalized(
        code_of("def f(a, b):\n    return b + a\n"))



def test_arguments_without_text_count():
    # dis writes no text for some arguments (3.12: ``in``/``not in``, ``is``/``is not``)
    assert normalized(code_of("def f(a, b):\n    return a in b\n")) != normalized(
        code_of("def f(a, b):\n    return a not in b\n"))
    assert normalized(code_of("def f(a, b):\n    return a is b\n")) != normalized(
        code_of("def f(a, b):\n    return a is not b\n"))
