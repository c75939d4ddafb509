// SPDX-License-Identifier: GPL-3.0-or-later
// The session controller: owns the scenario and the running Engine, drives it (play at a speed,
// step one event / tick / context switch, run to a time, reset) and applies the views' change
// requests at the current simulated time. Views read the engine through engine(); only the
// session mutates it.
#pragma once

#include "app/gui/job_runner.h"
#include "scenarios/scenario.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>
#include <memory>
#include <optional>

class Session : public QObject {
    Q_OBJECT
  public:
    explicit Session(QObject* parent = nullptr);
    ~Session() override;

    // A scenario file or a built-in name. On failure returns false and sets *error.
    bool load(const QString& nameOrPath, QString* error);
    bool loaded() const { return engine_.has_value(); }
    const sched::Engine& engine() const { return *engine_; }
    const scen::Scenario& scenario() const { return scenario_; }
    QString source() const { return source_; }
    bool playing() const { return timer_.isActive(); }
    // While a long run goes on in the worker thread the engine belongs to it: nothing may read
    // or change the engine until busyChanged(false).
    bool busy() const { return runs_.busy(); }
    // The engine state at an earlier time t (a copy: the nearest snapshot replayed to t), for the
    // inspector. Its trace holds only what the replay recorded. Empty while busy or t is ahead.
    std::optional<sched::Engine> stateAt(sched::Time t) const;
    // Runs longer than this (in simulated time) go to the worker thread.
    void setBackgroundThreshold(sched::Time t) { backgroundThreshold_ = t; }
    // Simulated nanoseconds per wall second; 0 = as fast as possible; < 0 = one event per frame.
    void setSpeed(double simNsPerSecond) { speed_ = simNsPerSecond; }
    double speed() const { return speed_; }

  public slots:
    void cancel(); // stops a background run at the next chunk; the engine keeps what it did
    void play();
    void pause();
    void togglePlay();
    void stepEvent();
    void stepTick();
    void stepSwitch();
    void runTo(qint64 time);  // forward, or back via the nearest snapshot and a replay
    void stepBack(qint64 dt); // runTo(now - dt)
    void stepBackEvent();     // to the state just before the last event
    void reset();
    // A kernel build / version ("6.18", "6.12", "auto-rfc") is chosen at boot, so it cannot change
    // under a running engine: the scenario restarts with it. Returns an error text, empty on success.
    QString restartWithKernel(const QString& spec);
    // The same for the architecture (machine.arch): which preemption models the kernel builds.
    QString restartWithArch(const QString& name);
    // Applies now; returns an error text (empty on success) and reports it via message().
    QString apply(const sched::ParamChange& change);
    // Branch here: two copies of the present run on for `span` in a worker thread each, one as it
    // is (the original continuation) and one with `change` applied now; branchReady() hands both
    // over. The live engine is not touched, so the window stays usable meanwhile. Returns an
    // error text if the branch cannot start (the change is refused, or a branch is running).
    QString branch(const sched::ParamChange& change, sched::Time span);
    // The scenario from 0 to `to` twice, as it is and booted with another kernel (its model, or
    // the kernel's default where that kernel does not build it); branchReady() with from = 0.
    QString compareKernel(const QString& spec, sched::Time to);
    // The same with proxy execution switched (machine.proxy_exec: on if it is off, off if on).
    QString compareProxyExec(sched::Time to);
    bool branching() const { return branches_.busy(); }

  private:
    QString compareFromStart(const scen::Scenario& other, const QString& label, sched::Time to);

  public:
  signals:
    void reloaded(); // a new engine (load or reset)
    void rewound();  // the engine went back in time; views must drop what they indexed
    void advanced(); // simulated time moved or the state changed
    void playingChanged(bool playing);
    void message(const QString& text);
    void busyChanged(bool busy);
    void progress(int percent);
    // A finished branch: a = the original continuation, b = with the change; both from `from`.
    void branchReady(std::shared_ptr<sched::Engine> a, std::shared_ptr<sched::Engine> b, qint64 from,
                     const QString& change);

  private:
    QString restartWith(sched::SchedConfig cfg, const QString& what);
    // Runs a and b to `to` in the background, then branchReady(a, b, from, label).
    void runPair(std::shared_ptr<sched::Engine> a, std::shared_ptr<sched::Engine> b, sched::Time from,
                 sched::Time to, const QString& label);
    void onFrame();
    void finishedCheck();
    void takeSnapshot(bool force = false);
    void runForwardInBackground(sched::Time target);
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
    sched::Time backgroundThreshold_ = 2 * sched::kNsPerSec;
    // Background work, declared after the engine: a runner's destructor waits for its worker,
    // which may be using engine_.
    JobRunner runs_;     // long runs forward; the worker owns engine_ meanwhile
    JobRunner branches_; // branch here: two copies run on, engine_ is not touched
};
