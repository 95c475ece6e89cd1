// Threads kept for reuse, each with a stack of a chosen size (StackThread), that run one job
// together and wait for the next. The solver runs every search on these: its searches need far
// larger stacks than a thread usually has, and making such a thread for each solve cost about
// 0.17 ms, four times the whole proof of a small endgame (docs/SOLVER.md, "Long lines and the
// stack").
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "moon/expected.hpp"
#include "stack_thread.hpp"

namespace moon {

class ThreadPool {
 public:
  // Threads get a stack of `stack_bytes`; where the system will not give that much to all the
  // threads one reserve() or run() makes (a limit on a process's address space, say), all of them
  // get half as much, and so on down to `least_stack_bytes`. While it makes them, the pool holds
  // headroom_bytes of address space and lets them go after, so that stacks halved to fit leave
  // room for what the process does next (another thread, its memory), not a few KiB; only the
  // least stack is tried without it too, as threads that fit tightly beat none.
  static constexpr std::size_t headroom_bytes = std::size_t{64} << 20;
  // `start` makes each thread: StackThread::start, or, in the tests, a stand-in that refuses
  // some as the system would, so that what the pool does then runs under every sanitizer.
  using ThreadStarter =
      std::function<Expected<std::unique_ptr<StackThread>>(std::size_t stack_bytes, std::function<void()> work)>;
  explicit ThreadPool(std::size_t stack_bytes, std::size_t least_stack_bytes,
                      ThreadStarter start = &StackThread::start)
      : stack_bytes_(stack_bytes), least_stack_bytes_(least_stack_bytes), start_(std::move(start)) {}
  ~ThreadPool();  // ends the threads (no job may be running)
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  // Runs job(0), ..., job(count - 1), each on its own thread of the pool (made the first time
  // that many are needed), and returns when all have. An error, with nothing run, if the
  // system will not make the threads. An exception from a part (memory that cannot be had, say)
  // is rethrown here once every part has returned (the first, if several threw), where it
  // would otherwise end the process; the threads stay for the next job. Not to be called by two
  // threads at once.
  Expected<bool> run(int count, const std::function<void(int)>& job);
  // Makes threads until there are at least `count` (run() would make them otherwise); an error
  // if the system will not. Not while run() runs.
  Expected<bool> reserve(int count);
  // The stack of thread `index` (made by reserve() or run()).
  std::size_t stack_bytes(int index) const { return threads_[std::size_t(index)].stack_bytes; }

 private:
  // A thread's life: wait for a job of a generation after `seen`, run its part, again.
  void serve(int index, std::uint64_t seen);
  // Makes threads with stacks of `stack_bytes` until there are `count`; an error if one fails
  // (those made stay).
  Expected<bool> add_threads(int count, std::size_t stack_bytes);
  // Ends and joins the threads from index `first` on (no job may be running); all of them, from
  // 0, when the pool goes.
  void end_threads_from(std::size_t first);

  std::size_t stack_bytes_, least_stack_bytes_;
  ThreadStarter start_;
  std::mutex mutex_;
  std::condition_variable wake_, finished_;
  const std::function<void(int)>* job_ = nullptr;
  std::uint64_t generation_ = 0;  // one more for every job
  int active_ = 0;                // threads 0 .. active_ - 1 take part in the current job
  int running_ = 0;               // of those, the ones not yet done
  std::exception_ptr failure_;    // the first exception a part of the current job threw
  int kept_ = std::numeric_limits<int>::max();  // threads from this index on end (end_threads_from())
  struct Thread {
    std::unique_ptr<StackThread> thread;
    std::size_t stack_bytes;
  };
  std::vector<Thread> threads_;
};

}  // namespace moon
