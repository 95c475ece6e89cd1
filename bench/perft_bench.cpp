#include <benchmark/benchmark.h>

#include "moon/moon.hpp"

static void BM_PerftStart(benchmark::State& state) {
  const moon::Position start = moon::Position::start();
  std::uint64_t nodes = 0;
  for (auto _ : state) nodes += std::uint64_t(moon::perft_count(start, 5));
  state.counters["nodes/s"] = benchmark::Counter(double(nodes), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_PerftStart);
