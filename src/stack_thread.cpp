#include "stack_thread.hpp"

#include <pthread.h>

#include <cstring>
#include <string>

namespace moon {

struct StackThread::Handle {
  pthread_t thread;
};

StackThread::StackThread() : handle_(std::make_unique<Handle>()) {}

Expected<std::unique_ptr<StackThread>> StackThread::start(std::size_t stack_bytes, std::function<void()> work) {
  std::unique_ptr<StackThread> t(new StackThread());
  t->work_ = std::move(work);
  const auto failed = [&](int code) {
    return Error{"cannot start a thread with a " + std::to_string(stack_bytes >> 20) + " MiB stack: " +
                 std::strerror(code)};
  };
  pthread_attr_t attributes;
  if (const int code = pthread_attr_init(&attributes)) return failed(code);
  int code = pthread_attr_setstacksize(&attributes, stack_bytes);
  if (!code) {
    code = pthread_create(
        &t->handle_->thread, &attributes,
        [](void* thread_work) -> void* {
          (*static_cast<std::function<void()>*>(thread_work))();
          return nullptr;
        },
        &t->work_);
  }
  pthread_attr_destroy(&attributes);
  if (code) {
    t->handle_.reset();  // nothing to join
    return failed(code);
  }
  return t;
}

StackThread::~StackThread() {
  if (handle_) pthread_join(handle_->thread, nullptr);
}

}  // namespace moon
