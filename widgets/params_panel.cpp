// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/params_panel.h"

#include "base/duration.h"
#include "widgets/data_table.h"
#include "widgets/policy_delegate.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QStandardItemModel>
#include <QTableWidget>
#include <QVBoxLayout>

namespace view {

using namespace sched;

namespace {
// What each feature bit changes, in a sentence (kernel/sched/features.h and the functions that
// read them), for the checkboxes' tooltips.
QString featureHelp(Feature f) {
    switch (f) {
    case Feature::PlaceLag:
        return QObject::tr(
            "place_entity(): a waking task keeps the lag it slept with, scaled, instead of starting at V");
    case Feature::PlaceDeadlineInitial:
        return QObject::tr(
            "a new task's first deadline is half a slice away, so a fork does not jump ahead by a "
            "whole request");
    case Feature::PlaceRelDeadline:
        return QObject::tr("a migrating task keeps its deadline relative to V across the move");
    case Feature::RunToParity:
        return QObject::tr(
            "the running task is protected from wakeups and ticks until its protection (vprot: at "
            "most the shortest slice queued) runs out");
    case Feature::PreemptShort:
        return QObject::tr(
            "a waking task with a shorter slice may preempt inside the running task's protection "
            "(85e511df3cec)");
    case Feature::DelayDequeue:
        return QObject::tr(
            "a task that sleeps with negative lag stays queued, delayed, until it is eligible again");
    case Feature::DelayZero:
        return QObject::tr("a delayed task leaves the queue with its positive lag clipped to 0");
    case Feature::WakeupPreemption:
        return QObject::tr("a waking fair task may preempt the running one (check_preempt_wakeup_fair())");
    case Feature::HrTick:
        return QObject::tr(
            "a slice ends at a high-resolution timer instead of at the next tick (on by default "
            "from 7.1 on x86_64)");
    case Feature::WaIdle:
        return QObject::tr(
            "wake_affine_idle(): the waker's CPU takes the wakee if it is idle and the previous one "
            "is not, or if a sync waker is alone there; an idle previous CPU keeps it");
    case Feature::WaWeight:
        return QObject::tr(
            "wake_affine_weight(): the less loaded of the waker's CPU and the wakee's previous one "
            "takes the wakee");
    case Feature::SisUtil:
        return QObject::tr("select_idle_cpu() scans at most nr_idle_scan CPUs, fewer the busier the LLC");
    case Feature::NiRandom:
        return QObject::tr("newidle balancing is tried in proportion to its recent successes (33cf66d88306, "
                           "6.18.5)");
    case Feature::NiRate:
        return QObject::tr(
            "the newidle success ratio also grows with the time 512 tries took, so a CPU that goes "
            "newidle rarely balances every time (9fe89f022c05, 7.1)");
    case Feature::NextBuddy:
        return QObject::tr(
            "a waking task becomes the buddy, which the next pick takes while it is eligible (off in every "
            "kernel since EEVDF; 6.19-rc1 turned it on and -rc7 off again)");
    case Feature::PickBuddy:
        return QObject::tr(
            "a pick takes the buddy first while it is eligible: the group of a task that just slept, or a "
            "NEXT_BUDDY wakee (2a77e4be12cb, 6.14)");
    case Feature::Count:
        break;
    }
    return {};
}
} // namespace

ParamsPanel::ParamsPanel(QWidget* parent) : QWidget(parent) {
    auto* lay = new QVBoxLayout(this);
    auto* form = new QFormLayout;
    kernel_ = new QComboBox(this);
    // A kernel build is chosen at boot: changing it restarts the run (the scenario's settings and
    // scheduled changes, without the live changes made so far).
    for (const KernelSpec& k : kernelSpecs())
        kernel_->addItem(QString::fromUtf8(k.title.data(), qsizetype(k.title.size())),
                         QString::fromUtf8(k.name.data(), qsizetype(k.name.size())));
    kernel_->setToolTip(tr("The kernel build and version: a boot-time choice, so a change restarts the run"));
    form->addRow(tr("Kernel"), kernel_);
    arch_ = new QComboBox(this);
    for (const ArchInfo& a : archs())
        arch_->addItem(QString::fromUtf8(a.name.data(), qsizetype(a.name.size())));
    arch_->setToolTip(
        tr("The architecture decides which preemption models a kernel builds: since 7.0, none "
           "and voluntary are gone where lazy preemption exists (x86_64, arm64, ...). A boot-time "
           "choice: a change restarts the run"));
    form->addRow(tr("Architecture"), arch_);
    model_ = new QComboBox(this);
    model_->setObjectName("preemptModel");
    for (auto m : {PreemptModel::None, PreemptModel::Voluntary, PreemptModel::Full, PreemptModel::Lazy})
        model_->addItem(QString::fromStdString(std::string(preemptModelName(m))), int(m));
    model_->setToolTip(tr("/sys/kernel/debug/sched/preempt: applies at the current simulated time"));
    form->addRow(tr("Preempt model"), model_);
    slice_ = new QDoubleSpinBox(this);
    slice_->setRange(0.1, 100.0);
    slice_->setDecimals(2);
    slice_->setSingleStep(0.1);
    slice_->setSuffix(" ms");
    slice_->setToolTip(
        tr("base_slice_ns: the scaled base slice; tasks take it at their next placement or renewal"));
    form->addRow(tr("Base slice"), slice_);
    hz_ = new QComboBox(this);
    for (int h : {100, 250, 300, 1000})
        hz_->addItem(QString::number(h), h);
    form->addRow(tr("HZ"), hz_);
    lay->addLayout(form);

    auto* fbox = new QGroupBox(tr("Scheduler features"), this);
    auto* flay = new QVBoxLayout(fbox);
    flay->setSpacing(1);
    for (size_t k = 0; k < kFeatureCount; ++k) {
        auto* cb = new QCheckBox(QString::fromStdString(std::string(featureName(Feature(k)))), fbox);
        flay->addWidget(cb);
        features_.push_back(cb);
        connect(cb, &QCheckBox::toggled, this, [this, k](bool on) {
            if (!syncing_) emit changeRequested(ParamChange::featureChange(Feature(k), on));
        });
    }
    lay->addWidget(fbox);

    tasks_ = new QTableWidget(this);
    setUpDataTable(tasks_, {tr("task"), tr("pid"), tr("policy"), tr("nice/prio"), tr("slice ms")},
                   {QStringLiteral("receiver"), QStringLiteral("99999"), QStringLiteral("deadline")});
    tasks_->setItemDelegateForColumn(2, new PolicyDelegate(tasks_));
    tasks_->setToolTip(tr("Edit policy, nice (rt priority for SCHED_FIFO/RR) or slice (0 = base slice) to "
                          "call sched_setattr() now"));
    lay->addWidget(tasks_, 1);

    connect(model_, &QComboBox::currentIndexChanged, this, [this] {
        if (!syncing_)
            emit changeRequested(ParamChange::preemptModel(PreemptModel(model_->currentData().toInt())));
    });
    connect(kernel_, &QComboBox::currentIndexChanged, this, [this] {
        if (!syncing_) emit kernelRequested(kernel_->currentData().toString());
    });
    connect(arch_, &QComboBox::currentIndexChanged, this, [this] {
        if (!syncing_) emit archRequested(arch_->currentText());
    });
    connect(hz_, &QComboBox::currentIndexChanged, this, [this] {
        if (!syncing_) emit changeRequested(ParamChange::hzChange(hz_->currentData().toInt()));
    });
    connect(slice_, &QDoubleSpinBox::editingFinished, this, [this] {
        if (syncing_) return;
        ParamChange c;
        c.kind = ParamChange::Kind::BaseSlice;
        c.value = Time(slice_->value() * 1e6);
        emit changeRequested(c);
    });
    connect(tasks_, &QTableWidget::cellChanged, this, &ParamsPanel::taskEdited);
}

void ParamsPanel::sync(const Engine& e) {
    syncing_ = true;
    const SchedConfig& c = e.config();
    const std::string_view spec = kernelSpecName(c.build, c.profile);
    kernel_->setCurrentIndex(kernel_->findData(QString::fromUtf8(spec.data(), qsizetype(spec.size()))));
    model_->setCurrentIndex(model_->findData(int(c.preempt)));
    arch_->setCurrentIndex(int(c.arch));
    // A model this kernel and architecture do not build is greyed, its tooltip says why (lazy
    // needs 6.13+; 7.0 took none and voluntary away where lazy exists).
    for (int i = 0; i < model_->count(); ++i)
        if (auto* m = qobject_cast<QStandardItemModel*>(model_->model())) {
            const std::string why = c.whyNoModel(PreemptModel(model_->itemData(i).toInt()));
            m->item(i)->setEnabled(why.empty());
            m->item(i)->setToolTip(QString::fromStdString(why));
        }
    hz_->setCurrentIndex(hz_->findData(c.hz));
    if (!slice_->hasFocus()) slice_->setValue(double(c.baseSlice()) / 1e6);
    for (size_t k = 0; k < kFeatureCount; ++k) { // a bit this kernel does not have is shown, greyed
        features_[k]->setChecked(c.feature(Feature(k)));
        const bool exists = c.featureExists(Feature(k));
        features_[k]->setEnabled(exists);
        features_[k]->setToolTip(
            featureHelp(Feature(k)) +
            (exists ? QString() : "\n" + tr("not in kernel %1").arg(kernel_->currentText())));
    }
    const auto& tasks = e.tasks();
    if (tasks.size() != shown_.size()) tasks_->setRowCount(int(tasks.size()));
    shown_.resize(tasks.size());
    for (size_t i = 0; i < tasks.size(); ++i) {
        const Task& t = tasks[i];
        auto set = [&](int col, const QString& text, bool editable) {
            QTableWidgetItem* it = tasks_->item(int(i), col);
            if (!it) {
                it = new QTableWidgetItem;
                tasks_->setItem(int(i), col, it);
            }
            if (it->text() != text && !(tasks_->currentItem() == it && tasks_->isPersistentEditorOpen(it)))
                it->setText(text);
            it->setFlags(editable && t.state != TaskState::Dead ? it->flags() | Qt::ItemIsEditable
                                                                : it->flags() & ~Qt::ItemIsEditable);
        };
        set(0, QString::fromStdString(t.comm), false);
        set(1, QString::number(t.pid), false);
        set(2, policyShortName(t.policy), true);
        set(3, QString::number(isRtPolicy(t.policy) ? t.rtPriority : t.nice), true);
        const SchedEntity& se = e.entities()[i];
        set(4, se.customSlice ? QString::number(double(se.slice) / 1e6, 'g', 4) : QString("0"),
            !isRtPolicy(t.policy));
        shown_[i] = ShownTask{t.policy, t.nice, t.rtPriority};
    }
    syncing_ = false;
}

// Each edit becomes the sched_setattr() call it stands for. For SCHED_FIFO/RR the nice column
// holds sched_priority (1..99); a fair task switched to RT starts at priority 50.
void ParamsPanel::taskEdited(int row, int column) {
    if (syncing_ || column < 2 || column > 4 || size_t(row) >= shown_.size()) return;
    const QString text = tasks_->item(row, column)->text();
    const ShownTask& was = shown_[size_t(row)];
    ParamChange c;
    c.task = TaskId(row);
    if (column == 2) {
        Policy p;
        if (!parsePolicy(text.toStdString(), p) || p == was.policy) return;
        c.kind = ParamChange::Kind::TaskPolicy;
        c.policy = p;
        c.nice = isRtPolicy(p) ? 0 : was.nice;
        c.rtPriority = isRtPolicy(was.policy) ? was.rtPriority : 50;
        emit changeRequested(c);
        return;
    }
    bool ok = false;
    const double v = text.toDouble(&ok);
    if (!ok) return;
    if (column == 3 && isRtPolicy(was.policy)) {
        c.kind = ParamChange::Kind::TaskPolicy;
        c.policy = was.policy;
        c.rtPriority = int(v);
    } else if (column == 3) {
        c.kind = ParamChange::Kind::TaskNice;
        c.nice = int(v);
    } else {
        c.kind = ParamChange::Kind::TaskSlice;
        c.value = Time(v * 1e6);
    }
    emit changeRequested(c);
}

} // namespace view
