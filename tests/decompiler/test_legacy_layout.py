"""Layouts of the block-stack versions (3.8-3.10) that only the right source
reproduces: the recompiled decompilation has the same normalized bytecode."""
import sys

import pytest

import cases_basic
import cases_control
import cases_exceptions
from harness import check_bytecode

V = sys.version_info[:2]
LEGACY = (3, 8) <= V <= (3, 10)

# function -> the versions where its layout is reproduced
SAME_BYTECODE = {
    cases_basic.ifexp_nested_body: LEGACY,
    cases_control.else_after_nested_returns: LEGACY,
    cases_control.else_after_raise: LEGACY,
    cases_control.else_ending_loop_body: LEGACY,
    cases_control.else_after_continue: V in ((3, 8), (3, 9)),
    cases_control.else_after_break: V in ((3, 8), (3, 9)),
    cases_control.if_pass_elif: LEGACY,
    cases_control.continue_then_if: LEGACY,
    cases_control.while_continue_then_if: LEGACY,
    cases_control.chained_condition_raise: V in ((3, 8), (3, 9)),
    cases_control.is_none_and_not: LEGACY,
    cases_control.bisect_if_else: LEGACY,
    cases_control.in_or_not: LEGACY,
    cases_control.not_in_and_not: LEGACY,
    cases_exceptions.except_raises_then_loop: LEGACY,
    cases_exceptions.finally_with_if: LEGACY,
    cases_exceptions.except_returns_then_code: LEGACY,
    cases_exceptions.except_returns_else_ends_function: LEGACY,
    cases_exceptions.finally_with_if_else_then_code: LEGACY,
    cases_exceptions.except_as_raises_then_code: LEGACY,
    cases_exceptions.except_raises_with_else: LEGACY,
}


@pytest.mark.parametrize("fn", [f for f, on in SAME_BYTECODE.items() if on],
                         ids=lambda f: f.__name__)
def test_bytecode_legacy(fn):
    check_bytecode(fn)
