"""Process-safe writing into one dump directory.

Several processes (``torch.multiprocessing.spawn`` workers, a re-run of the same
program) may dump into one directory. Each ``prepare_debug`` session is a
*store* with a unique token. Under an inter-process lock (``.unveil/lock``):

* file names are *claimed*: a name is free when nobody claimed it, or its
  claimant session has ended (a re-run overwrites its earlier files), so two
  live processes never write the same file; claims are lines appended to
  ``.unveil/claims.log`` (name, tab, session token), so a claim costs one short
  read of what other processes appended and one append, however large the dump;
* every write goes to a temporary file first and is moved in place with
  ``os.replace``, so a reader never sees half a file;
* each session leaves its part of the index in ``.unveil/parts/<token>.json``
  and ``index.json`` / ``README.md`` are rebuilt from all parts, so no
  session's functions, graphs or errors are lost -- when the session starts and
  after everything it writes (:meth:`Store.update`), so a process killed at any
  instant leaves a listed dump (``"complete": false``);
* a dump of an earlier run (all its sessions ended before this process started)
  is replaced whole when a session writes its first file (:meth:`Store.join`): two
  runs never mix, and a run that fails before it writes anything (a script that does
  not compile, one that dies before torch compiles) leaves the earlier dump as it was.
"""
import contextlib
import json
import os
import time
import uuid

from .names import inside

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None
    try:
        import msvcrt
    except ImportError:
        msvcrt = None


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True
    return True


def _process_start_ns() -> int:
    """When this process started (wall clock, ns); import time where /proc is unavailable.

    From the start tick in ``/proc/self/stat`` and the uptime in ``/proc/uptime`` (both
    1/100 s), not from ``btime`` (whole seconds): a re-run started right after the previous
    run ended must be told apart from a sibling process of the same run."""
    try:
        with open("/proc/self/stat") as fh:
            ticks = int(fh.read().rsplit(")", 1)[1].split()[19])
        with open("/proc/uptime") as fh:
            uptime = float(fh.read().split()[0])
        age = uptime - ticks / os.sysconf("SC_CLK_TCK")
        return time.time_ns() - int(age * 1e9) - 50 * 10**6  # 50 ms of slack for rounding
    except Exception:
        return time.time_ns()


_STARTED_NS = _process_start_ns()


def _remove(path):
    try:
        if os.path.isfile(path) and not os.path.islink(path):
            os.remove(path)
    except OSError:
        pass


def _read_json(path, default):
    try:
        with open(path, "r", encoding="utf-8") as fh:
            return json.load(fh)
    except (OSError, ValueError):
        return default


class Store:
    """One session's view of a dump directory (see module docstring)."""

    def __init__(self, root: str):
        self.root = os.path.abspath(root)
        self.meta = os.path.join(self.root, ".unveil")
        self.token = "%d-%d-%s" % (os.getpid(), time.time_ns(), uuid.uuid4().hex[:8])
        self.mine = set()  # file names this session claimed
        self.claims = {}  # file name -> token of its latest claimant, as read from claims.log
        self.claims_read = 0  # bytes of claims.log already in self.claims
        self.claims_torn = False  # claims.log ends in an unfinished line
        self.joined = False  # registered in the directory (an earlier run's dump replaced)

    # -- locking ----------------------------------------------------------
    @contextlib.contextmanager
    def locked(self):
        path = os.path.join(self.meta, "lock")
        fh = open(path, "a+")
        try:
            if fcntl is not None:
                fcntl.flock(fh.fileno(), fcntl.LOCK_EX)
            elif msvcrt is not None:  # pragma: no cover - Windows
                while True:
                    try:
                        msvcrt.locking(fh.fileno(), msvcrt.LK_LOCK, 1)
                        break
                    except OSError:
                        time.sleep(0.01)
            yield
        finally:
            if fcntl is not None:
                fcntl.flock(fh.fileno(), fcntl.LOCK_UN)
            elif msvcrt is not None:  # pragma: no cover
                try:
                    msvcrt.locking(fh.fileno(), msvcrt.LK_UNLCK, 1)
                except OSError:
                    pass
            fh.close()

    def _sessions(self):
        return _read_json(os.path.join(self.meta, "sessions.json"), {})

    def _claims(self):
        """``self.claims`` brought up to date with what other sessions appended (call under the lock)."""
        try:
            with open(os.path.join(self.meta, "claims.log"), "rb") as fh:
                fh.seek(self.claims_read)
                new = fh.read()
        except OSError:
            return self.claims
        end = new.rfind(b"\n") + 1  # a line is complete once its newline is there
        # appends happen under the lock, so an unfinished line is left by a process that died
        # while appending: it is never completed, and the next claim starts a new line
        self.claims_torn = end < len(new)
        for line in new[:end].decode("utf-8", "replace").splitlines():
            name, _, token = line.partition("\t")
            if token:
                self.claims[name] = token
        self.claims_read += end
        return self.claims

    def _live(self, sessions, token):
        pid = sessions.get(token)
        return pid is not None and _alive(pid)

    def _reusable(self, sessions, owner):
        """A name claimed by ``owner`` may be reused when that session ended in a process that
        is gone and claimed it before this process started (an earlier run of the program).
        Files of a sibling process (torch.multiprocessing.spawn) are never taken over."""
        if owner == self.token:
            return True
        if self._live(sessions, owner):
            return False
        try:
            pid, claimed_ns = int(owner.split("-")[0]), int(owner.split("-")[1])
        except (ValueError, IndexError):
            return True
        if pid == os.getpid():
            return True  # an earlier prepare_debug of this process: the newer dump replaces it
        return not _alive(pid) and claimed_ns < _STARTED_NS

    # -- session ----------------------------------------------------------
    def start(self):
        """Make sure the directory can be written, and join a dump that processes of this run
        are writing (or wrote), or an empty directory, at once. A dump left by an earlier run
        (every session that wrote it has ended, and ended before this process started --
        finished or killed) stays whole until this session writes (:meth:`join`)."""
        os.makedirs(os.path.join(self.meta, "parts"), exist_ok=True)
        with self.locked():
            if not self._earlier_run(self._sessions()):
                self.join()

    def join(self):
        """(Under the lock.) Register this session, replacing an earlier run's dump whole first.
        Called by the first claim, and by :meth:`finish`: a run that ends without writing
        anything and without :meth:`finish` (it failed) leaves the earlier dump as it was."""
        if self.joined:
            return
        sessions = self._sessions()
        if self._earlier_run(sessions):  # asked again: a sibling process may have joined since
            self._clear(sessions)
            sessions = {}
        sessions[self.token] = os.getpid()
        self._write_meta("sessions.json", sessions)
        self.joined = True

    def _last_activity_ns(self, token) -> int:
        """When session ``token`` last wrote its index part (its start time if it never did)."""
        try:
            return os.stat(os.path.join(self.meta, "parts", token + ".json")).st_mtime_ns
        except OSError:
            try:
                return int(token.split("-")[1])
            except (ValueError, IndexError):
                return 0

    def _tokens(self, sessions):
        tokens = set(sessions) | set(self._claims().values())
        try:
            tokens |= {f[:-5] for f in os.listdir(os.path.join(self.meta, "parts")) if f.endswith(".json")}
        except OSError:
            pass
        return tokens

    def _earlier_run(self, sessions) -> bool:
        """Whether the directory holds a dump of an earlier run, all of whose sessions ended
        before this process started (a session of this process that has ended counts too)."""
        tokens = self._tokens(sessions) - {self.token}
        if not tokens and not os.path.exists(os.path.join(self.root, "index.json")):
            return False  # nothing to replace
        for token in tokens:
            if self._live(sessions, token):
                return False
            if token.split("-")[0] == str(os.getpid()):
                continue  # an earlier prepare_debug of this process: the newer dump replaces it
            if self._last_activity_ns(token) >= _STARTED_NS:
                return False  # a sibling of this process (spawn worker) that ended already
        return True

    def _clear(self, sessions):
        """Remove the earlier run's dump (under the lock). Its index goes first, replaced by an
        empty one, so a crash half-way leaves unlisted leftovers, never a listing of a mix;
        the leftovers are still in claims.log, so the next run removes them."""
        claimed = list(self._claims())
        parts_dir = os.path.join(self.meta, "parts")
        for fn in os.listdir(parts_dir):
            _remove(os.path.join(parts_dir, fn))
        empty = {"format": 1, "functions": [], "graphs": [], "graph_breaks": [], "errors": []}
        self._replace(os.path.join(self.root, "index.json"), json.dumps(dict(empty, complete=False), indent=1))
        _remove(os.path.join(self.root, "README.md"))
        for name in claimed:
            try:
                _remove(self.path(name))
            except ValueError:  # not a plain name in the directory: never touched
                pass
        for fn in os.listdir(self.meta):
            if fn.endswith(".tmp"):
                _remove(os.path.join(self.meta, fn))
        with open(os.path.join(self.meta, "claims.log"), "wb"):
            pass
        self.claims, self.claims_read, self.claims_torn = {}, 0, False

    def claim(self, make_name, start: int = 0) -> tuple:
        """The first free name ``make_name(k)`` for k = start, start+1, ...; claimed for this session."""
        with self.locked():
            self.join()
            claims = self._claims()
            sessions = None  # read only when a name is taken by another session
            k = start
            while True:
                name = make_name(k)
                owner = claims.get(name)
                if name not in self.mine:
                    if owner is None or owner == self.token:
                        break
                    if sessions is None:
                        sessions = self._sessions()
                    if self._reusable(sessions, owner):
                        break
                k += 1
            if "\n" in name or "\t" in name:
                raise ValueError("unveil: file name %r holds a tab or newline" % name)
            with open(os.path.join(self.meta, "claims.log"), "ab") as fh:
                fh.write((("\n" if self.claims_torn else "") + "%s\t%s\n" % (name, self.token)).encode("utf-8"))
            self.claims[name] = self.token
            self.mine.add(name)
        return k, name

    def path(self, name: str) -> str:
        return inside(self.root, name)

    def write(self, name: str, text: str) -> str:
        """Write ``text`` to ``name`` in the dump (temp file + ``os.replace``); returns the path."""
        path = self.path(name)
        tmp = os.path.join(self.meta, "%s.%s.tmp" % (name, self.token))
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
        return path

    def _write_meta(self, name, data):
        tmp = os.path.join(self.meta, "%s.%s.tmp" % (name, self.token))
        text = json.dumps(data, separators=(",", ":"))  # one string: json's C encoder, not json.dump's Python one
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, os.path.join(self.meta, name))

    def update(self, part: dict, render_readme) -> dict:
        """Store this session's part of the index so far and rebuild ``index.json`` and
        ``README.md`` (each written whole, then moved in place): a process killed at any
        instant leaves a dump that lists what it wrote. Returns the merged index, or None
        before this session joined the directory (it wrote nothing: an earlier run's index stays)."""
        if not self.joined:
            return None
        with self.locked():
            return self._publish(self._sessions(), part, render_readme)

    def finish(self, part: dict, render_readme) -> dict:
        """Store this session's part of the index, rebuild ``index.json`` and ``README.md``.

        Returns the merged index."""
        with self.locked():
            self.join()  # a run that wrote nothing replaces an earlier run's dump by an empty one
            sessions = self._sessions()
            sessions.pop(self.token, None)
            self._write_meta("sessions.json", sessions)
            return self._publish(sessions, part, render_readme)

    def _publish(self, sessions, part, render_readme):
        self._write_meta(os.path.join("parts", self.token + ".json"), part)
        merged = self._merge(sessions, part)
        # indented when complete; while a run writes it, compact (json's C encoder: several
        # times faster on a large dump, and this runs after every entry and graph)
        text = json.dumps(merged, indent=1) if merged["complete"] else json.dumps(merged, separators=(",", ":"))
        self._replace(os.path.join(self.root, "index.json"), text)
        if render_readme is not None:
            self._replace(os.path.join(self.root, "README.md"), render_readme(merged))
        return merged

    def _replace(self, path, text):
        tmp = os.path.join(self.meta, os.path.basename(path) + "." + self.token + ".tmp")
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)

    def _merge(self, sessions, own_part):
        claims = self._claims()
        parts_dir = os.path.join(self.meta, "parts")
        parts = []
        for fn in sorted(os.listdir(parts_dir)):
            if not fn.endswith(".json"):
                continue
            token = fn[:-5]
            part = own_part if token == self.token else _read_json(os.path.join(parts_dir, fn), None)
            if part is None:
                continue
            owned = {f for f, t in claims.items() if t == token}
            if not owned and not self._live(sessions, token) and token != self.token:
                try:
                    os.remove(os.path.join(parts_dir, fn))  # nothing of it is left on disk
                except OSError:
                    pass
                continue
            start = int(token.split("-")[1]) if token.count("-") >= 2 else 0
            parts.append((start, token, part, owned))
        parts.sort(key=lambda p: (p[0], p[1]))
        merged = {"format": 1, "torch": own_part.get("torch", ""), "unveil": own_part.get("unveil", ""),
                  "complete": all(p[2].get("complete", True) for p in parts),
                  "functions": [], "graphs": [], "graph_breaks": [], "errors": []}
        for _, token, part, owned in parts:
            # a finished session lists a function by its full_code file; one still running (or
            # killed) has written only entry files so far
            merged["functions"] += [f for f in part.get("functions", []) if f.get("full_code") in owned or (
                f.get("full_code") is None and any(e.get("transformed_file") in owned for e in f.get("entries", [])))]
            merged["graphs"] += [g for g in part.get("graphs", []) if g.get("file") in owned]
            for key in ("graph_breaks", "errors"):
                for item in part.get(key, []):
                    if item not in merged[key]:
                        merged[key].append(item)
        return merged
