// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/eevdf_tree.h"

#include <algorithm>

namespace sched {

namespace {
uint32_t hashPrio(int32_t id, uint64_t seq) {
    uint64_t x = (uint64_t(uint32_t(id)) << 32) ^ seq ^ 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 33)) * 0xff51afd7ed558ccdULL;
    x = (x ^ (x >> 33)) * 0xc4ceb9fe1a85ec53ULL;
    return uint32_t(x ^ (x >> 33));
}
} // namespace

void EevdfTree::update(EntityView ents, int32_t n) {
    SchedEntity& e = ents[size_t(n)];
    e.minVruntime = e.vruntime;
    e.minSlice = e.maxSlice = uint32_t(e.slice);
    for (int32_t c : {e.left, e.right}) {
        if (c < 0) continue;
        const SchedEntity& ce = ents[size_t(c)];
        // min_vruntime_update(): signed comparison of u64 vruntimes; int64 needs no cast.
        e.minVruntime = std::min(e.minVruntime, ce.minVruntime);
        e.minSlice = std::min(e.minSlice, ce.minSlice);
        e.maxSlice = std::max(e.maxSlice, ce.maxSlice); // __max_slice_update()
    }
}

int32_t EevdfTree::merge(EntityView ents, int32_t a, int32_t b) {
    if (a < 0) return b;
    if (b < 0) return a;
    if (ents[size_t(a)].prio > ents[size_t(b)].prio) {
        ents[size_t(a)].right = merge(ents, ents[size_t(a)].right, b);
        update(ents, a);
        return a;
    }
    ents[size_t(b)].left = merge(ents, a, ents[size_t(b)].left);
    update(ents, b);
    return b;
}

void EevdfTree::split(EntityView ents, int32_t t, const SchedEntity& key, int32_t& l, int32_t& r) {
    if (t < 0) {
        l = r = -1;
        return;
    }
    if (before(ents[size_t(t)], key)) {
        split(ents, ents[size_t(t)].right, key, ents[size_t(t)].right, r);
        l = t;
    } else {
        split(ents, ents[size_t(t)].left, key, l, ents[size_t(t)].left);
        r = t;
    }
    update(ents, t);
}

// Descend by key until the new node's priority wins, then split only that (expected small)
// subtree around the key: O(log n) with far less work than splitting the whole tree.
int32_t EevdfTree::insertRec(EntityView ents, int32_t t, int32_t id) {
    if (t < 0) return id;
    SchedEntity& n = ents[size_t(id)];
    if (n.prio > ents[size_t(t)].prio) {
        split(ents, t, n, n.left, n.right);
        update(ents, id);
        return id;
    }
    if (before(n, ents[size_t(t)]))
        ents[size_t(t)].left = insertRec(ents, ents[size_t(t)].left, id);
    else
        ents[size_t(t)].right = insertRec(ents, ents[size_t(t)].right, id);
    update(ents, t);
    return t;
}

void EevdfTree::insert(EntityView ents, int32_t id, uint64_t seq) {
    SchedEntity& e = ents[size_t(id)];
    e.seq = seq;
    e.left = e.right = -1;
    e.prio = hashPrio(id, seq);
    update(ents, id);
    root_ = insertRec(ents, root_, id);
}

int32_t EevdfTree::eraseRec(EntityView ents, int32_t t, int32_t id, bool& found) {
    if (t < 0) return -1; // not found: the node's key changed while it was in the tree
    if (t == id) {
        found = true;
        return merge(ents, ents[size_t(t)].left, ents[size_t(t)].right);
    }
    if (before(ents[size_t(id)], ents[size_t(t)]))
        ents[size_t(t)].left = eraseRec(ents, ents[size_t(t)].left, id, found);
    else
        ents[size_t(t)].right = eraseRec(ents, ents[size_t(t)].right, id, found);
    update(ents, t);
    return t;
}

bool EevdfTree::erase(EntityView ents, int32_t id) {
    bool found = false;
    root_ = eraseRec(ents, root_, id, found);
    if (!found) return false;
    SchedEntity& e = ents[size_t(id)];
    e.left = e.right = -1;
    return true;
}

void EevdfTree::refresh(EntityView ents, int32_t id) {
    int32_t path[128];
    int n = 0;
    const SchedEntity& key = ents[size_t(id)];
    for (int32_t t = root_; t >= 0 && n < 128;) {
        path[n++] = t;
        if (t == id) break;
        t = before(key, ents[size_t(t)]) ? ents[size_t(t)].left : ents[size_t(t)].right;
    }
    while (n > 0)
        update(ents, path[--n]);
}

int32_t EevdfTree::leftmost(EntityView ents) const {
    int32_t n = root_;
    if (n < 0) return -1;
    while (ents[size_t(n)].left >= 0)
        n = ents[size_t(n)].left;
    return n;
}

size_t EevdfTree::sizeSlow(EntityView ents) const {
    size_t n = 0;
    forEachInOrder(ents, [&](int32_t) {
        ++n;
        return true;
    });
    return n;
}

} // namespace sched
