// SPDX-License-Identifier: GPL-3.0-or-later
// AtomicFile: a user's file is written all or nothing, and every failure is reported. The failure
// paths are real ones: a full file system (a 64 KiB tmpfs in a mount namespace of a child process;
// needs root, as CI runs), a file-size limit (RLIMIT_FSIZE in a child), /dev/full, a missing
// directory. A small file is the case that matters: all of it sits in a buffer until the end, where
// QSaveFile (Qt 6.4) could report success after its buffered write had failed.
#include "app/common/atomic_file.h"
#include "app/common/trace_save.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <dirent.h>
#include <fcntl.h>
#include <fstream>
#include <sched.h>
#include <sstream>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {
std::string readAll(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

void writePlain(const std::string& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
}

// The names in a directory, but for . and ..: a failed save must leave no temporary file behind.
std::vector<std::string> entries(const std::string& dir) {
    std::vector<std::string> out;
    if (DIR* d = opendir(dir.c_str())) {
        while (dirent* e = readdir(d))
            if (std::string n = e->d_name; n != "." && n != "..") out.push_back(n);
        closedir(d);
    }
    std::sort(out.begin(), out.end());
    return out;
}

// Runs f in a child process and returns its exit status (f returns the child's exit code).
template <class F> int inChild(F f) {
    const pid_t pid = fork();
    if (pid == 0) _exit(f());
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 100 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}
} // namespace

class TstAtomicFile : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string path(const char* name) const { return dir_.filePath(name).toStdString(); }
    // The temporary files are hidden (".name.tmp-..."): none may be left behind.
    bool noTemporaryFile() const {
        const auto names = entries(dir_.path().toStdString());
        return std::none_of(names.begin(), names.end(), [](const std::string& n) { return n[0] == '.'; });
    }

  private slots:
    void writesTheWholeTextAndLeavesNoTemporaryFile() {
        const std::string p = path("a.txt");
        std::string why;
        QVERIFY(saveTextAtomically(p, "first\n", &why));
        QCOMPARE(readAll(p), std::string("first\n"));
        const std::string big(300000, 'x'); // larger than the buffer: several write(2)s
        QVERIFY(saveTextAtomically(p, big, &why));
        QCOMPARE(readAll(p), big);
        QCOMPARE(entries(dir_.path().toStdString()), std::vector<std::string>{"a.txt"});
        QVERIFY(noTemporaryFile());
    }

    void keepsTheOldFilesPermissions() {
        const std::string p = path("mode.txt");
        writePlain(p, "old");
        QCOMPARE(chmod(p.c_str(), 0640), 0);
        std::string why;
        QVERIFY(saveTextAtomically(p, "new", &why));
        struct stat st {};
        QCOMPARE(stat(p.c_str(), &st), 0);
        QCOMPARE(int(st.st_mode & 07777), 0640);
    }

    void followsASymbolicLinkToItsTarget() {
        const std::string target = path("target.txt"), link = path("link.txt");
        writePlain(target, "old");
        QCOMPARE(symlink(target.c_str(), link.c_str()), 0);
        std::string why;
        QVERIFY(saveTextAtomically(link, "new", &why));
        QCOMPARE(readAll(target), std::string("new"));
        struct stat st {};
        QCOMPARE(lstat(link.c_str(), &st), 0);
        QVERIFY(S_ISLNK(st.st_mode));
    }

    void withoutCommitNothingChanges() {
        const std::string p = path("uncommitted.txt");
        writePlain(p, "old");
        {
            AtomicFile f(p);
            QVERIFY(f.open());
            QVERIFY(f.write("new text that is never committed"));
        }
        QCOMPARE(readAll(p), std::string("old"));
        QVERIFY(noTemporaryFile());
    }

    void aMissingDirectoryIsReportedAtOpen() {
        std::string why;
        QVERIFY(!saveTextAtomically(path("nodir/x.txt"), "text", &why));
        QCOMPARE(why, std::string("No such file or directory"));
        QVERIFY(!saveTextAtomically(dir_.path().toStdString(), "text", &why)); // a directory is not a file
        QCOMPARE(why, std::string("Is a directory"));
    }

    void devFullFailsAtTheWriteThatFindsNoSpace() {
        std::string why;
        QVERIFY(!saveTextAtomically("/dev/full", "small", &why));
        QCOMPARE(why, std::string("No space left on device"));
    }

    // A 64 KiB tmpfs filled up: saving a small file over an existing one fails, the old file stays
    // and no temporary file is left. Root only (a mount namespace of its own in a child process).
    void aFullFileSystemLeavesTheOldFile() {
        if (geteuid() != 0) QSKIP("mounting a small tmpfs needs root (CI runs as root)");
        const std::string mnt = path("mnt");
        QCOMPARE(mkdir(mnt.c_str(), 0700), 0);
        const int rc = inChild([&] {
            if (unshare(CLONE_NEWNS) != 0 || mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0)
                return 10;
            if (mount("tmpfs", mnt.c_str(), "tmpfs", 0, "size=64k") != 0) return 11;
            const std::string old = mnt + "/metrics.csv";
            writePlain(old, "the old metrics\n");
            {
                const int fd = open((mnt + "/filler").c_str(), O_WRONLY | O_CREAT, 0600);
                const std::string block(4096, 'f');
                while (write(fd, block.data(), block.size()) > 0) {
                }
                close(fd);
            }
            std::string why;
            if (saveTextAtomically(
                    old, "the new metrics, a few bytes more than fit\n" + std::string(8192, 'n'), &why))
                return 1;
            if (why != "No space left on device") return 2;
            if (readAll(old) != "the old metrics\n") return 3;
            if (entries(mnt) != std::vector<std::string>{"filler", "metrics.csv"}) return 4;
            // The run-as-trace save goes the same way.
            sched::Trace t;
            t.cpus = 1;
            if (saveTraceFile(t, mnt + "/run.dat", {}).empty()) return 5;
            if (entries(mnt) != std::vector<std::string>{"filler", "metrics.csv"}) return 6;
            return 0;
        });
        if (rc == 10 || rc == 11) QSKIP("no mount namespace or tmpfs here");
        QCOMPARE(rc, 0);
    }

    // RLIMIT_FSIZE in a child: the write past the limit fails (EFBIG, SIGXFSZ ignored as a shell
    // would not), the old file stays.
    void aFileSizeLimitLeavesTheOldFile() {
        const std::string p = path("limited.txt");
        writePlain(p, "old");
        const int rc = inChild([&] {
            signal(SIGXFSZ, SIG_IGN);
            const rlimit lim{4096, 4096};
            if (setrlimit(RLIMIT_FSIZE, &lim) != 0) return 10;
            std::string why;
            if (saveTextAtomically(p, std::string(10000, 'x'), &why)) return 1;
            return why == "File too large" ? 0 : 2;
        });
        QCOMPARE(rc, 0);
        QCOMPARE(readAll(p), std::string("old"));
        QVERIFY(noTemporaryFile());
    }

    void writesIntoAFifoDirectly() {
        const std::string p = path("fifo");
        QCOMPARE(mkfifo(p.c_str(), 0600), 0);
        const pid_t reader = fork();
        if (reader == 0) {
            const std::string text = readAll(p);
            _exit(text == "through the pipe" ? 0 : 1);
        }
        std::string why;
        QVERIFY(saveTextAtomically(p, "through the pipe", &why));
        int status = 0;
        waitpid(reader, &status, 0);
        QVERIFY(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }
};

QTEST_GUILESS_MAIN(TstAtomicFile)
#include "tst_atomic_file.moc"
