// SPDX-License-Identifier: GPL-3.0-or-later
// The session controller: owns the scenario and the running Engine, drives it (play at a speed,
// step one event / tick / context switch, run to a time, reset) and applies the views' change
// requests at the current simulated time. Views read the engine through engine(); only the
// session mutates it.
#pragma once

#include "scenario.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>
#include <optional>

class Session : public QObject {
    Q_OBJECT
public:
    explicit Session(QObject* parent = nullptr);

    // A scenario file or a built-in name. On failure returns false and sets *error.
    bool load(const QString& nameOrPath, QString* error);
    bool loaded() const { return engine_.has_value(); }
    const sched::Engine& engine() const { return *engine_; }
    const scen::Scenario& scenario() const { return scenario_; }
    QString source() const { return source_; }
    bool playing() const { return timer_.isActive(); }
    // Simulated nanoseconds per wall second; 0 = as fast as possible; < 0 = one event per frame.
    void setSpeed(double simNsPerSecond) { speed_ = simNsPerSecond; }
    double speed() const { return speed_; }

public slots:
    void play();
    void pause();
    void togglePlay();
    void stepEvent();
    void stepTick();
    void stepSwitch();
    void runTo(qint64 time);       // forward, or back via the nearest snapshot and a replay
    void stepBack(qint64 dt);      // runTo(now - dt)
    void stepBackEvent();          // to the state just before the last event
    void reset();
    // Applies now; returns an error text (empty on success) and reports it via message().
    QString apply(const sched::ParamChange& change);

signals:
    void reloaded();           // a new engine (load or reset)
    void rewound();            // the engine went back in time; views must drop what they indexed
    void advanced();           // simulated time moved or the state changed
    void playingChanged(bool playing);
    void message(const QString& text);

private:
    void onFrame();
    void finishedCheck();
    void takeSnapshot(bool force = false);
    void restoreBefore(sched::Time t, uint64_t maxEvents);

    scen::Scenario scenario_;
    QString source_;
    std::optional<sched::Engine> engine_;
    QTimer timer_;
    QElapsedTimer wall_;
    double speed_ = 20e6; // 20 ms of simulated time per second
    double carry_ = 0;
    // Rewind: snapshots of the engine state (without its trace) every snapEvery_ of simulated
    // time; when there are too many, every other one is dropped and the spacing doubles.
    std::vector<sched::Engine> snaps_;
    sched::Time snapEvery_ = 10 * sched::kNsPerMs;
    static constexpr size_t kMaxSnapshots = 256;
};
