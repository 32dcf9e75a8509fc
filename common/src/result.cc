#include "pinta/common/result.h"

namespace pinta {

std::string_view error_code_name(ErrorCode code) noexcept {
  switch (code) {
    case ErrorCode::kOk: return "ok";
    case ErrorCode::kInvalidArgument: return "invalid_argument";
    case ErrorCode::kParse: return "parse";
    case ErrorCode::kNotFound: return "not_found";
    case ErrorCode::kIo: return "io";
    case ErrorCode::kTimeout: return "timeout";
    case ErrorCode::kUnavailable: return "unavailable";
    case ErrorCode::kTooLarge: return "too_large";
    case ErrorCode::kPermission: return "permission";
    case ErrorCode::kProtocol: return "protocol";
    case ErrorCode::kInternal: return "internal";
  }
  return "unknown";
}

}  // namespace pinta
