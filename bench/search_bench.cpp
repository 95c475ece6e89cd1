// Search throughput (nodes per second) on the bench positions, with plain negamax as the
// baseline of the same run; transposition-table probes and stores; the static evaluation,
// against counting the legal moves of the same positions.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "moon/search_bench.hpp"
#include "moon/evaluation.hpp"
#include "moon/movegen.hpp"
#include "moon/notation.hpp"
#include "moon/search.hpp"
#include "moon/transposition_table.hpp"

namespace {

moon::Position bench_position(std::size_t i) {
  const moon::SearchBenchPosition& p = moon::search_bench_positions()[i];
  return *moon::parse_position(p.fen, p.rules);
}

// Positions of every phase and variant from random games (fixed seed), none over.
std::vector<moon::Position> sample_positions(std::size_t count) {
  std::mt19937 rng(11);
  std::vector<moon::Position> out;
  const moon::Rules variants[] = {moon::Rules{}, moon::Rules{moon::Movement::slide, moon::CaptureLines::orthogonal, 20},
                                  moon::Rules{moon::Movement::step, moon::CaptureLines::orthogonal_and_diagonal, 20}};
  while (out.size() < count) {
    moon::Position pos = moon::Position::start(variants[out.size() % 3]);
    const int plies = int(rng() % 70);
    for (int i = 0; i < plies && !pos.is_over(); ++i) {
      const moon::MoveList moves = moon::legal_moves(pos);
      pos.play(moves[rng() % moves.size()]);
    }
    if (!pos.is_over()) out.push_back(pos);
  }
  return out;
}

// The two searches BM_Search compares, named so that the benchmark's output says which is which.
struct Engine {
  static constexpr bool plain = false;
};
struct PlainNegamax {
  static constexpr bool plain = true;
};

// Searches of bench position `range(0)` (cleared 16 MiB table each time), 300,000 nodes each:
// the engine, and plain negamax (no table, no ordering, no pruning) as the baseline. The clear
// (2-2.5 ms) is left out of the time: plain negamax, which never reads the table, paid it too.
template <class Searched>
void BM_Search(benchmark::State& state) {
  const auto i = std::size_t(state.range(0));
  const moon::Position pos = bench_position(i);
  moon::SearchOptions options;
  if (Searched::plain) options.features = moon::SearchFeatures::plain();
  moon::Searcher searcher(options);
  moon::SearchLimits limits;
  limits.nodes = 300000;
  state.SetLabel(std::string(moon::search_bench_positions()[i].fen));
  // What is timed is checked: a legal best move, and the same search every time (one thread,
  // a cleared table: the search is deterministic, as `moon bench` relies on).
  const moon::MoveList legal = moon::legal_moves(pos);
  std::optional<moon::SearchResult> first;
  std::uint64_t nodes = 0;
  for (auto _ : state) {
    state.PauseTiming();
    searcher.clear();
    state.ResumeTiming();
    const auto r = searcher.search(pos, limits);
    if (!r) {
      const std::string failed = "search failed: " + r.error().message;
      state.SkipWithError(failed.c_str());
      return;
    }
    nodes += r->nodes;
    if (!first) {
      first = *r;
      if (std::find(legal.begin(), legal.end(), r->best) == legal.end()) {
        const std::string illegal = "the best move " + moon::to_string(r->best) + " is not legal";
        state.SkipWithError(illegal.c_str());
        return;
      }
    } else if (r->nodes != first->nodes || r->best != first->best || r->score != first->score || r->depth != first->depth ||
               r->pv != first->pv) {
      state.SkipWithError("the same search, repeated, gave another result");
      return;
    }
  }
  state.counters["nodes/s"] = benchmark::Counter(double(nodes), benchmark::Counter::kIsRate);
}
BENCHMARK_TEMPLATE(BM_Search, Engine)->Arg(0)->Arg(3)->Arg(5)->Arg(11)->Arg(14)->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(BM_Search, PlainNegamax)->Arg(0)->Arg(3)->Arg(5)->Arg(11)->Arg(14)->Unit(benchmark::kMillisecond);

struct Key {
  std::uint64_t key, hash;
};

// The keys the table benchmarks use, by `range(0)`: 4096 keys of real positions (hashed as the
// search does), whose buckets (256 KiB) stay in the core's own caches, or 2^20 random keys, whose
// buckets are spread over the whole 16 MiB table: past the L2 (0.5-2 MiB a core on the machines
// of docs/), though not always past the L3, which some machines report larger than the table
// (docs/SEARCH.md: probes of a larger table cost more).
constexpr std::int64_t hot_keys = 4096, cold_keys = std::int64_t{1} << 20;
std::vector<Key> benchmark_keys(std::int64_t count) {
  std::vector<Key> keys;
  if (count == hot_keys) {
    for (const moon::Position& p : sample_positions(hot_keys)) keys.push_back({p.key(), p.hash()});
  } else {
    std::mt19937_64 rng(11);
    for (std::int64_t i = 0; i < count; ++i) keys.push_back({rng() >> 1, rng()});
  }
  return keys;
}

// A 16 MiB table holding every key of `range(0)` (2^20 random keys fill it, as a search's table
// is full once it has run a while; the 4096 keys fill few buckets); the keys still there afterwards, a power of two of them: 2^20 random keys overflow some
// of the table's 4-entry buckets (about a fifth are replaced). The benchmarks below all use these
// kept keys, so that they touch the same buckets in the same order and differ only in what they do
// there. (Until 2026-12-07 the stores filled the table as they went, taking the path of a new key
// or of one already there by how long the run was, and the probes that missed read an empty table.)
std::vector<Key> fill_table(benchmark::State& state, moon::TranspositionTable& table) {
  if (!table.resize(16)) {
    state.SkipWithError("no 16 MiB table");
    return {};
  }
  const std::vector<Key> keys = benchmark_keys(state.range(0));
  for (const Key& k : keys) table.store(k.key, k.hash, moon::Move::placement(3), 17, 6, moon::Bound::lower, false);
  std::vector<Key> kept;
  moon::TableEntry e;
  for (const Key& k : keys)
    if (table.probe(k.key, k.hash, e)) kept.push_back(k);
  state.counters["keys_kept"] = double(kept.size()) / double(keys.size());
  std::size_t n = 1;
  while (n * 2 <= kept.size()) n *= 2;
  kept.resize(n);
  return kept;
}

// Stores of keys already in the table (a search storing what it has searched again): each finds
// its entry in the bucket and replaces it.
void BM_TableStore(benchmark::State& state) {
  moon::TranspositionTable table;
  const std::vector<Key> keys = fill_table(state, table);
  if (keys.empty()) return;
  const std::size_t mask = keys.size() - 1;
  std::size_t i = 0;
  for (auto _ : state) {
    const Key& k = keys[i++ & mask];
    table.store(k.key, k.hash, moon::Move::placement(3), 17, 6, moon::Bound::lower, false);
  }
  // Stores of keys already there replace nothing else: every key is still found.
  moon::TableEntry e;
  for (const Key& k : keys)
    if (!table.probe(k.key, k.hash, e)) {
      state.SkipWithError("a stored key was lost");
      return;
    }
  state.counters["stores/s"] = benchmark::Counter(double(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_TableStore)->Arg(hot_keys)->Arg(cold_keys);

// Probes that hit (range(1) 1), or miss (0): a key that differs in its lowest bit from one kept,
// with the same hash, so the same bucket is read and all four of its entries compared.
void BM_TableProbe(benchmark::State& state) {
  moon::TranspositionTable table;
  const std::vector<Key> keys = fill_table(state, table);
  if (keys.empty()) return;
  const bool hit = state.range(1) != 0;
  const std::uint64_t flip = hit ? 0 : 1;
  const std::size_t mask = keys.size() - 1;
  std::size_t i = 0, hits = 0;
  moon::TableEntry e;
  for (auto _ : state) {
    const Key& k = keys[i++ & mask];
    hits += table.probe(k.key ^ flip, k.hash, e);
  }
  benchmark::DoNotOptimize(hits);
  if (hits != (hit ? std::size_t(state.iterations()) : 0)) state.SkipWithError("a probe did not answer as it should");
  state.counters["probes/s"] = benchmark::Counter(double(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_TableProbe)->ArgsProduct({{hot_keys, cold_keys}, {0, 1}});

// The evaluation over positions of every phase, and counting their legal moves as baseline.
void BM_Evaluate(benchmark::State& state) {
  const std::vector<moon::Position> positions = sample_positions(1024);
  std::size_t i = 0;
  int sum = 0;
  for (auto _ : state) sum += moon::evaluate(positions[i++ & 1023]);
  benchmark::DoNotOptimize(sum);
  state.counters["evals/s"] = benchmark::Counter(double(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Evaluate);

void BM_CountMovesBaseline(benchmark::State& state) {
  const std::vector<moon::Position> positions = sample_positions(1024);
  for (const moon::Position& pos : positions)
    if (std::size_t(moon::count_moves(pos)) != moon::legal_moves(pos).size()) {
      const std::string wrong = "count_moves() and legal_moves() differ on " + moon::to_string(pos);
      state.SkipWithError(wrong.c_str());
      return;
    }
  std::size_t i = 0;
  int sum = 0;
  for (auto _ : state) sum += moon::count_moves(positions[i++ & 1023]);
  benchmark::DoNotOptimize(sum);
  state.counters["counts/s"] = benchmark::Counter(double(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_CountMovesBaseline);

}  // namespace
