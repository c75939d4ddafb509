// SPDX-License-Identifier: GPL-3.0-or-later
// Help > Tour: a few pages, each a part of the window (grabbed from the live widget, so it shows
// the run that is open) and what it means: a lane, the need-resched bits, the EEVDF chart, the
// inspector, driving and changing the run. Back / Next; the window itself is not touched.
#pragma once

#include <QDialog>
#include <QPixmap>
#include <vector>

class QLabel;
class QPushButton;
class QStackedWidget;

struct TourPage {
    QString title;
    QString text; // rich text
    QPixmap picture;
};

class TourDialog : public QDialog {
    Q_OBJECT
  public:
    explicit TourDialog(const std::vector<TourPage>& pages, QWidget* parent = nullptr);
    int page() const;
    int pages() const;

  public slots:
    void next();
    void back();

  private:
    void showPage(int i);
    QStackedWidget* stack_ = nullptr;
    QLabel* counter_ = nullptr;
    QPushButton* back_ = nullptr;
    QPushButton* next_ = nullptr;
};
