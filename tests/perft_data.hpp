// Reads perft data files: lines "RULE FLAGS | POSITION STRING | perft(1) perft(2) ...".
#pragma once

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "moon/rules.hpp"

namespace moon::test {

struct PerftCase {
  std::string flags;
  Rules rules;
  std::string position;
  std::vector<std::uint64_t> counts;  // counts[i] = perft(i + 1)
  int line = 0;
};

inline Rules rules_from_flags(const std::string& flags) {
  Rules rules;
  std::istringstream words(flags);
  for (std::string word; words >> word;) {
    if (word == "--slide") rules.movement = Movement::slide;
    else if (word == "--diagonal") rules.capture_lines = CaptureLines::orthogonal_and_diagonal;
    else if (word == "--clock-limit") words >> rules.clock_limit;
    else throw std::runtime_error("unknown rule flag " + word);
  }
  return rules;
}

inline std::vector<PerftCase> read_perft_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::vector<PerftCase> cases;
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    if (line.empty() || line[0] == '#') continue;
    const auto first = line.find('|'), second = line.find('|', first + 1);
    if (first == std::string::npos || second == std::string::npos) throw std::runtime_error("bad line in " + path);
    PerftCase c;
    c.flags = line.substr(0, first);
    c.rules = rules_from_flags(c.flags);
    c.position = line.substr(first + 1, second - first - 1);
    std::istringstream counts(line.substr(second + 1));
    for (std::uint64_t n; counts >> n;) c.counts.push_back(n);
    c.line = number;
    cases.push_back(c);
  }
  return cases;
}

}  // namespace moon::test
