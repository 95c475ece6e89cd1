// The one error style of the library: a value or an Error that says what is wrong.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace moon {

struct Error {
  std::string message;
  // The error is only that a stop was asked for (a perft, solve or table making cut short):
  // nothing failed. Callers report it as stopped, and anything else as a failure, by this flag
  // and not by whether a stop was requested: a stop that comes just as something else fails
  // (an invalid depth, a table or thread the system would not give) must not hide the failure.
  bool stopped = false;
};

// A minimal std::expected (C++23) for C++20: holds either a T or an Error.
template <class T>
class Expected {
 public:
  Expected(T value) : state_(std::move(value)) {}
  Expected(Error error) : state_(std::move(error)) {}

  bool has_value() const { return state_.index() == 0; }
  explicit operator bool() const { return has_value(); }
  // Precondition: has_value().
  const T& value() const& { return std::get<0>(state_); }
  T& value() & { return std::get<0>(state_); }
  T&& value() && { return std::get<0>(std::move(state_)); }
  const T& operator*() const& { return value(); }
  T& operator*() & { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  const T* operator->() const { return &value(); }
  T* operator->() { return &value(); }
  // Precondition: !has_value().
  const Error& error() const { return std::get<1>(state_); }

 private:
  std::variant<T, Error> state_;
};

}  // namespace moon
