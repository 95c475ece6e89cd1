// The search benchmark behind `moon bench`: a fixed list of positions from every phase and
// variant, each searched to a fixed depth on one thread with a cleared table. The total node
// count is a signature of the search's behaviour: it is the same on every run and changes only
// when the search (ordering, pruning, evaluation, table policy) changes.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string_view>

#include "moon/expected.hpp"
#include "moon/rules.hpp"
#include "moon/search.hpp"

namespace moon {

struct SearchBenchPosition {
  std::string_view fen;
  Rules rules;
  int depth;
};

// The positions of the signature (a change here changes the signature).
std::span<const SearchBenchPosition> search_bench_positions();

struct SearchBenchResult {
  std::uint64_t nodes = 0;  // the signature (with the default options)
  std::int64_t time_us = 0;  // the searches' own time (not the table clears between them)
  std::int64_t time_ms = 0;  // the same in milliseconds
};

struct SearchBenchOptions {
  int depth_offset = 0;       // every position this many plies deeper (at least 1 ply)
  SearchFeatures features{};  // the engine's by default; others to measure what each part pays
  int threads = 1;            // more than one: not deterministic (a speed-up measure only)
};

// Searches every bench position with a fresh 16 MB table. on_position is called after each
// search with the position's index and result.
Expected<SearchBenchResult> run_search_bench(const SearchBenchOptions& options = {},
                                const std::function<void(std::size_t, const SearchResult&)>& on_position = {});

}  // namespace moon
