// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/widget_export.h"

#include <QCoreApplication>
#include <QEvent>
#include <QLayout>
#include <QPainter>
#include <QWidget>

namespace view {

QString renderWidget(ExportFormat format, QWidget& widget, QSize size, const QString& title, QByteArray& out,
                     int pixelRatio) {
    const QSize onScreen = widget.size();
    if (size.width() <= 0) size.setWidth(onScreen.width()); // a side not given: as on screen
    if (size.height() <= 0) size.setHeight(onScreen.height());
    // Lay the view out at the picture's size now (a layout would otherwise do it at the next event
    // loop turn, after the picture), and give the window its own size back afterwards.
    const auto relayout = [&](QSize s) {
        widget.resize(s);
        if (QLayout* l = widget.layout()) l->activate();
        for (QLayout* l : widget.findChildren<QLayout*>())
            l->activate();
        // A scroll area shows or hides its bars on a posted layout request: now, not after the
        // picture - the view's own requests only (its parents' would size it back).
        for (QWidget* w : widget.findChildren<QWidget*>())
            QCoreApplication::sendPostedEvents(w, QEvent::LayoutRequest);
    };
    relayout(size);
    const QString err = renderPicture(
        format, size, title, widget.palette().color(QPalette::Window),
        [&](QPaintDevice& dev, double scale) {
            QPainter p(&dev);
            if (!p.isActive()) return false;
            p.scale(scale, scale);
            widget.render(&p, QPoint(), QRegion(), QWidget::DrawWindowBackground | QWidget::DrawChildren);
            return true;
        },
        out, pixelRatio);
    relayout(onScreen);
    return err;
}

} // namespace view
