// Perft throughput (leaf nodes per second) of the engine: the hot recursion for each phase and
// variant, the hashed and threaded counts of the perft() entry point.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>

#include "bench_positions.hpp"
#include "moon/perft.hpp"

namespace {

using namespace moon;
using namespace moon::bench;

void report_nodes(benchmark::State& state, Count nodes) {
  state.counters["nodes/s"] = benchmark::Counter(double(nodes), benchmark::Counter::kIsRate);
}

// Whether a timed count is the expected one; if not, the benchmark is skipped with an error.
bool counted_right(benchmark::State& state, Count counted, Count expected) {
  if (counted == expected) return true;
  const std::string wrong =
      "counted " + std::to_string(std::uint64_t(counted)) + " leaves, not " + std::to_string(std::uint64_t(expected));
  state.SkipWithError(wrong.c_str());
  return false;
}

// perft_count<V> on one of the movement positions (argument: its index) under variant V.
template <class V>
void BM_PerftMovement(benchmark::State& state) {
  const BenchPosition& p = movement_positions[state.range(0)];
  const Position pos = load(p, rules_of<V>());
  const int depth = variant_depth<V>(p);
  state.SetLabel(std::string(p.name) + " depth " + std::to_string(depth));
  Count nodes = 0;
  for (auto _ : state) {
    const Count count = perft_count<V>(pos, depth);
    if (!counted_right(state, count, variant_leaves<V>(p))) return;
    nodes += count;
  }
  report_nodes(state, nodes);
}
BENCHMARK_TEMPLATE(BM_PerftMovement, Default)->DenseRange(0, std::size(movement_positions) - 1);
BENCHMARK_TEMPLATE(BM_PerftMovement, Slide)->DenseRange(0, std::size(movement_positions) - 1);
BENCHMARK_TEMPLATE(BM_PerftMovement, Diagonal)->DenseRange(0, std::size(movement_positions) - 1);
BENCHMARK_TEMPLATE(BM_PerftMovement, SlideDiagonal)->DenseRange(0, std::size(movement_positions) - 1);

void BM_PerftPlacement(benchmark::State& state) {
  const BenchPosition& p = placement_positions[state.range(0)];
  const Position pos = load(p);
  state.SetLabel(std::string(p.name) + " depth " + std::to_string(p.depth));
  Count nodes = 0;
  for (auto _ : state) {
    const Count count = perft_count<Default>(pos, p.depth);
    if (!counted_right(state, count, p.leaves)) return;
    nodes += count;
  }
  report_nodes(state, nodes);
}
BENCHMARK(BM_PerftPlacement)->DenseRange(0, std::size(placement_positions) - 1);

// The public entry point with a transposition table and/or threads, one ply deeper than the
// other benchmarks so that the table has transpositions to find; the table's allocation is
// included (as the moon program pays it). Arguments: position index (movement positions, then
// placement ones), threads, table MiB. Real time: the work is spread over threads.
void BM_PerftEntry(benchmark::State& state) {
  const auto index = std::size_t(state.range(0));
  const BenchPosition& p = index < std::size(movement_positions)
                               ? movement_positions[index]
                               : placement_positions[index - std::size(movement_positions)];
  const Position pos = load(p);
  PerftOptions options;
  options.threads = int(state.range(1));
  options.hash_mb = std::size_t(state.range(2));
  const int depth = p.depth + 1;
  state.SetLabel(std::string(p.name) + " depth " + std::to_string(depth));
  // The count with the table and threads must be the reference's, or, for a position without
  // one, the plain one-thread count (counted here, untimed).
  const Count expected = p.leaves_one_deeper ? Count(p.leaves_one_deeper) : perft_count<Default>(pos, depth);
  Count nodes = 0;
  for (auto _ : state) {
    const auto result = perft(pos, depth, options);
    if (!result) {
      state.SkipWithError(result.error().message.c_str());
      return;
    }
    if (!counted_right(state, result->nodes, expected)) return;
    nodes += result->nodes;
  }
  report_nodes(state, nodes);
}
void entry_arguments(benchmark::internal::Benchmark* b) {
  b->ArgNames({"pos", "threads", "hash_mb"});
  const auto late = std::int64_t(std::size(movement_positions) + 2);  // placement "late"
  for (std::int64_t pos : {std::int64_t(0), late}) {
    b->Args({pos, 1, 0});
    b->Args({pos, 1, 16});
    b->Args({pos, 2, 0});
    b->Args({pos, 2, 16});
  }
}
BENCHMARK(BM_PerftEntry)->Apply(entry_arguments)->UseRealTime();

}  // namespace
