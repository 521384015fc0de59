"""DDP's graph splitting, named so a user can follow it.

Under ``DistributedDataParallel`` (torch's default ``optimize_ddp="ddp_optimizer"``), the backend
of a frame compiled inside DDP's forward is DDPOptimizer (torch/_dynamo/backends/distributed.py):
when the graph's parameters exceed one gradient bucket (``bucket_cap_mb``) it splits the captured
graph at the bucket boundaries into ``submod_0``, ``submod_1``, ... and compiles each on its own,
so that a bucket's all-reduce can start while the backward of the earlier layers still runs.
torch runs the split graph -- which calls the submodules in turn -- instead of the captured one.
It reports the split graph (trace artifact ``optimize_ddp_split_graph``) and each submodule's
graph (``optimize_ddp_split_child``, with its name); the backend's graphs of each submodule
(AOT, Inductor) follow, with the same compile id.
"""
import os
import re
import sys

_CALL = re.compile(r"^ {8}\w+ = self\.(submod_\d+)\(", re.M)
_ARG = re.compile(r"(?:\(|,)\s*([A-Za-z_]\w*)\s*:\s*\"")


def split_submods(text: str) -> list:
    """The submodules the split graph's ``forward`` calls, in order (torch's ``print_readable``
    text: the submodules' classes first, nested one level deeper, then the graph's ``forward``)."""
    names = []
    for name in _CALL.findall(text):
        if name not in names:
            names.append(name)
    return names


def graph_params(text: str) -> list:
    """The inputs of a graph's ``forward`` (``print_readable`` text) that are module parameters
    -- Dynamo names the input for ``L['self']._modules['a']._parameters['weight']``
    ``l_self_modules_a_parameters_weight_`` -- in the order of the signature."""
    head = re.search(r"^ {4}def forward\(self(.*?)\):\s*$", text, re.M | re.S)
    if head is None:
        return []
    return [a for a in _ARG.findall("(" + head.group(1)) if "_parameters_" in a]


def param_label(name: str) -> str:
    """``l_self_modules_a_parameters_weight_`` -> ``self.a.weight``: the parameter as the user's
    code reaches it (Dynamo's input name when it is not of that form)."""
    m = re.match(r"^[lLgG]_(.+)_$", name)
    if m is None or "_parameters_" not in m.group(1):
        return name
    return m.group(1).replace("_modules_", ".").replace("_parameters_", ".")


def split_title(submods) -> str:
    return "DDP bucket split: the graph torch runs, calling %s in turn (one per gradient bucket)" % (
        ", ".join(submods) or "its submodules")


def submod_title(name, submods, params, most=6) -> str:
    """``DDP bucket split: submod_0 of 3, params self.a.weight, self.a.bias``."""
    of = " of %d" % len(submods) if name in submods else ""
    labels = [param_label(p) for p in params]
    if len(labels) > most:
        labels = labels[:most] + ["... (%d in all)" % len(labels)]
    return "DDP bucket split: %s%s, params %s" % (name, of, ", ".join(labels) if labels else "(none)")


_DISTRIBUTED = os.path.join("_dynamo", "backends", "distributed.py")


def compiling_submod():
    """The DDP submodule whose compilation is running now (``submod_<k>``), else None: DDPOptimizer
    compiles the submodules one by one in ``SubmodCompiler.run_node``, whose node ``n`` is the
    submodule's call (torch gives the backend's graphs no other tie to the submodule). Graphs
    compiled later, outside it (Inductor compiles a backward at its first run), get None."""
    f = sys._getframe(1)
    while f is not None:
        code = f.f_code
        if code.co_name == "run_node" and code.co_filename.endswith(_DISTRIBUTED):
            target = getattr(f.f_locals.get("n"), "target", None)
            if isinstance(target, str) and re.match(r"^(compiled_)?submod_\d+$", target):
                return target[len("compiled_"):] if target.startswith("compiled_") else target
            return None
        f = f.f_back
    return None
