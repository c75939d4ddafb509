// SPDX-License-Identifier: GPL-3.0-or-later
// Snapshots for rewind: the engine's state is a value, the trace is append-only — except that a
// run which folds its trace as it goes drops what it has folded (forgetRecorded()).
#include "engine/engine.h"

namespace sched {

namespace {
template <class V> void cut(V& v, size_t n) {
    if (v.size() > n) v.resize(n);
}
} // namespace

Engine::TraceMark Engine::markOf(const Trace& t) const {
    return TraceMark{t.tasks.size(),   t.slices.size(),     t.flags.size(),
                     t.wakeups.size(), t.migrations.size(), t.samples.size(),
                     t.markers.size(), t.sliceExts.size(),  forgets_};
}

// Every member but the trace. tst_rewind replays from restored snapshots and compares with
// uninterrupted runs, so a member forgotten here shows up as a diverging run.
void Engine::copyStateFrom(const Engine& o) {
    cfg_ = o.cfg_;
    seed_ = o.seed_;
    opts_ = o.opts_;
    now_ = o.now_;
    events_ = o.events_;
    switchesSeen_ = o.switchesSeen_;
    queue_ = o.queue_;
    rqs_ = o.rqs_;
    tasks_ = o.tasks_;
    ents_ = o.ents_;
    groups_ = o.groups_;
    groupEnts_ = o.groupEnts_;
    programs_ = o.programs_;
    patterns_ = o.patterns_;
    channels_ = o.channels_;
    mutexes_ = o.mutexes_;
    changes_ = o.changes_;
    groupTgid_ = o.groupTgid_;
    nextPid_ = o.nextPid_;
    error_ = o.error_;
    ctxCpu_ = o.ctxCpu_;
    tickContext_ = o.tickContext_;
    finished_ = o.finished_;
    halted_ = o.halted_;
    instant_ = o.instant_;
    eventsAtInstant_ = o.eventsAtInstant_;
    lastKind_ = o.lastKind_;
    nohzNextBalance_ = o.nohzNextBalance_;
    nohzNextBlocked_ = o.nohzNextBlocked_;
    nrIdleScan_ = o.nrIdleScan_;
    rdOverloaded_ = o.rdOverloaded_;
    rtPeriodActive_ = o.rtPeriodActive_;
    rtPeriodGen_ = o.rtPeriodGen_;
    busyCpus_ = o.busyCpus_;
}

Engine Engine::snapshot() const {
    Engine s(cfg_, seed_, opts_);
    s.copyStateFrom(*this);
    s.snapMark_ = markOf(trace_);
    return s;
}

void Engine::restore(const Engine& snap) {
    copyStateFrom(snap);
    TraceMark m = snap.snapMark_;
    if (m.forgets != forgets_) // dropped since
        m.slices = m.flags = m.wakeups = m.migrations = m.samples = m.sliceExts = 0;
    cutTrace(m);
    trace_.endTime = 0;
}

// The trace cut back to the mark's lengths (a longer column loses its tail, keeps its memory).
void Engine::cutTrace(const TraceMark& m) {
    Trace& t = trace_;
    cut(t.tasks, m.tasks);
    Slices& s = t.slices;
    cut(s.start, m.slices), cut(s.end, m.slices), cut(s.task, m.slices), cut(s.cpu, m.slices),
        cut(s.endPoint, m.slices), cut(s.endReason, m.slices);
    FlagIntervals& f = t.flags;
    cut(f.set, m.flags), cut(f.clear, m.flags), cut(f.task, m.flags), cut(f.cpu, m.flags),
        cut(f.bit, m.flags), cut(f.reason, m.flags), cut(f.clearedBy, m.flags);
    Wakeups& w = t.wakeups;
    cut(w.time, m.wakeups), cut(w.waker, m.wakeups), cut(w.wakee, m.wakeups), cut(w.wakerCpu, m.wakeups),
        cut(w.targetCpu, m.wakeups), cut(w.isNew, m.wakeups);
    Migrations& mg = t.migrations;
    cut(mg.time, m.migrations), cut(mg.task, m.migrations), cut(mg.from, m.migrations),
        cut(mg.to, m.migrations), cut(mg.on, m.migrations), cut(mg.path, m.migrations);
    t.samples.cut(m.samples);
    SliceExts& se = t.sliceExts;
    cut(se.granted, m.sliceExts), cut(se.end, m.sliceExts), cut(se.task, m.sliceExts),
        cut(se.cpu, m.sliceExts), cut(se.how, m.sliceExts);
    cut(t.markers, m.markers);
}

// Every event column cut to nothing (a column's clear keeps its memory); tasks and markers stay.
void Engine::forgetRecorded() {
    TraceMark m = markOf(trace_);
    m.slices = m.flags = m.wakeups = m.migrations = m.samples = m.sliceExts = 0;
    cutTrace(m);
    forgets_++;
}

} // namespace sched
