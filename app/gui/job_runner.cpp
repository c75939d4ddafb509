// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/job_runner.h"

#include <algorithm>
#include <new>

JobRunner::JobRunner(QObject* parent) : QObject(parent) {
    poll_.setInterval(100);
    connect(&poll_, &QTimer::timeout, this, [this] {
        if (control_ && control_->progress_ >= 0) emit progress(current_, control_->progress_.load());
    });
}

JobRunner::~JobRunner() {
    for (auto& [control, future] : running_)
        control->cancel_ = true;
    for (auto& [control, future] : running_)
        future.waitForFinished();
}

std::shared_ptr<JobControl> JobRunner::begin() {
    if (control_) control_->cancel_ = true; // superseded: its result will be dropped
    // Forget the workers that have returned (their queued results are stale or delivered).
    running_.erase(
        std::remove_if(running_.begin(), running_.end(), [](const auto& r) { return r.second.isFinished(); }),
        running_.end());
    control_ = std::make_shared<JobControl>();
    ++current_;
    poll_.start();
    if (!busy_) {
        busy_ = true;
        emit busyChanged(true);
    }
    return control_;
}

bool JobRunner::end(quint64 id) {
    if (id != current_) return false;
    control_.reset();
    poll_.stop();
    busy_ = false;
    emit busyChanged(false);
    return true;
}

QString JobRunner::describeException(std::exception_ptr e) {
    try {
        std::rethrow_exception(e);
    } catch (const std::bad_alloc&) {
        return tr("out of memory");
    } catch (const std::exception& x) {
        return QString::fromUtf8(x.what());
    } catch (...) {
        return tr("an unknown error");
    }
}

void JobRunner::cancel() {
    if (control_) control_->cancel_ = true;
}
