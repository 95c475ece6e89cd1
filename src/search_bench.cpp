#include "moon/search_bench.hpp"

#include <algorithm>
#include <array>
#include <chrono>

#include "moon/notation.hpp"

namespace moon {

namespace {

constexpr Rules step{};
constexpr Rules slide{Movement::slide, CaptureLines::orthogonal, Rules::default_clock_limit};
constexpr Rules diagonal{Movement::step, CaptureLines::orthogonal_and_diagonal, Rules::default_clock_limit};
constexpr Rules slide_diagonal{Movement::slide, CaptureLines::orthogonal_and_diagonal, Rules::default_clock_limit};

// Positions from engine games: placement, its end, the crowded movement start, the open
// endgame, clock pressure, and every variant.
constexpr std::array<SearchBenchPosition, 18> positions{{
    {"5/5/5/5/5 x 12 12 0 1", step, 9},
    {"oo3/4x/4x/5/xo3 x 9 9 0 4", step, 9},
    {"ooxxx/4x/4x/5/xoooo x 6 6 0 7", step, 10},
    {"ooxxx/oo1xx/4x/x1o1x/xoooo x 3 3 0 10", step, 12},
    {"ooooo/ooox1/oo3/xxxxx/xx1xx x 2 2 0 11", step, 14},
    {"ooxxx/oooxx/ox1xx/xooxx/xoooo x 0 0 0 13", step, 18},
    {"ooo1o/oooox/ooxxo/xxx1x/xxxxx x 0 0 1 16", step, 18},
    {"ooo1o/oooox/ooxxx/xx2x/xxxxx x 0 0 7 21", step, 14},
    {"oo1oo/oooox/ooxxx/xx1xx/x1xxx x 0 0 17 26", step, 12},
    {"oooxx/x3x/xx1xo/ooxxo/oooxx o 1 2 0 11", slide, 8},
    {"oooxx/xx3/x1ox1/ox1x1/oo1xx o 0 0 4 18", slide, 8},
    {"o1o1x/2x2/1ox2/2o2/2oxx o 0 0 7 32", slide, 9},
    {"oxxxo/o2oo/x2oo/xxxxo/xxoox o 1 2 0 11", diagonal, 10},
    {"ox1xo/3oo/1x1o1/x2xo/x1x1x o 0 0 0 18", diagonal, 10},
    {"o3o/x4/1xo1o/2x2/x1x1x x 0 0 3 29", diagonal, 11},
    {"oxoox/x2xx/xox1x/o1oxx/oooox o 0 0 9 18", slide_diagonal, 8},
    {"1ox2/o2x1/o1x1x/2ox1/3ox o 0 0 3 39", slide_diagonal, 8},
    // Under a clock limit of 40, 12 plies from the clock's end (the game ends there within the
    // horizon: a loss in 12; with the clock at 0 the same search scores cp -112).
    {"1ox2/o2x1/o1x1x/2ox1/3ox o 0 0 28 30", Rules{Movement::step, CaptureLines::orthogonal, 40}, 14},
}};

}  // namespace

std::span<const SearchBenchPosition> search_bench_positions() { return positions; }

Expected<SearchBenchResult> run_search_bench(const SearchBenchOptions& options,
                                const std::function<void(std::size_t, const SearchResult&)>& on_position) {
  Searcher searcher(SearchOptions{16, 1, options.features});
  if (auto ok = searcher.set_options(SearchOptions{16, options.threads, options.features}); !ok) return ok.error();
  SearchBenchResult total;
  // Only the searches are timed: clearing the table before each (about 1% of the time) and the
  // caller's progress lines are not the search's speed.
  std::chrono::steady_clock::duration searching{};
  for (std::size_t i = 0; i < positions.size(); ++i) {
    const auto pos = parse_position(positions[i].fen, positions[i].rules);
    if (!pos) return Error{"bench position " + std::to_string(i + 1) + ": " + pos.error().message};
    searcher.clear();
    SearchLimits limits;
    limits.depth = std::clamp(positions[i].depth + options.depth_offset, 1, max_search_depth);
    const auto start = std::chrono::steady_clock::now();
    const auto result = searcher.search(*pos, limits);
    searching += std::chrono::steady_clock::now() - start;
    if (!result) return result.error();
    total.nodes += result->nodes;
    if (on_position) on_position(i, *result);
  }
  total.time_us = std::chrono::duration_cast<std::chrono::microseconds>(searching).count();
  total.time_ms = total.time_us / 1000;
  return total;
}

}  // namespace moon
