// SPDX-License-Identifier: GPL-3.0-or-later
// The app's colour theme: the platform's palette (default), or a light or dark Fusion palette.
// The choice persists in QSettings ("theme"); every view reads colours from the palette at paint
// time or on QEvent::PaletteChange, so a switch applies at once.
#pragma once

#include <QIcon>
#include <QString>
#include <QStyle>

class QWidget;

enum class Theme { System, Light, Dark };

Theme themeFromName(const QString& name, bool* ok = nullptr); // "system", "light", "dark"
QString themeName(Theme t);
void applyTheme(Theme t);
// A style's standard icon drawn in the palette's button text colour (dimmed when disabled): the
// Fusion style's media icons are dark grey whatever the palette, and vanish on a dark one.
QIcon paletteIcon(QStyle::StandardPixmap icon, const QWidget& w);
