// A thread with a stack of a chosen size, joined when it goes. std::thread cannot choose its
// stack size, and the solver's searches need more than a thread's usual 8 MiB: they recurse one
// call per ply, a few KiB each, along lines thousands of plies long (solver.cpp).
#pragma once

#include <cstddef>
#include <functional>
#include <memory>

#include "moon/expected.hpp"

namespace moon {

class StackThread {
 public:
  // Runs `work` on a new thread with a stack of `stack_bytes`; an error if the system will
  // not make it (the size is only reserved: pages are used as the stack grows into them).
  static Expected<std::unique_ptr<StackThread>> start(std::size_t stack_bytes, std::function<void()> work);
  ~StackThread();  // waits for the work to finish
  StackThread(const StackThread&) = delete;
  StackThread& operator=(const StackThread&) = delete;

 private:
  struct Handle;
  StackThread();
  std::function<void()> work_;
  std::unique_ptr<Handle> handle_;
};

}  // namespace moon
