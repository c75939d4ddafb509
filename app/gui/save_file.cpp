// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/save_file.h"

#include "app/common/atomic_file.h"

#include <QFile>
#include <QObject>

QString saveFile(const QString& path, std::string_view bytes) {
    std::string why;
    if (saveTextAtomically(QFile::encodeName(path).toStdString(), bytes, &why)) return {};
    return QObject::tr("%1: cannot write (%2)").arg(path, QString::fromStdString(why));
}
