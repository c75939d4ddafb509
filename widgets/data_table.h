// SPDX-License-Identifier: GPL-3.0-or-later
// The panels' tables (inspector, metrics, tasks) set up alike: one line a row, each column as wide
// as its header or a typical value, whichever is wider, so that neither is cut at the dock's
// usual width; the user may resize any column and the last one takes what is left.
#pragma once

#include <QStringList>

class QTableWidget;

namespace view {

// headers: the column titles; samples: per column a typical widest value ("receiver:99999"),
// or empty where the header is the wider.
void setUpDataTable(QTableWidget* table, const QStringList& headers, const QStringList& samples);

} // namespace view
