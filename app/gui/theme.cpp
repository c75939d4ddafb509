// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/theme.h"

#include <algorithm>
#include <cmath>

#include <QApplication>
#include <QPainter>
#include <QPalette>
#include <QStyle>
#include <QStyleFactory>
#include <QWidget>

Theme themeFromName(const QString& name, bool* ok) {
    if (ok) *ok = true;
    if (name == "light") return Theme::Light;
    if (name == "dark") return Theme::Dark;
    if (ok) *ok = name == "system";
    return Theme::System;
}

QString themeName(Theme t) {
    return t == Theme::Light ? "light" : t == Theme::Dark ? "dark" : "system";
}

namespace {
QPalette darkPalette() {
    QPalette p;
    p.setColor(QPalette::Window, QColor(45, 45, 48));
    p.setColor(QPalette::WindowText, QColor(230, 230, 230));
    p.setColor(QPalette::Base, QColor(30, 30, 32));
    p.setColor(QPalette::AlternateBase, QColor(45, 45, 48));
    p.setColor(QPalette::Text, QColor(230, 230, 230));
    p.setColor(QPalette::PlaceholderText, QColor(150, 150, 150));
    p.setColor(QPalette::Button, QColor(55, 55, 58));
    p.setColor(QPalette::ButtonText, QColor(230, 230, 230));
    p.setColor(QPalette::Highlight, QColor(60, 110, 200));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Mid, QColor(90, 90, 95));
    p.setColor(QPalette::Light, QColor(75, 75, 80));
    p.setColor(QPalette::Dark, QColor(25, 25, 27));
    p.setColor(QPalette::ToolTipBase, QColor(50, 50, 55));
    p.setColor(QPalette::ToolTipText, QColor(230, 230, 230));
    p.setColor(QPalette::Disabled, QPalette::Text, QColor(120, 120, 120));
    p.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(120, 120, 120));
    p.setColor(QPalette::Disabled, QPalette::WindowText, QColor(120, 120, 120));
    return p;
}
} // namespace

void applyTheme(Theme t) {
    // The platform style and palette as the app started, to return to them from light or dark.
    static const QString platformStyle = QApplication::style()->name();
    static const QPalette platformPalette = QApplication::palette();
    switch (t) {
    case Theme::System:
        QApplication::setStyle(QStyleFactory::create(platformStyle));
        QApplication::setPalette(platformPalette);
        break;
    case Theme::Light:
        QApplication::setStyle(QStyleFactory::create("Fusion"));
        QApplication::setPalette(QApplication::style()->standardPalette());
        break;
    case Theme::Dark:
        QApplication::setStyle(QStyleFactory::create("Fusion"));
        QApplication::setPalette(darkPalette());
        break;
    }
}

QIcon paletteIcon(QStyle::StandardPixmap icon, const QWidget& w) {
    const QIcon base = w.style()->standardIcon(icon, nullptr, &w);
    QIcon out;
    for (const int side : {16, 24, 32, 48})
        for (const auto& [mode, group] :
             {std::pair{QIcon::Normal, QPalette::Active}, std::pair{QIcon::Disabled, QPalette::Disabled}}) {
            QPixmap pm = base.pixmap(QSize(side, side));
            if (pm.isNull()) continue;
            QPainter p(&pm);
            p.setCompositionMode(QPainter::CompositionMode_SourceIn); // keep the shape, take the colour
            p.fillRect(pm.rect(), w.palette().color(group, QPalette::ButtonText));
            p.end();
            out.addPixmap(pm, mode);
        }
    return out;
}

namespace {
QFont& platformFont() { // the application font before any scaling, taken at the first call
    static QFont base = QApplication::font();
    return base;
}
double gTextScale = 1.0;
} // namespace

double applyTextScale(double scale) {
    const QFont base = platformFont();
    gTextScale = std::clamp(scale, 0.8, 2.5);
    QFont f = base;
    if (base.pointSizeF() > 0)
        f.setPointSizeF(base.pointSizeF() * gTextScale);
    else // a platform font given in pixels
        f.setPixelSize(std::max(1, int(std::lround(base.pixelSize() * gTextScale))));
    QApplication::setFont(f); // every widget gets a FontChange
    return gTextScale;
}

double textScale() {
    return gTextScale;
}
