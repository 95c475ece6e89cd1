// One exact solve by SolveSearch on the calling thread, without Solver's threads or stop: how
// the solver's tests and its fuzz target put the search itself against minimax.
#pragma once

#include <atomic>
#include <functional>
#include <optional>
#include <string>

#include "moon/solve_search.hpp"

namespace moon::test {

// The value of pos proven on `table`, or nothing if the search did not finish; `note` gets the
// progress lines of a search in `role`.
inline std::optional<SolveResult> solve_directly(const Position& pos, SolveTable& table, bool distance,
                                                 const std::function<void(const std::string&)>& note = {},
                                                 SolveRole role = SolveRole::alone) {
  const std::atomic<bool> stop{false};
  SolveResult result;
  bool finished = false;
  with_variant(pos.rules(), [&](auto v) {
    SolveSearch<decltype(v)> search(table, stop);
    finished = search.solve(pos, distance, result, note, role);
  });
  if (!finished) return std::nullopt;
  return result;
}

}  // namespace moon::test
