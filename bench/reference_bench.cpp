// The engine's perft against the plain reference implementation (tests/reference/), on the
// same positions in the same run: both counts run in every iteration, each timed on its own,
// so that both rates and their ratio come from the same moments of a shared, noisy machine.
// The counts are checked to agree.
#include <benchmark/benchmark.h>
#include <time.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench_positions.hpp"
#include "moon/perft.hpp"
#include "reference.hpp"
#include "reference_terms.hpp"

namespace {

using namespace moon;
using namespace moon::bench;

// One compared case: a bench position under some rules, at its depth.
struct Case {
  BenchPosition position;
  Rules rules;
  int depth;
  const char* rules_name;
};

template <class V>
Case variant_case(const BenchPosition& p, const char* rules_name) {
  return {p, rules_of<V>(), variant_depth<V>(p), rules_name};
}

const std::vector<Case>& cases() {
  static const std::vector<Case> all = [] {
    std::vector<Case> list;
    for (const BenchPosition& p : movement_positions) list.push_back(variant_case<Default>(p, "default"));
    for (const BenchPosition& p : placement_positions) list.push_back(variant_case<Default>(p, "default"));
    const BenchPosition& middle = movement_positions[0];
    list.push_back(variant_case<Slide>(middle, "slide"));
    list.push_back(variant_case<Diagonal>(middle, "diagonal"));
    list.push_back(variant_case<SlideDiagonal>(middle, "slide+diagonal"));
    return list;
  }();
  return all;
}

reference::Position reference_position(const Case& c) {
  reference::Position pos;
  std::string error;
  if (!reference::parse(c.position.text, test::to_reference(c.rules), pos, error)) {
    std::fprintf(stderr, "reference cannot read '%s': %s\n", c.position.text, error.c_str());
    std::abort();
  }
  return pos;
}

std::string label(const Case& c) {
  return std::string(c.position.name) + " " + c.rules_name + " depth " + std::to_string(c.depth);
}

// Seconds of CPU time used by the calling thread: the rates of a shared machine are per second
// of work done, not per second of waiting for a core (as Google Benchmark's own CPU time).
double thread_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

// In every iteration the reference counts the tree once, then the engine counts it as many
// times as it takes to work as long, so that both are exposed to the machine's noise alike.
// The two rates come from two clocks, so they are computed here rather than as kIsRate
// counters (which divide by the iteration time, here the sum of both).
void BM_EngineVsReference(benchmark::State& state) {
  const Case& c = cases()[std::size_t(state.range(0))];
  const Position pos = load(c.position, c.rules);
  const reference::Position ref = reference_position(c);
  state.SetLabel(label(c));
  double engine_seconds = 0, reference_seconds = 0, engine_nodes = 0, reference_nodes = 0;
  for (auto _ : state) {
    const double t0 = thread_seconds();
    const std::uint64_t plain = reference::perft(ref, c.depth);
    const double t1 = thread_seconds();
    double t2 = t1;
    do {
      if (perft_count(pos, c.depth) != plain) {
        state.SkipWithError("the engine and the reference disagree");
        return;
      }
      engine_nodes += double(plain);
      t2 = thread_seconds();
    } while (t2 - t1 < t1 - t0);
    reference_nodes += double(plain);
    reference_seconds += t1 - t0;
    engine_seconds += t2 - t1;
    state.SetIterationTime(t2 - t0);
  }
  state.counters["engine_nodes/s"] = engine_nodes / engine_seconds;
  state.counters["reference_nodes/s"] = reference_nodes / reference_seconds;
  state.counters["ratio"] = (engine_nodes / engine_seconds) / (reference_nodes / reference_seconds);
}

void all_cases(benchmark::internal::Benchmark* b) {
  for (std::size_t i = 0; i < cases().size(); ++i) b->Arg(std::int64_t(i));
}

BENCHMARK(BM_EngineVsReference)->Apply(all_cases)->UseManualTime();

}  // namespace
