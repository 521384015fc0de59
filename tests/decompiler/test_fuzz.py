"""A short seeded run of the differential fuzzer (bench/fuzz.py, issue 11): random
functions rich in control flow, run before and after a decompile -> compile round
trip. A refusal (DecompilationError) is allowed; wrong behaviour, text that does
not compile, a crash inside unveil or a hang is not. Reproduce a failure with
``python bench/fuzz.py --show SEED:INDEX`` and reduce it with ``--shrink``."""
import os
import sys


sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "bench"))

import fuzz  # noqa: E402  (the one copy of the generator and the oracle)

SEED = "test"
COUNT = 300


def test_fuzz_never_wrong():
    by_kind = fuzz.run(SEED, COUNT)
    assert sum(len(v) for v in by_kind.values()) == COUNT
    assert not by_kind["badgen"], "the generator made invalid programs: %r" % by_kind["badgen"][:5]
    bad = {k: by_kind[k] for k in ("mismatch", "nocompile", "crash", "hang") if by_kind[k]}
    assert not bad, "\n".join("%s %s:%d %s" % (k, SEED, i, d) for k, v in bad.items() for i, d in v)


def test_fuzz_generator_is_deterministic_and_valid():
    for index in range(50):
        source = fuzz.generate(SEED, index)
        assert source == fuzz.generate(SEED, index)
        compile(source, "<fuzz>", "exec")


def test_fuzz_oracle_sees_a_wrong_function():
    """The oracle compares effects, not just return values: a function that logs
    its effects in another order is a mismatch."""
    src = "def f(a, b, c, log):\n    log.append(a)\n    log.append(b)\n    return c\n"
    ns, make = fuzz.load(src)
    wrong = "def f(a, b, c, log):\n    log.append(b)\n    log.append(a)\n    return c\n"
    ns2, make2 = fuzz.load(wrong)
    assert fuzz.behaviour(make, ns) != fuzz.behaviour(make2, ns2)
