// The solver's threads (src/thread_pool.hpp, src/stack_thread.hpp): every part of a job runs
// once, on a thread of the pool's, with the stack it was promised; threads are kept between jobs.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <new>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "machine_memory.hpp"
#include "stack_thread.hpp"
#include "thread_pool.hpp"

namespace {

// Writes `bytes` of stack, a frame of 64 KiB at a time, and returns their sum (so that nothing
// is optimised away).
[[gnu::noinline]] unsigned touch_stack(std::size_t bytes) {
  volatile unsigned char frame[64 << 10];
  std::memset(const_cast<unsigned char*>(frame), 1, sizeof frame);
  const unsigned here = frame[0] + frame[sizeof frame - 1];
  return bytes <= sizeof frame ? here : here + touch_stack(bytes - sizeof frame);
}

// Stands in for StackThread::start() on a system with `budget` bytes of address space for
// stacks: a thread whose stack would take the stacks of the threads alive past it is refused,
// as the system refuses one under a limit on the process's address space; a thread's stack is
// given back when its work ends. Unlike a real limit (AddressSpaceGuard), this works under the
// sanitizers, whose shadow memory would not fit in one: ThreadSanitizer checks the threads the
// pool ends after a refusal too.
class StackBudget {
 public:
  explicit StackBudget(std::size_t budget) : budget_(budget) {}
  StackBudget(const StackBudget&) = delete;
  StackBudget& operator=(const StackBudget&) = delete;

  moon::ThreadPool::ThreadStarter starter() {
    return [this](std::size_t bytes, std::function<void()> work) -> moon::Expected<std::unique_ptr<moon::StackThread>> {
      for (std::size_t used = used_.load(); used + bytes <= budget_;)
        if (used_.compare_exchange_weak(used, used + bytes)) {
          auto thread = moon::StackThread::start(bytes, [this, bytes, work = std::move(work)] {
            work();
            used_ -= bytes;
          });
          if (!thread) used_ -= bytes;
          return thread;
        }
      ++refused_;
      return moon::Error{"cannot start a thread with a " + std::to_string(bytes >> 20) +
                         " MiB stack: over the test's budget"};
    };
  }
  // The stacks of the threads alive.
  std::size_t used() const { return used_.load(); }
  int refused() const { return refused_.load(); }

 private:
  const std::size_t budget_;
  std::atomic<std::size_t> used_{0};
  std::atomic<int> refused_{0};
};

}  // namespace

TEST_CASE("ThreadPool: each part of a job runs once, on the pool's threads, kept between jobs" *
          doctest::test_suite("threads")) {
  moon::ThreadPool pool(std::size_t{16} << 20, std::size_t{16} << 20);
  std::mutex mutex;
  std::vector<std::thread::id> ran_on(4);
  std::vector<int> runs(4, 0);
  const auto job = [&](int index) {
    std::lock_guard lock(mutex);
    ++runs[std::size_t(index)];
    ran_on[std::size_t(index)] = std::this_thread::get_id();
  };
  REQUIRE(pool.run(3, job).has_value());
  CHECK(runs == std::vector<int>{1, 1, 1, 0});
  for (int i = 0; i < 3; ++i) CHECK(pool.stack_bytes(i) == std::size_t{16} << 20);
  const std::set<std::thread::id> first(ran_on.begin(), ran_on.begin() + 3);
  CHECK(first.size() == 3);
  CHECK(first.count(std::this_thread::get_id()) == 0);  // not on the caller's thread
  const std::vector<std::thread::id> threads_of_first = ran_on;

  REQUIRE(pool.run(1, job).has_value());  // fewer: the others wait
  CHECK(runs == std::vector<int>{2, 1, 1, 0});
  REQUIRE(pool.run(4, job).has_value());  // more: one thread is made
  CHECK(runs == std::vector<int>{3, 2, 2, 1});
  for (std::size_t i = 0; i < 3; ++i) CHECK(ran_on[i] == threads_of_first[i]);  // the same threads
  CHECK(std::set<std::thread::id>(ran_on.begin(), ran_on.end()).size() == 4);

  // reserve() makes threads ahead of the job that uses them.
  REQUIRE(pool.reserve(6).has_value());
  std::atomic<int> parts{0};
  REQUIRE(pool.run(6, [&](int) { ++parts; }).has_value());
  CHECK(parts == 6);
}

TEST_CASE("ThreadPool: a part that throws: run() rethrows it once every part has returned; the threads stay" *
          doctest::test_suite("threads")) {
  moon::ThreadPool pool(std::size_t{1} << 20, std::size_t{1} << 20);
  std::atomic<int> finished{0};
  const auto job = [&](int index) {
    if (index == 1) throw std::runtime_error("part 1 failed");
    if (index == 2) throw std::bad_alloc();
    std::this_thread::sleep_for(std::chrono::milliseconds(50));  // still running when the others throw
    ++finished;
  };
  try {
    (void)pool.run(4, job);
    FAIL("run() returned");
  } catch (const std::runtime_error& e) {
    CHECK(std::string(e.what()) == "part 1 failed");
  } catch (const std::bad_alloc&) {  // whichever threw first
  }
  CHECK(finished == 2);  // parts 0 and 3 had returned
  std::atomic<int> parts{0};
  REQUIRE(pool.run(4, [&](int) { ++parts; }).has_value());  // the next job runs on the same threads
  CHECK(parts == 4);
}

TEST_CASE("ThreadPool: the threads have the stack they were made with" * doctest::test_suite("threads")) {
  // 12 MiB of stack, more than a thread usually has (8 MiB), on threads of 64 MiB: the solver's
  // searches need that on long lines (docs/SOLVER.md, "Long lines and the stack").
  moon::ThreadPool pool(std::size_t{64} << 20, std::size_t{64} << 20);
  std::atomic<unsigned> sum{0};
  REQUIRE(pool.run(2, [&](int) { sum += touch_stack(std::size_t{12} << 20); }).has_value());
  CHECK(sum == 2 * 2 * (std::size_t{12} << 20) / (64 << 10));
}

#ifndef MOON_SANITIZE_BUILD  // the sanitizers' shadow memory does not fit in the limit
TEST_CASE("ThreadPool: short of address space, the threads one call makes share a smaller stack" *
          doctest::test_suite("threads")) {
  const moon::test::AddressSpaceGuard guard(1024);  // 1 GiB more than the process has now
  constexpr std::size_t mib = std::size_t{1} << 20;
  moon::ThreadPool pool(256 * mib, 16 * mib);
  REQUIRE(pool.reserve(2).has_value());  // 512 MiB fit
  CHECK(pool.stack_bytes(0) == 256 * mib);
  CHECK(pool.stack_bytes(1) == 256 * mib);
  // Six more of 256 MiB, or of 128, do not fit beside them: all six get the same, less. (Made
  // one by one, each as large as still fitted, the first would have taken 256 MiB, the next
  // ones ever less.)
  REQUIRE(pool.reserve(8).has_value());
  CHECK(pool.stack_bytes(0) == 256 * mib);  // the threads made before keep theirs
  CHECK(pool.stack_bytes(1) == 256 * mib);
  const std::size_t smaller = pool.stack_bytes(2);
  CHECK(smaller < 128 * mib);
  CHECK(smaller >= 16 * mib);
  for (int i = 3; i < 8; ++i) CHECK(pool.stack_bytes(i) == smaller);
  std::atomic<int> parts{0};
  REQUIRE(pool.run(8, [&](int) { ++parts; }).has_value());
  CHECK(parts == 8);
  // Too many for even the least stack: an error, and the threads there were still work.
  const auto refused = pool.reserve(200);
  REQUIRE_FALSE(refused.has_value());
  CHECK(refused.error().message.find("cannot start a thread with a 16 MiB stack") == 0);
  REQUIRE(pool.run(8, [&](int) { ++parts; }).has_value());
  CHECK(parts == 16);
}
#endif

#ifndef MOON_SANITIZE_BUILD
TEST_CASE("ThreadPool: short of address space, the threads leave room for what the process does next" *
          doctest::test_suite("threads")) {
  constexpr std::size_t mib = std::size_t{1} << 20;
  static_assert(moon::ThreadPool::headroom_bytes == 64 * mib, "the sizes below assume it");
  const moon::test::AddressSpaceGuard guard(516);
  moon::ThreadPool pool(256 * mib, 16 * mib);
  REQUIRE(pool.reserve(4).has_value());
  // Four stacks of 128 MiB would fit, but leave 4 MiB: not the headroom of 64 MiB. Of 64 MiB
  // they leave 260.
  for (int i = 0; i < 4; ++i) CHECK(pool.stack_bytes(i) == 64 * mib);
  // What a program does next: a thread with the usual stack (std::thread throws if the system
  // will not make it), and memory.
  CHECK_NOTHROW(std::thread([] {}).join());
  CHECK_NOTHROW(std::vector<char>(32 * mib, 1));
  std::atomic<int> parts{0};
  REQUIRE(pool.run(4, [&](int) { ++parts; }).has_value());
  CHECK(parts == 4);
  // Where only the least stack fits, and without the headroom, the threads are made all the same.
  moon::ThreadPool tight(256 * mib, 32 * mib);
  const moon::test::AddressSpaceGuard tighter(100);  // of the 100 MiB more, 64 are held at first
  REQUIRE(tight.reserve(2).has_value());
  CHECK(tight.stack_bytes(0) == 32 * mib);
  CHECK(tight.stack_bytes(1) == 32 * mib);
}
#endif

TEST_CASE("ThreadPool: refused threads: the ones a call made are ended, all get the same smaller stack" *
          doctest::test_suite("threads")) {
  constexpr std::size_t mib = std::size_t{1} << 20;
  StackBudget budget(160 * mib);
  moon::ThreadPool pool(64 * mib, 4 * mib, budget.starter());
  REQUIRE(pool.reserve(2).has_value());  // 128 MiB fit
  CHECK(budget.used() == 128 * mib);
  CHECK(budget.refused() == 0);
  // Six more: none of 64 MiB fits beside them, one of 32, two of 16, four of 8, all six of 4.
  // After each refusal the threads that call made are ended and given back before the next
  // size is tried, so the six get 4 MiB each, not a mixture.
  REQUIRE(pool.reserve(8).has_value());
  CHECK(budget.refused() == 4);
  CHECK(pool.stack_bytes(0) == 64 * mib);  // the threads made before keep theirs
  CHECK(pool.stack_bytes(1) == 64 * mib);
  for (int i = 2; i < 8; ++i) CHECK(pool.stack_bytes(i) == 4 * mib);
  CHECK(budget.used() == 152 * mib);
  std::atomic<int> parts{0};
  REQUIRE(pool.run(8, [&](int) { ++parts; }).has_value());
  CHECK(parts == 8);
  // Three more do not fit even at the least stack: an error; the threads made on the way are
  // ended, the eight there were still work.
  const auto refused = pool.reserve(11);
  REQUIRE_FALSE(refused.has_value());
  CHECK(refused.error().message == "cannot start a thread with a 4 MiB stack: over the test's budget");
  CHECK(budget.used() == 152 * mib);
  const auto not_run = pool.run(11, [&](int) { ++parts; });  // run() makes its threads the same way
  REQUIRE_FALSE(not_run.has_value());
  CHECK(parts == 8);  // nothing ran
  CHECK(budget.used() == 152 * mib);
  REQUIRE(pool.run(8, [&](int) { ++parts; }).has_value());
  CHECK(parts == 16);
}

TEST_CASE("StackThread: a stack the system cannot give is an error that says so, not a crash" *
          doctest::test_suite("threads")) {
  bool ran = false;
  const auto thread = moon::StackThread::start(std::size_t{1} << 60, [&] { ran = true; });
  REQUIRE_FALSE(thread.has_value());
  CHECK(thread.error().message.find("cannot start a thread with a ") == 0);
  CHECK_FALSE(ran);
  moon::ThreadPool pool(std::size_t{1} << 60, std::size_t{1} << 50);  // halving finds no size either
  const auto none = pool.run(1, [&](int) { ran = true; });
  REQUIRE_FALSE(none.has_value());
  CHECK_FALSE(ran);
}
