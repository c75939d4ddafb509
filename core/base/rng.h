// SPDX-License-Identifier: GPL-3.0-or-later
// Seeded pseudo-random numbers that are identical on every machine and standard library:
// xoshiro256** seeded by splitmix64, and the transcendental functions the distributions need
// written with +, -, *, / only (libm's log/exp may differ in the last bit between versions).
#pragma once

#include <cstdint>

namespace sched {

class Rng {
  public:
    Rng() : Rng(1) {}
    explicit Rng(uint64_t seed);
    uint64_t next() { return next(s_); }
    // Uniform in [0, 1) with 53 random bits.
    double uniform01() { return double(next() >> 11) * 0x1.0p-53; }
    // Uniform integer in [0, n) (n > 0), by rejection so it has no modulo bias.
    uint64_t below(uint64_t n) { return below(s_, n); }
    // Standard normal by Marsaglia's polar method (uses only sqrt and detLog).
    double normal();
    friend bool operator==(const Rng&, const Rng&) = default;

    // The generator's state, four scalars: a loop that draws many times (the batch planner) takes
    // a local copy, which the compiler keeps in registers, and puts it back once. A copy of the
    // whole Rng would move 16-byte pieces, which the CPU cannot forward from the 8-byte stores
    // that have just written them (a stall per copy).
    struct State {
        uint64_t s0, s1, s2, s3;
        friend bool operator==(const State&, const State&) = default;
    };
    State state() const { return s_; }
    void setState(const State& s) { s_.s0 = s.s0, s_.s1 = s.s1, s_.s2 = s.s2, s_.s3 = s.s3; }
    static uint64_t next(State& s);
    static uint64_t below(State& s, uint64_t n);

  private:
    static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
    State s_;
    // normal()'s second value, as the bits of the double, or kNoSpare (a NaN, which normal()
    // never returns): 40 bytes in all, so that a task's stream shares a cache line with its loop
    // counters (task.h).
    static constexpr uint64_t kNoSpare = 0x7ff8'dead'0000'0000;
    uint64_t spare_ = kNoSpare;
};

// xoshiro256** (Blackman & Vigna). Inline: syscall costs and run lengths draw on every operation.
inline uint64_t Rng::next(State& s) {
    const uint64_t result = rotl(s.s1 * 5, 7) * 9;
    const uint64_t t = s.s1 << 17;
    s.s2 ^= s.s0;
    s.s3 ^= s.s1;
    s.s1 ^= s.s2;
    s.s0 ^= s.s3;
    s.s2 ^= t;
    s.s3 = rotl(s.s3, 45);
    return result;
}

// Lemire's multiply-and-shift ("Fast random integer generation in an interval", 2019): the high
// word of x * n, rejecting the few x whose low word falls below 2^64 mod n, so every value is
// equally likely; the division runs only on the rare path.
inline uint64_t Rng::below(State& s, uint64_t n) {
    __extension__ typedef unsigned __int128 U128; // GCC and Clang; the project builds with GCC 12
    U128 m = U128(next(s)) * n;
    uint64_t low = uint64_t(m);
    if (low < n) {
        const uint64_t threshold = (0 - n) % n;
        while (low < threshold) {
            m = U128(next(s)) * n;
            low = uint64_t(m);
        }
    }
    return uint64_t(m >> 64);
}

// splitmix64 step: used to derive independent seeds (one stream per task) from the run seed.
uint64_t splitmix64(uint64_t& state);
uint64_t mixSeed(uint64_t a, uint64_t b);

// Deterministic natural log and exp (relative error < 1e-15 over the ranges the engine uses).
double detLog(double x);
double detExp(double x);

} // namespace sched
