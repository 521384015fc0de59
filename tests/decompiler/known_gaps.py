"""Cases the decompiler refuses (``DecompilationError``) on some versions.

For these node ids -- and only these -- a loud refusal is the expected outcome on the
versions listed; wrong output never is. A listed case that passes fails the run (the
gap closed: take it off the list). The translation validator (``validate.py``) turned
most of them from silently wrong text into refusals; each is a decompiler bug to fix.
"""
REFUSED = {
    'tests/decompiler/test_differential.py::test_differential[branches:finally_raises_or_returns]': ('3.8',),
    'tests/decompiler/test_differential.py::test_differential[control:while_try_break_then_code]': ('3.8', '3.9'),
    'tests/decompiler/test_differential.py::test_differential[control:while_finally_continues_or_raises]': ('3.11',),
    # (the code after the try/finally is taken for the inner try's else clause, ahead of the finally)
    'tests/decompiler/test_differential.py::test_differential[control:for_except_continue_finally_raises_on_some]': ('3.12', '3.13', '3.14', '3.15'),
    'tests/decompiler/test_differential.py::test_differential[exceptions:try_in_loop_break_continue]': ('3.10',),
    'tests/decompiler/test_differential.py::test_differential[exceptions:with_return_in_try_finally]': ('3.11', '3.12', '3.13', '3.14', '3.15'),
    # (the ``return`` lands after the with block, where __exit__ swallowing an exception continues the loop)
    'tests/decompiler/test_differential.py::test_differential[exceptions:for_with_return_in_try_finally]': ('3.11', '3.12', '3.13', '3.14', '3.15'),
    'tests/decompiler/test_differential.py::test_differential[legacy:finally_if_else_raise_in_loop]': ('3.10',),
    # (SETUP_FINALLY layouts: the value returned from the try/except/finally is left on the stack)
    'tests/decompiler/test_differential.py::test_differential[exceptions:clause_try_except_finally_returns_value]': ('3.9', '3.10'),
    # (3.8-3.10's with statements: a with body that ends in ``break``, refused by legacy.py's with;
    # 3.14+: the exit call falls straight into the code after the loop, no jump: read as ``while True``)
    'tests/decompiler/test_differential.py::test_differential[fuzz:with_body_breaks_inside_loop]': ('3.8', '3.9', '3.14', '3.15'),
    'tests/decompiler/test_differential.py::test_differential[fuzz:nested_with_body_breaks_inside_for]': ('3.10',),
    # (3.11: "loop else clause ends in an unexpected place", the try/finally in a body that never loops back)
    'tests/decompiler/test_differential.py::test_differential[fuzz:for_never_loops_with_else]': ('3.11',),
    # (3.12+: the finally body's copy on the normal exit falls into the code after the try,
    # which the if's branch walks into as its own: the proof refuses the text)
    'tests/decompiler/test_differential.py::test_differential[exceptions:finally_copy_ends_in_jump]': ('3.12', '3.13', '3.14', '3.15'),
    # (3.11: the finally body's inlined copy, whose loop's break jumps past the copy's end, is not matched)
    'tests/decompiler/test_differential.py::test_differential[fuzz:finally_if_endless_loop_breaks_else]': ('3.11',),
    # (3.8-3.10: a loop whose body always breaks from a finally body compiles as an if; the
    # block-stack layouts' finally handler ends in that break, not in RERAISE/END_FINALLY)
    'tests/decompiler/test_differential.py::test_differential[fuzz:loop_body_breaks_from_finally]': ('3.8', '3.9', '3.10'),
}
