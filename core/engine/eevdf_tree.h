// SPDX-License-Identifier: GPL-3.0-or-later
// The runqueue's timeline: a balanced binary search tree ordered by virtual deadline, augmented
// with the subtree minimum of vruntime, minimum and maximum of slice, as the kernel's augmented
// rbtree (fair.c min_vruntime_cb; the maximum since 6e3c0a4e1ad1 "Fix lag clamp"). The augmentation lets
// pick_eevdf() prune ineligible subtrees, so a pick is O(log n). A treap with deterministic priorities keeps
// the code small; nodes live in the engine's entity array and are linked by index.
#pragma once

#include "engine/entity_view.h"

#include <vector>

namespace sched {

class EevdfTree {
  public:
    int32_t root() const { return root_; }
    bool empty() const { return root_ < 0; }
    void insert(EntityView ents, int32_t id, uint64_t seq);
    bool erase(EntityView ents, int32_t id); // false if id was not found by its key
    int32_t leftmost(EntityView ents) const;
    // min_vruntime_cb_propagate(): recompute the augmentation on the path to id after a field it
    // covers (a group entity's slice) changed in place. The key must not have changed.
    void refresh(EntityView ents, int32_t id);
    // In-order visit, stopping when fn returns false (used by the load balancer's bounded scan).
    template <class Fn> void forEachInOrder(EntityView ents, Fn&& fn) const;
    size_t sizeSlow(EntityView ents) const; // for tests only

    friend bool operator==(const EevdfTree&, const EevdfTree&) = default;

  private:
    static bool before(const SchedEntity& a, const SchedEntity& b) {
        // entity_before(): earlier deadline first; equal deadlines by insertion order.
        return a.deadline < b.deadline || (a.deadline == b.deadline && a.seq < b.seq);
    }
    static void update(EntityView ents, int32_t n);
    static int32_t merge(EntityView ents, int32_t a, int32_t b);
    static void split(EntityView ents, int32_t t, const SchedEntity& key, int32_t& l, int32_t& r);
    static int32_t insertRec(EntityView ents, int32_t t, int32_t id);
    static int32_t eraseRec(EntityView ents, int32_t t, int32_t id, bool& found);
    int32_t root_ = -1;
};

template <class Fn> void EevdfTree::forEachInOrder(EntityView ents, Fn&& fn) const {
    int32_t stack[128];
    int sp = 0;
    int32_t n = root_;
    while (n >= 0 || sp > 0) {
        while (n >= 0) {
            if (sp == 128) return; // deeper than any treap of realistic size; stop the scan
            stack[sp++] = n;
            n = ents[size_t(n)].left;
        }
        n = stack[--sp];
        if (!fn(n)) return;
        n = ents[size_t(n)].right;
    }
}

} // namespace sched
