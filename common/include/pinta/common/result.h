// File: pinta/common/result.h
// Errors as values. No exception crosses a public function of the project: a function that can
// fail returns Result<T>, shaped like std::expected (C++23) so it can be swapped later.
// Tests match Error::code, never the message.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace pinta {

// Stable error codes. Add at the end; never renumber (codes appear in reports and logs).
enum class ErrorCode : int {
  kOk = 0,
  kInvalidArgument = 1,  // a caller-supplied value is malformed (flag, option, case field)
  kParse = 2,            // bytes that should be JSON (or a config format) are not
  kNotFound = 3,         // a file or key that must exist does not
  kIo = 4,               // read/write/rename failed
  kTimeout = 5,          // a deadline passed
  kUnavailable = 6,      // a peer (guard, collector, process) could not be reached
  kTooLarge = 7,         // input over a documented cap
  kPermission = 8,       // file mode/ownership unacceptable
  kProtocol = 9,         // a peer answered, but not in the expected shape
  kInternal = 10,        // a bug: an invariant did not hold
};

std::string_view error_code_name(ErrorCode code) noexcept;

struct Error {
  ErrorCode code = ErrorCode::kInternal;
  std::string message;
};

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}          // NOLINT(google-explicit-constructor)
  Result(Error error) : v_(std::move(error)) {}      // NOLINT(google-explicit-constructor)

  bool has_value() const noexcept { return v_.index() == 0; }
  explicit operator bool() const noexcept { return has_value(); }
  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  const Error& error() const& { return std::get<1>(v_); }
  template <typename U>
  T value_or(U&& fallback) const& {
    return has_value() ? value() : static_cast<T>(std::forward<U>(fallback));
  }

 private:
  std::variant<T, Error> v_;
};

// Result<void> equivalent.
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(Error error) : ok_(false), error_(std::move(error)) {}  // NOLINT
  bool ok() const noexcept { return ok_; }
  explicit operator bool() const noexcept { return ok_; }
  const Error& error() const& { return error_; }

 private:
  bool ok_ = true;
  Error error_;
};

inline Error make_error(ErrorCode code, std::string message) {
  return Error{code, std::move(message)};
}

}  // namespace pinta
