// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/branch_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QStackedWidget>
#include <QStandardItemModel>
#include <QVBoxLayout>

using namespace sched;

namespace {
QWidget* row(QWidget* parent, std::initializer_list<QWidget*> ws) {
    auto* w = new QWidget(parent);
    auto* l = new QHBoxLayout(w);
    l->setContentsMargins(0, 0, 0, 0);
    for (QWidget* x : ws)
        l->addWidget(x);
    l->addStretch(1);
    return w;
}
QComboBox* taskCombo(const Engine& e, QWidget* parent) {
    auto* c = new QComboBox(parent);
    for (TaskId t = 0; t < TaskId(e.tasks().size()); ++t) {
        const Task& task = e.tasks()[size_t(t)];
        if (task.state == TaskState::Dead || isRtPolicy(task.policy)) continue;
        c->addItem(QString("%1:%2").arg(QString::fromStdString(task.comm)).arg(task.pid), t);
    }
    return c;
}
} // namespace

BranchDialog::BranchDialog(const Engine& e, Time remaining, QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Branch here"));
    const SchedConfig& cfg = e.config();
    auto* lay = new QVBoxLayout(this);
    auto* intro =
        new QLabel(tr("From %1 ms on, run the present twice: A as it is, B with one setting changed now. "
                      "Both runs are compared side by side.")
                       .arg(double(e.now()) / 1e6, 0, 'f', 3),
                   this);
    intro->setWordWrap(true);
    lay->addWidget(intro);
    auto* form = new QFormLayout;
    kind_ = new QComboBox(this);
    kind_->addItems({tr("Preemption model"), tr("Base slice"), tr("HZ"), tr("Scheduler feature"),
                     tr("A task's nice"), tr("A task's slice")});
    form->addRow(tr("Change"), kind_);
    editors_ = new QStackedWidget(this);

    model_ = new QComboBox(this);
    for (auto m : {PreemptModel::None, PreemptModel::Voluntary, PreemptModel::Full, PreemptModel::Lazy}) {
        SchedConfig probe = cfg;
        probe.preempt = m;
        if (m == cfg.preempt || !probe.validate().empty()) continue; // only a real, possible change
        model_->addItem(QString::fromStdString(std::string(preemptModelName(m))), int(m));
    }
    editors_->addWidget(row(this, {model_}));
    slice_ = new QDoubleSpinBox(this);
    slice_->setRange(0.1, 100);
    slice_->setDecimals(2);
    slice_->setSuffix(" ms");
    slice_->setValue(double(cfg.baseSlice()) / 1e6 * 2);
    editors_->addWidget(row(this, {slice_}));
    hz_ = new QComboBox(this);
    for (int h : {100, 250, 300, 1000})
        if (h != cfg.hz) hz_->addItem(QString::number(h), h);
    editors_->addWidget(row(this, {hz_}));
    feature_ = new QComboBox(this);
    for (size_t k = 0; k < kFeatureCount; ++k)
        feature_->addItem(QString::fromStdString(std::string(featureName(Feature(k)))), int(k));
    featureOn_ = new QCheckBox(tr("on"), this);
    connect(feature_, &QComboBox::currentIndexChanged, this,
            [this, cfg] { // propose the flip of its present value
                featureOn_->setChecked(!cfg.feature(Feature(feature_->currentData().toInt())));
            });
    featureOn_->setChecked(!cfg.feature(Feature(0)));
    editors_->addWidget(row(this, {feature_, featureOn_}));
    niceTask_ = taskCombo(e, this);
    nice_ = new QSpinBox(this);
    nice_->setRange(-20, 19);
    nice_->setPrefix(tr("nice "));
    editors_->addWidget(row(this, {niceTask_, nice_}));
    sliceTask_ = taskCombo(e, this);
    taskSlice_ = new QDoubleSpinBox(this);
    taskSlice_->setRange(0, 100);
    taskSlice_->setDecimals(2);
    taskSlice_->setSuffix(tr(" ms (0 = default)"));
    taskSlice_->setValue(0.5);
    editors_->addWidget(row(this, {sliceTask_, taskSlice_}));
    form->addRow(tr("To"), editors_);
    connect(kind_, &QComboBox::currentIndexChanged, editors_, &QStackedWidget::setCurrentIndex);

    span_ = new QDoubleSpinBox(this);
    const double maxMs = std::max(0.001, double(remaining) / 1e6);
    span_->setRange(0.001, maxMs);
    span_->setDecimals(3);
    span_->setSuffix(" ms");
    span_->setValue(std::min(100.0, maxMs));
    span_->setToolTip(tr("How far both continuations run (at most to the scenario's end)"));
    form->addRow(tr("Run both for"), span_);
    lay->addLayout(form);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Branch"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    lay->addWidget(buttons);
}

ParamChange BranchDialog::change() const {
    ParamChange c;
    switch (kind_->currentIndex()) {
    case 0:
        return ParamChange::preemptModel(PreemptModel(model_->currentData().toInt()));
    case 1:
        c.kind = ParamChange::Kind::BaseSlice;
        c.value = Time(slice_->value() * 1e6);
        return c;
    case 2:
        return ParamChange::hzChange(hz_->currentData().toInt());
    case 3:
        return ParamChange::featureChange(Feature(feature_->currentData().toInt()), featureOn_->isChecked());
    case 4:
        c.kind = ParamChange::Kind::TaskNice;
        c.task = niceTask_->currentData().toInt();
        c.nice = nice_->value();
        return c;
    default:
        c.kind = ParamChange::Kind::TaskSlice;
        c.task = sliceTask_->currentData().toInt();
        c.value = Time(taskSlice_->value() * 1e6);
        return c;
    }
}

Time BranchDialog::span() const {
    return Time(span_->value() * 1e6);
}
