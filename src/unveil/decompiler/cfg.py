"""Basic blocks, edges, dominators and loops of a normalized instruction stream."""
from typing import Dict, List, Optional, Set

from .instructions import CONDITIONAL_JUMPS, TERMINATORS, Program


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

    def _assign_handlers(self, handlers):
        """Each block's handler: that of the first range (in table order)
        holding its start. Ranges are painted last to first over the blocks
        they hold, found by bisection (the ranges do not overlap, so this is
        linear; a test of every range per block is quadratic in a run of try
        statements)."""
        import bisect
        starts = self._starts
        for h in reversed(handlers):
            k = bisect.bisect_left(starts, h.start)
            while k < len(starts) and starts[k] < h.end:
                self.blocks[k].handler = h.target
                k += 1

    def at(self, index) -> Optional[Block]:
        return self.block_at.get(index)

    def containing(self, index) -> Block:
        """The block holding instruction ``index``."""
        import bisect
        k = bisect.bisect_right(self._starts, index) - 1
        return self.blocks[k]

    # Cooper, Harvey & Kennedy, "A Simple, Fast Dominance Algorithm".
    def _dominators(self):
        blocks = self.blocks
        if not blocks:
            self.idom = {}
            self._enter, self._exit = {}, {}
            return
        order = []
        seen = set()

        def succs_all(b):
            out = list(b.succs)
            if b.handler is not None and b.handler in self.block_at:
                out.append(self.block_at[b.handler])
            # SETUP_* (<=3.10) reaches its handler too
            return out

        stack = [(blocks[0], iter(succs_all(blocks[0])))]
        seen.add(blocks[0].id)
        while stack:
            b, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                order.append(b)
                stack.pop()
            elif nxt.id not in seen:
                seen.add(nxt.id)
                stack.append((nxt, iter(succs_all(nxt))))
        order.reverse()  # reverse postorder
        rpo = {b.id: i for i, b in enumerate(order)}
        preds: Dict[int, List[Block]] = {b.id: [] for b in blocks}
        for b in order:
            for s in succs_all(b):
                preds[s.id].append(b)
        idom = {order[0].id: order[0].id}

        def intersect(a, b):
            while a != b:
                while rpo[a] > rpo[b]:
                    a = idom[a]
                while rpo[b] > rpo[a]:
                    b = idom[b]
            return a

        changed = True
        while changed:
            changed = False
            for b in order[1:]:
                ps = [p.id for p in preds[b.id] if p.id in idom]
                if not ps:
                    continue
                new = ps[0]
                for p in ps[1:]:
                    new = intersect(p, new)
                if idom.get(b.id) != new:
                    idom[b.id] = new
                    changed = True
        self.idom = idom
        self.rpo = rpo
        self._number_dominator_tree(order[0].id)

    def _number_dominator_tree(self, root):
        """Preorder entry and exit numbers of the dominator tree: ``a``
        dominates ``b`` when ``b``'s interval lies inside ``a``'s, a test in
        constant time (walking the idom chain costs the depth of the tree,
        which grows with the function in a run of ifs)."""
        children: Dict[int, List[int]] = {}
        for b, d in self.idom.items():
            if b != d:
                children.setdefault(d, []).append(b)
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

    def dominates(self, a: Block, b: Block) -> bool:
        """Whether every path from the entry to ``b`` passes ``a``."""
        enter = self._enter
        if a.id not in enter or b.id not in enter:
            return False
        return enter[a.id] <= enter[b.id] and self._exit[b.id] <= self._exit[a.id]

    def back_edge_sources(self, header: Block) -> List[Block]:
        """Blocks that jump back to ``header`` and are dominated by it."""
        return [p for p in header.preds if self.dominates(header, p)
                and p.start >= header.start]

    def loop_body(self, header: Block) -> Set[int]:
        """Block ids of the natural loop of ``header``."""
        body = {header.id}
        work = [b for b in self.back_edge_sources(header)]
        while work:
            b = work.pop()
            if b.id in body:
                continue
            body.add(b.id)
            work.extend(p for p in b.preds if p.id not in body)
        return body

    def is_conditional(self, b: Block) -> bool:
        return self.program.instrs[b.end - 1].op in CONDITIONAL_JUMPS
