"""Real packages' own work as an oracle (bench/workloads.py): packages nobody tuned the
decompiler on run a fixed workload as they are and with every function recompiled, and
must print the same. packaging, PyYAML and Jinja2 come with the test set-up (transformers
and torch depend on them)."""
import os
import re
import subprocess
import sys

BENCH = os.path.join(os.path.dirname(__file__), "..", "..", "bench", "workloads.py")
PACKAGES = ["packaging", "yaml", "jinja2"]


def test_recompiled_packages_do_the_same_work():
    p = subprocess.run([sys.executable, BENCH, "--package", ",".join(PACKAGES)], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True, timeout=600)
    assert p.returncode == 0, p.stdout + p.stderr
    for package in PACKAGES:
        row = re.search(r"^%s\s+(\d+)\s+(\d+)\s+[\d.]+\s+(.*)$" % package, p.stdout, re.M)
        assert row, p.stdout
        functions, refused, outcome = int(row.group(1)), int(row.group(2)), row.group(3)
        assert outcome == "same output", p.stdout
        # the replacement ran: most of the package's functions were recompiled
        assert functions >= 200 and refused < functions // 20, p.stdout


def test_the_oracle_sees_a_changed_function():
    """A function whose code changes what the workload prints changes the digest: the
    workload runs the package's functions, not copies made before the replacement."""
    sys.path.insert(0, os.path.dirname(BENCH))
    import workloads
    from packaging import utils
    before = workloads.child("packaging", replace=False)["digest"]
    original = utils.canonicalize_name.__code__
    utils.canonicalize_name.__code__ = (lambda name, validate=False: name.upper()).__code__
    try:
        after = workloads.child("packaging", replace=False)["digest"]
    finally:
        utils.canonicalize_name.__code__ = original
    assert before != after
