// Fuzz target: the exact solver (solve_search.hpp) against exhaustive minimax (tests/minimax.hpp).
// Input: a byte of rule bits (1: slide, 2: diagonal), a byte choosing the clock limit (1 to 8),
// then a position string. Positions minimax cannot settle within 100 000 nodes are passed over.
//
// The solver must find minimax's outcome and distance with no table, with a 256-byte one (16
// entries: nearly every store replaces another) and with a 1 MiB one, and a best move that keeps
// both; asked for the outcome alone, the same outcome.
#include <string>

#include "fuzz_input.hpp"
#include "minimax.hpp"
#include "moon/notation.hpp"
#include "solve_directly.hpp"

using namespace moon;
using moon::fuzz::require;

namespace {

SolveResult solve(const Position& pos, SolveTable& table, bool distance) {
  const auto result = test::solve_directly(pos, table, distance);
  require(result.has_value(), "a solve without a stop request did not finish", to_string(pos));
  return *result;
}

std::string describe(const Position& pos, const SolveResult& r, const test::Truth& t) {
  return to_string(pos) + " (limit " + std::to_string(pos.rules().clock_limit) + "): solver " +
         std::string(to_string(r.outcome)) + " " + std::to_string(r.plies) + ", minimax " +
         std::string(to_string(t.outcome)) + " " + std::to_string(t.plies);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  moon::fuzz::FuzzInput input(data, size);
  const std::uint8_t variant = input.byte();
  const int limit = 1 + input.byte() % 8;
  const auto rules = make_rules((variant & 1) ? Movement::slide : Movement::step,
                                (variant & 2) ? CaptureLines::orthogonal_and_diagonal : CaptureLines::orthogonal, limit);
  require(rules.has_value(), "make_rules refuses a limit in 1..8");
  const auto pos = parse_position(input.rest(), *rules);
  if (!pos) return 0;
  const auto truth = test::truth(*pos, 100000);
  if (!truth) return 0;

  SolveTable none, tiny, small(1);
  require(tiny.resize_bytes(256), "a 256-byte table cannot be had");
  for (SolveTable* table : {&none, &tiny, &small}) {
    const SolveResult r = solve(*pos, *table, true);
    require(r.outcome == truth->outcome && r.plies == truth->plies, "the solver differs from minimax",
            describe(*pos, r, *truth));
    if (pos->is_over()) {
      require(r.best.is_null(), "a best move in a game that is over", to_string(*pos));
    } else {
      require(legal_moves(*pos).contains(r.best), "an illegal best move", describe(*pos, r, *truth));
      const auto child = test::truth(pos->after(r.best), 1000000);
      require(child && child->outcome == opposite(truth->outcome) && child->plies == truth->plies - 1,
              "the best move does not keep the value", describe(*pos, r, *truth) + ", best " + to_string(r.best));
    }
    const SolveResult outcome_only = solve(*pos, *table, false);
    require(outcome_only.outcome == truth->outcome, "the solver's outcome alone differs from minimax",
            describe(*pos, outcome_only, *truth));
  }
  return 0;
}
