// SPDX-License-Identifier: GPL-3.0-or-later
// Compressed traces read in-process (trace/decompress.h) and the files the importer refuses
// (trace/file.h). The compressed inputs are made here with the libraries' own compressors
// (lzma_easy_buffer_encode, deflate, ZSTD_compress), not with the code under test: each format
// gives back the text, a truncated or damaged stream is refused with the library's reason, a
// decompression bomb stops at the limit without producing it, and FIFOs, devices and directories
// are refused before they are opened (a FIFO would block, /dev/zero never ends).
#include "base/limits.h"
#include "trace/decompress.h"
#include "trace/file.h"

#include <QTemporaryDir>
#include <QTest>

#include <fcntl.h>
#include <fstream>
#include <lzma.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

using namespace sched;

namespace {
std::string xzOf(const std::string& text) {
    std::string out(lzma_stream_buffer_bound(text.size()), '\0');
    size_t pos = 0;
    lzma_easy_buffer_encode(6, LZMA_CHECK_CRC64, nullptr, reinterpret_cast<const uint8_t*>(text.data()),
                            text.size(), reinterpret_cast<uint8_t*>(out.data()), &pos, out.size());
    out.resize(pos);
    return out;
}

std::string gzipOf(const std::string& text) {
    z_stream s{};
    deflateInit2(&s, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY); // + 16: a gzip header
    std::string out(deflateBound(&s, uLong(text.size())) + 32, '\0');
    s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
    s.avail_in = uInt(text.size());
    s.next_out = reinterpret_cast<Bytef*>(out.data());
    s.avail_out = uInt(out.size());
    deflate(&s, Z_FINISH);
    out.resize(s.total_out);
    deflateEnd(&s);
    return out;
}

std::string zstdOf(const std::string& text) {
    std::string out(ZSTD_compressBound(text.size()), '\0');
    out.resize(ZSTD_compress(out.data(), out.size(), text.data(), text.size(), 3));
    return out;
}

// Decompresses bytes through a pipe-less temporary file; returns the text, or sets *error.
std::string decompressed(const std::string& bytes, Compression c, std::string* error,
                         int64_t* delivered = nullptr) {
    char name[] = "/tmp/tst_decompress_XXXXXX";
    const int fd = mkstemp(name);
    if (fd < 0 || write(fd, bytes.data(), bytes.size()) != ssize_t(bytes.size()))
        qFatal("cannot make a test file");
    lseek(fd, 0, SEEK_SET);
    unlink(name);
    std::string text, err;
    int64_t n = 0;
    const bool ok = decompress(
        fd, c,
        [&](std::string_view chunk) {
            n += int64_t(chunk.size());
            if (text.size() < (64u << 20)) text.append(chunk);
            return true;
        },
        err);
    close(fd);
    if (delivered) *delivered = n;
    if (error) *error = ok ? std::string() : err;
    return text;
}

// A few MB of text that compresses like a trace (numbers change, words repeat).
std::string traceLikeText() {
    std::string t;
    for (int i = 0; i < 60000; ++i)
        t += "  hackbench-" + std::to_string(1000 + i % 160) + " [00" + std::to_string(i % 2) + "] d..2. " +
             std::to_string(100 + i / 1000) + "." + std::to_string(100000 + i * 7 % 899999) +
             ": sched_switch: prev_comm=hackbench prev_pid=" + std::to_string(1000 + i % 160) + "\n";
    return t;
}
} // namespace

class TstDecompress : public QObject {
    Q_OBJECT
    const std::string text_ = traceLikeText();

  private slots:
    void eachFormatGivesBackTheText() {
        const struct {
            Compression c;
            std::string bytes;
        } cases[] = {{Compression::Xz, xzOf(text_)},
                     {Compression::Gzip, gzipOf(text_)},
                     {Compression::Zstd, zstdOf(text_)}};
        for (const auto& k : cases) {
            QCOMPARE(compressionOf(k.bytes.substr(0, 16)), k.c);
            std::string err;
            QCOMPARE(decompressed(k.bytes, k.c, &err), text_);
            QVERIFY2(err.empty(), err.c_str());
        }
        QCOMPARE(compressionOf("# tracer: nop\n"), Compression::None);
    }

    void concatenatedStreamsAreOneFile() { // gzip -c a > f; gzip -c b >> f (and xz, zstd alike)
        std::string err;
        QCOMPARE(decompressed(gzipOf("first\n") + gzipOf("second\n"), Compression::Gzip, &err),
                 std::string("first\nsecond\n"));
        QCOMPARE(decompressed(xzOf("first\n") + xzOf("second\n"), Compression::Xz, &err),
                 std::string("first\nsecond\n"));
        QCOMPARE(decompressed(zstdOf("first\n") + zstdOf("second\n"), Compression::Zstd, &err),
                 std::string("first\nsecond\n"));
    }

    void truncatedAndDamagedStreamsSayWhy() {
        const struct {
            Compression c;
            std::string bytes;
            const char* name;
        } cases[] = {{Compression::Xz, xzOf(text_), "xz"},
                     {Compression::Gzip, gzipOf(text_), "gzip"},
                     {Compression::Zstd, zstdOf(text_), "zstd"}};
        for (const auto& k : cases) {
            std::string err;
            decompressed(k.bytes.substr(0, k.bytes.size() / 2), k.c, &err);
            QVERIFY2(err.find(k.name) != std::string::npos && err.find("truncated") != std::string::npos,
                     err.c_str());
            std::string damaged = k.bytes;
            for (size_t i = damaged.size() / 3; i < damaged.size() / 3 + 64; ++i)
                damaged[i] = char(damaged[i] ^ 0x5a);
            decompressed(damaged, k.c, &err);
            QVERIFY2(err.find(k.name) != std::string::npos && (err.find("damaged") != std::string::npos ||
                                                               err.find("truncated") != std::string::npos),
                     err.c_str());
        }
    }

    // 256 MiB of zeros is a few kB of zstd: the decoder stops at the ratio limit, having produced
    // only what the check needs, not the whole.
    void aDecompressionBombStopsAtTheLimit() {
        const size_t zeros = size_t(256) << 20;
        ZSTD_CCtx* cc = ZSTD_createCCtx();
        std::string bomb(size_t(1) << 20, '\0'); // zeros compress to almost nothing
        {
            std::string in(size_t(64) << 20, '\0');
            ZSTD_outBuffer ob{bomb.data(), bomb.size(), 0};
            for (size_t done = 0; done < zeros; done += in.size()) {
                ZSTD_inBuffer ib{in.data(), in.size(), 0};
                ZSTD_compressStream2(cc, &ob, &ib, done + in.size() >= zeros ? ZSTD_e_end : ZSTD_e_continue);
            }
            bomb.resize(ob.pos);
        }
        ZSTD_freeCCtx(cc);
        QVERIFY(bomb.size() < 100000);
        std::string err;
        int64_t delivered = 0;
        decompressed(bomb, Compression::Zstd, &err, &delivered);
        QVERIFY2(err.find("decompression bomb") != std::string::npos, err.c_str());
        QVERIFY(delivered <= limits::kRatioCheckedFrom + (int64_t(1) << 21)); // one chunk past the check
    }

    void onlyRegularFilesAreRead() {
        QTemporaryDir dir;
        const std::string fifo = dir.filePath("fifo").toStdString();
        QCOMPARE(mkfifo(fifo.c_str(), 0600), 0);
        Trace t;
        ImportReport rep;
        std::string error;
        QVERIFY(!loadTrace(fifo, t, rep, error)); // returns at once: a FIFO is never opened
        QVERIFY2(error.find("a FIFO") != std::string::npos && error.find("regular file") != std::string::npos,
                 error.c_str());
        QVERIFY(!loadTrace("/dev/zero", t, rep, error));
        QVERIFY2(error.find("character device") != std::string::npos, error.c_str());
        QVERIFY(!loadTrace(dir.path().toStdString(), t, rep, error));
        QVERIFY2(error.find("a directory") != std::string::npos, error.c_str());
    }

    void aFileNamedCompressedMustBeSo() {
        QTemporaryDir dir;
        const std::string gz = dir.filePath("t.gz").toStdString();
        std::ofstream(gz, std::ios::binary) << xzOf(text_); // xz data under a .gz name
        Trace t;
        ImportReport rep;
        std::string error;
        QVERIFY(!loadTrace(gz, t, rep, error));
        QVERIFY2(error.find("named .gz but not gzip data") != std::string::npos, error.c_str());
    }

    void aLineWithoutEndIsSkippedNotHeld() {
        TraceImporter imp;
        const std::string chunk(size_t(1) << 20, 'x');
        for (int i = 0; i < 5; ++i)
            imp.feed(chunk); // 5 MiB without a newline
        imp.feed("\n");
        ImportReport rep;
        imp.finish(rep);
        QCOMPARE(rep.lines, int64_t(1));
        QCOMPARE(rep.malformed, int64_t(1));
        QVERIFY2(rep.problems[0].what.find("longer than 1 MiB") != std::string::npos,
                 rep.problems[0].what.c_str());
    }
};

QTEST_GUILESS_MAIN(TstDecompress)
#include "tst_decompress.moc"
