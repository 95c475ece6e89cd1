// The engine options of `moon protocol`: declared in the handshake, changed by `setoption`.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "moon/expected.hpp"
#include "moon/rules.hpp"
#include "moon/search.hpp"
#include "moon/solver.hpp"

namespace moon::protocol {

struct EngineOptions {
  std::size_t hash_mb = SearchOptions{}.hash_mb;        // Hash: the search's transposition table, MiB
  int threads = 1;                                      // Threads: search, solver and go perft threads
  std::size_t solver_hash_mb = default_solve_hash_mb;   // Solver Hash: the solver's table (`go solve`), MiB
  Rules rules{};                                        // Movement, Diagonal Captures, Clock Limit
  std::int64_t move_overhead_ms = 30;                   // Move Overhead: kept back from the clock for I/O latency
  int multipv = 1;                                      // MultiPV: lines each `go` reports (SearchLimits::multipv)
  friend bool operator==(const EngineOptions&, const EngineOptions&) = default;
};

// The handshake's `option name ... type ... default ...` lines, each ending in '\n'.
std::string option_declarations();

// The options after `setoption name <name> value <value>`; names and values are matched
// without regard to case. An unknown name or a value out of range is an error, and then
// nothing changes.
Expected<EngineOptions> set_option(const EngineOptions& current, std::string_view name, std::string_view value);

}  // namespace moon::protocol
