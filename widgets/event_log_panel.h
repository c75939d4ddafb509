// SPDX-License-Identifier: GPL-3.0-or-later
// The event log dock: the scheduler events of the timeline's visible range (at most
// EventLogModel::kMaxRows, the earliest), filtered by kind and optionally by the selected tasks.
// Clicking a row selects its task; double-clicking centres the timeline on it.
#pragma once

#include "widgets/event_log_model.h"

#include <QWidget>

class QAction;
class QCheckBox;
class QLabel;
class QTableView;

namespace view {

class EventLogPanel : public QWidget {
    Q_OBJECT
  public:
    explicit EventLogPanel(QWidget* parent = nullptr);
    // The run and the window to list; cheap enough to call a few times a second while playing.
    void refresh(const TimelineData& d, Time t0, Time t1);
    void clear();
    const EventLogModel& model() const { return *model_; }
    unsigned kinds() const;
    void setKinds(unsigned kinds);

  signals:
    void taskSelected(int task);
    void timeActivated(qint64 time);

  protected:
    void showEvent(QShowEvent* e) override;

  private:
    void again();
    EventLogModel* model_ = nullptr;
    QTableView* table_ = nullptr;
    QLabel* status_ = nullptr;
    std::vector<QAction*> kindActions_;
    QCheckBox* onlySelected_ = nullptr;
    TimelineData d_;
    Time t0_ = 0, t1_ = 0;
};

} // namespace view
