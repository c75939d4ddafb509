// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/critical_path_dialog.h"

#include "metrics/wakeup_chain.h"

#include <QCoreApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QPlainTextEdit>
#include <QVBoxLayout>
#include <QWidget>
#include <algorithm>

QString criticalPathText(const sched::Trace& trace, sched::TaskId task, sched::Time at) {
    sched::WakeupChains chains;
    chains.update(trace);
    const sched::TraceTask& t = trace.tasks[size_t(task)];
    return QCoreApplication::translate("CriticalPath", "%1 back from %2 ms, newest first:\n\n")
               .arg(QString::fromStdString(t.comm + ":" + std::to_string(t.pid)))
               .arg(double(at) / 1e6, 0, 'f', 3) +
           QString::fromStdString(sched::formatCriticalPath(trace, chains.criticalPath(task, at)));
}

void showCriticalPathDialog(QWidget* parent, const QString& text) {
    QDialog d(parent);
    d.setWindowTitle(QCoreApplication::translate("CriticalPath", "Critical path"));
    auto* lay = new QVBoxLayout(&d);
    auto* view = new QPlainTextEdit(text, &d);
    view->setObjectName("criticalPathText");
    view->setReadOnly(true);
    view->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    view->setLineWrapMode(QPlainTextEdit::NoWrap);
    lay->addWidget(view);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, &d);
    QObject::connect(buttons, &QDialogButtonBox::rejected, &d, &QDialog::reject);
    lay->addWidget(buttons);
    d.resize(std::min(parent->width() - 40, 980), std::min(parent->height() - 40, 560));
    d.exec();
}
