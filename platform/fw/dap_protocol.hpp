// Debug Adapter Protocol messages (issue 20 part 3): the response and event builders and the
// checked readers of request arguments. Everything the client sends is checked here: a missing
// or mistyped argument, or an integer out of range, is a DapError naming the argument, which the
// server turns into an error response (never a crash).
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

namespace sanvp::fw::dap {

using Json = nlohmann::json;

// A request that cannot be carried out; its text is the error response's message.
class DapError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// {"type": "response", "request_seq", "success": true, "command", "body"} (seq added on send).
Json response(const Json& request, Json body = Json::object());
// A failed response; `command` and `request_seq` are taken from the request when it has them.
Json error_response(const Json& request, const std::string& message);
Json event(const std::string& name, Json body = Json::object());
Json output_event(const std::string& category, const std::string& text);

// The request's "arguments" object (an empty object when absent); DapError when not an object.
const Json& arguments(const Json& request);
// Checked readers: `key` in `obj`; absent -> `def` (or DapError when `required`).
std::string string_arg(const Json& obj, const std::string& key, const std::string& def = "", bool required = false);
bool bool_arg(const Json& obj, const std::string& key, bool def);
// A JSON integer (or a decimal/0x string for memory references) as 64-bit, in [lo, hi].
std::int64_t int_arg(const Json& obj, const std::string& key, std::int64_t lo, std::int64_t hi, std::int64_t def, bool required = false);

// "0x0000012c": how addresses and memory references are written.
std::string hex32(std::uint32_t v);
std::string base64(const std::uint8_t* data, std::size_t n);

}  // namespace sanvp::fw::dap
