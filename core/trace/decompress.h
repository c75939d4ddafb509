// SPDX-License-Identifier: GPL-3.0-or-later
// Compressed traces read in-process, with the libraries made for it (liblzma, zlib, libzstd)
// instead of a decompressor run through a shell: no child whose failure becomes a wait status, the
// library's own message when a stream is damaged, and the output bounded as it streams — a
// decompression bomb stops at the limit (base/limits.h), not after it has filled the memory.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace sched {

enum class Compression : uint8_t { None, Xz, Gzip, Zstd };
std::string_view compressionName(Compression c);

// What a file's first bytes say it is (at least 6 bytes of it, fewer at its end).
Compression compressionOf(std::string_view head);

// Reads the open file descriptor fd to its end and streams the decompressed bytes to sink, a chunk
// at a time; sink returns false to stop (cancel: the function returns true then, having stopped).
// False with `error` set (without the file's name) on a damaged or truncated stream, a read error,
// or a limit passed.
bool decompress(int fd, Compression c, const std::function<bool(std::string_view)>& sink, std::string& error);

} // namespace sched
