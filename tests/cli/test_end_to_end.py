"""unveil run / unveil show with the real dump (skipped until unveil.torch.dump exists)."""
import json
import os
import textwrap

from unveil import cli

from cli_helpers import needs_dump, run_unveil

SCRIPT = """
    import sys
    import torch

    def f(x):
        y = x.sin() + 1
        print("graph break here")
        return y * 2

    g = torch.compile(f)                 # no backend: unveil run --backend eager applies
    for n in (2, 3):
        g(torch.ones(n))
    sys.exit(int(sys.argv[1]))
"""


@needs_dump
def test_run_then_show_with_a_real_dump(tmp_path):
    script = tmp_path / "model.py"
    script.write_text(textwrap.dedent(SCRIPT))
    r = run_unveil("run", "--backend", "eager", script, "3", cwd=tmp_path)
    assert r.returncode == 3, r.stderr          # the script's exit code
    assert "graph break here" in r.stdout
    dump = tmp_path / "unveil_dump"            # the default dump directory
    index = cli.load_index(str(dump))           # index.json as specified, format 1
    counts = cli.summary_counts(index)
    assert counts["functions"] >= 1 and counts["entries"] >= 1
    assert "unveil: " + cli.summary_line(index) in r.stderr
    assert "unveil: dump in %s" % dump in r.stderr
    for fn in index["functions"]:
        assert os.path.isfile(dump / fn["full_code"])
        for entry in fn["entries"]:
            if entry["transformed_file"]:
                assert os.path.isfile(dump / entry["transformed_file"])
    for g in index["graphs"]:
        assert os.path.isfile(dump / g["file"])
    s = run_unveil("show", dump)
    assert s.returncode == 0, s.stderr
    assert s.stdout.splitlines()[1] == cli.summary_line(index)
    assert any(l.startswith("function ") and "f" in l for l in s.stdout.splitlines())
    assert json.loads((dump / "index.json").read_text())["format"] == 1
