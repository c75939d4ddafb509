#!/usr/bin/env bash
# The write check (CTest test "writes_through_one_helper"): in app/, widgets/, core/ and scenarios/
# no file is written except through the one save helper, app/common/atomic_file.cpp, which checks
# every step and keeps the old file on failure. Refused elsewhere: QSaveFile, a QFile or stream
# opened for writing, fopen, open(2) for writing, QImage/QPixmap::save(path), QCustomPlot's
# save*(path), QPdfWriter(path), QSvgGenerator::setFileName. Rendering into memory (a QBuffer)
# is how views hand pictures over. Usage: check_writes.sh PROJECT_DIR
set -u
cd "${1:?usage: check_writes.sh PROJECT_DIR}"
helper=app/common/atomic_file.cpp
pattern='QSaveFile|std::(basic_)?o?fstream|\bf(re)?open[[:space:]]*\(|\bO_(WRONLY|RDWR|CREAT|TRUNC|APPEND)\b|[^a-zA-Z_:]creat[[:space:]]*\(|QIODevice::(WriteOnly|ReadWrite|Append|Truncate)|setFileName[[:space:]]*\(|QPdfWriter[[:space:]]*[a-zA-Z_]*[[:space:]]*\([[:space:]]*[^&)[:space:]]|\.save[[:space:]]*\([[:space:]]*[^&)[:space:]]|\.save(Png|Pdf|Svg|Jpg|Bmp|Rastered)[[:space:]]*\('
# A QBuffer in memory may be opened for writing: that is how a picture is rendered. The null device
# is no file: a child's output thrown away (bench --suite's `trace-cmd report > /dev/null`).
hits=$(grep -rnE --include='*.h' --include='*.cpp' "$pattern" app widgets core scenarios |
       grep -v "^$helper:" | grep -vE '^[^:]+:[0-9]+:[[:space:]]*//' |
       grep -vE '[Bb]uffer[^:]*\.open\(QIODevice::WriteOnly\)' | grep -vE 'open\(&fa, STDOUT_FILENO, "/dev/null"')
files=$(find app widgets core scenarios -name '*.h' -o -name '*.cpp' | wc -l)
if [ -n "$hits" ]; then
  echo "$hits" | sed 's/^/writes a file without app\/common\/atomic_file.h: /'
  echo "$(echo "$hits" | wc -l) write(s) outside the one save helper"
  exit 1
fi
echo "write check: $files files, every file write goes through $helper"
