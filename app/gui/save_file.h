// SPDX-License-Identifier: GPL-3.0-or-later
// The GUI's way to write a user's file: the bytes through the one save helper both programs share
// (app/common/atomic_file.h), the message worded for a dialog.
#pragma once

#include <QString>
#include <string_view>

// Returns an empty string, or "PATH: cannot write (WHY)" with the old file untouched.
QString saveFile(const QString& path, std::string_view bytes);
