// The engine's rules and results in the terms of the plain reference implementation
// (tests/reference/, which knows nothing of the engine), for the tests that compare the two.
#pragma once

#include "moon/position.hpp"
#include "moon/rules.hpp"
#include "reference.hpp"

namespace moon::test {

inline reference::Rules to_reference(const Rules& rules) {
  reference::Rules r;
  r.slide = rules.slide();
  r.diagonal = rules.diagonal();
  r.clock_limit = rules.clock_limit;
  return r;
}

// As reference::result() gives it: 'x' or 'o' (the winner), 'd' (draw), '-' (not over).
inline char reference_result(Result r) {
  switch (r) {
    case Result::x_wins: return 'x';
    case Result::o_wins: return 'o';
    case Result::draw: return 'd';
    case Result::none: break;
  }
  return '-';
}

}  // namespace moon::test
