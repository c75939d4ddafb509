// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/pick_reason.h"

#include <QCoreApplication>

namespace view {

using namespace sched;

namespace {
QString tr(const char* s, const char* disambiguation = nullptr, int n = -1) {
    return QCoreApplication::translate("view::PickReason", s, disambiguation, n);
}
} // namespace

QString pickReason(const Engine& e, int cpu, const PickPreview& p) {
    QString r;
    const QString pick = p.pick >= 0 ? QString::fromStdString(e.entityName(p.pick)) : QString();
    switch (p.why) {
    case PickPreview::Why::Empty:
        r = tr("Nothing fair is queued on this CPU.");
        break;
    case PickPreview::Why::Only:
        r = tr("pick_eevdf() now: %1, the only entity queued.").arg(pick);
        break;
    case PickPreview::Why::Buddy:
        r = tr("pick_eevdf() now: %1, the runqueue's buddy (PICK_BUDDY), eligible: it goes first.").arg(pick);
        break;
    case PickPreview::Why::Protected:
        r = p.protectedFor > 0
                ? tr("pick_eevdf() now: %1 keeps the CPU: its slice is protected (RUN_TO_PARITY) for %2 ms "
                     "more of vruntime, and it is eligible.")
                      .arg(pick)
                      .arg(double(p.protectedFor) / 1e6, 0, 'f', 3)
                : tr("pick_eevdf() now: %1 keeps the CPU: its slice is protected (RUN_TO_PARITY) and it is "
                     "eligible.")
                      .arg(pick);
        break;
    case PickPreview::Why::EarliestEligible:
        r = tr("pick_eevdf() now: %1, the earliest deadline among the eligible entities (vruntime <= V).")
                .arg(pick);
        break;
    }
    if (p.pickDelayed) {
        r += p.moreDelayed > 0
                 ? tr(" It is a delayed sleeper: picking it dequeues it, and the pick runs again - %n more "
                      "delayed sleeper(s) after it",
                      nullptr, p.moreDelayed)
                 : tr(" It is a delayed sleeper: picking it dequeues it, and the pick runs again");
        const QString second =
            p.secondPick >= 0 ? QString::fromStdString(e.entityName(p.secondPick)) : QString();
        switch (p.secondWhy) {
        case PickPreview::Why::Empty:
            r += tr(" - and finds nothing fair queued.");
            break;
        case PickPreview::Why::Only:
            r += tr(" - %1, the only entity left.").arg(second);
            break;
        case PickPreview::Why::Buddy:
            r += tr(" - %1, the buddy, eligible.").arg(second);
            break;
        case PickPreview::Why::Protected:
            r += tr(" - %1 keeps the CPU: its slice is protected and it is eligible.").arg(second);
            break;
        case PickPreview::Why::EarliestEligible:
            r += tr(" - %1, the earliest eligible deadline without the sleeper's weight in V.").arg(second);
            break;
        }
    }
    if (cpu >= 0 && size_t(cpu) < e.cpus().size() && e.cpus()[size_t(cpu)].curr >= 0)
        r += QString::fromStdString(e.describePendingSwitch(CpuId(cpu)));
    return r;
}

} // namespace view
