"""Per-rank dumps under torch.distributed and the functions whose compiles diverge (issue 16).

Two ranks under ``python -m torch.distributed.run`` (gloo, loopback, a free port): a small model
in DistributedDataParallel, compiled, trained 2 steps inside ``prepare_debug``; then a compiled
function called with a rank-dependent shape, so that only rank 1 recompiles."""
import json
import os
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
    if proc.returncode != 0:
        pytest.fail("a rank failed (torchrun exit code %d):\n%s" % (proc.returncode, out[-4000:]))
    return out


def test_ddp_ranks_dump_apart_and_show_names_the_one_divergence(tmp_path):
    d = tmp_path / "dump"
    script = tmp_path / "ddp_train.py"
    script.write_text(DDP_SCRIPT)
    out = torchrun(script, d)
    losses = {}
    for line in out.splitlines():
        if line.startswith("rank ") and " loss " in line:
            _, rank, _, step, _, loss = line.split()
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
