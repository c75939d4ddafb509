// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/data_table.h"

#include <QHeaderView>
#include <QStyle>
#include <QTableWidget>

#include <algorithm>

namespace view {

void setUpDataTable(QTableWidget* table, const QStringList& headers, const QStringList& samples) {
    table->setColumnCount(int(headers.size()));
    table->setHorizontalHeaderLabels(headers);
    table->setWordWrap(false);
    QHeaderView* rows = table->verticalHeader();
    rows->setVisible(false);
    rows->setSectionResizeMode(QHeaderView::Fixed);
    rows->setDefaultSectionSize(table->fontMetrics().height() + 6);
    QHeaderView* cols = table->horizontalHeader();
    cols->setSectionResizeMode(QHeaderView::Interactive);
    cols->setStretchLastSection(true);
    // With no rows yet, resizing to contents sizes each column to its header's text.
    table->resizeColumnsToContents();
    const int margin = 2 * table->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, table) + 8;
    for (int c = 0; c < samples.size() && c < headers.size(); ++c)
        if (!samples[c].isEmpty())
            cols->resizeSection(c, std::max(cols->sectionSize(c),
                                            table->fontMetrics().horizontalAdvance(samples[c]) + margin));
}

} // namespace view
