// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/tour_dialog.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace {
constexpr QSize kPictureBox(680, 280);
}

TourDialog::TourDialog(const std::vector<TourPage>& pages, QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Tour of SchedScope"));
    auto* lay = new QVBoxLayout(this);
    stack_ = new QStackedWidget(this);
    for (const TourPage& p : pages) {
        auto* w = new QWidget(stack_);
        auto* pl = new QVBoxLayout(w);
        auto* title = new QLabel(QStringLiteral("<h3>%1</h3>").arg(p.title.toHtmlEscaped()), w);
        auto* text = new QLabel(p.text, w);
        text->setWordWrap(true);
        text->setTextFormat(Qt::RichText);
        auto* picture = new QLabel(w);
        if (!p.picture.isNull()) {
            QPixmap pm = p.picture;
            if (pm.width() > kPictureBox.width() || pm.height() > kPictureBox.height())
                pm = pm.scaled(kPictureBox, Qt::KeepAspectRatio, Qt::SmoothTransformation);
            picture->setPixmap(pm);
            picture->setFrameShape(QFrame::StyledPanel);
        }
        pl->addWidget(title);
        pl->addWidget(picture, 0, Qt::AlignLeft);
        pl->addWidget(text, 1);
        stack_->addWidget(w);
    }
    lay->addWidget(stack_, 1);
    auto* nav = new QHBoxLayout;
    counter_ = new QLabel(this);
    back_ = new QPushButton(tr("< &Back"), this);
    next_ = new QPushButton(tr("&Next >"), this);
    auto* close = new QPushButton(tr("&Close"), this);
    nav->addWidget(counter_);
    nav->addStretch(1);
    nav->addWidget(back_);
    nav->addWidget(next_);
    nav->addWidget(close);
    lay->addLayout(nav);
    connect(back_, &QPushButton::clicked, this, &TourDialog::back);
    connect(next_, &QPushButton::clicked, this, &TourDialog::next);
    connect(close, &QPushButton::clicked, this, &QDialog::accept);
    next_->setDefault(true);
    showPage(0);
}

int TourDialog::page() const {
    return stack_->currentIndex();
}
int TourDialog::pages() const {
    return stack_->count();
}

void TourDialog::next() {
    if (page() + 1 < pages())
        showPage(page() + 1);
    else
        accept();
}
void TourDialog::back() {
    showPage(std::max(0, page() - 1));
}

void TourDialog::showPage(int i) {
    stack_->setCurrentIndex(i);
    counter_->setText(tr("%1 of %2").arg(i + 1).arg(pages()));
    back_->setEnabled(i > 0);
    next_->setText(i + 1 < pages() ? tr("&Next >") : tr("&Done"));
}
