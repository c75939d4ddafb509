// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/common/atomic_file.h"

#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <fcntl.h>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>

namespace {
constexpr size_t kBufferBytes = 1 << 16; // one write(2) per 64 KiB: an export hands over a line at a time

std::string directoryOf(const std::string& path) {
    const size_t slash = path.rfind('/');
    if (slash == std::string::npos) return ".";
    return slash == 0 ? "/" : path.substr(0, slash);
}

std::string baseNameOf(const std::string& path) {
    const size_t slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}
} // namespace

AtomicFile::AtomicFile(std::string path) : path_(std::move(path)) {}

AtomicFile::~AtomicFile() {
    discard();
}

bool AtomicFile::fail(int err) {
    if (!failed_) error_ = std::generic_category().message(err);
    failed_ = true;
    return false;
}

void AtomicFile::discard() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    if (!temp_.empty()) ::unlink(temp_.c_str());
    temp_.clear();
}

bool AtomicFile::open() {
    if (path_.empty()) return fail(ENOENT);
    // A symbolic link is followed: its target is the file the user means.
    target_ = path_;
    if (char* real = ::realpath(path_.c_str(), nullptr)) {
        target_ = real;
        std::free(real);
    }
    struct stat st {};
    const bool exists = ::stat(target_.c_str(), &st) == 0;
    if (exists && S_ISDIR(st.st_mode)) return fail(EISDIR);
    if (exists && !S_ISREG(st.st_mode)) {
        // A device or a FIFO cannot be replaced; write into it (O_NONBLOCK off: a FIFO waits for its reader).
        direct_ = true;
        fd_ = ::open(target_.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
        return fd_ >= 0 || fail(errno);
    }
    // The temporary file is created as the target would be (0666 less the umask), then given the
    // old file's permissions when there was one.
    static std::atomic<unsigned> serial{0};
    const std::string dir = directoryOf(target_), base = baseNameOf(target_);
    for (int attempt = 0; attempt < 100; ++attempt) {
        temp_ = dir + "/." + base + ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(serial++);
        fd_ = ::open(temp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOCTTY, 0666);
        if (fd_ >= 0 || errno != EEXIST) break;
    }
    if (fd_ < 0) {
        temp_.clear();
        return fail(errno);
    }
    if (exists && ::fchmod(fd_, st.st_mode & 07777) != 0) {
        const int e = errno;
        discard();
        return fail(e);
    }
    buffer_.reserve(kBufferBytes);
    return true;
}

bool AtomicFile::flush() {
    size_t done = 0;
    while (done < buffer_.size()) {
        const ssize_t n = ::write(fd_, buffer_.data() + done, buffer_.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return fail(n < 0 ? errno : EIO);
        done += size_t(n);
    }
    buffer_.clear();
    return true;
}

bool AtomicFile::write(std::string_view data) {
    if (failed_) return false;
    if (fd_ < 0) return fail(EBADF);
    if (buffer_.size() + data.size() > kBufferBytes && !flush()) return false;
    if (data.size() >= kBufferBytes) {
        buffer_.assign(data); // one large piece: written at once
        return flush();
    }
    buffer_.append(data);
    return true;
}

bool AtomicFile::commit() {
    if (failed_ || fd_ < 0) {
        if (!failed_) fail(EBADF);
        discard();
        return false;
    }
    if (!flush()) {
        discard();
        return false;
    }
    if (direct_) {
        const int fd = fd_;
        fd_ = -1;
        return ::close(fd) == 0 || fail(errno);
    }
    // The data is on disk before the name points at it: a crash leaves the old file or the new one.
    if (::fsync(fd_) != 0) {
        const int e = errno;
        discard();
        return fail(e);
    }
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) {
        const int e = errno;
        discard();
        return fail(e);
    }
    if (::rename(temp_.c_str(), target_.c_str()) != 0) {
        const int e = errno;
        discard();
        return fail(e);
    }
    temp_.clear();
    // The rename itself is durable once the directory is synced; a file system that cannot sync
    // a directory has still renamed it, so this is not an error.
    if (const int dfd = ::open(directoryOf(target_).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); dfd >= 0) {
        ::fsync(dfd);
        ::close(dfd);
    }
    return true;
}

bool saveTextAtomically(const std::string& path, std::string_view text, std::string* why) {
    AtomicFile f(path);
    if (f.open() && f.write(text) && f.commit()) return true;
    if (why) *why = f.error();
    return false;
}
