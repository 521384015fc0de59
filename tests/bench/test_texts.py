"""bench/texts.py, the byte-for-byte check of a refactoring: what it saves, a compare of the
same decompiler finds nothing, and a changed text or a new refusal fails the compare."""
import gzip
import json
import os
import subprocess
import sys

BENCH = os.path.join(os.path.dirname(__file__), "..", "..", "bench", "texts.py")


def texts(*args):
    return subprocess.run([sys.executable, BENCH] + list(args), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True, timeout=300)


def rewrite(path, change):
    with gzip.open(path, "rt", encoding="utf-8") as f:
        rows = [json.loads(line) for line in f]
    change(rows)
    with gzip.open(path, "wt", encoding="utf-8") as f:
        f.writelines(json.dumps(r) + "\n" for r in rows)


DEEP = "(b if a else " * 150 + "a" + ")" * 150  # nested deeper than the decompiler goes: refused


def test_compare_finds_a_changed_text_and_a_new_refusal(tmp_path):
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "m.py").write_text("def f(a):\n    return a + 1\n\nclass C:\n    def g(self, b):\n"
                               "        while b:\n            b -= 1\n        return b\n\n"
                               "def deep(a, b):\n    return %s\n" % DEEP)
    saved = tmp_path / "saved"
    p = texts("save", str(saved), "--tree", str(tree), "--fuzz", "7:5")
    assert p.returncode == 0, p.stderr
    assert "3 functions, 1 refused" in p.stdout
    p = texts("compare", str(saved))
    assert p.returncode == 0, p.stdout + p.stderr
    assert "3 functions, 3 the same, 0 texts changed, 0 newly refused" in p.stdout
    assert "5 functions, 5 the same" in p.stdout

    (version,) = os.listdir(str(saved))
    [name] = [n for n in os.listdir(str(saved / version)) if n.startswith("tree-")]
    path = saved / version / name

    def change(rows):
        by_key = {r[0].split(":")[1]: r for r in rows}
        by_key["f"][1] = by_key["f"][1].replace("return", "return  ")  # a text it no longer writes
        by_key["C.g"][1] = "refused: it refused this before"           # a text it writes now
        by_key["deep"][1] = "def deep(a, b):\n    return a\n"          # one it refuses now
    rewrite(path, change)
    p = texts("compare", str(saved))
    assert p.returncode == 1, p.stdout
    assert "1 texts changed, 1 newly refused, 1 no longer refused" in p.stdout
    assert "-    return   a + 1\n+    return a + 1" in p.stdout
    assert "newly refused m.py:deep:" in p.stdout
