// SPDX-License-Identifier: GPL-3.0-or-later
// A user's file written all or nothing. The bytes go to a temporary file beside the target; commit()
// flushes it, fsync()s it and renames it over the target, so that a failed write at any point (a
// full disk, a file-size limit, an I/O error) leaves the old file as it was. Every write(2),
// fsync(2), close(2) and rename(2) is checked: QSaveFile (Qt 6.4) can report success after a
// buffered write failed, which lost small files on a full disk. A target that exists and is not a
// regular file (/dev/stdout, a FIFO) cannot be replaced: it is written directly, every write still
// checked. Plain C++ and POSIX, shared by both programs (app/common).
#pragma once

#include <string>
#include <string_view>

class AtomicFile {
  public:
    explicit AtomicFile(std::string path);
    ~AtomicFile(); // without commit(): the temporary file is removed, the target untouched
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;

    bool open();                       // false with error() set when the file cannot be created
    bool write(std::string_view data); // every byte, or false (and every later call is false too)
    bool commit();                     // false with error() set, and the target unchanged
    // Why the last step failed, as the system says it ("No space left on device").
    const std::string& error() const { return error_; }

  private:
    bool flush();
    bool fail(int err);
    void discard();

    std::string path_, target_, temp_;
    std::string buffer_;
    int fd_ = -1;
    bool direct_ = false, failed_ = false;
    std::string error_;
};

// Writes text to path all or nothing; false with *why set to the reason when it could not.
bool saveTextAtomically(const std::string& path, std::string_view text, std::string* why);
