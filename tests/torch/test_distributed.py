"""Per-rank dumps under torch.distributed and the functions whose compiles diverge (issue 16).

Two ranks under ``python -m torch.distributed.run`` (gloo, loopback, a free port): a small model
in DistributedDataParallel, compiled, trained 2 steps inside ``prepare_debug``; then a compiled
function called with a rank-dependent shape, so that only rank 1 recompiles."""
import json
import os
import re
import signal
import socket
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from test_dump import assert_all_python, load_index  # noqa: E402

DDP_SCRIPT = '''
import sys
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

import unveil


def main(d):
    dist.init_process_group("gloo")
    rank = dist.get_rank()
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1))
    model = DDP(torch.compile(net, backend="eager"))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)

    @torch.compile(backend="eager")
    def h(x):
        return (x * 2).sum()

    x, y = torch.ones(4, 8), torch.zeros(4, 1)
    with unveil.prepare_debug(d):
        for step in range(2):
            opt.zero_grad()
            loss = ((model(x) - y) ** 2).mean()
            loss.backward()
            opt.step()
            print("rank %d step %d loss %.6f" % (rank, step, loss.item()), flush=True)
        h(torch.ones(4))
        h(torch.ones(4 + 4 * rank))  # only rank 1 sees a new shape: only it recompiles
    dist.destroy_process_group()


if __name__ == "__main__":
    main(sys.argv[1])
'''


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def torchrun(script, *args, nproc=2, timeout=300):
    """Run ``script`` on ``nproc`` ranks; a rank that dies ends the run (torchrun stops the
    others) and the test fails with the ranks' output; a hang is killed after ``timeout``."""
    for attempt in range(3):
        out, code = _torchrun_once(script, args, nproc, timeout)
        # (the free port may be taken by another process before torchrun binds it)
        if code == 0 or "address already in use" not in out.lower():
            break
    if code != 0:
        pytest.fail("a rank failed (torchrun exit code %d):\n%s" % (code, out[-4000:]))
    return out


def _torchrun_once(script, args, nproc, timeout):
    cmd = [sys.executable, "-m", "torch.distributed.run", "--nproc-per-node", str(nproc),
           "--master-addr", "127.0.0.1", "--master-port", str(free_port()), "--max-restarts", "0",
           str(script)] + [str(a) for a in args]
    env = dict(os.environ, GLOO_SOCKET_IFNAME="lo", OMP_NUM_THREADS="1")
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
                            start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
        pytest.fail("torchrun did not finish in %d s (a rank hung):\n%s" % (timeout, out[-4000:]))
    return out, proc.returncode


def test_ddp_ranks_dump_apart_and_show_names_the_one_divergence(tmp_path):
    d = tmp_path / "dump"
    script = tmp_path / "ddp_train.py"
    script.write_text(DDP_SCRIPT)
    out = torchrun(script, d)
    losses = {}
    # (found anywhere in the output: another process's warning may have left a line unfinished)
    for rank, step, loss in re.findall(r"rank (\d) step (\d) loss (-?[0-9.e+-]+)", out):
        losses.setdefault(int(step), {})[int(rank)] = float(loss)
    assert sorted(losses) == [0, 1] and all(len(set(v.values())) == 1 and len(v) == 2 for v in losses.values()), losses
    assert sorted(os.listdir(str(d))) == ["rank_0", "rank_1"]
    for rank in (0, 1):
        rd = str(d / ("rank_%d" % rank))
        index = load_index(rd)
        assert index["complete"] is True
        names = {f["name"] for f in index["functions"]}
        assert "h" in names and len(names) >= 2, names  # the model's graph and h
        assert [g for g in index["graphs"] if g["stage"] == "captured"]
        assert_all_python(rd)
        assert len([f for f in index["functions"] if f["name"] == "h"][0]["entries"]) == rank + 1
    shown = subprocess.run([sys.executable, "-m", "unveil", "show", str(d)], capture_output=True, text=True,
                           timeout=120)
    assert shown.returncode == 0, shown.stderr
    assert "2 ranks" in shown.stdout
    diverge = [l for l in shown.stdout.splitlines() if "diverge" in l]
    assert len(diverge) == 1, shown.stdout
    line = diverge[0]
    assert "main.<locals>.h" in line and "rank 0: 1 entry" in line and "rank 1: 2 entries" in line
    assert "rank 1 recompiled because tensor 'x' size mismatch at index 0" in line


def test_rank_from_the_environment_without_an_initialised_group(tmp_path, monkeypatch):
    import torch
    import unveil
    d = tmp_path / "dump"

    @torch.compile(backend="eager")
    def f(x):
        return x + 1

    monkeypatch.setenv("RANK", "3")
    with unveil.prepare_debug(str(d)):
        f(torch.ones(1))
    assert os.listdir(str(d)) == ["rank_3"]
    assert [fn["name"] for fn in load_index(str(d / "rank_3"))["functions"]] == ["f"]
    monkeypatch.delenv("RANK")
    torch._dynamo.reset()
    single = tmp_path / "single"
    with unveil.prepare_debug(str(single)):
        f(torch.ones(1))
    assert "index.json" in os.listdir(str(single))  # a single process keeps the flat layout


DYING_RANK = '''
import sys
import torch.distributed as dist

dist.init_process_group("gloo")
if dist.get_rank() == 1:
    sys.exit(3)
dist.barrier()  # rank 0 would wait here for ever: torchrun stops it when rank 1 dies
'''


def test_a_rank_that_dies_ends_the_run_with_a_clear_message(tmp_path):
    script = tmp_path / "dying.py"
    script.write_text(DYING_RANK)
    with pytest.raises(pytest.fail.Exception, match="a rank failed"):
        torchrun(script, timeout=120)


SPLIT_SCRIPT = '''
import copy
import sys
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

import unveil


class Net(nn.Module):
    def __init__(self, w):
        super().__init__()
        self.a, self.b, self.c, self.d = nn.Linear(w, w), nn.Linear(w, w), nn.Linear(w, w), nn.Linear(w, 1)

    def forward(self, x):
        return self.d(torch.relu(self.c(torch.relu(self.b(torch.relu(self.a(x)))))))


def train(model, x, y, tag, rank):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(2):
        opt.zero_grad()
        loss = ((model(x) - y) ** 2).mean()
        loss.backward()
        opt.step()
        sys.stdout.write("%s rank %d step %d loss %r\\n" % (tag, rank, step, loss.item()))  # one write: ranks
        sys.stdout.flush()  # share the output, a line must not be cut by the other rank's


def main(d):
    dist.init_process_group("gloo")
    rank = dist.get_rank()
    torch.manual_seed(0)
    net = Net(512)  # 1 MiB per 512x512 layer: with 1 MB buckets, DDPOptimizer splits between layers
    plain = copy.deepcopy(net)
    x, y = torch.randn(4, 512), torch.zeros(4, 1)  # the same on every rank (same seed)
    train(torch.compile(plain, backend="eager"), x, y, "plain", rank)
    torch._dynamo.reset()  # the dump below shows the DDP compile alone
    model = DDP(torch.compile(net, backend="eager"), bucket_cap_mb=1)
    with unveil.prepare_debug(d):
        train(model, x, y, "ddp", rank)
    diff = max((p - q).abs().max().item() for p, q in zip(net.parameters(), plain.parameters()))
    sys.stdout.write("rank %d max parameter difference %r\\n" % (rank, diff))
    sys.stdout.flush()
    dist.destroy_process_group()


if __name__ == "__main__":
    main(sys.argv[1])
'''


def test_ddp_bucket_split_shows_each_submodule_and_trains_like_plain_compile(tmp_path):
    d = tmp_path / "dump"
    script = tmp_path / "ddp_split.py"
    script.write_text(SPLIT_SCRIPT)
    out = torchrun(script, d)
    losses = {(tag, int(rank), int(step)): float(loss) for tag, rank, step, loss
              in re.findall(r"(plain|ddp) rank (\d) step (\d) loss (-?[0-9.e+-]+)", out)}
    assert len(losses) == 8, out[-3000:]
    for rank in (0, 1):
        for step in (0, 1):  # the split graph trains exactly like the unsplit one
            assert losses[("ddp", rank, step)] == losses[("plain", rank, step)], losses
        assert "rank %d max parameter difference 0.0" % rank in out, out[-3000:]
    for rank in (0, 1):
        rd = str(d / ("rank_%d" % rank))
        index = load_index(rd)
        assert index["complete"] is True
        graphs = index["graphs"]
        splits = [g for g in graphs if g["stage"] == "ddp_split"]
        subs = [g for g in graphs if g["stage"] == "ddp_submod"]
        assert len(splits) == 1 and len(subs) > 1, graphs
        names = ["submod_%d" % k for k in range(len(subs))]
        assert splits[0]["submods"] == names and [g["submod"] for g in subs] == names
        split_text = (d / ("rank_%d" % rank) / splits[0]["file"]).read_text()
        for name in names:  # the split graph calls each submodule
            assert "self.%s(" % name in split_text
        params = []
        for k, g in enumerate(subs):
            assert g["of"] == len(subs) and g["params"], g
            assert g["title"].startswith("DDP bucket split: submod_%d of %d, params " % (k, len(subs))), g
            assert "def forward(" in (d / ("rank_%d" % rank) / g["file"]).read_text()
            params += g["params"]
        # every parameter of the model is in exactly one bucket's submodule
        assert sorted(params) == sorted("l_self_modules_%s_parameters_%s_" % (m, p) for m in "abcd"
                                        for p in ("weight", "bias"))
        # submodules in the forward's order: the first holds the first layer, the last the last one
        assert "self.a.weight" in subs[0]["title"] and "self.d.weight" in subs[-1]["title"]
        assert_all_python(rd)
        readme = (d / ("rank_%d" % rank) / "README.md").read_text()
        shown = subprocess.run([sys.executable, "-m", "unveil", "show", rd], capture_output=True, text=True,
                               timeout=120)
        assert shown.returncode == 0, shown.stderr
        for g in subs:
            assert g["title"] in readme and g["file"] in readme
            assert "%s -- %s" % (g["file"], g["title"]) in shown.stdout, shown.stdout


def test_ddp_split_names_from_torch_texts():
    from unveil.torch import ddp
    split = ('class GraphModule(torch.nn.Module):\n'
             '    def forward(self, L_x_: "f32[4]", L_self_modules_fc_1_parameters_weight_: "f32[4, 4]"):\n'
             '        submod_0 = self.submod_0(l_x_, l_self_modules_fc_1_parameters_weight_)\n'
             '        submod_1 = self.submod_1(submod_0)\n'
             '        return (submod_1,)\n\n'
             '    class submod_0(torch.nn.Module):\n'
             '        def forward(self, l_x_: "f32[4]"):\n'
             '            inner = self.submod_9(l_x_)\n')
    assert ddp.split_submods(split) == ["submod_0", "submod_1"]
    child = ('class GraphModule(torch.nn.Module):\n'
             '    def forward(self, l_x_: "f32[4][1]cuda:0", l_self_modules_fc_1_parameters_weight_: "f32[4, 4]",'
             ' l_self_buffers_b_: "f32[4]"):\n'
             '        return l_x_\n')
    assert ddp.graph_params(child) == ["l_self_modules_fc_1_parameters_weight_"]
    assert ddp.param_label("l_self_modules_fc_1_parameters_weight_") == "self.fc_1.weight"
    assert ddp.param_label("l_self_parameters_scale_") == "self.scale"
    assert ddp.param_label("l_x_") == "l_x_"
    title = ddp.submod_title("submod_1", ["submod_0", "submod_1"], ["l_self_parameters_w%d_" % k for k in range(8)])
    assert title.startswith("DDP bucket split: submod_1 of 2, params self.w0, ") and "(8 in all)" in title
    assert ddp.compiling_submod() is None  # no DDP compilation running
