// SPDX-License-Identifier: GPL-3.0-or-later
// The app's colour theme: the platform's palette (default), or a light or dark Fusion palette; and
// its text size (View > Larger text, Presentation). Both persist in QSettings ("theme",
// "textScale"); every view reads colours and fonts at paint time or on QEvent::PaletteChange /
// FontChange, so a switch applies at once in every window.
#pragma once

#include <QIcon>
#include <QString>
#include <QStyle>

class QWidget;

enum class Theme { System, Light, Dark };

Theme themeFromName(const QString& name, bool* ok = nullptr); // "system", "light", "dark"
QString themeName(Theme t);
void applyTheme(Theme t);
// The application font at scale times the platform's (clamped to 0.8 .. 2.5); returns the scale set.
double applyTextScale(double scale);
double textScale();
inline constexpr double kPresentationScale = 1.5; // legible from the back of a room on a projector
// A style's standard icon drawn in the palette's button text colour (dimmed when disabled): the
// Fusion style's media icons are dark grey whatever the palette, and vanish on a dark one.
QIcon paletteIcon(QStyle::StandardPixmap icon, const QWidget& w);
