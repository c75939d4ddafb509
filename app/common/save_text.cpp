// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/common/save_text.h"

#include <QSaveFile>

bool saveTextAtomically(const QString& path, std::string_view text, QString* why) {
    QSaveFile f(path);
    if (f.open(QIODevice::WriteOnly) && f.write(text.data(), qint64(text.size())) == qint64(text.size()) && f.commit()) return true;
    if (why) *why = f.errorString();
    return false;
}
