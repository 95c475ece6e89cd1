// Random positions for the tests: custom setups written as position strings by a writer of
// their own (not the engine's), and random games played from them or from the start.
#pragma once

#include <algorithm>
#include <array>
#include <random>
#include <string>
#include <vector>

#include "moon/rules.hpp"

namespace moon::test {

// Every rule set the tests cover: step/slide x orthogonal/diagonal x clock limits 20, 10, 40, 1.
inline std::vector<Rules> all_rule_sets() {
  std::vector<Rules> sets;
  for (int limit : {20, 10, 40, 1})
    for (Movement movement : {Movement::step, Movement::slide})
      for (CaptureLines lines : {CaptureLines::orthogonal, CaptureLines::orthogonal_and_diagonal})
        sets.push_back(Rules{movement, lines, limit});
  return sets;
}

inline std::string rules_name(const Rules& rules) {
  std::string name = rules.slide() ? "slide" : "step";
  name += rules.diagonal() ? "+diagonal" : "";
  return name + " clock-limit " + std::to_string(rules.clock_limit);
}

// A custom setup as plain data: board[i] is 'x', 'o' or '.', i = (rank-1)*5 + file.
struct Setup {
  std::array<char, 25> board{};
  char side = 'x';
  int x_hand = 0, o_hand = 0, clock = 0, fullmove = 1;

  // The canonical position string: runs of empty squares as one digit, all six fields.
  std::string text() const {
    std::string s;
    for (int rank = 4; rank >= 0; --rank) {
      int run = 0;
      for (int file = 0; file < 5; ++file) {
        const char c = board[std::size_t(rank * 5 + file)];
        if (c == '.') {
          ++run;
          continue;
        }
        if (run) s += char('0' + run);
        run = 0;
        s += c;
      }
      if (run) s += char('0' + run);
      if (rank) s += '/';
    }
    return s + ' ' + side + ' ' + std::to_string(x_hand) + ' ' + std::to_string(o_hand) + ' ' +
           std::to_string(clock) + ' ' + std::to_string(fullmove);
  }

  // The same position with every run of empty squares split at random into adjacent digits
  // ("5" may become "23" or "1112"): a non-canonical text that must read the same.
  template <class Rng>
  std::string split_digits_text(Rng& rng) const {
    const std::string canonical = text();
    std::string s;
    for (char c : canonical) {
      if (c < '1' || c > '5' || s.find(' ') != std::string::npos) {
        s += c;
        continue;
      }
      for (int left = c - '0'; left > 0;) {
        const int part = 1 + int(rng() % unsigned(left));
        s += char('0' + part);
        left -= part;
      }
    }
    return s;
  }
};

// A random valid setup. Placement setups keep c3 empty and hands that fit the alternation;
// movement setups have any number of counters (0 to 12 a side, so some are already over) and
// a clock from 0 to the limit, often close to it.
// shape: 0 sparse (near the end), 1 dense, 2 nearly full (blocked sides), 3 any number; -1 any
// of these at random.
template <class Rng>
Setup random_setup(Rng& rng, const Rules& rules, bool placement, int shape = -1) {
  const auto below = [&](int n) { return int(rng() % unsigned(n)); };
  Setup s;
  s.board.fill('.');
  s.side = below(2) ? 'o' : 'x';
  s.fullmove = 1 + below(60);
  if (placement) {
    s.x_hand = 1 + below(s.side == 'x' ? 12 : 11);
    s.o_hand = s.x_hand + (s.side == 'o');
  } else {
    const int kind = below(4);
    s.clock = kind == 0 ? std::max(0, rules.clock_limit - below(3)) : below(rules.clock_limit + 1);
  }
  if (shape < 0) shape = below(4);
  const auto number = [&](int most) {
    if (most <= 0) return 0;
    if (shape == 0) return below(std::min(most, 4) + 1);
    if (shape == 1) return most - below(std::min(most, 3) + 1);
    if (shape == 2) return most - below(std::min(most, 1) + 1);
    return below(most + 1);
  };
  std::vector<int> free;
  for (int i = 0; i < 25; ++i)
    if (!placement || i != 12) free.push_back(i);
  std::shuffle(free.begin(), free.end(), rng);
  const int nx = number(12 - s.x_hand), no = std::min<int>(number(12 - s.o_hand), int(free.size()) - nx);
  for (int i = 0; i < nx; ++i) s.board[std::size_t(free[std::size_t(i)])] = 'x';
  for (int i = nx; i < nx + no; ++i) s.board[std::size_t(free[std::size_t(i)])] = 'o';
  return s;
}

}  // namespace moon::test
