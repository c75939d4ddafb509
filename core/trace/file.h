// SPDX-License-Identifier: GPL-3.0-or-later
// Opening a trace file for the importer: plain text, compressed text (xz, gzip, zstd, recognised by
// their magic numbers and decompressed in-process: trace/decompress.h), or a binary trace.dat
// (compressed or not), which schedscope-dat-reader (app/dat_reader/: libtracecmd) turns into ftrace
// text as a child process, run without a shell; its error message and how it ended are reported. Only regular
// files are read: a FIFO or a device is refused before it is opened. The text is streamed into the importer
// in chunks, with a progress callback that can cancel.
#pragma once

#include "trace/import.h"

#include <functional>
#include <string>

namespace sched {

// progress(bytesRead, totalBytes or -1) returns false to cancel.
using ImportProgress = std::function<bool(int64_t, int64_t)>;

// Returns false with `error` set (naming the file and what to do) if the file cannot be read,
// the helper program is missing, or the import was cancelled.
bool importTraceFile(const std::string& path, TraceImporter& importer, std::string& error,
                     const ImportProgress& progress = {});

// The schedscope-dat-reader a trace.dat would be read with (empty: none found); --version prints it.
std::string traceDatReaderPath();

// Convenience: the whole import, the report filled in.
bool loadTrace(const std::string& path, Trace& out, ImportReport& report, std::string& error,
               const ImportProgress& progress = {});

} // namespace sched
