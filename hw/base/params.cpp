#include "params.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <fmt/format.h>

#include "error.hpp"
#include "utf8.hpp"

namespace sanvp {

namespace {
std::map<std::string, ParamSpec>& catalog() {
  static std::map<std::string, ParamSpec> c;
  return c;
}
}  // namespace

void ParamCatalog::add(const ParamSpec& spec) { catalog().emplace(spec.key(), spec); }

const ParamSpec* ParamCatalog::find(const std::string& key) {
  auto it = catalog().find(key);
  return it == catalog().end() ? nullptr : &it->second;
}

bool ParamCatalog::has_name(const std::string& name) {
  return std::any_of(catalog().begin(), catalog().end(), [&](const auto& kv) { return kv.second.name == name; });
}

std::vector<ParamSpec> ParamCatalog::sorted() {
  std::vector<ParamSpec> v;
  for (const auto& kv : catalog()) v.push_back(kv.second);
  return v;
}

std::int64_t parse_int(const std::string& text, const std::string& what) {
  // One parser for every integer: no leading blanks, no octal, no silent wrap or truncation.
  const char* b = text.data();
  const char* e = b + text.size();
  const bool neg = b != e && *b == '-';
  const char* digits = b + ((b != e && (*b == '-' || *b == '+')) ? 1 : 0);
  int base = 10;
  if (e - digits > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) { base = 16; digits += 2; }
  unsigned long long mag = 0;
  const auto [end, ec] = std::from_chars(digits, e, mag, base);
  if (digits == e || end != e || ec == std::errc::invalid_argument || (digits < e && (*digits == '-' || *digits == '+')))
    throw UserError(fmt::format("{}: '{}' is not an integer", what, text));
  const unsigned long long limit = neg ? 9223372036854775808ull : 9223372036854775807ull;
  if (ec == std::errc::result_out_of_range || mag > limit)
    throw UserError(fmt::format("{}: '{}' is outside the 64-bit integer range", what, text));
  return neg ? static_cast<std::int64_t>(0 - mag) : static_cast<std::int64_t>(mag);
}

std::int64_t parse_int(const std::string& text, const std::string& what, std::int64_t lo, std::int64_t hi) {
  const std::int64_t v = parse_int(text, what);
  if (v < lo || v > hi) throw UserError(fmt::format("{}: {} is outside {}..{}", what, text, lo, hi));
  return v;
}

double parse_real(const std::string& text, const std::string& what) {
  double v = 0;
  try {
    std::size_t used = 0;
    v = std::stod(text, &used);
    if (used != text.size() || text.empty() || std::isspace(static_cast<unsigned char>(text[0]))) throw std::invalid_argument("trailing");
  } catch (const std::out_of_range&) {
    throw UserError(fmt::format("{}: '{}' is outside the range of a number", what, text));
  } catch (const std::exception&) {
    throw UserError(fmt::format("{}: '{}' is not a number", what, text));
  }
  if (!std::isfinite(v)) throw UserError(fmt::format("{}: '{}' is not a finite number", what, text));
  return v;
}

bool parse_bool(const std::string& text, const std::string& what) {
  if (text == "1" || text == "true" || text == "on" || text == "yes") return true;
  if (text == "0" || text == "false" || text == "off" || text == "no") return false;
  throw UserError(fmt::format("{}: '{}' is not a boolean (true/false)", what, text));
}

std::string ParamSpec::range_text() const {
  switch (type) {
    case ParamType::Int: return lo == 0 && hi == INT32_MAX ? "" : fmt::format("{}..{}", lo, hi);
    case ParamType::Real: return rlo == -DBL_MAX && rhi == DBL_MAX ? "" : fmt::format("{}..{}", rlo, rhi);
    case ParamType::Time: return tlo == 0 && thi == kNever ? "" : fmt::format("{}..{}", format_time(tlo), format_time(thi));
    default: return "";
  }
}

namespace {
double checked_real(const ParamSpec& spec, const std::string& text, const std::string& what) {
  const double v = parse_real(text, what);
  if (v < spec.rlo || v > spec.rhi) throw UserError(fmt::format("{}: {} is outside {}", what, text, spec.range_text()));
  return v;
}
const std::string& checked_choice(const ParamSpec& spec, const std::string& text, const std::string& what) {
  if (spec.choices.empty() || ("|" + spec.choices + "|").find("|" + text + "|") != std::string::npos) return text;
  std::string list = spec.choices;
  std::replace(list.begin(), list.end(), '|', ',');
  throw UserError(fmt::format("{}: '{}' is not one of {}", what, text, list));
}
Time checked_time(const ParamSpec& spec, const std::string& text, const std::string& what) {
  const Time v = parse_time(text, what);
  if (v < spec.tlo || v > spec.thi) throw UserError(fmt::format("{}: {} is outside {}", what, text, spec.range_text()));
  return v;
}
}  // namespace

void validate_value(const ParamSpec& spec, const std::string& value, const std::string& what) {
  switch (spec.type) {
    case ParamType::Time: checked_time(spec, value, what); break;
    case ParamType::Int: parse_int(value, what, spec.lo, spec.hi); break;
    case ParamType::Real: checked_real(spec, value, what); break;
    case ParamType::Bool: parse_bool(value, what); break;
    case ParamType::String: checked_choice(spec, value, what); break;
  }
}

void ParamValues::set(const std::string& key, const std::string& value, const std::string& origin) {
  // Values end up in the JSON report, which must be UTF-8.
  if (!valid_utf8(key) || !valid_utf8(value))
    throw UserError(fmt::format("{}: parameter '{}': not valid UTF-8 text", origin, key));
  const ParamSpec* spec = ParamCatalog::find(key);
  if (spec) {
    // File origins already end with the key ("scen.yaml:9:9: traffic.load").
    const bool names_key = origin.size() >= key.size() && origin.compare(origin.size() - key.size(), key.size(), key) == 0;
    validate_value(*spec, value, names_key ? origin : fmt::format("{}: parameter '{}'", origin, key));
  } else {
    auto dot = key.rfind('.');
    if (dot == std::string::npos || dot == 0 || !ParamCatalog::has_name(key.substr(dot + 1)))
      throw UserError(fmt::format("{}: unknown parameter '{}' (run 'sanvp params' for the list)", origin, key));
  }
  values_[key] = Entry{value, origin};
}

std::pair<std::string, std::string> ParamValues::resolve(const std::string& path, const std::string& scope,
                                                         const std::string& name, const ParamSpec** spec_out) {
  const std::string ckey = scope + "." + name;
  const ParamSpec* spec = ParamCatalog::find(ckey);
  if (!spec) throw std::logic_error("undeclared parameter " + ckey);
  *spec_out = spec;
  if (!path.empty()) {
    // Most specific first: "a.b.c.name", then "b.c.name" is not tried: instance paths are exact.
    std::string ikey = path + "." + name;
    auto it = values_.find(ikey);
    if (it != values_.end()) {
      used_.insert(ikey);
      instance_effective_[ikey] = it->second;
      return {it->second.value, ikey + " (" + it->second.origin + ")"};
    }
  }
  auto it = values_.find(ckey);
  if (it != values_.end()) {
    used_.insert(ckey);
    return {it->second.value, ckey + " (" + it->second.origin + ")"};
  }
  return {spec->def, ckey + " (default)"};
}

std::string ParamValues::origin(const std::string& path, const std::string& scope, const std::string& name) const {
  if (!path.empty())
    if (auto it = values_.find(path + "." + name); it != values_.end()) return it->second.origin;
  if (auto it = values_.find(scope + "." + name); it != values_.end()) return it->second.origin;
  return "";
}

Time ParamValues::time(const std::string& path, const std::string& scope, const std::string& name) {
  const ParamSpec* spec;
  auto [v, where] = resolve(path, scope, name, &spec);
  return checked_time(*spec, v, where);
}
std::int64_t ParamValues::integer(const std::string& path, const std::string& scope, const std::string& name) {
  const ParamSpec* spec;
  auto [v, where] = resolve(path, scope, name, &spec);
  return parse_int(v, where, spec->lo, spec->hi);
}
double ParamValues::real(const std::string& path, const std::string& scope, const std::string& name) {
  const ParamSpec* spec;
  auto [v, where] = resolve(path, scope, name, &spec);
  return checked_real(*spec, v, where);
}
bool ParamValues::boolean(const std::string& path, const std::string& scope, const std::string& name) {
  const ParamSpec* spec;
  auto [v, where] = resolve(path, scope, name, &spec);
  return parse_bool(v, where);
}
std::string ParamValues::string(const std::string& path, const std::string& scope, const std::string& name) {
  const ParamSpec* spec;
  auto [v, where] = resolve(path, scope, name, &spec);
  return checked_choice(*spec, v, where);
}

void ParamValues::fail(const std::string& path, const std::string& scope, const std::string& name, const std::string& msg) const {
  const std::string key = scope + "." + name;
  const std::string o = origin(path, scope, name);
  if (o.empty()) throw UserError(key + ": " + msg);
  // File origins already end with the key ("scen.yaml:9:9: traffic.load").
  const bool ends_with_key = o.size() >= key.size() && o.compare(o.size() - key.size(), key.size(), key) == 0;
  throw UserError(ends_with_key ? o + ": " + msg : key + " (" + o + "): " + msg);
}

void ParamValues::check_all_used() const {
  for (const auto& [key, e] : values_) {
    if (ParamCatalog::find(key)) continue;
    if (!used_.count(key))
      throw UserError(fmt::format("{}: unknown parameter '{}': no instance of that name has this parameter "
                                  "(run 'sanvp params' for the list)", e.origin, key));
  }
}

nlohmann::json ParamValues::effective() const {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& spec : ParamCatalog::sorted()) {
    auto it = values_.find(spec.key());
    nlohmann::json e;
    e["value"] = it == values_.end() ? spec.def : it->second.value;
    e["origin"] = it == values_.end() ? "default" : it->second.origin;
    if (!spec.unit.empty()) e["unit"] = spec.unit;
    j[spec.key()] = e;
  }
  for (const auto& [key, e] : instance_effective_) j[key] = {{"value", e.value}, {"origin", e.origin}};
  return j;
}

void apply_sets(ParamValues& pv, const std::vector<std::string>& sets) {
  for (const auto& s : sets) {
    const auto eq = s.find('=');
    if (eq == std::string::npos || eq == 0) throw UserError(fmt::format("--set: '{}' is not key=value", s));
    pv.set(s.substr(0, eq), s.substr(eq + 1), "--set");
  }
}

}  // namespace sanvp
