// SPDX-License-Identifier: GPL-3.0-or-later
// The tree lens: one CPU's root runqueue as the tree pick_eevdf() searches - the engine's treap,
// standing in for the kernel's augmented rbtree (the same order by deadline and the same
// per-subtree min_vruntime and min_slice) - with each node's eligibility, the path the heap
// search walks and the subtrees it prunes (engine/pick_walk.h). Large trees show the path and what
// hangs off it; a node whose descendants are hidden says how many, and its min_vruntime and
// min_slice still cover them. It reads the engine it is given and never changes it.
#pragma once

#include "engine/engine.h"
#include "engine/pick_walk.h"

#include <QColor>
#include <QLabel>
#include <QString>
#include <QWidget>
#include <vector>

class QScrollArea;

namespace view {

class TreeLens : public QWidget {
    Q_OBJECT
  public:
    explicit TreeLens(QWidget* parent = nullptr);
    void refresh(const sched::Engine& e, int cpu, bool past = false);

    // What is drawn (public for tests).
    struct Box {
        int32_t node = -1; // index into walk().nodes; -1: cfs_rq->curr, kept out of the tree
        QString name;
        QColor color;
        double slot = 0; // horizontal position in box widths
        int level = 0;   // 0: curr's row and the root
        int hidden = 0;  // descendants not drawn (their min_vruntime and min_slice are in this box)
        bool pick = false, dimmed = false;
    };
    const std::vector<Box>& boxes() const { return boxes_; } // curr's first, then by deadline
    const sched::PickWalk& walk() const { return walk_; }
    QString reason() const { return header_->text(); }

  protected:
    void resizeEvent(QResizeEvent* e) override;

  private:
    class Canvas;
    void layoutBoxes(int width);
    QString searchStory(const sched::Engine& e) const;
    QString nodeText(const sched::PickWalk& w, int32_t node) const;

    sched::PickWalk walk_;
    std::vector<Box> boxes_;
    std::vector<QString> names_;
    std::vector<QColor> colors_;
    QString currName_, currText_;
    QColor currColor_;
    sched::LagRow currRow_;
    QLabel* header_ = nullptr;
    QScrollArea* scroll_ = nullptr;
    Canvas* canvas_ = nullptr;
    int laidOutFor_ = -1;
    sched::EntityId scrolledTo_ = sched::kNoTask; // the node last brought into view
};

} // namespace view
