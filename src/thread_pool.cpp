#include "thread_pool.hpp"

namespace moon {

ThreadPool::~ThreadPool() {
  {
    std::lock_guard lock(mutex_);
    quit_ = true;
  }
  wake_.notify_all();
  threads_.clear();  // joins them
}

Expected<bool> ThreadPool::reserve(int count) {
  while (int(threads_.size()) < count) {
    const int index = int(threads_.size());
    // The generation it is made in, which it has no part in; run() is never called by two
    // threads at once, so generation_ does not change meanwhile.
    const auto serve_job = [this, index, made_in = generation_] { serve(index, made_in); };
    std::size_t bytes = stack_bytes_;
    auto thread = StackThread::start(bytes, serve_job);
    while (!thread && bytes / 2 >= least_stack_bytes_) thread = StackThread::start(bytes /= 2, serve_job);
    if (!thread) return thread.error();
    threads_.push_back({std::move(thread).value(), bytes});
  }
  return true;
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
  return true;
}

void ThreadPool::serve(int index, std::uint64_t seen) {
  std::unique_lock lock(mutex_);
  // A thread that starts after its first job was posted finds generation_ ahead of `seen`, and
  // takes part all the same.
  for (;;) {
    wake_.wait(lock, [&] { return quit_ || generation_ != seen; });
    if (quit_) return;
    seen = generation_;
    if (index >= active_) continue;  // not needed this time
    const std::function<void(int)>& job = *job_;
    lock.unlock();
    job(index);
    lock.lock();
    if (--running_ == 0) finished_.notify_all();
  }
}

}  // namespace moon
