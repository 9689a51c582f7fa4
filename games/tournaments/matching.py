"""Maximum-weight matching on a general graph (Edmonds' blossom algorithm), for Swiss pairings.

Pure Python, no Django; it lives apart from the pairing rules because it is a textbook algorithm
with no knowledge of tournaments.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence


def max_weight_matching(count: int, edges: Sequence[tuple[int, int, int]]) -> list[int]:
    """A maximum-weight matching among the maximum-cardinality ones (Edmonds' blossom algorithm
    with dual variables, after Galil's "Efficient algorithms for finding maximum matching in
    graphs", 1986). Vertices are 0..count-1, weights integers; returns each vertex's mate or -1.
    """
    nedge = len(edges)
    endpoint = [edges[p // 2][p % 2] for p in range(2 * nedge)]
    neighbours: list[list[int]] = [[] for _ in range(count)]  # remote endpoints
    for k, (i, j, _) in enumerate(edges):
        neighbours[i].append(2 * k + 1)
        neighbours[j].append(2 * k)
    maxweight = max([0, *(w for _, _, w in edges)])
    mate = [-1] * count  # remote endpoint of the matched edge
    label = [0] * (2 * count)  # 0 free, 1 S (outer), 2 T (inner); 5 while scanning
    labelend = [-1] * (2 * count)
    inblossom = list(range(count))
    parent = [-1] * (2 * count)
    childs: list[list[int]] = [[] for _ in range(2 * count)]
    base = list(range(count)) + [-1] * count
    endps: list[list[int]] = [[] for _ in range(2 * count)]
    bestedge = [-1] * (2 * count)
    bestedges: list[list[int] | None] = [None] * (2 * count)
    unused = list(range(count, 2 * count))
    dual = [maxweight] * count + [0] * count
    allowed = [False] * nedge
    queue: list[int] = []

    def slack(k: int) -> int:
        i, j, w = edges[k]
        return dual[i] + dual[j] - 2 * w

    def leaves(b: int) -> Iterator[int]:
        if b < count:
            yield b
        else:
            for t in childs[b]:
                yield from leaves(t)

    def assign_label(w: int, t: int, p: int) -> None:
        b = inblossom[w]
        label[w] = label[b] = t
        labelend[w] = labelend[b] = p
        bestedge[w] = bestedge[b] = -1
        if t == 1:
            queue.extend(leaves(b))
        else:
            b_base = base[b]
            assign_label(endpoint[mate[b_base]], 1, mate[b_base] ^ 1)

    def scan_blossom(v: int, w: int) -> int:
        """The base of the new blossom through v and w, or -1 for an augmenting path."""
        path = []
        found = -1
        while v != -1 or w != -1:
            b = inblossom[v]
            if label[b] & 4:
                found = base[b]
                break
            path.append(b)
            label[b] = 5
            if labelend[b] == -1:
                v = -1
            else:
                v = endpoint[labelend[b]]
                b = inblossom[v]
                v = endpoint[labelend[b]]
            if w != -1:
                v, w = w, v
        for b in path:
            label[b] = 1
        return found

    def add_blossom(b_base: int, k: int) -> None:
        v, w, _ = edges[k]
        bb, bv, bw = inblossom[b_base], inblossom[v], inblossom[w]
        b = unused.pop()
        base[b] = b_base
        parent[b] = -1
        parent[bb] = b
        path: list[int] = []
        ends: list[int] = []
        while bv != bb:
            parent[bv] = b
            path.append(bv)
            ends.append(labelend[bv])
            v = endpoint[labelend[bv]]
            bv = inblossom[v]
        path.append(bb)
        path.reverse()
        ends.reverse()
        ends.append(2 * k)
        while bw != bb:
            parent[bw] = b
            path.append(bw)
            ends.append(labelend[bw] ^ 1)
            w = endpoint[labelend[bw]]
            bw = inblossom[w]
        childs[b], endps[b] = path, ends
        label[b] = 1
        labelend[b] = labelend[bb]
        dual[b] = 0
        for leaf in leaves(b):
            if label[inblossom[leaf]] == 2:
                queue.append(leaf)
            inblossom[leaf] = b
        best_to = [-1] * (2 * count)
        for sub in path:
            listed = bestedges[sub]
            lists = (
                [[p // 2 for p in neighbours[leaf]] for leaf in leaves(sub)]
                if listed is None
                else [listed]
            )
            for edge_list in lists:
                for e in edge_list:
                    i, j, _ = edges[e]
                    if inblossom[j] == b:
                        i, j = j, i
                    bj = inblossom[j]
                    if (
                        bj != b
                        and label[bj] == 1
                        and (best_to[bj] == -1 or slack(e) < slack(best_to[bj]))
                    ):
                        best_to[bj] = e
            bestedges[sub] = None
            bestedge[sub] = -1
        bestedges[b] = [e for e in best_to if e != -1]
        bestedge[b] = -1
        for e in bestedges[b] or []:
            if bestedge[b] == -1 or slack(e) < slack(bestedge[b]):
                bestedge[b] = e

    def expand_blossom(b: int, endstage: bool) -> None:
        for s in childs[b]:
            parent[s] = -1
            if s < count:
                inblossom[s] = s
            elif endstage and dual[s] == 0:
                expand_blossom(s, endstage)
            else:
                for leaf in leaves(s):
                    inblossom[leaf] = s
        if not endstage and label[b] == 2:
            # Relabel the children on the even path from the entry child to the base.
            entry = inblossom[endpoint[labelend[b] ^ 1]]
            j = childs[b].index(entry)
            if j & 1:
                j -= len(childs[b])
                step, trick = 1, 0
            else:
                step, trick = -1, 1
            p = labelend[b]
            while j != 0:
                label[endpoint[p ^ 1]] = 0
                label[endpoint[endps[b][j - trick] ^ trick ^ 1]] = 0
                assign_label(endpoint[p ^ 1], 2, p)
                allowed[endps[b][j - trick] // 2] = True
                j += step
                p = endps[b][j - trick] ^ trick
                allowed[p // 2] = True
                j += step
            bv = childs[b][j]
            label[endpoint[p ^ 1]] = label[bv] = 2
            labelend[endpoint[p ^ 1]] = labelend[bv] = p
            bestedge[bv] = -1
            j += step
            while childs[b][j] != entry:
                bv = childs[b][j]
                if label[bv] == 1:
                    j += step
                    continue
                reached = next((leaf for leaf in leaves(bv) if label[leaf] != 0), -1)
                if reached != -1:
                    label[reached] = 0
                    label[endpoint[mate[base[bv]]]] = 0
                    assign_label(reached, 2, labelend[reached])
                j += step
        label[b] = labelend[b] = -1
        childs[b], endps[b] = [], []
        base[b] = -1
        bestedges[b] = None
        bestedge[b] = -1
        unused.append(b)

    def augment_blossom(b: int, v: int) -> None:
        t = v
        while parent[t] != b:
            t = parent[t]
        if t >= count:
            augment_blossom(t, v)
        i = j = childs[b].index(t)
        if i & 1:
            j -= len(childs[b])
            step, trick = 1, 0
        else:
            step, trick = -1, 1
        while j != 0:
            j += step
            t = childs[b][j]
            p = endps[b][j - trick] ^ trick
            if t >= count:
                augment_blossom(t, endpoint[p])
            j += step
            t = childs[b][j]
            if t >= count:
                augment_blossom(t, endpoint[p ^ 1])
            mate[endpoint[p]] = p ^ 1
            mate[endpoint[p ^ 1]] = p
        childs[b] = childs[b][i:] + childs[b][:i]
        endps[b] = endps[b][i:] + endps[b][:i]
        base[b] = base[childs[b][0]]

    def augment_matching(k: int) -> None:
        v, w, _ = edges[k]
        for s, p in ((v, 2 * k + 1), (w, 2 * k)):
            while True:
                bs = inblossom[s]
                if bs >= count:
                    augment_blossom(bs, s)
                mate[s] = p
                if labelend[bs] == -1:
                    break
                t = endpoint[labelend[bs]]
                bt = inblossom[t]
                s = endpoint[labelend[bt]]
                j = endpoint[labelend[bt] ^ 1]
                if bt >= count:
                    augment_blossom(bt, j)
                mate[j] = labelend[bt]
                p = labelend[bt] ^ 1

    for _ in range(count):
        label[:] = [0] * (2 * count)
        bestedge[:] = [-1] * (2 * count)
        bestedges[count:] = [None] * count
        allowed[:] = [False] * nedge
        queue.clear()
        for v in range(count):
            if mate[v] == -1 and label[inblossom[v]] == 0:
                assign_label(v, 1, -1)
        augmented = False
        while True:
            while queue and not augmented:
                v = queue.pop()
                for p in neighbours[v]:
                    k = p // 2
                    w = endpoint[p]
                    if inblossom[v] == inblossom[w]:
                        continue
                    kslack = 0
                    if not allowed[k]:
                        kslack = slack(k)
                        if kslack <= 0:
                            allowed[k] = True
                    if allowed[k]:
                        if label[inblossom[w]] == 0:
                            assign_label(w, 2, p ^ 1)
                        elif label[inblossom[w]] == 1:
                            found = scan_blossom(v, w)
                            if found >= 0:
                                add_blossom(found, k)
                            else:
                                augment_matching(k)
                                augmented = True
                                break
                        elif label[w] == 0:
                            label[w] = 2
                            labelend[w] = p ^ 1
                    elif label[inblossom[w]] == 1:
                        b = inblossom[v]
                        if bestedge[b] == -1 or kslack < slack(bestedge[b]):
                            bestedge[b] = k
                    elif label[w] == 0 and (bestedge[w] == -1 or kslack < slack(bestedge[w])):
                        bestedge[w] = k
            if augmented:
                break
            # No augmenting path with tight edges: move the duals.
            delta_type, delta, edge, blossom = -1, 0, -1, -1
            for v in range(count):
                if label[inblossom[v]] == 0 and bestedge[v] != -1:
                    d = slack(bestedge[v])
                    if delta_type == -1 or d < delta:
                        delta_type, delta, edge = 2, d, bestedge[v]
            for b in range(2 * count):
                if parent[b] == -1 and label[b] == 1 and bestedge[b] != -1:
                    d = slack(bestedge[b]) // 2
                    if delta_type == -1 or d < delta:
                        delta_type, delta, edge = 3, d, bestedge[b]
            for b in range(count, 2 * count):
                if (
                    base[b] >= 0
                    and parent[b] == -1
                    and label[b] == 2
                    and (delta_type == -1 or dual[b] < delta)
                ):
                    delta_type, delta, blossom = 4, dual[b], b
            if delta_type == -1:  # no further improvement: the matching has maximum cardinality
                delta_type, delta = 1, max(0, min(dual[:count]))
            for v in range(count):
                if label[inblossom[v]] == 1:
                    dual[v] -= delta
                elif label[inblossom[v]] == 2:
                    dual[v] += delta
            for b in range(count, 2 * count):
                if base[b] >= 0 and parent[b] == -1:
                    if label[b] == 1:
                        dual[b] += delta
                    elif label[b] == 2:
                        dual[b] -= delta
            if delta_type == 1:
                break
            if delta_type == 2:
                allowed[edge] = True
                i, j, _ = edges[edge]
                queue.append(j if label[inblossom[i]] == 0 else i)
            elif delta_type == 3:
                allowed[edge] = True
                queue.append(edges[edge][0])
            else:
                expand_blossom(blossom, False)
        if not augmented:
            break
        for b in range(count, 2 * count):
            if parent[b] == -1 and base[b] >= 0 and label[b] == 1 and dual[b] == 0:
                expand_blossom(b, True)
    return [endpoint[p] if p != -1 else -1 for p in mate]
