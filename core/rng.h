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
    uint64_t next();
    // Uniform in [0, 1) with 53 random bits.
    double uniform01() { return double(next() >> 11) * 0x1.0p-53; }
    // Uniform integer in [0, n) (n > 0), by rejection so it has no modulo bias.
    uint64_t below(uint64_t n);
    // Standard normal by Marsaglia's polar method (uses only sqrt and detLog).
    double normal();
    friend bool operator==(const Rng&, const Rng&) = default;

private:
    uint64_t s_[4];
    double spare_ = 0;
    bool hasSpare_ = false;
};

// splitmix64 step: used to derive independent seeds (one stream per task) from the run seed.
uint64_t splitmix64(uint64_t& state);
uint64_t mixSeed(uint64_t a, uint64_t b);

// Deterministic natural log and exp (relative error < 1e-15 over the ranges the engine uses).
double detLog(double x);
double detExp(double x);

} // namespace sched
