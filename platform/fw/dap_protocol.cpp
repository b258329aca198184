#include "platform/fw/dap_protocol.hpp"

#include <fmt/format.h>
#include <limits>

#include "hw/base/error.hpp"
#include "hw/base/params.hpp"

namespace sanvp::fw::dap {

Json response(const Json& request, Json body) {
  return Json{{"type", "response"},
              {"request_seq", request.value("seq", 0)},
              {"success", true},
              {"command", request.value("command", "")},
              {"body", std::move(body)}};
}

Json error_response(const Json& request, const std::string& message) {
  const bool obj = request.is_object();
  const auto seq = obj && request.contains("seq") && request["seq"].is_number_integer() ? request["seq"].get<std::int64_t>() : 0;
  const std::string cmd = obj && request.contains("command") && request["command"].is_string() ? request["command"].get<std::string>() : "";
  return Json{{"type", "response"},
              {"request_seq", seq},
              {"success", false},
              {"command", cmd},
              {"message", message},
              // The structured form lets a client show the text as is ({format} placeholders: none).
              {"body", {{"error", {{"id", 1}, {"format", message}, {"showUser", true}}}}}};
}

Json event(const std::string& name, Json body) {
  return Json{{"type", "event"}, {"event", name}, {"body", std::move(body)}};
}

Json output_event(const std::string& category, const std::string& text) {
  return event("output", {{"category", category}, {"output", text}});
}

const Json& arguments(const Json& request) {
  static const Json empty = Json::object();
  if (!request.contains("arguments")) return empty;
  const Json& a = request["arguments"];
  if (!a.is_object()) throw DapError("'arguments' must be an object");
  return a;
}

std::string string_arg(const Json& obj, const std::string& key, const std::string& def, bool required) {
  if (!obj.is_object() || !obj.contains(key) || obj[key].is_null()) {
    if (required) throw DapError(fmt::format("missing argument '{}'", key));
    return def;
  }
  if (!obj[key].is_string()) throw DapError(fmt::format("argument '{}' must be a string", key));
  return obj[key].get<std::string>();
}

bool bool_arg(const Json& obj, const std::string& key, bool def) {
  if (!obj.is_object() || !obj.contains(key) || obj[key].is_null()) return def;
  if (!obj[key].is_boolean()) throw DapError(fmt::format("argument '{}' must be true or false", key));
  return obj[key].get<bool>();
}

std::int64_t int_arg(const Json& obj, const std::string& key, std::int64_t lo, std::int64_t hi, std::int64_t def, bool required) {
  if (!obj.is_object() || !obj.contains(key) || obj[key].is_null()) {
    if (required) throw DapError(fmt::format("missing argument '{}'", key));
    return def;
  }
  const Json& v = obj[key];
  std::int64_t n = 0;
  if (v.is_number_unsigned()) {
    const auto u = v.get<std::uint64_t>();
    if (u > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
      throw DapError(fmt::format("argument '{}' = {} is out of range [{}, {}]", key, u, lo, hi));
    n = static_cast<std::int64_t>(u);
  } else if (v.is_number_integer()) {
    n = v.get<std::int64_t>();
  } else if (v.is_string()) {
    try {
      n = parse_int(v.get<std::string>(), "argument '" + key + "'");
    } catch (const UserError& e) {
      throw DapError(e.what());
    }
  } else {
    throw DapError(fmt::format("argument '{}' must be an integer", key));
  }
  if (n < lo || n > hi) throw DapError(fmt::format("argument '{}' = {} is out of range [{}, {}]", key, n, lo, hi));
  return n;
}

std::string hex32(std::uint32_t v) { return fmt::format("0x{:08x}", v); }

std::string base64(const std::uint8_t* d, std::size_t n) {
  static const char* const k = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((n + 2) / 3 * 4);
  for (std::size_t i = 0; i < n; i += 3) {
    const std::uint32_t b = (std::uint32_t{d[i]} << 16) | (i + 1 < n ? std::uint32_t{d[i + 1]} << 8 : 0u) | (i + 2 < n ? d[i + 2] : 0u);
    out += k[(b >> 18) & 63];
    out += k[(b >> 12) & 63];
    out += i + 1 < n ? k[(b >> 6) & 63] : '=';
    out += i + 2 < n ? k[b & 63] : '=';
  }
  return out;
}

}  // namespace sanvp::fw::dap
