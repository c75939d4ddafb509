// SPDX-License-Identifier: GPL-3.0-or-later
// The GUI's one way to run work in the background (as KDAB hotspot's JobTracker). A job runs on a
// worker thread with a JobControl, which it polls for cancel and through which it reports progress;
// its result comes back on the runner's thread through a queued call. Each start() gives the job a
// new id and makes it the runner's current job: a job superseded by a later start() is asked to
// stop and its result is dropped, so a stale import or run never overwrites a newer one. A job that
// throws (out of memory, a broken invariant) does not take the app down: failed() says what
// happened, in place of its result. One runner per kind of work (the session's long runs, its
// branches, trace imports).
#pragma once

#include <QFuture>
#include <QObject>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

#include <atomic>
#include <exception>
#include <functional>
#include <memory>
#include <vector>

// What a running job sees of its runner: whether it should stop, and where its progress goes.
class JobControl {
  public:
    bool cancelled() const { return cancel_.load(std::memory_order_relaxed); }
    void setProgress(int permille) { progress_.store(permille, std::memory_order_relaxed); }

  private:
    friend class JobRunner;
    std::atomic<bool> cancel_{false};
    std::atomic<int> progress_{-1}; // -1: none reported yet
};

class JobRunner : public QObject {
    Q_OBJECT
  public:
    explicit JobRunner(QObject* parent = nullptr);
    ~JobRunner() override; // cancels every job and waits for it; their results are dropped

    // Runs work(control) on a worker thread; done(result) runs later on this object's thread,
    // unless another start() came first. Returns the job's id.
    template <class Result>
    quint64 start(std::function<Result(JobControl&)> work, std::function<void(Result)> done);

    // Asks the current job to stop. It still delivers what it has (a cancelled import delivers
    // its error, a cancelled run the engine as far as it got).
    void cancel();
    bool busy() const { return busy_; }
    quint64 currentId() const { return current_; }

  signals:
    // While the current job reports progress: every 100 ms, 0..1000.
    void progress(quint64 id, int permille);
    void busyChanged(bool busy);
    // The current job threw instead of delivering a result: what it said.
    void failed(quint64 id, const QString& what);

  private:
    std::shared_ptr<JobControl> begin();
    static QString describeException(std::exception_ptr e);
    bool end(quint64 id); // true when id is still the current job: deliver its result

    quint64 current_ = 0;
    bool busy_ = false;
    std::shared_ptr<JobControl> control_;
    std::vector<std::pair<std::shared_ptr<JobControl>, QFuture<void>>> running_;
    QTimer poll_;
};

template <class Result>
quint64 JobRunner::start(std::function<Result(JobControl&)> work, std::function<void(Result)> done) {
    std::shared_ptr<JobControl> control = begin();
    const quint64 id = current_;
    // The result travels by a queued call to this object: if the runner is gone by then, Qt drops
    // the call with it (and the destructor waited for the worker, so nothing else is touched).
    QFuture<void> f =
        QtConcurrent::run([this, id, control, work = std::move(work), done = std::move(done)]() mutable {
            std::shared_ptr<Result> result;
            QString failure;
            try {
                result = std::make_shared<Result>(work(*control));
            } catch (...) {
                failure = describeException(std::current_exception());
            }
            QMetaObject::invokeMethod(
                this,
                [this, id, result, failure, done = std::move(done)]() mutable {
                    if (!end(id)) return;
                    if (result)
                        done(std::move(*result));
                    else
                        emit failed(id, failure);
                },
                Qt::QueuedConnection);
        });
    running_.emplace_back(std::move(control), std::move(f));
    return id;
}
