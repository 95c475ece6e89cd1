// One exact solve by SolveSearch on the calling thread, without Solver's threads, stop or
// progress: how the solver's tests and its fuzz target put the search itself against minimax.
#pragma once

#include <atomic>
#include <optional>

#include "moon/solve_search.hpp"

namespace moon::test {

// The value of pos proven on `table`, or nothing if the search did not finish.
inline std::optional<SolveResult> solve_directly(const Position& pos, SolveTable& table, bool distance) {
  const std::atomic<bool> stop{false};
  SolveResult result;
  bool finished = false;
  with_variant(pos.rules(), [&](auto v) {
    SolveSearch<decltype(v)> search(table, stop);
    finished = search.solve(pos, distance, result);
  });
  if (!finished) return std::nullopt;
  return result;
}

}  // namespace moon::test
