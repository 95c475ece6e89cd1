// What the fuzz targets share: reading the fuzzer's bytes, and failing loudly.
//
// Each target defines LLVMFuzzerTestOneInput(). Built with -DMOON_BUILD_FUZZERS=ON (clang),
// libFuzzer drives it; otherwise replay_main.cpp runs it over the files of its corpus
// directory, so that every input in tests/fuzz/corpus/ is a regression test (docs/FUZZING.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <type_traits>

namespace moon::fuzz {

// The fuzzer's bytes, read from the front: single bytes for choices, text for the rest.
class FuzzInput {
 public:
  FuzzInput(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}

  bool empty() const { return size_ == 0; }
  // The next byte, or 0 once the input is used up.
  std::uint8_t byte() {
    if (size_ == 0) return 0;
    --size_;
    return *data_++;
  }
  std::uint32_t u32() {
    std::uint32_t value = 0;
    for (int i = 0; i < 4; ++i) value = value << 8 | byte();
    return value;
  }
  // Text up to the next byte equal to `end` (which is consumed), or to the end of the input.
  std::string text_until(char end) {
    std::size_t n = 0;
    while (n < size_ && data_[n] != static_cast<std::uint8_t>(end)) ++n;
    std::string text(reinterpret_cast<const char*>(data_), n);
    const std::size_t used = n < size_ ? n + 1 : n;
    data_ += used;
    size_ -= used;
    return text;
  }
  // All the bytes left, NULs included.
  std::string rest() {
    std::string text(reinterpret_cast<const char*>(data_), size_);
    data_ += size_;
    size_ = 0;
    return text;
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
};

// A broken invariant: says which and why, then aborts, which the fuzzer (or the replay run)
// reports with the input that did it.
[[noreturn]] inline void fail(std::string_view what, std::string_view detail) {
  std::fprintf(stderr, "fuzz invariant broken: %.*s\n  %.*s\n", int(what.size()), what.data(), int(detail.size()),
               detail.data());
  std::abort();
}

inline void require(bool holds, std::string_view what, std::string_view detail = {}) {
  if (!holds) fail(what, detail);
}

// The same, with the detail made only when the invariant is broken: a string built for every
// check would cost more than many of the checks.
template <class MakeDetail>
  requires std::is_invocable_r_v<std::string, MakeDetail>
void require(bool holds, std::string_view what, MakeDetail&& make_detail) {
  if (!holds) fail(what, make_detail());
}

}  // namespace moon::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);
