// A program's or engine's output split into its lines, for the tests that read it line by line.
#pragma once

#include <sstream>
#include <string>
#include <vector>

namespace moon::test {

inline std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> result;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) result.push_back(line);
  return result;
}

}  // namespace moon::test
