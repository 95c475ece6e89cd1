// Uses the C++ library of the installed package (moon::moon).
#include <cstdio>

#include "moon/moon.hpp"
#include "moon/search.hpp"

int main() {
  const moon::Position start = moon::Position::start();
  const auto counted = moon::perft(start, 4);
  if (!counted) return 1;
  std::printf("perft 4: %s\n", moon::to_string(counted->nodes).c_str());

  moon::Searcher searcher({.hash_mb = 1, .threads = 1});
  const auto result = searcher.search(start, {.depth = 2});
  if (!result || !moon::parse_move(moon::to_string(result->best), start)) return 1;
  std::printf("search: a legal move\n");
  return 0;
}
