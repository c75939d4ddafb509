// SPDX-License-Identifier: GPL-3.0-or-later
// The timeline widget: one lane per CPU plus its need-resched lane. Wheel zooms at the cursor,
// drag pans, Shift+drag selects a range to zoom into, WASD / arrows zoom and pan, Home fits,
// 1 / 2 set markers A / B at the cursor (the readout shows their distance); click selects a task,
// Ctrl+click adds or removes one. It only reads the run; selections go out as signals.
#pragma once

#include "widgets/timeline_painter.h"

#include <QImage>
#include <QPixmap>
#include <QWidget>

namespace view {

class TimelineView : public QWidget {
    Q_OBJECT
  public:
    explicit TimelineView(QWidget* parent = nullptr);

    // The run to show. The indexes are caught up with the trace on every call.
    void setRun(const sched::Trace* trace, const LiveState& live);
    void clearRun();
    const TimeAxis& axis() const { return axis_; }
    void setRange(Time t0, Time t1);
    void zoomToFit();
    void centerOn(Time t);   // keeps the zoom, stops following the present
    void setFollow(bool on); // emits followChanged() when it changes
    void setShowTaskLanes(bool on);
    bool follow() const { return follow_; }
    void setSelectedTasks(const std::vector<TaskId>& tasks); // the primary one first
    void setSelectedTask(TaskId t) {
        setSelectedTasks(t >= 0 ? std::vector<TaskId>{t} : std::vector<TaskId>{});
    }
    const std::vector<TaskId>& selectedTasks() const { return data_.selection; }
    // While the engine runs in a worker thread the view must not read the trace: it shows the
    // picture it had, dimmed, with a progress note.
    void setFrozen(bool frozen);
    void setFrozenNote(const QString& note);
    TimelineData data() const;
    const TimelineLayout& layout() const { return layout_; }
    std::optional<Time> markerA() const { return data_.markerA; }
    void setMarkerA(std::optional<Time> t); // e.g. the event two compared runs are aligned at
    std::optional<Time> markerB() const { return data_.markerB; }

  signals:
    void rangeChanged(qint64 start, qint64 end);
    // Following the present stopped (a pan, a zoom, a selected range) or started again.
    void followChanged(bool on);
    void cursorMoved(qint64 time, int cpu);
    void taskSelected(int task);              // a click: this task alone (kNoTask: none)
    void taskToggled(int task);               // a Ctrl+click: add it to the selection or remove it
    void runToRequested(qint64 time);         // double-click: go (forward or back) to that time
    void momentClicked(qint64 time, int cpu); // a click on a lane: inspect that moment

  protected:
    void paintEvent(QPaintEvent*) override;
    void changeEvent(QEvent* e) override; // a new font (presentation mode) resizes the bands
    void zoomBy(double x, double factor); // at x pixels into the axis; out no further than the run
    void keepAfterZero();
    void followMouse(); // the hover readout: the time under the mouse now
    void leaveEvent(QEvent* e) override;
    void resizeEvent(QResizeEvent*) override;
    void wheelEvent(QWheelEvent*) override;
    void mousePressEvent(QMouseEvent*) override;
    void mouseMoveEvent(QMouseEvent*) override;
    void mouseReleaseEvent(QMouseEvent*) override;
    void keyPressEvent(QKeyEvent*) override;
    void mouseDoubleClickEvent(QMouseEvent*) override;
    bool event(QEvent*) override;
    QSize sizeHint() const override;

  private:
    Time timeAtX(int x) const { return axis_.toTime(x - layout_.gutter); }
    void changed();
    void fitLanes();
    void updateMinimumHeight();
    TaskId taskAt(const QPoint& pos, uint32_t* sliceOut = nullptr) const;
    QString tooltipAt(const QPoint& pos) const;

    struct PictureKey {
        QSize size;
        QRect shown;
        qreal dpr = 0;
        TimeAxis axis;
        const sched::Trace* trace = nullptr;
        std::array<size_t, 7> lengths{};
        Time now = 0;
        std::vector<TaskId> curr, selection;
        std::vector<Time> sliceStart;
        std::vector<std::array<bool, 2>> flag;
        std::vector<std::array<Time, 2>> flagSetAt;
        std::vector<Time> sliceExtSince;
        std::optional<Time> markerA, markerB;
        bool taskLanes = false;
        int lane = 0;
        qint64 palette = 0;
        QString font;
        bool operator==(const PictureKey&) const = default;
    };
    PictureKey pictureKey(const QRect& shown) const;

    TimeAxis axis_;
    TimelineLayout layout_;
    QImage cache_;
    PictureKey cachedKey_;
    TimelineData data_;
    LaneIndex lanes_;
    FlagIndex flags_;
    TaskLaneIndex taskLanes_;
    sched::WakeupChains chains_; // the wakeup arrows' joins, grown with the run
    bool showTaskLanes_ = false;
    bool follow_ = true;
    bool frozen_ = false;
    QPixmap frozenPicture_;
    QString frozenNote_;
    bool dragging_ = false, selecting_ = false;
    QPoint pressPos_;
    int selectFrom_ = 0, selectTo_ = 0;
};

} // namespace view
