// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/tree_lens.h"

#include "base/duration.h"
#include "widgets/pick_reason.h"
#include "widgets/task_colors.h"
#include "widgets/timeline_paint_util.h"

#include <QHelpEvent>
#include <QPainter>
#include <QScrollArea>
#include <QStyle>
#include <QTimer>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>
#include <functional>
#include <limits>

namespace view {

using namespace sched;

namespace {
QString ms(int64_t ns, bool sign = true) {
    const QString s = QString::number(double(ns) / 1e6, 'f', 3);
    return sign && ns >= 0 ? QStringLiteral("+") + s : s;
}
} // namespace

// The tree itself, in the scroll area: a deep tree scrolls, the header above it stays.
class TreeLens::Canvas : public QWidget {
  public:
    explicit Canvas(TreeLens* lens) : QWidget(lens), lens_(lens) {}
    int boxW = 120, boxH = 48, slotW = 132, levelH = 72;
    QRect boxRect(const Box& b) const { return {8 + int(b.slot * slotW), 6 + b.level * levelH, boxW, boxH}; }

  protected:
    bool event(QEvent* ev) override {
        if (ev->type() != QEvent::ToolTip) return QWidget::event(ev);
        const QPoint at = static_cast<QHelpEvent*>(ev)->pos();
        for (const Box& b : lens_->boxes_)
            if (boxRect(b).contains(at)) {
                QToolTip::showText(static_cast<QHelpEvent*>(ev)->globalPos(),
                                   b.node >= 0 ? lens_->nodeText(lens_->walk_, b.node) : lens_->currText_,
                                   this);
                return true;
            }
        QToolTip::hideText();
        ev->ignore();
        return true;
    }
    void paintEvent(QPaintEvent*) override;

  private:
    TreeLens* lens_;
};

TreeLens::TreeLens(QWidget* parent) : QWidget(parent) {
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(6, 2, 6, 2);
    v->setSpacing(2);
    header_ = new QLabel(this);
    header_->setWordWrap(true);
    header_->setTextFormat(Qt::PlainText);
    header_->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    const QString key =
        tr("Times in ms relative to V. Filled: eligible (vruntime <= V); hatched: not eligible; "
           "min_v, min_s: the subtree's smallest vruntime and slice; bold edges: the search's "
           "path (dotted: the search the pick would make after a protected slice or a buddy); "
           "dashed: a pruned left subtree (its min_v > V); pale: not looked at; +n below: a "
           "folded subtree. Hover over a node for its numbers.");
    header_->setToolTip(key);
    v->addWidget(header_);
    scroll_ = new QScrollArea(this);
    scroll_->setFrameShape(QFrame::NoFrame);
    scroll_->setWidgetResizable(true);
    canvas_ = new Canvas(this);
    scroll_->setWidget(canvas_);
    v->addWidget(scroll_, 1);
    setMinimumHeight(140);
}

QString TreeLens::nodeText(const PickWalk& w, int32_t node) const {
    const TreeNode& n = w.nodes[size_t(node)];
    const int64_t V = w.preview.table.V;
    return tr("%1, weight %2\nvruntime - V %3 ms, deadline - V %4 ms, slice %5 ms\n%6\n"
              "subtree: %7 entities, min_vruntime - V %8 ms, min_slice %9 ms")
        .arg(names_[size_t(node)])
        .arg(n.weight)
        .arg(ms(n.vruntime - V), ms(n.deadline - V), ms(n.slice, false))
        .arg(n.eligible ? tr("eligible (vruntime <= V)") : tr("not eligible (vruntime > V)"))
        .arg(n.size)
        .arg(ms(n.minVruntime - V), ms(n.minSlice, false));
}

QString TreeLens::searchStory(const Engine& e) const {
    const PickWalk& w = walk_;
    if (w.root < 0) return w.searched ? tr("The tree is empty: only curr is queued.") : QString();
    if (w.path.empty()) return {};
    QString s;
    if (w.path.front().step == PickWalk::Step::Leftmost) {
        s = tr("the leftmost (the earliest deadline, cached) is eligible: taken at once.");
    } else {
        QStringList steps;
        for (const PickWalk::Move& m : w.path) {
            const QString name = names_[size_t(m.node)];
            switch (m.step) {
            case PickWalk::Step::Left:
                steps << tr("%1: left (min_vruntime there <= V)").arg(name);
                break;
            case PickWalk::Step::Right:
                steps << (w.nodes[size_t(m.node)].left >= 0
                              ? tr("%1: not eligible, right (its left subtree's min_vruntime > V: pruned)")
                              : tr("%1: not eligible, right"))
                             .arg(name);
                break;
            case PickWalk::Step::Take:
                steps << tr("%1: eligible, taken").arg(name);
                break;
            case PickWalk::Step::Leftmost:
                break;
            }
        }
        s = tr("the leftmost is not eligible, so from the root: %1.")
                .arg(steps.join(QStringLiteral(" \u2192 ")));
        if (w.found < 0) s += tr(" No entity in the tree is eligible.");
    }
    // For a protected curr or a buddy the walk is the one the pick would make once they are gone.
    s = (w.searched ? tr("Search: ") : tr("No search now; once there is one (dotted): ")) + s;
    if (w.currWins)
        s += (w.found < 0 ? tr(" curr (%1) is the only eligible entity: it stays.")
                          : tr(" curr (%1) is eligible with an earlier deadline: it stays."))
                 .arg(QString::fromStdString(e.entityName(w.preview.pick)));
    return s;
}

void TreeLens::refresh(const Engine& e, int cpu, bool past) {
    walk_ = {};
    names_.clear();
    colors_.clear();
    currText_.clear();
    currName_.clear();
    if (cpu < 0 || size_t(cpu) >= e.cpus().size()) {
        header_->clear();
        layoutBoxes(scroll_->contentsRect().width());
        return;
    }
    const CfsRq& cfs = e.cpus()[size_t(cpu)].cfs;
    walk_ = pickWalkOf(cfs, e.entityView(), e.previewPick(cpu));
    const bool dark = paint::isDark(palette());
    const auto colorOf = [&](EntityId id) {
        return entityIsTask(id) ? taskColor(e.trace(), id, dark) : palette().color(QPalette::Mid);
    };
    for (const TreeNode& n : walk_.nodes) {
        names_.push_back(QString::fromStdString(e.entityName(n.id)));
        colors_.push_back(colorOf(n.id));
    }
    const std::vector<LagRow>& rows = walk_.preview.table.rows;
    if (!rows.empty() && rows.front().running) {
        const LagRow& c = rows.front();
        currName_ = QString::fromStdString(e.entityName(c.id));
        currColor_ = colorOf(c.id);
        currRow_ = c;
        currText_ = tr("%1: cfs_rq->curr, kept out of the tree while it runs\nweight %2, vruntime - V %3 ms, "
                       "deadline - V %4 ms\n%5")
                        .arg(currName_)
                        .arg(c.weight)
                        .arg(ms(c.vruntime - walk_.preview.table.V), ms(c.deadline - walk_.preview.table.V))
                        .arg(c.eligible ? tr("eligible") : tr("not eligible"));
    }
    int depth = 0;
    for (const TreeNode& n : walk_.nodes)
        depth = std::max(depth, n.depth + 1);
    QStringList lines;
    lines << tr("CPU %1 at %2%3: the runqueue's tree by deadline (%4, depth %5; the engine's treap in place "
                "of the "
                "kernel's augmented rbtree)")
                 .arg(cpu)
                 .arg(QString::fromStdString(formatDuration(e.now())))
                 .arg(past ? tr(" (inspected moment)") : QString())
                 .arg(walk_.nodes.size() == 1 ? tr("1 entity") : tr("%1 entities").arg(walk_.nodes.size()))
                 .arg(depth);
    lines << pickReason(e, cpu, walk_.preview) + QLatin1Char(' ') + searchStory(e);
    lines << tr(
        "Filled: eligible \u00b7 hatched: not \u00b7 bold: the search \u00b7 pale: not looked at \u00b7 ms "
        "from V (hover for more)");
    header_->setText(lines.join(QLatin1Char('\n')));
    laidOutFor_ = -1;
    layoutBoxes(scroll_->contentsRect().width());
}

// The room is the scroll area's, not the canvas's: the canvas is at least as wide as its last
// layout, so its own width would never let a narrower window fold the tree.
void TreeLens::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    if (const int w = scroll_->contentsRect().width(); w != laidOutFor_) layoutBoxes(w);
}

void TreeLens::layoutBoxes(int width) {
    laidOutFor_ = width;
    boxes_.clear();
    const QFontMetrics fm(canvas_->font());
    const int64_t V = walk_.preview.table.V;
    // The widest numbers decide the box: measured once, for the largest magnitudes (a refresh of
    // 10,000 entities must not format and measure 20,000 strings).
    int64_t bigV = 0, bigD = 0, bigMin = 0, bigS = 0;
    for (const TreeNode& n : walk_.nodes) {
        bigV = std::max(bigV, std::abs(n.vruntime - V));
        bigD = std::max(bigD, std::abs(n.deadline - V));
        bigMin = std::max(bigMin, std::abs(n.minVruntime - V));
        bigS = std::max(bigS, n.minSlice);
    }
    const int textW =
        std::max({fm.horizontalAdvance(tr("curr (out of the tree)")),
                  fm.horizontalAdvance(tr("v %1 d %2").arg(ms(-bigV), ms(-bigD))),
                  fm.horizontalAdvance(tr("min_v %1 min_s %2").arg(ms(-bigMin), ms(bigS, false)))});
    canvas_->boxW = std::clamp(textW + 14, 80, 260);
    canvas_->slotW = canvas_->boxW + std::max(8, fm.height() / 2);
    canvas_->boxH = 3 * fm.height() + 6;
    canvas_->levelH = canvas_->boxH + fm.height();
    const bool haveCurr = !currName_.isEmpty() && !currText_.isEmpty();
    const double first = haveCurr ? 1.0 : 0.0;
    // A node is open (its children drawn) on the search's path or above depth D; the largest D
    // whose boxes fit the width is taken, so a small tree is drawn whole.
    int maxDepth = 0;
    for (const TreeNode& n : walk_.nodes)
        maxDepth = std::max(maxDepth, n.depth);
    // the way down to the search's end and to the pick stays open (the cached leftmost has no walk)
    std::vector<bool> onWay(walk_.nodes.size(), false);
    for (size_t i = 0; i < walk_.nodes.size(); ++i)
        if (int32_t(i) == walk_.found || walk_.nodes[i].id == walk_.preview.pick)
            for (int32_t a = walk_.nodes[i].parent; a >= 0; a = walk_.nodes[size_t(a)].parent)
                onWay[size_t(a)] = true;
    // Room for a vertical scroll bar is kept: a deep tree gets one, and the boxes must still fit
    // beside it without a horizontal one.
    const int avail = std::max(width - 16 - style()->pixelMetric(QStyle::PM_ScrollBarExtent), canvas_->slotW);
    std::vector<Box> trial;
    // Places the boxes with every node above depth D open; with a limit, gives up (returns more
    // than it) as soon as the boxes are wider, so a try that cannot fit costs little.
    const auto place = [&](int D, double limit) {
        trial.clear();
        double next = first, hi = first - 1;
        std::function<double(int32_t)> rec = [&](int32_t i) -> double {
            if (next > limit) return next;
            const TreeNode& n = walk_.nodes[size_t(i)];
            const bool open = n.visited || onWay[size_t(i)] || n.depth < D;
            const int32_t l = open ? n.left : -1, r = open ? n.right : -1;
            double x;
            const size_t me = trial.size();
            trial.push_back({});
            // Left to right in deadline order: a node lies right of its whole left subtree and
            // left of its whole right subtree (a subtree's first node sits at the next free slot,
            // its last one at least a slot before the next free one after it).
            if (l < 0 && r < 0) {
                x = next;
                next += 1;
            } else if (l >= 0 && r >= 0) {
                const double xl = rec(l), maxLeft = hi, minRight = next, xr = rec(r);
                x = std::clamp((xl + xr) / 2, maxLeft + 0.5, minRight - 0.5);
            } else if (l >= 0) {
                rec(l);
                x = hi + 0.5;
                next = std::max(next, x + 1);
            } else {
                x = next;
                next += 0.5;
                rec(r);
                next = std::max(next, x + 1);
            }
            hi = std::max(hi, x);
            Box& b = trial[me];
            b.node = i;
            b.slot = x;
            b.level = n.depth;
            b.hidden = open ? 0 : n.size - 1;
            return x;
        };
        if (walk_.root >= 0) rec(walk_.root);
        return next;
    };
    const double room = double(avail) / canvas_->slotW;
    int D = maxDepth + 1;
    for (; D > 0; --D)
        if (place(D, room) <= room) break;
    const double span = place(D, std::numeric_limits<double>::infinity());
    boxes_ = trial;
    std::sort(boxes_.begin(), boxes_.end(),
              [](const Box& a, const Box& b) { return a.node < b.node; }); // by deadline
    for (Box& b : boxes_) {
        b.name = names_[size_t(b.node)];
        b.color = colors_[size_t(b.node)];
        b.pick = walk_.nodes[size_t(b.node)].id == walk_.preview.pick;
        b.dimmed = !walk_.path.empty() && !walk_.nodes[size_t(b.node)].visited;
    }
    if (haveCurr) {
        Box c;
        c.node = -1;
        c.name = currName_;
        c.color = currColor_;
        c.pick = currRow_.id == walk_.preview.pick;
        boxes_.insert(boxes_.begin(), c);
    }
    int levels = 1;
    for (const Box& b : boxes_)
        levels = std::max(levels, b.level + 1);
    canvas_->setMinimumSize(int(span * canvas_->slotW) + 16, levels * canvas_->levelH + 8);
    canvas_->update();
    // a deep tree scrolls: bring the end of the search (or the pick) into view when it changes,
    // not at every refresh (the reader may have scrolled elsewhere)
    for (const Box& b : boxes_)
        if (b.node >= 0 && (b.node == walk_.found || (walk_.found < 0 && b.pick)) &&
            walk_.nodes[size_t(b.node)].id != scrolledTo_) {
            scrolledTo_ = walk_.nodes[size_t(b.node)].id;
            const QRect r = canvas_->boxRect(b);
            QTimer::singleShot(0, this, [this, r] {
                scroll_->ensureVisible(r.center().x(), r.center().y(), r.width(), r.height());
            });
        }
}

void TreeLens::Canvas::paintEvent(QPaintEvent*) {
    QPainter p(this);
    const QPalette pal = palette();
    const QFontMetrics fm(font());
    const PickWalk& w = lens_->walk_;
    const int64_t V = w.preview.table.V;
    const QColor text = pal.color(QPalette::Text), accent = pal.color(QPalette::Highlight);
    // where each node's box is, to draw the edges first
    std::vector<QRect> at(w.nodes.size());
    for (const Box& b : lens_->boxes_)
        if (b.node >= 0) at[size_t(b.node)] = boxRect(b);
    p.setRenderHint(QPainter::Antialiasing, true);
    for (const Box& b : lens_->boxes_) {
        if (b.node < 0) continue;
        const TreeNode& n = w.nodes[size_t(b.node)];
        for (const int32_t c : {n.left, n.right}) {
            if (c < 0 || at[size_t(c)].isNull()) continue;
            const TreeNode& k = w.nodes[size_t(c)];
            const QRect from = at[size_t(b.node)], to = at[size_t(c)];
            const bool onPath = n.visited && k.visited;
            const bool pruned = n.visited && !k.visited && c == n.left; // a Right step
            QColor col = onPath ? accent : text;
            if (!onPath) col.setAlpha(pruned ? 200 : 90);
            // a walk the pick would make, not the one it makes, is dotted
            p.setPen(QPen(col, onPath ? 3 : 1,
                          pruned                  ? Qt::DashLine
                          : onPath && !w.searched ? Qt::DotLine
                                                  : Qt::SolidLine));
            p.drawLine(QPoint(from.center().x(), from.bottom()), QPoint(to.center().x(), to.top()));
            if (pruned) {
                p.setPen(text);
                const QPoint mid =
                    (QPoint(from.center().x(), from.bottom()) + QPoint(to.center().x(), to.top())) / 2;
                p.drawText(QRect(mid.x() - 120, mid.y() - fm.height() / 2, 116, fm.height()),
                           Qt::AlignRight | Qt::AlignVCenter, tr("pruned"));
            }
        }
    }
    p.setRenderHint(QPainter::Antialiasing, false);
    QFont bold = font();
    bold.setBold(true);
    for (const Box& b : lens_->boxes_) {
        const QRect r = boxRect(b);
        const bool curr = b.node < 0;
        const bool eligible = curr ? lens_->currRow_.eligible : w.nodes[size_t(b.node)].eligible;
        p.setOpacity(b.dimmed ? 0.45 : 1.0);
        p.fillRect(r, pal.color(QPalette::Base));
        QColor tint = b.color;
        tint.setAlpha(eligible ? 110 : 45);
        p.fillRect(r, tint);
        if (!eligible) p.fillRect(r, QBrush(b.color, Qt::BDiagPattern));
        p.fillRect(QRect(r.left(), r.top(), 5, r.height()), b.color);
        const bool onPath = !curr && w.nodes[size_t(b.node)].visited;
        p.setPen(QPen(b.pick   ? text
                      : onPath ? accent
                               : b.color.darker(130),
                      b.pick || onPath ? 2 : 1, curr ? Qt::DashLine : Qt::SolidLine));
        p.drawRect(r.adjusted(0, 0, -1, -1));
        const QRect t = r.adjusted(8, 3, -3, -3);
        const int line = fm.height();
        p.setPen(text);
        p.setFont(bold);
        const QString title = (b.pick ? QStringLiteral("\u2605 ") : QString()) + b.name;
        p.drawText(QRect(t.left(), t.top(), t.width(), line), Qt::AlignLeft | Qt::AlignVCenter,
                   QFontMetrics(bold).elidedText(title, Qt::ElideRight, t.width()));
        p.setFont(font());
        if (curr) {
            const LagRow& c = lens_->currRow_;
            p.drawText(QRect(t.left(), t.top() + line, t.width(), line), Qt::AlignLeft | Qt::AlignVCenter,
                       tr("v %1 d %2").arg(ms(c.vruntime - V), ms(c.deadline - V)));
            p.drawText(QRect(t.left(), t.top() + 2 * line, t.width(), line), Qt::AlignLeft | Qt::AlignVCenter,
                       tr("curr (out of the tree)"));
        } else {
            const TreeNode& n = w.nodes[size_t(b.node)];
            p.drawText(QRect(t.left(), t.top() + line, t.width(), line), Qt::AlignLeft | Qt::AlignVCenter,
                       tr("v %1 d %2").arg(ms(n.vruntime - V), ms(n.deadline - V)));
            p.drawText(QRect(t.left(), t.top() + 2 * line, t.width(), line), Qt::AlignLeft | Qt::AlignVCenter,
                       tr("min_v %1 min_s %2").arg(ms(n.minVruntime - V), ms(n.minSlice, false)));
        }
        if (b.hidden > 0) { // the subtree below, folded
            const int cx = r.center().x(), y = r.bottom() + 3;
            const QPolygon tri({QPoint(cx, y), QPoint(cx - 9, y + 10), QPoint(cx + 9, y + 10)});
            p.setBrush(pal.color(QPalette::Mid));
            p.setPen(Qt::NoPen);
            p.drawPolygon(tri);
            p.setBrush(Qt::NoBrush);
            p.setPen(text);
            p.drawText(QRect(cx + 12, y, 120, line), Qt::AlignLeft | Qt::AlignVCenter,
                       tr("+%1 below").arg(b.hidden));
        }
    }
    p.setOpacity(1.0);
}

} // namespace view
