// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/live_capture.h"

namespace view {

LiveState captureLive(const sched::Engine& e) {
    LiveState s;
    s.now = e.now();
    s.hz = e.config().hz;
    for (const sched::CpuRq& rq : e.cpus()) {
        s.curr.push_back(rq.curr);
        s.sliceStart.push_back(rq.sliceStart);
        s.flag.push_back(rq.flag);
        s.flagSetAt.push_back(rq.flagSetAt);
        s.flagReason.push_back({uint8_t(rq.flagReason[0]), uint8_t(rq.flagReason[1])});
        const bool granted = rq.curr >= 0 && e.tasks()[size_t(rq.curr)].sliceGranted;
        s.sliceExtSince.push_back(granted ? e.tasks()[size_t(rq.curr)].sliceGrantedAt : -1);
    }
    return s;
}

TimelineData finishedRunData(const sched::Engine& e, LaneIndex& lanes, FlagIndex& flags,
                             sched::WakeupChains* chains) {
    lanes.update(e.trace());
    flags.update(e.trace());
    TimelineData d;
    if (chains) {
        chains->update(e.trace());
        d.chains = chains;
    }
    d.trace = &e.trace();
    d.lanes = &lanes;
    d.flags = &flags;
    d.live.now = e.now();
    d.live.hz = e.config().hz;
    return d;
}

std::vector<sched::RunningSlice> runningSlices(const sched::Engine& e) {
    std::vector<sched::RunningSlice> r;
    if (e.finished()) return r; // finish() recorded them in the trace
    for (size_t c = 0; c < e.cpus().size(); ++c)
        if (const sched::CpuRq& rq = e.cpus()[c]; rq.curr >= 0)
            r.push_back({rq.sliceStart, rq.curr, uint16_t(c)});
    return r;
}

} // namespace view
