// SPDX-License-Identifier: GPL-3.0-or-later
#include "trace/file.h"

#include "base/limits.h"
#include "trace/decompress.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <poll.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <system_error>
#include <unistd.h>
#include <vector>

extern char** environ;

namespace sched {

namespace {

constexpr std::string_view kTraceDatMagic("\x17\x08\x44tracing", 10);
constexpr size_t kChunk = 1 << 20;
constexpr size_t kMaxChildMessage = 4096; // the last bytes a failing reader wrote to stderr

bool endsWith(const std::string& s, std::string_view suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string errnoText(int e) {
    return std::generic_category().message(e);
}

// What kind of thing a path names, for a refusal that says what would be accepted.
std::string notARegularFile(const std::string& path, const struct stat& st) {
    const char* what = S_ISDIR(st.st_mode)    ? "a directory"
                       : S_ISFIFO(st.st_mode) ? "a FIFO (named pipe)"
                       : S_ISCHR(st.st_mode)  ? "a character device"
                       : S_ISBLK(st.st_mode)  ? "a block device"
                       : S_ISSOCK(st.st_mode) ? "a socket"
                                              : "not a regular file";
    return path + ": " + what +
           "; a trace is read from a regular file (save the stream first, e.g. cat PIPE > trace.txt)";
}

// How a child ended, in words ("exited with status 1", "killed by SIGSEGV").
std::string describeStatus(int status) {
    if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
    if (WIFSIGNALED(status)) {
        const char* name = sigabbrev_np(WTERMSIG(status));
        return std::string("killed by ") +
               (name ? std::string("SIG") + name : "signal " + std::to_string(WTERMSIG(status)));
    }
    return "ended with status " + std::to_string(status);
}

} // namespace

// $SCHEDSCOPE_DAT_READER; beside the running program (build/app/); in ../libexec/schedscope/ from
// it (an installed or unpacked tree, wherever its prefix); where `cmake --install` puts it; the
// build tree's app/ (the tests, which run from build/tests/).
std::string traceDatReaderPath() {
    if (const char* env = std::getenv("SCHEDSCOPE_DAT_READER"); env && *env) return env;
    std::error_code ec;
    const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
    std::vector<std::string> candidates;
    if (!ec) {
        candidates.push_back((self.parent_path() / "schedscope-dat-reader").string());
        candidates.push_back(
            (self.parent_path().parent_path() / "libexec/schedscope/schedscope-dat-reader").string());
    }
    candidates.push_back(SCHEDSCOPE_DAT_READER_INSTALLED);
    candidates.push_back(SCHEDSCOPE_DAT_READER_BUILD);
    for (const std::string& c : candidates)
        if (::access(c.c_str(), X_OK) == 0) return c;
    return {};
}

namespace {

// schedscope-dat-reader FILE (app/dat_reader/: libtracecmd in a child process, which a damaged
// file cannot take down with it) without a shell: its standard output - the records as ftrace
// text - streams into the importer, its standard error is kept for the message if it fails.
bool fromDatReader(const std::string& input, const std::string& path, TraceImporter& imp, std::string& error,
                   const ImportProgress& progress) {
    const std::string reader = traceDatReaderPath();
    if (reader.empty()) {
        error = path + ": reading a trace.dat needs schedscope-dat-reader (installed with SchedScope beside "
                       "its programs or in " SCHEDSCOPE_DAT_READER_INSTALLED "), which was not found; set "
                       "SCHEDSCOPE_DAT_READER to its path";
        return false;
    }
    int out[2] = {-1, -1}, err[2] = {-1, -1};
    // Whatever ends this function - a return or an exception from the importer - closes the pipes
    // and reaps the child (killed first if it is still running: it may be blocked on a full pipe).
    pid_t pid = -1;
    bool reaped = false;
    struct Cleanup {
        int* fds[2];
        pid_t& pid;
        bool& reaped;
        ~Cleanup() {
            for (int* f : fds)
                for (int i = 0; i < 2; ++i)
                    if (f[i] >= 0) ::close(f[i]);
            if (pid > 0 && !reaped) {
                ::kill(pid, SIGKILL);
                while (::waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
                }
            }
        }
    } cleanup{{out, err}, pid, reaped};
    if (::pipe2(out, O_CLOEXEC) != 0 || ::pipe2(err, O_CLOEXEC) != 0) {
        error = path + ": cannot start schedscope-dat-reader: " + errnoText(errno);
        return false;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, out[1], STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&fa, err[1], STDERR_FILENO);
    posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    std::vector<std::string> args{reader, input};
    imp.fromTraceDat();
    std::vector<char*> argv;
    for (std::string& a : args)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    // The child starts with default signal actions and nothing blocked, whatever this thread has.
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setsigdefault(&attr, &all);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    const int rc = posix_spawn(&pid, reader.c_str(), &fa, &attr, argv.data(), environ);
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&fa);
    ::close(out[1]);
    ::close(err[1]);
    out[1] = err[1] = -1;
    if (rc != 0) {
        pid = -1;
        error = path + ": cannot start " + reader + ": " + errnoText(rc);
        return false;
    }
    // Both pipes are drained together, so that a child filling its stderr cannot stall it.
    std::string message;
    std::vector<char> buf(kChunk);
    int64_t total = 0;
    bool cancelled = false, outOpen = true, errOpen = true;
    while (outOpen || errOpen) {
        // poll(), not select(): a descriptor above FD_SETSIZE (a raised ulimit -n) is fine.
        pollfd fds[2] = {{outOpen ? out[0] : -1, POLLIN, 0}, {errOpen ? err[0] : -1, POLLIN, 0}};
        if (::poll(fds, 2, -1) < 0) {
            if (errno == EINTR) continue;
            ::kill(pid, SIGKILL); // no longer read: it must not block on a full pipe
            break;
        }
        if (outOpen && (fds[0].revents & (POLLIN | POLLHUP | POLLERR))) {
            const ssize_t n = ::read(out[0], buf.data(), buf.size());
            if (n <= 0) {
                outOpen = n < 0 && errno == EINTR;
            } else if (!cancelled) {
                imp.feed(std::string_view(buf.data(), size_t(n)));
                total += n;
                if (progress && !progress(total, -1)) {
                    cancelled = true;
                    ::kill(pid, SIGKILL); // nothing to tidy up in the reader
                }
            }
        }
        if (errOpen && (fds[1].revents & (POLLIN | POLLHUP | POLLERR))) {
            const ssize_t n = ::read(err[0], buf.data(), buf.size());
            if (n <= 0) {
                errOpen = n < 0 && errno == EINTR;
            } else {
                message.append(buf.data(), size_t(n));
                if (message.size() > kMaxChildMessage) message.erase(0, message.size() - kMaxChildMessage);
            }
        }
    }
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    reaped = true;
    if (cancelled) {
        error = path + ": import cancelled";
        return false;
    }
    if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
        while (!message.empty() && (message.back() == '\n' || message.back() == ' '))
            message.pop_back();
        if (const size_t nl = message.rfind('\n'); nl != std::string::npos && message.size() - nl > 1)
            message = message.substr(nl + 1); // its last line says why
        error = path + ": the trace.dat reader (libtracecmd) " + describeStatus(status) +
                (message.empty() ? std::string(": a damaged or truncated trace.dat?") : ": " + message);
        return false;
    }
    return true;
}

// A compressed trace.dat (.dat.xz and friends): decompressed into memory (memfd_create, no file on
// disk) for the reader: libtracecmd needs a file it can seek in.
bool traceDatFromMemory(int fd, Compression c, const std::string& path, TraceImporter& imp,
                        std::string& error, const ImportProgress& progress) {
    const int mem = ::memfd_create("schedscope-trace.dat", MFD_CLOEXEC);
    if (mem < 0) {
        error = path + ": cannot hold the decompressed trace.dat: " + errnoText(errno);
        return false;
    }
    bool written = true;
    std::string why;
    const bool ok = decompress(
        fd, c,
        [&](std::string_view chunk) {
            for (size_t done = 0; done < chunk.size();) {
                const ssize_t n = ::write(mem, chunk.data() + done, chunk.size() - done);
                if (n < 0 && errno == EINTR) continue;
                if (n <= 0) {
                    why = errnoText(errno);
                    return written = false;
                }
                done += size_t(n);
            }
            return true;
        },
        error);
    if (!ok || !written) {
        ::close(mem);
        error = path + ": " + (ok ? "cannot hold the decompressed trace.dat: " + why : error);
        return false;
    }
    // The child opens the memory file by its /proc name (it is not inherited: O_CLOEXEC).
    const std::string input = "/proc/" + std::to_string(::getpid()) + "/fd/" + std::to_string(mem);
    const bool r = fromDatReader(input, path, imp, error, progress);
    ::close(mem);
    return r;
}

} // namespace

bool importTraceFile(const std::string& path, TraceImporter& imp, std::string& error,
                     const ImportProgress& progress) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
        error = path + (errno == ENOENT ? ": no such file" : ": cannot read it: " + errnoText(errno));
        return false;
    }
    // Checked before opening: opening a FIFO would wait for a writer, /dev/zero never ends.
    if (!S_ISREG(st.st_mode)) {
        error = notARegularFile(path, st);
        return false;
    }
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        error = path + ": cannot open the file: " + errnoText(errno);
        return false;
    }
    struct Closer {
        int fd;
        ~Closer() { ::close(fd); }
    } closer{fd};
    char head[16] = {};
    const ssize_t got = ::pread(fd, head, sizeof head, 0);
    const std::string_view magic(head, size_t(std::max<ssize_t>(got, 0)));
    if (magic.substr(0, kTraceDatMagic.size()) == kTraceDatMagic)
        return fromDatReader(path, path, imp, error, progress);
    const Compression c = compressionOf(magic);
    for (const auto& [suffix, named] : {std::pair<std::string_view, Compression>{".xz", Compression::Xz},
                                        {".gz", Compression::Gzip},
                                        {".zst", Compression::Zstd}})
        if (endsWith(path, suffix) && c != named) {
            error = path + ": named " + std::string(suffix) + " but not " +
                    std::string(compressionName(named)) + " data (its first bytes are not " +
                    std::string(compressionName(named)) + "'s magic number)";
            return false;
        }
    if (c != Compression::None) {
        // A compressed trace.dat is recognised by the first bytes that come out.
        std::string first;
        int probe = ::dup(fd);
        if (probe >= 0) {
            std::string ignored;
            decompress(
                probe, c,
                [&](std::string_view chunk) {
                    first.append(chunk.substr(0, kTraceDatMagic.size() -
                                                     std::min(first.size(), kTraceDatMagic.size())));
                    return first.size() < kTraceDatMagic.size();
                },
                ignored);
            ::close(probe);
            ::lseek(fd, 0, SEEK_SET);
        }
        if (first == kTraceDatMagic) return traceDatFromMemory(fd, c, path, imp, error, progress);
        int64_t total = 0;
        bool cancelled = false;
        if (!decompress(
                fd, c,
                [&](std::string_view chunk) {
                    imp.feed(chunk);
                    total += int64_t(chunk.size());
                    cancelled = progress && !progress(total, -1);
                    return !cancelled;
                },
                error)) {
            error = path + ": " + error;
            return false;
        }
        if (cancelled) {
            error = path + ": import cancelled";
            return false;
        }
        return true;
    }
    std::vector<char> buf(kChunk);
    int64_t done = 0;
    for (;;) {
        const ssize_t n = ::read(fd, buf.data(), buf.size());
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            error = path + ": cannot read the file: " + errnoText(errno);
            return false;
        }
        if (n == 0) break;
        imp.feed(std::string_view(buf.data(), size_t(n)));
        done += n;
        if (progress && !progress(done, st.st_size)) {
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
    if (const std::string why = report.refusedWhy(); !why.empty()) {
        error = path + ": " + why;
        return false;
    }
    if (report.events == 0) {
        error = path + ": no scheduler events found (" + std::to_string(report.lines) +
                " lines; expected ftrace text, trace-cmd report "
                "or perf script output with sched_switch events)";
        return false;
    }
    return true;
}

} // namespace sched
