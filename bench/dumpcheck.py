"""One workload run twice -- under plain ``torch.compile`` and inside ``unveil.prepare_debug`` --
and what the dump held: the rows of bench/hf_families.py and bench/graph_breaks.py."""
import json
import os
import tempfile
import warnings

import torch

import unveil


def same_values(a, b) -> bool:
    """Bit for bit: tensors by ``torch.equal`` (and dtype), containers item by item, the rest by ``==``."""
    if isinstance(a, torch.Tensor):
        return isinstance(b, torch.Tensor) and a.dtype == b.dtype and torch.equal(a, b)
    if isinstance(a, (list, tuple)):
        return type(a) is type(b) and len(a) == len(b) and all(same_values(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return type(a) is type(b) and list(a) == list(b) and all(same_values(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def compare_dump(workload, prefix: str) -> dict:
    """Run ``workload()`` (it compiles what it runs and returns its results) plainly, then inside
    ``prepare_debug``: whether the results agree, the cache entries dumped, those that fell back to
    Dynamo's own code (with the reason), errors in the index, ``.py`` files that do not compile."""
    torch._dynamo.reset()
    plain = workload()
    torch._dynamo.reset()
    d = tempfile.mkdtemp(prefix="unveil_%s_" % prefix)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with unveil.prepare_debug(d):
            got = workload()
    torch._dynamo.reset()
    with open(os.path.join(d, "index.json")) as fh:
        index = json.load(fh)
    entries = [e for f in index["functions"] for e in f["entries"]]
    fallbacks = ["%s: %s" % (f["qualname"], e["error"]) for f in index["functions"] for e in f["entries"]
                 if e["error"]]
    bad = []
    for name in sorted(os.listdir(d)):
        if name.endswith(".py"):
            with open(os.path.join(d, name), encoding="utf-8") as fh:
                try:
                    compile(fh.read(), name, "exec")
                except SyntaxError:
                    bad.append(name)
    return {"same": same_values(plain, got), "entries": len(entries), "fallbacks": fallbacks,
            "errors": index["errors"], "bad_py": bad, "dir": d}


HEADER = "%-28s %-10s %5s %8s %9s %7s %7s"


def print_row(name, mode, r) -> bool:
    """Print one row (and its first problems); whether it is clean."""
    print(HEADER % (name, mode, "yes" if r["same"] else "NO", r["entries"], len(r["fallbacks"]),
                    len(r["errors"]), len(r["bad_py"])), flush=True)
    for line in r["fallbacks"][:3] + [str(e) for e in r["errors"][:3]] + r["bad_py"][:3]:
        print("      " + line[:300])
    return r["same"] and not r["fallbacks"] and not r["errors"] and not r["bad_py"]
