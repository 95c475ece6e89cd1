#include "thread_pool.hpp"

#include <sys/mman.h>

#include <optional>
#include <utility>

namespace moon {

namespace {

// Address space taken (no memory: nothing can touch it) while it lives, where the system gives
// it; where it will not, nothing (there is no room to keep then).
class AddressSpaceHold {
 public:
  explicit AddressSpaceHold(std::size_t bytes) : bytes_(bytes) {
    start_ = mmap(nullptr, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  }
  ~AddressSpaceHold() {
    if (start_ != MAP_FAILED) munmap(start_, bytes_);
  }
  AddressSpaceHold(const AddressSpaceHold&) = delete;
  AddressSpaceHold& operator=(const AddressSpaceHold&) = delete;

 private:
  std::size_t bytes_;
  void* start_;
};

}  // namespace

ThreadPool::~ThreadPool() { end_threads_from(0); }

Expected<bool> ThreadPool::reserve(int count) {
  if (int(threads_.size()) >= count) return true;
  std::optional<AddressSpaceHold> headroom(std::in_place, headroom_bytes);
  const std::size_t kept = threads_.size();
  for (std::size_t bytes = stack_bytes_;;) {
    const auto made = add_threads(count, bytes);
    if (made) return made;
    // All the threads this call makes get the same stack: keeping the ones made at the larger
    // size and giving the rest ever less would let the first few take the address space the
    // others need (under a 4 GiB limit `moon solve` refused 24 threads, where 24 of 64 MiB fit).
    end_threads_from(kept);
    if (bytes / 2 >= least_stack_bytes_)
      bytes /= 2;
    else if (headroom)
      headroom.reset();  // the least stack once more, without room to spare: threads rather than none
    else
      return made;
  }
}

Expected<bool> ThreadPool::add_threads(int count, std::size_t stack_bytes) {
  while (int(threads_.size()) < count) {
    const int index = int(threads_.size());
    // The generation it is made in, which it has no part in; run() is never called by two
    // threads at once, so generation_ does not change meanwhile.
    auto thread = start_(stack_bytes, [this, index, made_in = generation_] { serve(index, made_in); });
    if (!thread) return thread.error();
    threads_.push_back({std::move(thread).value(), stack_bytes});
  }
  return true;
}

void ThreadPool::end_threads_from(std::size_t first) {
  {
    std::lock_guard lock(mutex_);
    kept_ = int(first);
  }
  wake_.notify_all();
  threads_.erase(threads_.begin() + std::ptrdiff_t(first), threads_.end());  // joins them
  std::lock_guard lock(mutex_);
  kept_ = std::numeric_limits<int>::max();
}

Expected<bool> ThreadPool::run(int count, const std::function<void(int)>& job) {
  if (const auto made = reserve(count); !made) return made;
  std::unique_lock lock(mutex_);
  job_ = &job;
  active_ = running_ = count;
  ++generation_;
  wake_.notify_all();
  finished_.wait(lock, [&] { return running_ == 0; });
  job_ = nullptr;
  if (failure_) std::rethrow_exception(std::exchange(failure_, nullptr));
  return true;
}

void ThreadPool::serve(int index, std::uint64_t seen) {
  std::unique_lock lock(mutex_);
  // A thread that starts after its first job was posted finds generation_ ahead of `seen`, and
  // takes part all the same.
  for (;;) {
    wake_.wait(lock, [&] { return index >= kept_ || generation_ != seen; });
    if (index >= kept_) return;
    seen = generation_;
    if (index >= active_) continue;  // not needed this time
    const std::function<void(int)>& job = *job_;
    lock.unlock();
    std::exception_ptr thrown;
    try {
      job(index);
    } catch (...) {
      thrown = std::current_exception();
    }
    lock.lock();
    if (thrown && !failure_) failure_ = std::move(thrown);
    if (--running_ == 0) finished_.notify_all();
  }
}

}  // namespace moon
