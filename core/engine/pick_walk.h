// SPDX-License-Identifier: GPL-3.0-or-later
// The walk __pick_eevdf() makes through a runqueue's tree, for the tree lens: the engine's tree as
// it stands (a treap standing in for the kernel's augmented rbtree: the same order by deadline and
// the same per-subtree min_vruntime and min_slice, a different balancing), each node's eligibility
// and its subtree's (min_vruntime <= V: some entity below is eligible), and the steps of the heap
// search - the cached leftmost if it is eligible, else from the root: left while the left subtree
// holds an eligible entity, this node if it is eligible, else right (its left subtree pruned: none
// below is eligible). Read-only, from the lag table's up-to-date V (pick_preview.h).
#pragma once

#include "engine/cfs_rq.h"
#include "engine/pick_preview.h"

#include <vector>

namespace sched {

struct TreeNode {
    EntityId id = kNoTask;
    int32_t left = -1, right = -1; // indexes into PickWalk::nodes; -1: none
    int32_t parent = -1;
    int32_t depth = 0;
    int32_t rank = 0; // position in deadline order (in-order), 0 = leftmost
    int32_t size = 1; // entities in this node's subtree
    int64_t weight = 0, vruntime = 0, deadline = 0, slice = 0;
    int64_t minVruntime = 0, minSlice = 0; // the augmentation as the node holds it
    bool eligible = false;                 // vruntime_eligible(vruntime): vruntime <= V
    bool subtreeEligible = false;          // vruntime_eligible(min_vruntime)
    bool delayed = false;                  // a DELAY_DEQUEUE sleeper, still queued
    bool visited = false;                  // the search looked at this node
};

struct PickWalk {
    enum class Step : uint8_t {
        Leftmost, // the cached leftmost (earliest deadline) is eligible: taken without a search
        Left,     // the left subtree's min_vruntime is eligible: an earlier eligible deadline is there
        Take,     // no eligible entity on the left, and this one is eligible: the search ends
        Right     // neither: go right (the left subtree, if any, pruned)
    };
    struct Move {
        int32_t node = -1;
        Step step = Step::Leftmost;
    };
    PickPreview preview;         // the pick and why (the tree is searched only for EarliestEligible)
    std::vector<TreeNode> nodes; // in deadline order: nodes[i].rank == i
    int32_t root = -1;
    bool searched =
        false; // the pick reaches the tree search (not for the only entity, a buddy or protection)
    std::vector<Move> path; // the search's steps; for a buddy or a protected curr, the walk the pick would
                            // make without them (searched false)
    int32_t found = -1;     // the node the search ended on (-1: none eligible in the tree)
    bool currWins = false;  // curr, eligible, had a strictly earlier deadline than the one found
    bool augmentOk = true;  // every node's min_vruntime / min_slice equals its subtree's (a check)
};

// The walk on one runqueue, with V and eligibility taken from the preview's lag table.
PickWalk pickWalkOf(const CfsRq& cfs, EntityView ents, PickPreview preview);

} // namespace sched
