#include "protocol/options.hpp"

#include <algorithm>

#include "moon/memory.hpp"
#include "moon/search.hpp"
#include "moon/solver.hpp"
#include "moon/transposition_table.hpp"
#include "protocol/words.hpp"
#include "whole_number.hpp"

namespace moon::protocol {

namespace {

// Hash and Threads follow the Searcher's own validation (search.hpp).
constexpr std::int64_t max_hash_mb = TranspositionTable::max_mb;
constexpr std::int64_t max_solver_hash_mb = max_solve_hash_mb;
constexpr std::int64_t max_threads = max_search_threads;
static_assert(max_solve_threads == max_search_threads, "Threads serves the search and the solver");
constexpr std::int64_t max_move_overhead_ms = 5000;

// The largest table size worth declaring: `limit` (the Searcher's or the Solver's), or the
// machine's memory if less. Set larger (the options accept up to `limit`), a size is refused
// with the reason.
std::int64_t usable_hash_mb(std::int64_t limit) {
  const std::int64_t memory = std::int64_t(physical_memory_mb());
  return memory ? std::min(memory, limit) : limit;
}

// A table size in the library's range, refused with that range; where `umi` declares a smaller
// maximum (the machine's memory), the message gives it too, so that it agrees with the
// declaration (a size between the two is refused later, with the reason).
Expected<std::int64_t> table_mb(std::string_view value, std::string_view what, std::int64_t low, std::int64_t limit) {
  auto mb = parse_whole_number(value, what, low, limit);
  if (const std::int64_t usable = usable_hash_mb(limit); !mb && usable < limit)
    return Error{mb.error().message + " (at most " + std::to_string(usable) + " here: this machine's memory)"};
  return mb;
}

}  // namespace

std::string option_declarations() {
  const EngineOptions d;
  return "option name Hash type spin default " + std::to_string(d.hash_mb) + " min 1 max " +
         std::to_string(usable_hash_mb(max_hash_mb)) + "\n" +
         "option name Threads type spin default " + std::to_string(d.threads) + " min 1 max " +
         std::to_string(max_threads) + "\n" +
         "option name Solver Hash type spin default " + std::to_string(d.solver_hash_mb) + " min 0 max " +
         std::to_string(usable_hash_mb(max_solver_hash_mb)) + "\n" +
         "option name Movement type combo default step var step var slide\n"
         "option name Diagonal Captures type check default false\n"
         "option name Clock Limit type spin default " + std::to_string(d.rules.clock_limit) + " min " +
         std::to_string(Rules::min_clock_limit) + " max " + std::to_string(Rules::max_clock_limit) + "\n" +
         "option name Move Overhead type spin default " + std::to_string(d.move_overhead_ms) + " min 0 max " +
         std::to_string(max_move_overhead_ms) + "\n" +
         "option name MultiPV type spin default " + std::to_string(d.multipv) + " min 1 max " +
         std::to_string(max_multipv) + "\n";
}

Expected<EngineOptions> set_option(const EngineOptions& current, std::string_view name, std::string_view value) {
  EngineOptions next = current;
  auto number = [&](std::string_view what, std::int64_t low, std::int64_t high) {
    return parse_whole_number(value, what, low, high);
  };
  if (same_name(name, "Hash")) {
    const auto mb = table_mb(value, "Hash", 1, max_hash_mb);
    if (!mb) return mb.error();
    next.hash_mb = std::size_t(*mb);
  } else if (same_name(name, "Solver Hash")) {
    const auto mb = table_mb(value, "Solver Hash", 0, max_solver_hash_mb);
    if (!mb) return mb.error();
    next.solver_hash_mb = std::size_t(*mb);
  } else if (same_name(name, "Threads")) {
    const auto n = number("Threads", 1, max_threads);
    if (!n) return n.error();
    next.threads = int(*n);
  } else if (same_name(name, "Movement")) {
    if (same_name(value, "step")) next.rules.movement = Movement::step;
    else if (same_name(value, "slide")) next.rules.movement = Movement::slide;
    else return Error{"Movement must be step or slide, not " + moon::quoted(value)};
  } else if (same_name(name, "Diagonal Captures")) {
    if (same_name(value, "true")) next.rules.capture_lines = CaptureLines::orthogonal_and_diagonal;
    else if (same_name(value, "false")) next.rules.capture_lines = CaptureLines::orthogonal;
    else return Error{"Diagonal Captures must be true or false, not " + moon::quoted(value)};
  } else if (same_name(name, "Clock Limit")) {
    const auto n = number("Clock Limit", Rules::min_clock_limit, Rules::max_clock_limit);
    if (!n) return n.error();
    next.rules.clock_limit = int(*n);
  } else if (same_name(name, "Move Overhead")) {
    const auto ms = number("Move Overhead", 0, max_move_overhead_ms);
    if (!ms) return ms.error();
    next.move_overhead_ms = *ms;
  } else if (same_name(name, "MultiPV")) {
    const auto n = number("MultiPV", 1, max_multipv);
    if (!n) return n.error();
    next.multipv = int(*n);
  } else {
    return Error{"unknown option " + moon::quoted(name) +
                 " (options: Hash, Threads, Solver Hash, Movement, Diagonal Captures, Clock Limit, Move Overhead, "
                 "MultiPV)"};
  }
  return next;
}

}  // namespace moon::protocol
