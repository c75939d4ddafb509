// SPDX-License-Identifier: GPL-3.0-or-later
#include "trace/file.h"

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

namespace sched {

namespace {

bool endsWith(const std::string& s, const char* suffix) {
    const size_t n = std::strlen(suffix);
    return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

std::string shellQuote(const std::string& s) {
    std::string q = "'";
    for (char c : s)
        q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

bool programExists(const char* name) {
    const std::string cmd = std::string("command -v ") + name + " > /dev/null 2>&1";
    return std::system(cmd.c_str()) == 0;
}

// Streams a child process's standard output into the importer.
bool fromCommand(const std::string& cmd, const char* program, const std::string& path, TraceImporter& imp,
                 std::string& error, const ImportProgress& progress) {
    if (!programExists(program)) {
        error = path + ": reading this file needs '" + program + "', which is not installed" +
                (std::strcmp(program, "trace-cmd") == 0 ? " (Debian: apt-get install trace-cmd)" : "");
        return false;
    }
    FILE* f = popen((cmd + " 2>/dev/null").c_str(), "r");
    if (!f) {
        error = path + ": cannot start '" + program + "'";
        return false;
    }
    std::vector<char> buf(1 << 20);
    int64_t total = 0;
    bool cancelled = false;
    for (size_t n; (n = std::fread(buf.data(), 1, buf.size(), f)) > 0;) {
        imp.feed(std::string_view(buf.data(), n));
        total += int64_t(n);
        if (progress && !progress(total, -1)) {
            cancelled = true;
            break;
        }
    }
    const int rc = pclose(f);
    if (cancelled) {
        error = path + ": import cancelled";
        return false;
    }
    if (rc != 0) {
        error = path + ": '" + program + "' failed (exit status " + std::to_string(rc) +
                "); is the file complete?";
        return false;
    }
    return true;
}

} // namespace

bool importTraceFile(const std::string& path, TraceImporter& imp, std::string& error,
                     const ImportProgress& progress) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) {
        error = path + ": no such file";
        return false;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        error = path + ": cannot open the file (is it readable?)";
        return false;
    }
    char magic[10] = {};
    in.read(magic, sizeof magic);
    const std::string q = shellQuote(path);
    if (std::memcmp(magic, "\x17\x08\x44tracing", 10) == 0)
        return fromCommand("trace-cmd report -l -i " + q, "trace-cmd", path, imp, error,
                           progress); // -l: the flags column too
    if (endsWith(path, ".xz") || std::memcmp(magic,
                                             "\xfd"
                                             "7zXZ",
                                             5) == 0)
        return fromCommand("xz -dc " + q, "xz", path, imp, error, progress);
    if (endsWith(path, ".gz") || std::memcmp(magic, "\x1f\x8b", 2) == 0)
        return fromCommand("gzip -dc " + q, "gzip", path, imp, error, progress);
    if (endsWith(path, ".zst") || std::memcmp(magic, "\x28\xb5\x2f\xfd", 4) == 0)
        return fromCommand("zstd -dc " + q, "zstd", path, imp, error, progress);
    in.clear();
    in.seekg(0);
    const int64_t size = int64_t(std::filesystem::file_size(path, ec));
    std::vector<char> buf(1 << 20);
    int64_t done = 0;
    while (in) {
        in.read(buf.data(), std::streamsize(buf.size()));
        const std::streamsize n = in.gcount();
        if (n <= 0) break;
        imp.feed(std::string_view(buf.data(), size_t(n)));
        done += n;
        if (progress && !progress(done, size)) {
            error = path + ": import cancelled";
            return false;
        }
    }
    return true;
}

bool loadTrace(const std::string& path, Trace& out, ImportReport& report, std::string& error,
               const ImportProgress& progress) {
    TraceImporter imp;
    if (!importTraceFile(path, imp, error, progress)) return false;
    out = imp.finish(report);
    if (report.events == 0) {
        error = path + ": no scheduler events found (" + std::to_string(report.lines) +
                " lines; expected ftrace text, trace-cmd report "
                "or perf script output with sched_switch events)";
        return false;
    }
    return true;
}

} // namespace sched
