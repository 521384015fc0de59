"""A short seeded run of the validator's mutation test (bench/mutate.py): small edits
of proved decompiled texts (a statement deleted, duplicated or swapped, a test negated,
a constant, operator or name changed...) must be refused by the translation validator
or behave exactly like the original. Reproduce a failure with
``python bench/mutate.py --show SEED:INDEX:K``."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "bench"))

import mutate  # noqa: E402  (the one copy of the mutations)

SEED = "test"
COUNT = 40


def test_validator_is_not_fooled_by_mutants():
    results = [r for i in range(COUNT) for r in mutate.run_case((SEED, i))]
    kinds = [kind for kind, _, _ in results]
    assert kinds.count("rejected") > len(results) // 2, "too few mutants were made or refused"
    bad = [r for r in results if r[0] in ("UNSOUND", "hang")]
    assert not bad, "\n".join("%s %s  %s" % r for r in bad)


def test_a_wrong_mutant_would_be_seen():
    """The oracle behind the mutation test tells a changed function from the original."""
    import fuzz
    ns, make = fuzz.load("def f(a, b, c, log):\n    log.append(a)\n    return b\n")
    fn = make()
    factory = mutate._factory(fn, make, "def f(a, b, c, log):\n    log.append(b)\n    return b\n", ns)
    assert fuzz.behaviour(factory, ns) != fuzz.behaviour(make, ns)
