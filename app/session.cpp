// SPDX-License-Identifier: GPL-3.0-or-later
#include "session.h"

#include "builtin_scenarios.h"

using namespace sched;

Session::Session(QObject* parent) : QObject(parent) {
    timer_.setInterval(16);
    connect(&timer_, &QTimer::timeout, this, &Session::onFrame);
}

bool Session::load(const QString& nameOrPath, QString* error) {
    scen::Scenario s;
    scen::ScenarioError err;
    if (!scen::loadScenario(nameOrPath.toStdString(), s, err)) {
        if (error) *error = QString::fromStdString(err.text());
        return false;
    }
    pause();
    scenario_ = std::move(s);
    source_ = nameOrPath;
    reset();
    return true;
}

void Session::reset() {
    pause();
    engine_.emplace(scen::instantiate(scenario_, scenario_.seed, TraceOptions{true}));
    emit reloaded();
    emit advanced();
}

void Session::play() {
    if (!engine_ || timer_.isActive()) return;
    if (engine_->now() >= scenario_.duration) {
        emit message(tr("The scenario's %1 ms are over; reset to run it again.").arg(scenario_.duration / 1e6));
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

void Session::togglePlay() { playing() ? pause() : play(); }

void Session::finishedCheck() {
    if (engine_->now() >= scenario_.duration || !engine_->peekLive()) {
        pause();
        emit message(tr("Reached the end of the scenario (%1 ms).").arg(double(engine_->now()) / 1e6, 0, 'f', 3));
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
        while (engine_->nextEventTime() <= target && budget.nsecsElapsed() < 12'000'000)
            for (int i = 0; i < 256 && engine_->nextEventTime() <= target; ++i) engine_->step();
        if (engine_->nextEventTime() > target) engine_->runUntil(target);
    }
    emit advanced();
    finishedCheck();
}

void Session::stepEvent() {
    if (!engine_) return;
    pause();
    engine_->step();
    emit advanced();
}

void Session::stepTick() {
    if (!engine_) return;
    pause();
    engine_->runUntilTick(scenario_.duration);
    emit advanced();
}

void Session::stepSwitch() {
    if (!engine_) return;
    pause();
    if (!engine_->runUntilSwitch(scenario_.duration)) emit message(tr("No further context switch before the end."));
    emit advanced();
}

void Session::runTo(qint64 time) {
    if (!engine_) return;
    pause();
    if (time < engine_->now()) {
        emit message(tr("%1 ms is in the past; stepping back comes with snapshots (next increment).").arg(time / 1e6));
        return;
    }
    engine_->runUntil(std::min<Time>(time, scenario_.duration));
    emit advanced();
}

QString Session::apply(const ParamChange& change) {
    if (!engine_) return tr("no run loaded");
    const QString err = QString::fromStdString(engine_->apply(change));
    emit message(err.isEmpty() ? tr("%1 at %2 ms").arg(QString::fromStdString(change.label())).arg(engine_->now() / 1e6, 0, 'f', 3)
                               : tr("Refused: %1").arg(err));
    emit advanced();
    return err;
}
