// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/plot_style.h"

#include <qcustomplot.h>

#include <algorithm>
#include <vector>

namespace view {

void stylePlot(QCustomPlot* plot, const QFont& font) {
    const QFontMetrics big(font);
    for (QCPAxisRect* r : plot->axisRects())
        for (QCPAxis* a : r->axes()) {
            a->setTickLabelFont(font);
            a->setLabelFont(font);
            // A vertical axis gets as many ticks as its height holds labels with a line between:
            // with large text on a short panel the default five overlapped.
            if (a->orientation() == Qt::Vertical && r->height() > 0)
                a->ticker()->setTickCount(std::clamp(r->height() / (2 * big.height()), 2, 5));
        }
    QFont small = font;
    small.setPointSizeF(font.pointSizeF() * 0.85);
    QCPLegend* legend = plot->legend;
    legend->setFont(small);
    // As many columns as fit the width, each as wide as its widest entry (the legend fills rows
    // first: entry i is in column i % n): no entry is cut, a narrow plot gets more rows.
    const QFontMetrics fm(small);
    std::vector<int> widths;
    for (int i = 0; i < legend->itemCount(); ++i)
        if (auto* item = qobject_cast<QCPPlottableLegendItem*>(legend->item(i)))
            widths.push_back(legend->iconSize().width() + legend->iconTextPadding() +
                             fm.horizontalAdvance(item->plottable()->name()) + 8);
    const int room = plot->width() - 20;
    int columns = 1;
    for (int n = int(widths.size()); n > 1; --n) {
        std::vector<int> column(size_t(n), 0);
        for (size_t i = 0; i < widths.size(); ++i)
            column[i % size_t(n)] = std::max(column[i % size_t(n)], widths[i]);
        int total = legend->columnSpacing() * (n - 1);
        for (int w : column)
            total += w;
        if (total <= room) {
            columns = n;
            break;
        }
    }
    if (legend->wrap() != columns) {
        legend->setWrap(columns);
        legend->setFillOrder(legend->fillOrder(),
                             true); // the wrap applies to new entries only: re-lay the old
    }
    for (int i = 0; i < legend->itemCount(); ++i)
        if (QCPAbstractLegendItem* item = legend->item(i)) item->setFont(small);
}

} // namespace view
