// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/task_colors.h"

#include <cstdint>

namespace view {

QColor taskColor(int taskId, const std::string& comm, bool dark) {
    // Hue from the comm (so a group reads as one family), offset by the task within it.
    uint32_t h = 2166136261u;
    for (char c : comm)
        h = (h ^ uint8_t(c)) * 16777619u;
    const int hue = int((h % 360 + uint32_t(taskId) * 37u) % 360);
    const int sat = 140 + int((uint32_t(taskId) * 53u) % 80);
    const int val =
        dark ? 200 + int((uint32_t(taskId) * 29u) % 50) : 170 + int((uint32_t(taskId) * 29u) % 60);
    return QColor::fromHsv(hue, sat, val);
}

QColor eagerFlagColor(bool dark) {
    return dark ? QColor(255, 90, 90) : QColor(210, 30, 30);
}
QColor lazyFlagColor(bool dark) {
    return dark ? QColor(255, 200, 70) : QColor(225, 150, 0);
}
QColor sliceExtUsedColor(bool dark) {
    return dark ? QColor(90, 230, 140) : QColor(0, 140, 70);
}
QColor sliceExtCutColor(bool dark) {
    return dark ? QColor(255, 110, 230) : QColor(190, 0, 150);
}

} // namespace view
