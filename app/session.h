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
    void runTo(qint64 time);
    void reset();
    // Applies now; returns an error text (empty on success) and reports it via message().
    QString apply(const sched::ParamChange& change);

signals:
    void reloaded();           // a new engine (load or reset)
    void advanced();           // simulated time moved or the state changed
    void playingChanged(bool playing);
    void message(const QString& text);

private:
    void onFrame();
    void finishedCheck();

    scen::Scenario scenario_;
    QString source_;
    std::optional<sched::Engine> engine_;
    QTimer timer_;
    QElapsedTimer wall_;
    double speed_ = 20e6; // 20 ms of simulated time per second
    double carry_ = 0;
};
