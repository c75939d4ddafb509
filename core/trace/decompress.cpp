// SPDX-License-Identifier: GPL-3.0-or-later
#include "trace/decompress.h"

#include "base/limits.h"

#include <cerrno>
#include <lzma.h>
#include <system_error>
#include <unistd.h>
#include <vector>
#include <zlib.h>
#include <zstd.h>

namespace sched {

std::string_view compressionName(Compression c) {
    switch (c) {
    case Compression::Xz:
        return "xz";
    case Compression::Gzip:
        return "gzip";
    case Compression::Zstd:
        return "zstd";
    case Compression::None:
        break;
    }
    return "none";
}

Compression compressionOf(std::string_view h) {
    if (h.size() >= 6 && h.substr(0, 6) == std::string_view("\xfd"
                                                            "7zXZ\0",
                                                            6))
        return Compression::Xz;
    if (h.size() >= 2 && h.substr(0, 2) == "\x1f\x8b") return Compression::Gzip;
    if (h.size() >= 4 && h.substr(0, 4) == "\x28\xb5\x2f\xfd") return Compression::Zstd;
    return Compression::None;
}

namespace {

constexpr size_t kChunk = 1 << 20;

// Reads what fd has, up to n bytes; -1 with errno on an error.
ssize_t readSome(int fd, char* buf, size_t n) {
    for (;;) {
        const ssize_t r = ::read(fd, buf, n);
        if (r >= 0 || errno != EINTR) return r;
    }
}

// The output's bounds, checked as it grows (base/limits.h).
struct Bounds {
    int64_t in = 0, out = 0;
    std::string why;
    bool exceeded() {
        if (out > limits::kMaxDecompressedBytes) {
            why = "more than " + std::to_string(limits::kMaxDecompressedBytes >> 30) +
                  " GiB of text when decompressed (the limit: base/limits.h); split the trace";
            return true;
        }
        if (out > limits::kRatioCheckedFrom &&
            out > limits::kMaxCompressionRatio * std::max<int64_t>(1, in)) {
            why = "decompresses to more than " + std::to_string(limits::kMaxCompressionRatio) +
                  " times its size (real traces: 20-40 times): not a trace, or a decompression bomb";
            return true;
        }
        return false;
    }
};

std::string readError(int e) {
    return "cannot read the file: " + std::generic_category().message(e);
}

bool xz(int fd, const std::function<bool(std::string_view)>& sink, std::string& error) {
    lzma_stream s = LZMA_STREAM_INIT;
    // Concatenated .xz streams are one file, as xz -dc reads them; memory use unlimited by
    // liblzma but bounded by the format's dictionary (at most 1.5 GiB, 64 MiB for xz -9).
    if (lzma_stream_decoder(&s, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK) {
        error = "cannot start the xz decoder (liblzma)";
        return false;
    }
    std::vector<char> in(kChunk), out(kChunk);
    Bounds b;
    lzma_action action = LZMA_RUN;
    bool ok = true;
    for (;;) {
        if (s.avail_in == 0 && action == LZMA_RUN) {
            const ssize_t n = readSome(fd, in.data(), in.size());
            if (n < 0) {
                error = readError(errno);
                ok = false;
                break;
            }
            if (n == 0) action = LZMA_FINISH;
            s.next_in = reinterpret_cast<const uint8_t*>(in.data());
            s.avail_in = size_t(n);
            b.in += n;
        }
        s.next_out = reinterpret_cast<uint8_t*>(out.data());
        s.avail_out = out.size();
        const lzma_ret r = lzma_code(&s, action);
        const size_t got = out.size() - s.avail_out;
        b.out += int64_t(got);
        if (got > 0 && !sink(std::string_view(out.data(), got))) break;
        if (b.exceeded()) {
            error = b.why;
            ok = false;
            break;
        }
        if (r == LZMA_STREAM_END) break;
        if (r != LZMA_OK) {
            error = r == LZMA_DATA_ERROR || r == LZMA_FORMAT_ERROR
                        ? "the xz data is damaged (liblzma: data error)"
                    : r == LZMA_BUF_ERROR ? "the xz file is truncated (liblzma: unexpected end)"
                    : r == LZMA_MEM_ERROR
                        ? "out of memory in the xz decoder (liblzma)"
                        : "the xz decoder failed (liblzma error " + std::to_string(int(r)) + ")";
            ok = false;
            break;
        }
    }
    lzma_end(&s);
    return ok;
}

bool gzip(int fd, const std::function<bool(std::string_view)>& sink, std::string& error) {
    z_stream s{};
    if (inflateInit2(&s, 15 + 32) != Z_OK) { // 15 + 32: a gzip (or zlib) header, detected
        error = "cannot start the gzip decoder (zlib)";
        return false;
    }
    std::vector<char> in(kChunk), out(kChunk);
    Bounds b;
    bool ok = true, eof = false, member = false, full = false; // full: the last call filled the output
    for (;;) {
        if (s.avail_in == 0 && !eof && !full) {
            const ssize_t n = readSome(fd, in.data(), in.size());
            if (n < 0) {
                error = readError(errno);
                ok = false;
                break;
            }
            eof = n == 0;
            s.next_in = reinterpret_cast<Bytef*>(in.data());
            s.avail_in = uInt(n);
            b.in += n;
        }
        if (s.avail_in == 0 && eof && !full) {
            if (member) { // inside a member that never ended
                error = "the gzip file is truncated (zlib: unexpected end of data)";
                ok = false;
            }
            break;
        }
        s.next_out = reinterpret_cast<Bytef*>(out.data());
        s.avail_out = uInt(out.size());
        const int r = inflate(&s, Z_NO_FLUSH);
        member = true;
        full = s.avail_out == 0;
        const size_t got = out.size() - s.avail_out;
        b.out += int64_t(got);
        if (got > 0 && !sink(std::string_view(out.data(), got))) break;
        if (b.exceeded()) {
            error = b.why;
            ok = false;
            break;
        }
        if (r == Z_STREAM_END) { // another member may follow (gzip -c a >> f; gzip -c b >> f)
            member = false;
            full = false;
            if (inflateReset(&s) != Z_OK) break;
            continue;
        }
        if (r != Z_OK && r != Z_BUF_ERROR) {
            error = std::string("the gzip data is damaged (zlib: ") + (s.msg ? s.msg : "data error") + ")";
            ok = false;
            break;
        }
    }
    inflateEnd(&s);
    return ok;
}

bool zstd(int fd, const std::function<bool(std::string_view)>& sink, std::string& error) {
    ZSTD_DStream* s = ZSTD_createDStream();
    if (!s) {
        error = "cannot start the zstd decoder (libzstd)";
        return false;
    }
    std::vector<char> in(kChunk), out(kChunk);
    Bounds b;
    bool ok = true;
    size_t hint = 1;   // what ZSTD_decompressStream last said: 0 = a frame just ended
    bool full = false; // the last call filled the output: more may be waiting without more input
    ZSTD_inBuffer ib{in.data(), 0, 0};
    for (;;) {
        if (ib.pos == ib.size && !full) {
            const ssize_t n = readSome(fd, in.data(), in.size());
            if (n < 0) {
                error = readError(errno);
                ok = false;
                break;
            }
            if (n == 0) {
                if (hint != 0) {
                    error = "the zstd file is truncated (libzstd: unfinished frame)";
                    ok = false;
                }
                break;
            }
            ib = ZSTD_inBuffer{in.data(), size_t(n), 0};
            b.in += n;
        }
        ZSTD_outBuffer ob{out.data(), out.size(), 0};
        hint = ZSTD_decompressStream(s, &ob, &ib);
        if (ZSTD_isError(hint)) {
            error = std::string("the zstd data is damaged (libzstd: ") + ZSTD_getErrorName(hint) + ")";
            ok = false;
            break;
        }
        full = ob.pos == ob.size;
        b.out += int64_t(ob.pos);
        if (ob.pos > 0 && !sink(std::string_view(out.data(), ob.pos))) break;
        if (b.exceeded()) {
            error = b.why;
            ok = false;
            break;
        }
    }
    ZSTD_freeDStream(s);
    return ok;
}

} // namespace

bool decompress(int fd, Compression c, const std::function<bool(std::string_view)>& sink,
                std::string& error) {
    switch (c) {
    case Compression::Xz:
        return xz(fd, sink, error);
    case Compression::Gzip:
        return gzip(fd, sink, error);
    case Compression::Zstd:
        return zstd(fd, sink, error);
    case Compression::None:
        break;
    }
    error = "not compressed";
    return false;
}

} // namespace sched
