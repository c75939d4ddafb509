// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/session.h"

#include "scenarios/builtin_scenarios.h"
#include "scenarios/scenario_settings.h"

#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <utility>

using namespace sched;

Session::Session(QObject* parent) : QObject(parent) {
    timer_.setInterval(16);
    connect(&timer_, &QTimer::timeout, this, &Session::onFrame);
    connect(&runs_, &JobRunner::progress, this,
            [this](quint64, int permille) { emit progress(permille / 10); });
    connect(&runs_, &JobRunner::busyChanged, this, &Session::busyChanged);
    // A run that threw may have left the engine half-way through a decision: start it again.
    connect(&runs_, &JobRunner::failed, this, [this](quint64, const QString& what) {
        reset();
        emit message(tr("The run stopped: %1. The scenario was started again.").arg(what));
    });
    connect(&branches_, &JobRunner::failed, this,
            [this](quint64, const QString& what) { emit message(tr("The branch failed: %1").arg(what)); });
}

// The worker owns the engine until its result is delivered (the GUI thread does not touch it
// meanwhile); it runs in snapshot-sized chunks so that cancel and progress react within a chunk.
void Session::runForwardInBackground(Time target) {
    const Time from = engine_->now();
    runs_.start<bool>(
        [this, from, target](JobControl& job) {
            while (engine_->now() < target && !job.cancelled() && !engine_->halted()) {
                engine_->runUntil(std::min<Time>(target, engine_->now() + snapEvery_));
                takeSnapshot();
                job.setProgress(
                    int(1000.0 * double(engine_->now() - from) / double(std::max<Time>(1, target - from))));
            }
            return job.cancelled();
        },
        [this](bool cancelled) {
            emit message(cancelled ? tr("Cancelled at %1 ms.").arg(double(engine_->now()) / 1e6, 0, 'f', 3)
                                   : tr("Ran to %1 ms.").arg(double(engine_->now()) / 1e6, 0, 'f', 3));
            if (engine_->halted()) finishedCheck();
            emit advanced();
        });
}

void Session::cancel() {
    runs_.cancel();
}

Session::~Session() = default; // the runners cancel their jobs and wait for them

QString Session::branch(const ParamChange& change, Time span) {
    if (!engine_ || busy()) return tr("no run to branch from");
    if (branching()) return tr("a branch is still being computed");
    pause();
    // Copies (trace included) taken in this thread while nothing else touches the engine.
    auto a = std::make_shared<Engine>(*engine_);
    auto b = std::make_shared<Engine>(*engine_);
    const std::string err = b->apply(change);
    if (!err.empty()) {
        emit message(tr("Branch refused: %1").arg(QString::fromStdString(err)));
        return QString::fromStdString(err);
    }
    const Time from = engine_->now();
    const QString label =
        tr("%1 at %2 ms").arg(QString::fromStdString(change.label())).arg(double(from) / 1e6, 0, 'f', 3);
    const Time to = std::min<Time>(scenario_.duration, from + span);
    emit message(tr("Branching at %1 ms: running both continuations to %2 ms...")
                     .arg(double(from) / 1e6, 0, 'f', 3)
                     .arg(double(to) / 1e6, 0, 'f', 3));
    runPair(a, b, from, to, label);
    return {};
}

void Session::runPair(std::shared_ptr<Engine> a, std::shared_ptr<Engine> b, Time from, Time to,
                      const QString& label) {
    using Pair = std::pair<std::shared_ptr<Engine>, std::shared_ptr<Engine>>;
    branches_.start<Pair>(
        [a, b, to](JobControl&) {
            // The two runs are independent values: one worker each (two cores, two runs).
            QFuture<void> other = QtConcurrent::run([b, to] { b->runUntil(to); });
            a->runUntil(to);
            other.waitForFinished();
            a->finish();
            b->finish();
            return Pair{a, b};
        },
        [this, from, label](Pair p) { emit branchReady(p.first, p.second, from, label); });
}

QString Session::compareKernel(const QString& spec, Time to) {
    if (!engine_ || busy()) return tr("no run to compare");
    if (branching()) return tr("a branch is still being computed");
    scen::Scenario other = scenario_;
    SchedConfig& cfg = other.config;
    if (!parseKernelSpec(spec.toStdString(), cfg.build, cfg.profile))
        return tr("unknown kernel '%1' (%2)").arg(spec, QString::fromStdString(acceptedKernelNames()));
    if (!cfg.whyNoModel(cfg.preempt).empty()) cfg.preempt = cfg.defaultModel(); // the window says why
    const QString label =
        tr("kernel %1 (preempt=%2)").arg(spec, QString::fromUtf8(preemptModelName(cfg.preempt).data()));
    if (const std::string why = cfg.validate(); !why.empty()) return QString::fromStdString(why);
    return compareFromStart(other, label, to);
}

QString Session::compareProxyExec(Time to) {
    if (!engine_ || busy()) return tr("no run to compare");
    if (branching()) return tr("a branch is still being computed");
    scen::Scenario other = scenario_;
    other.config.proxyExec = !scenario_.config.proxyExec;
    if (const std::string why = other.config.validate(); !why.empty()) return QString::fromStdString(why);
    return compareFromStart(
        other, other.config.proxyExec ? tr("proxy execution on") : tr("proxy execution off"), to);
}

// Both runs from 0 to `to` in the background; branchReady() with from = 0.
QString Session::compareFromStart(const scen::Scenario& other, const QString& label, Time to) {
    pause();
    auto a = std::make_shared<Engine>(scen::instantiate(scenario_, scenario_.seed, TraceOptions{true}));
    auto b = std::make_shared<Engine>(scen::instantiate(other, other.seed, TraceOptions{true}));
    to = std::clamp<Time>(to, kNsPerMs, scenario_.duration);
    emit message(tr("Running the scenario with %1 to %2 ms...").arg(label).arg(double(to) / 1e6, 0, 'f', 3));
    runPair(a, b, 0, to, label);
    return {};
}

bool Session::load(const QString& nameOrPath, QString* error) {
    if (busy()) {
        if (error) *error = tr("a run is in progress in the background; cancel it first");
        return false;
    }
    // A built-in, a library scenario or a file, with settings after an '@' as compare takes them
    // (preempt-short@kernel=7.1,preempt=lazy).
    scen::Scenario s;
    std::string err;
    if (!scen::loadScenarioSpec(nameOrPath.toStdString(), s, err)) {
        if (error) *error = QString::fromStdString(err);
        return false;
    }
    if (const std::string why = scen::placementError(s); !why.empty()) {
        if (error) *error = QString::fromStdString(why);
        return false;
    }
    pause();
    scenario_ = std::move(s);
    source_ = nameOrPath;
    reset();
    return true;
}

void Session::reset() {
    if (busy()) return;
    pause();
    engine_.emplace(scen::instantiate(scenario_, scenario_.seed, TraceOptions{true}));
    snaps_.clear();
    snapEvery_ = 10 * kNsPerMs;
    takeSnapshot(true);
    emit reloaded();
    emit advanced();
}

QString Session::restartWithKernel(const QString& spec) {
    if (busy()) return tr("a run is in progress in the background; cancel it first");
    SchedConfig cfg = scenario_.config;
    if (!parseKernelSpec(spec.toStdString(), cfg.build, cfg.profile))
        return tr("unknown kernel '%1' (%2)").arg(spec, QString::fromStdString(acceptedKernelNames()));
    return restartWith(cfg, tr("kernel %1").arg(spec));
}

QString Session::restartWithArch(const QString& name) {
    if (busy()) return tr("a run is in progress in the background; cancel it first");
    SchedConfig cfg = scenario_.config;
    const int a = findArch(name.toStdString());
    if (a < 0)
        return tr("unknown architecture '%1' (%2)").arg(name, QString::fromStdString(acceptedArchNames()));
    cfg.arch = ArchId(a);
    return restartWith(cfg, tr("architecture %1").arg(name));
}

// A boot-time change: the scenario's model stays if the scenario chose it (and is refused with
// the reason if the new machine cannot boot with it), else the new kernel's default is taken.
QString Session::restartWith(SchedConfig cfg, const QString& what) {
    if (!cfg.preemptChosen) cfg.preempt = cfg.defaultModel();
    if (const std::string why = cfg.validate(); !why.empty()) {
        const QString err = tr("Restart with %1 refused: %2").arg(what, QString::fromStdString(why));
        emit message(err);
        emit advanced(); // the panels show the unchanged machine again
        return err;
    }
    scenario_.config = cfg;
    reset();
    emit message(tr("Restarted with %1 (preempt=%2).")
                     .arg(what, QString::fromUtf8(preemptModelName(cfg.preempt).data())));
    return {};
}

void Session::play() {
    if (!engine_ || busy() || timer_.isActive()) return;
    if (engine_->now() >= scenario_.duration) {
        emit message(
            tr("The scenario's %1 ms are over; reset to run it again.").arg(scenario_.duration / 1e6));
        return;
    }
    wall_.restart();
    carry_ = 0;
    timer_.start();
    emit playingChanged(true);
}

void Session::pause() {
    if (!timer_.isActive()) return;
    timer_.stop();
    emit playingChanged(false);
}

void Session::togglePlay() {
    playing() ? pause() : play();
}

void Session::takeSnapshot(bool force) {
    if (!force && !snaps_.empty() && engine_->now() < snaps_.back().now() + snapEvery_) return;
    if (!snaps_.empty() && snaps_.back().now() == engine_->now() &&
        snaps_.back().eventsProcessed() == engine_->eventsProcessed())
        return;
    snaps_.push_back(engine_->snapshot());
    if (snaps_.size() > kMaxSnapshots) { // thin out: keep the first and every other one
        std::vector<Engine> kept;
        for (size_t i = 0; i < snaps_.size(); i += 2)
            kept.push_back(std::move(snaps_[i]));
        snaps_ = std::move(kept);
        snapEvery_ *= 2;
    }
}

// Restores the latest snapshot at or before t that has processed at most maxEvents events, and
// forgets the snapshots after it (the future may now differ).
void Session::restoreBefore(Time t, uint64_t maxEvents) {
    size_t k = 0;
    for (size_t i = 0; i < snaps_.size(); ++i)
        if (snaps_[i].now() <= t && snaps_[i].eventsProcessed() <= maxEvents) k = i;
    engine_->restore(snaps_[k]);
    snaps_.erase(snaps_.begin() + std::ptrdiff_t(k) + 1, snaps_.end());
    emit rewound();
}

void Session::finishedCheck() {
    if (engine_->halted()) { // a limit stopped the run (core/base/limits.h): it goes no further
        pause();
        emit message(tr("The run stopped at %1 ms: %2")
                         .arg(double(engine_->now()) / 1e6, 0, 'f', 3)
                         .arg(QString::fromStdString(engine_->error())));
        return;
    }
    if (engine_->now() >= scenario_.duration || !engine_->peekLive()) {
        pause();
        emit message(
            tr("Reached the end of the scenario (%1 ms).").arg(double(engine_->now()) / 1e6, 0, 'f', 3));
    }
}

// One animation frame: advance simulated time by speed x wall time, but never spend more than
// ~12 ms of wall time in the engine, so the window stays responsive at any speed.
void Session::onFrame() {
    if (!engine_) return;
    const double wallNs = double(wall_.nsecsElapsed());
    wall_.restart();
    QElapsedTimer budget;
    budget.start();
    if (speed_ < 0) {
        engine_->step();
    } else {
        Time target = scenario_.duration;
        if (speed_ > 0) {
            carry_ += speed_ * wallNs / 1e9;
            target = std::min<Time>(scenario_.duration, engine_->now() + Time(carry_));
            carry_ -= double(Time(carry_));
        }
        while (engine_->nextEventTime() <= target && budget.nsecsElapsed() < 12'000'000 && !engine_->halted())
            for (int i = 0; i < 256 && engine_->nextEventTime() <= target; ++i)
                engine_->step();
        if (engine_->nextEventTime() > target) engine_->runUntil(target);
    }
    takeSnapshot();
    emit advanced();
    finishedCheck();
}

void Session::stepEvent() {
    if (!engine_ || busy()) return;
    pause();
    engine_->step();
    takeSnapshot();
    emit advanced();
}

void Session::stepTick() {
    if (!engine_ || busy()) return;
    pause();
    engine_->runUntilTick(scenario_.duration);
    takeSnapshot();
    emit advanced();
}

void Session::stepSwitch() {
    if (!engine_ || busy()) return;
    pause();
    if (!engine_->runUntilSwitch(scenario_.duration))
        emit message(tr("No further context switch before the end."));
    takeSnapshot();
    emit advanced();
}

void Session::runTo(qint64 time) {
    if (!engine_ || busy()) return;
    pause();
    time = std::clamp<qint64>(time, 0, scenario_.duration);
    if (time < engine_->now()) restoreBefore(time, UINT64_MAX);
    if (time - engine_->now() > backgroundThreshold_) {
        runForwardInBackground(time);
        return;
    }
    // Replay in snapshot-sized steps so that a later step back finds a close snapshot.
    while (engine_->now() < time && !engine_->halted()) {
        engine_->runUntil(std::min<Time>(time, engine_->now() + snapEvery_));
        takeSnapshot();
    }
    emit advanced();
}

std::optional<Engine> Session::stateAt(Time t) const {
    if (!engine_ || busy() || t > engine_->now() || snaps_.empty()) return std::nullopt;
    size_t k = 0;
    for (size_t i = 0; i < snaps_.size(); ++i)
        if (snaps_[i].now() <= t) k = i;
    std::optional<Engine> e(snaps_[k]);
    e->runUntil(t);
    return e;
}

void Session::stepBack(qint64 dt) {
    runTo(engine_ ? engine_->now() - dt : 0);
}

void Session::stepBackEvent() {
    if (!engine_ || busy() || engine_->eventsProcessed() == 0) return;
    pause();
    const uint64_t target = engine_->eventsProcessed() - 1;
    restoreBefore(engine_->now(), target);
    while (engine_->eventsProcessed() < target && engine_->step()) {
    }
    emit advanced();
}

QString Session::apply(const ParamChange& change) {
    if (!engine_) return tr("no run loaded");
    if (busy()) return tr("a run is in progress in the background; cancel it first");
    const QString err = QString::fromStdString(engine_->apply(change));
    if (err.isEmpty()) takeSnapshot(true); // the changed present is a good place to come back to
    emit message(err.isEmpty() ? tr("%1 at %2 ms")
                                     .arg(QString::fromStdString(change.label()))
                                     .arg(engine_->now() / 1e6, 0, 'f', 3)
                               : tr("Refused: %1").arg(err));
    emit advanced();
    return err;
}
