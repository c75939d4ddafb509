// SPDX-License-Identifier: GPL-3.0-or-later
// A user's file written all or nothing: a failed write leaves the old file as it was (QSaveFile).
// Shared by the app's and the CLI's writers of text (metrics, comparisons, experiment reports,
// derived scenarios), which word their own messages around the reason.
#pragma once

#include <QString>
#include <string_view>

// Writes text to path; false with *why set to the reason when it could not.
bool saveTextAtomically(const QString& path, std::string_view text, QString* why);
