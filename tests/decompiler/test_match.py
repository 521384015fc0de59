"""match statements (3.10+): decompile, recompile, and compare behaviour on
inputs reaching every case (and bytecode where the layout allows)."""
import sys

import pytest

if sys.version_info < (3, 10):
    pytest.skip("match statements need Python 3.10+", allow_module_level=True)

from harness import check_behaviour, check_bytecode  # noqa: E402
import match_cases  # noqa: E402
import unveil  # noqa: E402

CASES = [pytest.param(fn, inputs, id=fn.__name__) for fn, inputs in match_cases.CASES]


#: known gaps (refused loudly, never wrong code): a single-case match whose
#: or-pattern tails the compiler copied per alternative (3.10, 3.12, 3.13)
KNOWN = {"or_nested", "or_with_capture"}


@pytest.mark.parametrize("fn, inputs", CASES)
def test_behaviour(fn, inputs):
    if fn.__name__ in KNOWN:
        try:
            check_behaviour(fn, inputs)
        except unveil.DecompilationError:
            pass  # refused loudly: accepted for these known gaps only
        return
    src, _ = check_behaviour(fn, inputs)
    assert "match " in src, src


#: where the recompiled layout differs (equivalent code placed differently:
#: a shared tail after the match taken into a case, an explicit continue)
LAYOUT = {"or_nested", "or_with_capture", "as_patterns", "guards", "guard_walrus", "nested_match",
          "in_loop", "in_if", "wildcard_default"}


@pytest.mark.parametrize("fn, inputs", [c for c in CASES if c.id not in LAYOUT])
def test_bytecode(fn, inputs):
    check_bytecode(fn)
