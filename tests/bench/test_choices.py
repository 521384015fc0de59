"""bench/choices.py counts the structurer's choices where they are made: each place it names is
one docs/decompiler.md lists, and a chained comparison's operand is one tried and undone."""
import os
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
BENCH = os.path.join(ROOT, "bench", "choices.py")
sys.path.insert(0, os.path.join(ROOT, "tests", "decompiler"))
from test_layout import documented_choice_points  # noqa: E402  (the docs' table, read one way)

SOURCE = '''
def chain(a, b, c):
    if a < b < c:
        return 1
    return 2


def guarded(x, y):
    match x:
        case [a] if a > y:
            return a
        case _:
            return 0
'''


def test_each_choice_is_counted_at_a_documented_place(tmp_path):
    (tmp_path / "m.py").write_text(SOURCE)
    p = subprocess.run([sys.executable, BENCH, "--tree", str(tmp_path), "--fuzz", "20261206:40"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True, timeout=300)
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert lines[0].startswith("tree=%s + fuzz=20261206:40: 42 functions, Python " % tmp_path)
    rows = {}
    for line in lines[2:-1]:
        where, tried, undone = line.split()
        rows[where.split(":")[0]] = (int(tried), int(undone))
    assert set(rows) <= documented_choice_points(), "counted where docs/decompiler.md lists no choice"
    made, undone = rows["conditions.chain_link_operand"]
    assert made >= 1 and undone == made  # (read for its answer, always undone)
    assert rows["case_guards.guard"][0] >= 1
    assert lines[-1].split()[0] == "walk.loopless_while"
