"""The torch.compile zoo (issue 4): every code object Dynamo writes for each program is
decompiled and recompiled, the recompiled code replaces Dynamo's, and the program computes
exactly what it computes under plain torch.compile.

For each program and backend: one run under plain ``torch.compile`` and one with a bytecode
hook that returns ``recompile(new_code, "<zoo>")`` for every transformed code object (of the
program's functions and of the resume functions Dynamo generated); the bodies of the resume
functions are recompiled as well. Asserted: no failure in any of those, Dynamo's caches hold
the recompiled code, the counts of code objects, and identical outputs, gradients, printed
text and global state.

Programs live in zoo_programs.py, the machinery in zoo_harness.py; the counts are tabled in
docs/zoo.md (``.venv/bin/python tests/torch/zoo_harness.py``).
"""
import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import zoo_harness  # noqa: E402
from zoo_programs import PROGRAMS  # noqa: E402


CASES = [pytest.param(p, backend, id="%s-%s" % (p.name, backend))
         for p in PROGRAMS for backend in p.backends]


def test_every_program_has_counts():
    assert all(p.counts is not None for p in PROGRAMS)
    assert len({p.name for p in PROGRAMS}) == len(PROGRAMS)


@pytest.mark.parametrize("program,backend", CASES)
def test_zoo(program, backend):
    plain, rec = zoo_harness.compare(program, backend)
    hook = rec.hook

    # (1) every code object Dynamo produced was decompiled, recompiled and proved, none fell
    # back -- except the listed resume function bodies, which may only be refused: by the proof,
    # or (3.14: Dynamo's exception table sends the resumed with body to its prologue's handler
    # at another stack depth) as malformed before it
    refused = [f for f in hook.failures if f.what == "resume function"
               and f.code.co_name.split("_at_")[0][len(zoo_harness.RESUME_PREFIX):] in program.refused_resume
               and ("NotEquivalent" in f.error or "refusing malformed bytecode" in f.error)]
    failures = [f for f in hook.failures if f not in refused]
    assert not failures, "\n\n".join(f.report() for f in failures)
    assert len(hook.replaced) == len(hook.produced) == len(plain.hook.produced)
    assert (len(hook.resume_checked) + len(refused) == len(hook.resume_functions)
            == len(plain.hook.resume_functions))
    # ... and Dynamo's caches run the recompiled code
    assert hook.cache, "Dynamo cached nothing"
    assert all(code.co_filename == zoo_harness.ZOO_FILENAME for code in hook.cache), [
        (code.co_name, code.co_filename) for code in hook.cache]

    # (2) the same outputs and gradients, bit for bit, and the same side effects
    zoo_harness.assert_same(rec.results, plain.results)
    assert rec.stdout == plain.stdout
    assert rec.state == plain.state

    # (3) the counts reported in docs/zoo.md
    assert (len(hook.replaced), len(hook.resume_checked) + len(refused)) == program.counts
