// SPDX-License-Identifier: GPL-3.0-or-later
// The virtual-time lens: one CPU's root runqueue on the axis of virtual time, as EEVDF is drawn
// when it is taught - V (avg_vruntime()), one span per entity from its vruntime to its deadline
// with its weight, the eligible ones filled and the others hatched, the running entity marked,
// and what pick_eevdf() would choose now and why (engine/pick_preview.h). It reads the engine
// it is given (the present, or a replayed earlier moment) and never changes it.
#pragma once

#include "engine/engine.h"

#include <QString>
#include <QWidget>
#include <vector>

namespace view {

class VtimeLens : public QWidget {
    Q_OBJECT
  public:
    explicit VtimeLens(QWidget* parent = nullptr);
    void refresh(const sched::Engine& e, int cpu, bool past = false);

    // What is drawn (public for tests): one row per entity, times in ns relative to V.
    struct Row {
        QString name;
        QColor color;
        int64_t from = 0, to = 0; // vruntime - V, deadline - V
        int64_t weight = 0;
        bool eligible = false, running = false, pick = false, delayed = false;
    };
    const std::vector<Row>& rows() const { return rows_; }
    const QString& reason() const { return reason_; }
    QSize sizeHint() const override { return {600, 260}; }

  protected:
    void paintEvent(QPaintEvent*) override;

  private:
    std::vector<Row> rows_;
    QString title_, reason_;
};

} // namespace view
