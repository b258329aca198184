#include "platform/topo/yaml_util.hpp"

#include <cmath>
#include <fmt/format.h>
#include <map>
#include <nlohmann/json.hpp>

#include "hw/base/error.hpp"
#include "hw/base/io.hpp"
#include "hw/base/params.hpp"
#include "hw/base/utf8.hpp"

namespace sanvp {

namespace {
const char* kind(const YAML::Node& n) {
  switch (n.Type()) {
    case YAML::NodeType::Map: return "a map";
    case YAML::NodeType::Sequence: return "a list";
    case YAML::NodeType::Null: return "nothing";
    case YAML::NodeType::Scalar: return "a scalar";
    default: return "an undefined value";
  }
}

// yaml-cpp keeps both entries of a repeated key and map["k"] silently returns the first: a
// duplicate is an error naming both lines.
void check_duplicates(const YAML::Node& n, const std::string& name) {
  if (n.IsSequence()) {
    for (const auto& e : n) check_duplicates(e, name);
    return;
  }
  if (!n.IsMap()) return;
  std::map<std::string, YAML::Mark> seen;
  for (auto it = n.begin(); it != n.end(); ++it) {
    const YAML::Mark m = it->first.Mark();
    if (it->first.IsScalar()) {
      const auto [prev, fresh] = seen.emplace(it->first.Scalar(), m);
      if (!fresh)
        throw UserError(fmt::format("{}:{}:{}: {}: duplicate key (first given at line {})", name, m.line + 1, m.column + 1,
                                    it->first.Scalar(), prev->second.line + 1));
    }
    check_duplicates(it->second, name);
  }
}

// YAML is UTF-8 text, and every scalar may end up in a JSON report (which must be UTF-8): a key
// or value with invalid bytes is an error at its position.
void check_utf8(const YAML::Node& n, const std::string& name) {
  if (n.IsScalar()) {
    const std::size_t at = utf8_error_at(n.Scalar());
    if (at != std::string::npos)
      throw UserError(fmt::format("{}:{}:{}: invalid UTF-8 (byte 0x{:02x} at offset {} of this value); YAML files are UTF-8 text", name,
                                  n.Mark().line + 1, n.Mark().column + 1, static_cast<unsigned char>(n.Scalar()[at]), at));
  } else if (n.IsSequence()) {
    for (const auto& e : n) check_utf8(e, name);
  } else if (n.IsMap()) {
    for (auto it = n.begin(); it != n.end(); ++it) {
      check_utf8(it->first, name);
      check_utf8(it->second, name);
    }
  }
}

// `parse` of a scalar's text, or a positioned error saying what was expected.
template <class Parse>
auto parse_scalar(const YamlDoc& doc, const YAML::Node& n, const std::string& path, Parse parse, const char* expected) {
  const std::string s = doc.string(n, path);
  try {
    return parse(s);
  } catch (const UserError&) {
  }
  doc.fail(n, path, fmt::format("expected {}, got '{}'", expected, s));
}

}  // namespace

YAML::Node YamlDoc::load_file(const std::string& file) {
  return load_string(read_file_limited(file, ""), file);
}

YAML::Node YamlDoc::load_string(const std::string& text, const std::string& name) {
  YAML::Node n;
  try {
    n = YAML::Load(text);
  } catch (const YAML::ParserException& e) {
    throw UserError(fmt::format("{}:{}:{}: YAML syntax error: {}", name, e.mark.line + 1, e.mark.column + 1, e.msg));
  }
  check_utf8(n, name);
  check_duplicates(n, name);
  return n;
}


std::string YamlDoc::where(const YAML::Node& n) const {
  if (!n.IsDefined()) return file_;
  const YAML::Mark m = n.Mark();
  if (m.is_null()) return unplaced_.empty() ? file_ : unplaced_;
  return fmt::format("{}:{}:{}", file_, m.line + 1, m.column + 1);
}

void YamlDoc::fail(const YAML::Node& n, const std::string& key, const std::string& msg) const {
  throw UserError(fmt::format("{}: {}: {}", where(n), key, msg));
}

void YamlDoc::require_map(const YAML::Node& n, const std::string& path) const {
  if (!n.IsMap()) fail(n, path, fmt::format("expected a map (key: value lines), got {}", kind(n)));
}

void YamlDoc::require_seq(const YAML::Node& n, const std::string& path) const {
  if (!n.IsSequence()) fail(n, path, fmt::format("expected a list, got {}", kind(n)));
}

void YamlDoc::check_keys(const YAML::Node& map, const std::string& path, std::initializer_list<const char*> allowed) const {
  require_map(map, path);
  for (auto it = map.begin(); it != map.end(); ++it) {
    const std::string k = it->first.Scalar();
    bool ok = false;
    for (const char* a : allowed) ok = ok || k == a;
    if (ok) continue;
    std::string list;
    for (const char* a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
    fail(it->first, path.empty() ? k : path + "." + k, fmt::format("unknown key '{}' (expected one of: {})", k, list));
  }
}

std::string YamlDoc::string(const YAML::Node& n, const std::string& path) const {
  if (!n.IsScalar()) fail(n, path, fmt::format("expected a value, got {}", kind(n)));
  return n.Scalar();
}

std::int64_t YamlDoc::integer(const YAML::Node& n, const std::string& path) const {
  const std::string s = string(n, path);
  try {
    return parse_int(s, path);
  } catch (const UserError&) {
  }
  fail(n, path, fmt::format("expected an integer, got '{}'", s));
}

int YamlDoc::integer(const YAML::Node& n, const std::string& path, int lo, int hi) const {
  const std::int64_t v = integer(n, path);
  if (v < lo || v > hi) fail(n, path, fmt::format("{} is outside {}..{}", yaml_text(n), lo, hi));
  return static_cast<int>(v);
}

double YamlDoc::real(const YAML::Node& n, const std::string& path) const {
  return parse_scalar(*this, n, path, [&](const std::string& t) { return parse_real(t, path); }, "a finite number");
}

bool YamlDoc::boolean(const YAML::Node& n, const std::string& path) const {
  const std::string s = string(n, path);
  if (s == "true" || s == "yes" || s == "on") return true;
  if (s == "false" || s == "no" || s == "off") return false;
  fail(n, path, fmt::format("expected true or false, got '{}'", s));
}

Time YamlDoc::time(const YAML::Node& n, const std::string& path) const {
  return parse_scalar(*this, n, path, [&](const std::string& t) { return parse_time(t, path); }, "a time such as 10us or 6.25ns");
}

std::string yaml_text(const YAML::Node& n) {
  if (n.IsScalar()) return n.Scalar();
  YAML::Emitter e;
  e << YAML::Flow << n;
  return e.c_str();
}

nlohmann::json yaml_to_json(const YAML::Node& n) {
  switch (n.Type()) {
    case YAML::NodeType::Map: {
      nlohmann::json j = nlohmann::json::object();
      for (auto it = n.begin(); it != n.end(); ++it) j[it->first.Scalar()] = yaml_to_json(it->second);
      return j;
    }
    case YAML::NodeType::Sequence: {
      nlohmann::json j = nlohmann::json::array();
      for (const auto& e : n) j.push_back(yaml_to_json(e));
      return j;
    }
    case YAML::NodeType::Scalar: {
      const std::string& s = n.Scalar();
      if (n.Tag() == "!") return s;  // quoted in the file: keep as text
      try {
        std::size_t used = 0;
        long long v = std::stoll(s, &used, 10);
        if (used == s.size()) return v;
      } catch (const std::exception&) {
      }
      try {
        std::size_t used = 0;
        double v = std::stod(s, &used);
        if (used == s.size() && std::isfinite(v)) return v;
      } catch (const std::exception&) {
      }
      if (s == "true") return true;
      if (s == "false") return false;
      return s;
    }
    default: return nullptr;
  }
}

}  // namespace sanvp
