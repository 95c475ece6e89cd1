// Fuzz target: the engine protocol (docs/PROTOCOL.md), in process. Input: lines, each handed
// to protocol::Engine::handle() as `moon protocol` would (up to 64 of them; `quit` ends early).
//
// A search, solve or perft a line starts runs on the engine's worker thread and is stopped when
// the engine is destroyed after the last line, so stop, isready and the commands that are
// refused while a task runs are all reached. The output must be whole lines.
//
// The table sizes and thread counts are held back: the engine gets a 1 MiB search table and no
// solver table first, and a line that mentions `hash` or `threads` is skipped if it holds a
// number above 4, since a size or thread count up to the machine's memory is valid and would
// only make the fuzzer slow (the parsing of large values is covered by the protocol tests).
// Small ones are let through, so that the options are set, changed and refused while a task runs.
#include <algorithm>
#include <cctype>
#include <sstream>
#include <string>
#include <string_view>

#include "fuzz_input.hpp"
#include "protocol/engine.hpp"

using moon::fuzz::require;

namespace {

bool mentions(std::string line, std::string_view word) {
  std::transform(line.begin(), line.end(), line.begin(), [](unsigned char c) { return std::tolower(c); });
  return line.find(word) != std::string::npos;
}

// True if every number written in the line (every run of digits) is at most 4.
bool small_numbers_only(std::string_view line) {
  for (std::size_t i = 0; i < line.size();) {
    if (!std::isdigit(static_cast<unsigned char>(line[i]))) {
      ++i;
      continue;
    }
    std::size_t end = i;
    while (end < line.size() && std::isdigit(static_cast<unsigned char>(line[end]))) ++end;
    std::string_view digits = line.substr(i, end - i);
    while (digits.size() > 1 && digits.front() == '0') digits.remove_prefix(1);
    if (digits.size() > 1 || digits.front() > '4') return false;
    i = end;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  moon::fuzz::FuzzInput input(data, size);
  std::ostringstream out;
  {
    moon::protocol::Engine engine(out);
    engine.handle("setoption name Hash value 1");
    engine.handle("setoption name Solver Hash value 0");
    for (int n = 0; n < 64 && !input.empty(); ++n) {
      const std::string line = input.text_until('\n');
      if ((mentions(line, "hash") || mentions(line, "threads")) && !small_numbers_only(line)) continue;
      if (!engine.handle(line)) break;
    }
  }
  const std::string text = out.str();
  require(text.empty() || text.back() == '\n', "the protocol's output ends inside a line", text);
  return 0;
}
