// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/timeline_view.h"

#include "base/duration.h"
#include "widgets/task_colors.h"

#include <QCursor>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

namespace view {

TimelineView::TimelineView(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMinimumHeight(layout_.height(1));
    axis_.setRange(0, 100 * sched::kNsPerMs);
}

void TimelineView::setRun(const sched::Trace* trace, const LiveState& live) {
    if (frozen_) return;
    data_.trace = trace;
    data_.live = live;
    lanes_.update(*trace);
    flags_.update(*trace);
    chains_.update(*trace);
    data_.lanes = &lanes_;
    data_.flags = &flags_;
    data_.chains = &chains_;
    if (showTaskLanes_) {
        taskLanes_.update(*trace);
        data_.taskLanes = &taskLanes_;
    }
    updateMinimumHeight();
    fitLanes();
    if (follow_ && live.now > axis_.end) { // keep the present in view while the run goes on
        const Time span = axis_.span();
        axis_.setRange(live.now - span * 9 / 10, live.now + span / 10);
        keepAfterZero();
        followMouse();
        emit rangeChanged(axis_.start, axis_.end);
    }
    update();
}

void TimelineView::setShowTaskLanes(bool on) {
    showTaskLanes_ = on;
    taskLanes_ = TaskLaneIndex{};
    data_.taskLanes = nullptr;
    if (on && data_.trace) {
        taskLanes_.update(*data_.trace);
        data_.taskLanes = &taskLanes_;
    }
    updateMinimumHeight();
    fitLanes();
    update();
}

void TimelineView::updateMinimumHeight() {
    TimelineLayout minimal = layout_;
    minimal.lane = layout_.minLane;
    const int cpus = data_.trace ? data_.trace->cpus : 1;
    const int tasks = data_.taskLanes ? int(data_.trace->tasks.size()) : 0;
    setMinimumHeight(minimal.height(cpus, tasks));
}

void TimelineView::clearRun() {
    forgetTaskRanks(data_.trace); // the next run may be built where this one was
    taskLanes_ = TaskLaneIndex{};
    // The user's selection and markers survive a reload or rewind; what was indexed does not.
    TimelineData fresh;
    fresh.selection = data_.selection;
    fresh.markerA = data_.markerA;
    fresh.markerB = data_.markerB;
    data_ = fresh;
    lanes_.reset();
    flags_ = FlagIndex{};
    chains_ = sched::WakeupChains{};
    update();
}

TimelineData TimelineView::data() const {
    return data_;
}

QSize TimelineView::sizeHint() const {
    return QSize(900, layout_.height(data_.trace ? data_.trace->cpus : 2));
}

void TimelineView::setRange(Time t0, Time t1) {
    axis_.setRange(t0, t1);
    changed();
}

void TimelineView::zoomToFit() {
    const Time end = std::max<Time>(data_.live.now, sched::kNsPerMs);
    axis_.setRange(0, end + end / 50); // zoomBy() stops zooming out here too
    changed();
}

void TimelineView::setMarkerA(std::optional<Time> t) {
    data_.markerA = t;
    changed();
}

void TimelineView::setFollow(bool on) {
    if (follow_ == on) return;
    follow_ = on;
    emit followChanged(on);
}

void TimelineView::centerOn(Time t) {
    setFollow(false); // the user moved the view: the Follow button unchecks
    const Time half = (axis_.end - axis_.start) / 2;
    axis_.setRange(t - half, t + half);
    keepAfterZero();
    data_.cursor = t;
    changed();
}

void TimelineView::setSelectedTasks(const std::vector<TaskId>& tasks) {
    if (data_.selection == tasks) return;
    data_.selection = tasks;
    update();
}

void TimelineView::changed() {
    followMouse();
    emit rangeChanged(axis_.start, axis_.end);
    update();
}

// The hover readout says the time under the mouse: when the view moves under a still mouse (Follow
// while playing, a key zoom) it is read again, and it goes when the mouse leaves — it used to stay
// at the time of the last mouse move, as if frozen.
void TimelineView::followMouse() {
    if (!underMouse() || !data_.trace) return;
    const QPoint at = mapFromGlobal(QCursor::pos());
    if (at.x() >= layout_.gutter) data_.cursor = timeAtX(at.x());
}

void TimelineView::leaveEvent(QEvent* e) {
    QWidget::leaveEvent(e);
    data_.cursor.reset();
    update();
}

void TimelineView::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    if (e->type() != QEvent::FontChange) return;
    layout_ = timelineLayoutFor(font()); // larger text, taller bands and a wider gutter
    axis_.width = std::max(1, width() - layout_.gutter);
    updateMinimumHeight();
    fitLanes();
    updateGeometry();
    update();
}

void TimelineView::resizeEvent(QResizeEvent*) {
    axis_.width = std::max(1, width() - layout_.gutter);
    fitLanes();
}

// Few CPUs get tall lanes that fill the view; many get the minimum and the view scrolls.
void TimelineView::fitLanes() {
    const int cpus = data_.trace ? std::max(1, data_.trace->cpus) : 2;
    const int taskRows = data_.taskLanes && data_.trace ? int(data_.trace->tasks.size()) : 0;
    const int avail = height() - layout_.ruler - layout_.markerBand - layout_.legend - 4 -
                      (taskRows ? 14 + taskRows * layout_.taskRow : 0);
    layout_.lane = std::clamp(avail / cpus - layout_.flagLane - layout_.gap, layout_.minLane,
                              std::max(layout_.minLane, 80 * layout_.minLane / 22));
}

void TimelineView::setFrozen(bool frozen) {
    if (frozen == frozen_) return;
    if (frozen) frozenPicture_ = grab();
    frozen_ = frozen;
    frozenNote_.clear();
    update();
}

void TimelineView::setFrozenNote(const QString& note) {
    frozenNote_ = note;
    update();
}

void TimelineView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    if (frozen_) {
        p.fillRect(rect(), palette().color(QPalette::Base));
        p.setOpacity(0.45);
        p.drawPixmap(0, 0, frozenPicture_);
        p.setOpacity(1.0);
        p.setPen(palette().color(QPalette::Text));
        QFont f = font();
        f.setPointSizeF(f.pointSizeF() * 1.4);
        p.setFont(f);
        p.drawText(rect(), Qt::AlignCenter, frozenNote_.isEmpty() ? tr("Simulating...") : frozenNote_);
        return;
    }
    axis_.width = std::max(1, width() - layout_.gutter);
    if (!data_.trace) {
        p.fillRect(rect(), palette().color(QPalette::Base));
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("No run loaded"));
        return;
    }
    // The picture without the cursor is cached: moving the mouse (cursor line and readout, hover)
    // repaints with one blit instead of recomputing every lane's summary.
    // Only the part in view (a scroll area shows a band of a tall timeline) is painted.
    const QRect shown = visibleRegion().isEmpty() ? rect() : visibleRegion().boundingRect() & rect();
    const PictureKey key = pictureKey(shown);
    if (!(key == cachedKey_) || cache_.isNull()) {
        const qreal dpr = devicePixelRatioF();
        if (cache_.size() != shown.size() * dpr) { // reused while the size stays: no new pages to fault in
            cache_ = QImage(shown.size() * dpr, QImage::Format_RGB32);
            cache_.setDevicePixelRatio(dpr);
        }
        QPainter cp(&cache_);
        cp.translate(-shown.topLeft());
        cp.setClipRect(shown);
        TimelineData base = data_;
        base.cursor.reset();
        TimelinePainter::paint(cp, rect(), axis_, base, layout_, palette(), font());
        cachedKey_ = key;
    }
    p.drawImage(shown.topLeft(), cache_);
    if (data_.cursor && *data_.cursor >= axis_.start && *data_.cursor < axis_.end) {
        const int x = layout_.gutter + int(std::lround(axis_.toX(*data_.cursor)));
        const int cpus = data_.trace->cpus, rows = data_.taskLanes ? int(data_.trace->tasks.size()) : 0;
        p.setPen(QPen(palette().color(QPalette::Text), 1));
        p.drawLine(x, layout_.ruler, x, layout_.height(cpus, rows));
    }
    if (selecting_) {
        QColor c = palette().color(QPalette::Highlight);
        c.setAlpha(60);
        p.fillRect(QRect(QPoint(std::min(selectFrom_, selectTo_), layout_.ruler),
                         QPoint(std::max(selectFrom_, selectTo_), height())),
                   c);
    }
    if (data_.cursor) { // time readout next to the cursor line
        const int x = layout_.gutter + int(axis_.toX(*data_.cursor));
        QString label = QString::fromStdString(sched::formatDuration(*data_.cursor));
        if (data_.markerA && data_.markerB)
            label += QString("   \u0394t(A,B) = %1")
                         .arg(QString::fromStdString(
                             sched::formatDuration(std::llabs(*data_.markerB - *data_.markerA))));
        p.setPen(palette().color(QPalette::Text));
        // Right of the line while it fits, else left of it: near the right edge it was cut.
        const int w = p.fontMetrics().horizontalAdvance(label) + 4;
        const QRect box = x + 4 + w <= width()
                              ? QRect(x + 4, layout_.ruler, w, layout_.markerBand)
                              : QRect(std::max(0, x - 4 - w), layout_.ruler, w, layout_.markerBand);
        p.drawText(box, Qt::AlignLeft | Qt::AlignVCenter, label);
    }
}

// Everything the cached picture depends on except the cursor. The trace only grows, so its
// column lengths tell whether it changed.
TimelineView::PictureKey TimelineView::pictureKey(const QRect& shown) const {
    PictureKey k;
    k.size = size();
    k.shown = shown;
    k.dpr = devicePixelRatioF();
    k.axis = axis_;
    k.trace = data_.trace;
    if (const sched::Trace* t = data_.trace)
        k.lengths = {t->slices.size(),  t->flags.size(), t->wakeups.size(),  t->migrations.size(),
                     t->markers.size(), t->tasks.size(), t->sliceExts.size()};
    k.now = data_.live.now;
    k.curr = data_.live.curr;
    k.sliceStart = data_.live.sliceStart;
    k.flag = data_.live.flag;
    k.flagSetAt = data_.live.flagSetAt;
    k.sliceExtSince = data_.live.sliceExtSince;
    k.selection = data_.selection;
    k.markerA = data_.markerA;
    k.markerB = data_.markerB;
    k.taskLanes = data_.taskLanes != nullptr;
    k.lane = layout_.lane;
    k.palette = palette().cacheKey();
    k.font = font().key();
    return k;
}

void TimelineView::wheelEvent(QWheelEvent* e) {
    if (frozen_) return;
    const double steps = e->angleDelta().y() / 120.0;
    if (steps == 0) return;
    setFollow(false); // the user moved the view: the Follow button unchecks
    zoomBy(e->position().x() - layout_.gutter, std::pow(1.25, steps));
    changed();
}

// Zooming out ends at the whole run, as Home shows it, and never shows time before 0: anchored at
// the cursor, the range used to slide off past the run's start while its end stayed out of view.
// Nothing happens before time 0: a pan, zoom or centring that would show it shifts the view to
// start there instead, keeping the span.
void TimelineView::keepAfterZero() {
    if (axis_.start < 0) axis_.setRange(0, axis_.span());
}

void TimelineView::zoomBy(double x, double factor) {
    const Time beforeStart = axis_.start, beforeEnd = axis_.end;
    axis_.zoomAt(x, factor);
    if (factor >= 1 || data_.live.now <= 0) return; // nothing run yet: no whole run to stop at
    const Time runEnd = std::max<Time>(data_.live.now, sched::kNsPerMs);
    const Time fullEnd = runEnd + runEnd / 50;
    if (axis_.span() >= fullEnd) {
        // Out to the whole run, or, if more than the run was on show already, no further.
        if (beforeEnd - beforeStart >= fullEnd)
            axis_.setRange(beforeStart, beforeEnd);
        else
            axis_.setRange(0, fullEnd);
    }
    keepAfterZero();
}

void TimelineView::mousePressEvent(QMouseEvent* e) {
    if (frozen_) return;
    pressPos_ = e->pos();
    if (e->button() == Qt::LeftButton && (e->modifiers() & Qt::ShiftModifier)) {
        selecting_ = true;
        selectFrom_ = selectTo_ = e->pos().x();
    } else if (e->button() == Qt::LeftButton) {
        dragging_ = true;
    }
}

void TimelineView::mouseMoveEvent(QMouseEvent* e) {
    if (frozen_) return;
    if (dragging_) {
        setFollow(false); // the user moved the view: the Follow button unchecks
        axis_.pan(double(pressPos_.x() - e->pos().x()));
        keepAfterZero();
        pressPos_ = e->pos();
        changed();
    } else if (selecting_) {
        selectTo_ = e->pos().x();
        update();
    }
    if (e->pos().x() >= layout_.gutter && data_.trace) {
        data_.cursor = timeAtX(e->pos().x());
        emit cursorMoved(*data_.cursor, layout_.cpuAt(e->pos().y(), data_.trace->cpus));
        update();
    }
}

void TimelineView::mouseReleaseEvent(QMouseEvent* e) {
    if (selecting_) {
        selecting_ = false;
        const int a = std::min(selectFrom_, selectTo_), b = std::max(selectFrom_, selectTo_);
        if (b - a > 4) {
            setFollow(false); // the user moved the view: the Follow button unchecks
            axis_.setRange(timeAtX(a), timeAtX(b));
            changed();
        }
        update();
    } else if (dragging_) {
        dragging_ = false;
        if ((e->pos() - pressPos_).manhattanLength() < 3) { // a click selects the task under it
            const TaskId t = taskAt(e->pos());
            if (e->modifiers() &
                Qt::ControlModifier) { // Ctrl+click adds a task to the selection or removes it
                if (t >= 0) emit taskToggled(t);
            } else {
                setSelectedTask(t);
                emit taskSelected(t);
            }
            if (data_.trace && e->pos().x() >= layout_.gutter)
                emit momentClicked(timeAtX(e->pos().x()), layout_.cpuAt(e->pos().y(), data_.trace->cpus));
        }
    }
}

void TimelineView::mouseDoubleClickEvent(QMouseEvent* e) {
    if (frozen_) return;
    if (e->pos().x() >= layout_.gutter) emit runToRequested(timeAtX(e->pos().x()));
}

void TimelineView::keyPressEvent(QKeyEvent* e) {
    if (frozen_) return;
    const double w = axis_.width;
    switch (e->key()) {
    case Qt::Key_W:
    case Qt::Key_Up:
        axis_.zoomAt(w / 2, 1.5);
        break;
    case Qt::Key_S:
    case Qt::Key_Down:
        zoomBy(w / 2, 1 / 1.5);
        break;
    case Qt::Key_A:
    case Qt::Key_Left:
        axis_.pan(-w / 8);
        keepAfterZero();
        break;
    case Qt::Key_D:
    case Qt::Key_Right:
        axis_.pan(w / 8);
        break;
    case Qt::Key_Home:
        zoomToFit();
        return;
    case Qt::Key_1: // marker A at the cursor
        if (data_.cursor) data_.markerA = data_.cursor;
        break;
    case Qt::Key_2: // marker B at the cursor
        if (data_.cursor) data_.markerB = data_.cursor;
        break;
    default:
        QWidget::keyPressEvent(e);
        return;
    }
    setFollow(false); // the user moved the view: the Follow button unchecks
    changed();
}

TaskId TimelineView::taskAt(const QPoint& pos, uint32_t* sliceOut) const {
    if (!data_.trace) return sched::kNoTask;
    const int cpu = layout_.cpuAt(pos.y(), data_.trace->cpus);
    if (cpu < 0 || pos.y() > layout_.laneTop(cpu) + layout_.lane) return sched::kNoTask;
    const Time t = timeAtX(pos.x());
    const Time tol = Time(axis_.nsPerPixel() * 2);
    for (uint32_t i : lanes_.slicesIn(cpu, t - tol, t + tol + 1, 8)) {
        if (data_.trace->slices.start[i] <= t + tol && data_.trace->slices.end[i] >= t - tol) {
            if (sliceOut) *sliceOut = i;
            return data_.trace->slices.task[i];
        }
    }
    if (cpu < int(data_.live.curr.size()) && data_.live.curr[size_t(cpu)] >= 0 &&
        t >= data_.live.sliceStart[size_t(cpu)] && t <= data_.live.now)
        return data_.live.curr[size_t(cpu)];
    return sched::kNoTask;
}

QString TimelineView::tooltipAt(const QPoint& pos) const {
    uint32_t i = UINT32_MAX;
    const TaskId t = taskAt(pos, &i);
    if (t < 0) return {};
    const auto& task = data_.trace->tasks[size_t(t)];
    QString s =
        QString("<b>%1</b> pid %2").arg(QString::fromStdString(task.comm).toHtmlEscaped()).arg(task.pid);
    if (i == UINT32_MAX) return s + tr("<br>running now");
    const sched::Slices& sl = data_.trace->slices;
    s += tr("<br>start %1, ran %2")
             .arg(QString::fromStdString(sched::formatDuration(sl.start[i])),
                  QString::fromStdString(sched::formatDuration(sl.end[i] - sl.start[i])));
    if (sl.endPoint[i] != sched::kStillRunning) {
        s += tr("<br>left the CPU: %1")
                 .arg(QString::fromStdString(
                     std::string(sched::switchPointName(sched::SwitchPoint(sl.endPoint[i])))));
        if (sl.endReason[i] != sched::kNoReason)
            s += tr(" (%1)").arg(QString::fromStdString(
                std::string(sched::reschedReasonName(sched::ReschedReason(sl.endReason[i])))));
    }
    return s;
}

bool TimelineView::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip && frozen_) return true;
    if (e->type() == QEvent::ToolTip) {
        auto* he = static_cast<QHelpEvent*>(e);
        const QString tip = tooltipAt(he->pos());
        if (tip.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(he->globalPos(), tip, this);
        return true;
    }
    return QWidget::event(e);
}

} // namespace view
