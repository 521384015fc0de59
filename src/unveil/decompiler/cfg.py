"""Basic blocks, edges, dominators and loops of a normalized instruction stream."""
import bisect
from typing import Dict, List, Optional, Set

from .stream import CONDITIONAL_JUMPS, TERMINATORS, Program


class Block:
    __slots__ = ("id", "start", "end", "succs", "preds", "handler", "exc_preds")

    def __init__(self, id_, start, end):
        self.id = id_
        self.start = start  # first instruction index
        self.end = end  # one past the last
        self.succs: List["Block"] = []  # normal successors: [fallthrough?, target?]
        self.preds: List["Block"] = []
        self.handler: Optional[int] = None  # index of the handler entry covering it
        self.exc_preds: List["Block"] = []

    def __repr__(self):
        return "B%d[%d:%d]" % (self.id, self.start, self.end)


class CFG:
    def __init__(self, program: Program, extra_leaders=()):
        self.program = program
        instrs = program.instrs
        n = len(instrs)
        leaders: Set[int] = {0} | set(extra_leaders)
        for ins in instrs:
            if ins.target is not None:
                leaders.add(ins.target)
                leaders.add(ins.index + 1)
            elif ins.op in TERMINATORS:
                leaders.add(ins.index + 1)
        for h in program.handlers:
            leaders.update((h.start, h.end, h.target))
        leaders = sorted(x for x in leaders if 0 <= x < n)
        self.blocks: List[Block] = []
        self.block_at: Dict[int, Block] = {}
        for k, start in enumerate(leaders):
            end = leaders[k + 1] if k + 1 < len(leaders) else n
            b = Block(k, start, end)
            self.blocks.append(b)
            self.block_at[start] = b
        self._starts = [b.start for b in self.blocks]
        for b in self.blocks:
            last = instrs[b.end - 1]
            if last.op not in TERMINATORS and b.end < n:
                b.succs.append(self.block_at[b.end])
            if last.target is not None and last.target < n and last.op not in (
                    "SETUP_FINALLY", "SETUP_WITH", "SETUP_ASYNC_WITH"):
                t = self.block_at[last.target]
                if t not in b.succs:
                    b.succs.append(t)
            for s in b.succs:
                s.preds.append(b)
        self._assign_handlers(program.handlers)
        for b in self.blocks:
            if b.handler is not None and b.handler < n:
                self.block_at[b.handler].exc_preds.append(b)
        self._dominators()
        self._back_edges = self._find_back_edges()  # header id -> back_edge_sources(header)
        # (the structurer asks for the block at an index some 30 times per statement: the
        # dict's own lookup, without a method call around it)
        self.at = self.block_at.get

    def _find_back_edges(self) -> Dict[int, tuple]:
        """Header id -> the blocks that jump back to it and that it dominates, for every
        header at once (one pass over the edges, not one per visit of a block)."""
        found: Dict[int, Set[int]] = {}
        for b in self.blocks:
            for s in b.succs:
                if b.start >= s.start and self.dominates(s, b):
                    found.setdefault(s.id, set()).add(b.id)
        # (in each header's order of predecessors, as before)
        return {h: tuple(p for p in self.blocks[h].preds if p.id in ids) for h, ids in found.items()}

    def _assign_handlers(self, handlers):
        """Each block's handler: that of the first range (in table order)
        holding its start. Ranges are painted last to first over the blocks
        they hold, found by bisection (the ranges do not overlap, so this is
        linear; a test of every range per block is quadratic in a run of try
        statements)."""
        starts = self._starts
        for h in reversed(handlers):
            k = bisect.bisect_left(starts, h.start)
            while k < len(starts) and starts[k] < h.end:
                self.blocks[k].handler = h.target
                k += 1

    def at(self, index) -> Optional[Block]:  # (replaced in __init__ by block_at.get)
        return self.block_at.get(index)

    def containing(self, index) -> Block:
        """The block holding instruction ``index``."""
        k = bisect.bisect_right(self._starts, index) - 1
        return self.blocks[k]

    def _dominators(self):
        blocks = self.blocks
        if not blocks:
            self.idom = {}
            self._enter, self._exit, self._children = {}, {}, {}
            return

        def succs_all(b):
            out = list(b.succs)
            if b.handler is not None and b.handler in self.block_at:
                out.append(self.block_at[b.handler])
            # SETUP_* (<=3.10) reaches its handler too
            return out

        self.idom = self._lengauer_tarjan(blocks[0], succs_all)
        self._number_dominator_tree(blocks[0].id)

    @staticmethod
    def _lengauer_tarjan(entry, succs_all) -> Dict[int, int]:
        """Immediate dominators (block id -> block id; the entry maps to
        itself) by Lengauer & Tarjan, "A Fast Algorithm for Finding Dominators
        in a Flowgraph" (the simple version, with path compression), without
        recursion. (The iterative algorithm of Cooper, Harvey & Kennedy walks
        the dominator tree once per predecessor: quadratic where thousands of
        jumps meet, as at the end of a long ``and`` chain.)"""
        # depth-first preorder numbers, the spanning tree's parents, predecessors
        vertex, parent, preds = [entry], [-1], [[]]
        number = {entry.id: 0}
        stack = [(entry, iter(succs_all(entry)))]
        while stack:
            b, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                stack.pop()
                continue
            if nxt.id not in number:
                number[nxt.id] = len(vertex)
                vertex.append(nxt)
                parent.append(number[b.id])
                preds.append([])
                stack.append((nxt, iter(succs_all(nxt))))
            preds[number[nxt.id]].append(number[b.id])
        n = len(vertex)
        semi = list(range(n))
        label = list(range(n))
        ancestor = [-1] * n
        idom = [0] * n
        bucket: List[List[int]] = [[] for _ in range(n)]

        def evaluate(v):
            if ancestor[v] < 0:
                return v
            path = []
            while ancestor[ancestor[v]] >= 0:
                path.append(v)
                v = ancestor[v]
            for y in reversed(path):  # path compression, from the top down
                a = ancestor[y]
                if semi[label[a]] < semi[label[y]]:
                    label[y] = label[a]
                ancestor[y] = ancestor[a]
            return label[path[0]] if path else label[v]

        for w in range(n - 1, 0, -1):
            for v in preds[w]:
                u = evaluate(v)
                if semi[u] < semi[w]:
                    semi[w] = semi[u]
            bucket[semi[w]].append(w)
            p = parent[w]
            ancestor[w] = p
            for v in bucket[p]:
                u = evaluate(v)
                idom[v] = u if semi[u] < semi[v] else p
            bucket[p] = []
        for w in range(1, n):
            if idom[w] != semi[w]:
                idom[w] = idom[idom[w]]
        return {vertex[w].id: vertex[idom[w]].id for w in range(n)}

    def _number_dominator_tree(self, root):
        """Preorder entry and exit numbers of the dominator tree: ``a``
        dominates ``b`` when ``b``'s interval lies inside ``a``'s, a test in
        constant time (walking the idom chain costs the depth of the tree,
        which grows with the function in a run of ifs)."""
        children: Dict[int, List[int]] = {}
        for b, d in self.idom.items():
            if b != d:
                children.setdefault(d, []).append(b)
        self._children = children
        self._enter: Dict[int, int] = {}
        self._exit: Dict[int, int] = {}
        clock = 0
        stack = [(root, False)]
        while stack:
            b, done = stack.pop()
            clock += 1
            if done:
                self._exit[b] = clock
                continue
            self._enter[b] = clock
            stack.append((b, True))
            stack.extend((c, False) for c in children.get(b, ()))

    def dominated_blocks(self, head: Block) -> List[Block]:
        """The blocks ``head`` dominates (itself included): its subtree of
        the dominator tree, without looking at the other blocks."""
        if head.id not in self._enter:
            return []
        out, todo = [], [head.id]
        while todo:
            b = todo.pop()
            out.append(self.blocks[b])
            todo.extend(self._children.get(b, ()))
        return out

    def dominates(self, a: Block, b: Block) -> bool:
        """Whether every path from the entry to ``b`` passes ``a``."""
        enter = self._enter
        if a.id not in enter or b.id not in enter:
            return False
        return enter[a.id] <= enter[b.id] and self._exit[b.id] <= self._exit[a.id]

    def back_edge_sources(self, header: Block) -> List[Block]:
        """Blocks that jump back to ``header`` and are dominated by it (a new list each
        time; all found in __init__: the structurer asks at each visit of a block)."""
        return list(self._back_edges.get(header.id, ()))

    def has_back_edges(self, header: Block) -> bool:
        """Whether :meth:`back_edge_sources` has any (without copying them)."""
        return bool(self._back_edges.get(header.id))

    def loop_body(self, header: Block) -> Set[int]:
        """Block ids of the natural loop of ``header``. An ``async for``
        inside the loop ends through its END_ASYNC_FOR handler, reached by an
        exception edge: the for loop's code, on the way back, is in the loop
        too (other handlers' edges stay out: a try body's normal way out is
        then no exit of the loop, a ``break``)."""
        body = {header.id}
        work = [b for b in self.back_edge_sources(header)]
        while work:
            b = work.pop()
            if b.id in body:
                continue
            body.add(b.id)
            work.extend(p for p in b.preds if p.id not in body)
            if self.program.instrs[b.start].op == "END_ASYNC_FOR":
                work.extend(p for p in b.exc_preds if p.id not in body)
        return body

    def is_conditional(self, b: Block) -> bool:
        return self.program.instrs[b.end - 1].op in CONDITIONAL_JUMPS
