"""Store: file names claimed in one dump directory by several live sessions never collide."""
import os

import pytest

from unveil.torch.store import Store


def started(root):
    s = Store(str(root))
    s.start()
    return s


def test_live_sessions_get_different_names(tmp_path):
    a, b = started(tmp_path), started(tmp_path)
    names = [a.claim(lambda k: "f_%d.py" % k)[1], b.claim(lambda k: "f_%d.py" % k)[1],
             a.claim(lambda k: "f_%d.py" % k)[1], b.claim(lambda k: "f_%d.py" % k)[1]]
    assert sorted(names) == ["f_0.py", "f_1.py", "f_2.py", "f_3.py"]


def test_a_new_store_sees_earlier_claims_of_a_live_session(tmp_path):
    a = started(tmp_path)
    assert a.claim(lambda k: "g_%d.py" % k) == (0, "g_0.py")
    assert started(tmp_path).claim(lambda k: "g_%d.py" % k) == (1, "g_1.py")


def test_claim_line_left_unfinished_by_a_dead_process_is_skipped(tmp_path):
    a = started(tmp_path)
    a.claim(lambda k: "h_%d.py" % k)
    with open(os.path.join(str(tmp_path), ".unveil", "claims.log"), "ab") as fh:
        fh.write(b"h_1.py")  # a process died in the middle of its append
    b = started(tmp_path)
    assert b.claim(lambda k: "h_%d.py" % k) == (1, "h_1.py")
    assert started(tmp_path).claim(lambda k: "h_%d.py" % k) == (2, "h_2.py")  # b's claim is intact


def test_names_with_line_breaks_are_refused(tmp_path):
    with pytest.raises(ValueError, match="tab or newline"):
        started(tmp_path).claim(lambda k: "bad\nname.py")


def test_finished_session_of_this_process_is_replaced(tmp_path):
    a = started(tmp_path)
    a.claim(lambda k: "r_%d.py" % k)
    a.finish({"functions": [], "graphs": []}, lambda merged: "")
    assert started(tmp_path).claim(lambda k: "r_%d.py" % k) == (0, "r_0.py")
