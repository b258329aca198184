// sanvp_paramgen: turns a parameter declaration file (`<model>.params.yaml`, beside the model)
// into a C++ header, so that each parameter is declared exactly once: its name, type, unit,
// default, range and meaning. The header holds a struct with one typed field per parameter
// (default from the declaration), a typed descriptor per parameter (`kName.get(pv, path)` for
// code that reads a parameter outside the struct), `read_params()` and the catalog entries that
// `sanvp params` lists and ParamValues checks values against.
//
// Build tool only (CMake runs it through sanvp_params()); errors name file, line and key.
//
// Declaration file:
//   struct: FlowControlParams      # C++ name of the generated struct
//   namespace: sanvp                # its namespace
//   scope: fc                       # parameter scope: keys are "<scope>.<name>"
//   params:
//     - name: bl                    # identifier
//       type: int                   # time | int | real | bool | string
//       ctype: int                  # int only: C++ field type (default int)
//       field: bl                   # C++ field name (default: name)
//       unit: flits                 # optional
//       default: 64                 # text as a user would write it (times with a unit)
//       range: [1, 1048576]         # optional, inclusive; ~ leaves one side open
//       choices: [a, b]             # string only: the accepted values
//       meaning: slack buffer size  # one line
#include <yaml-cpp/yaml.h>

#include <cctype>
#include <cfloat>
#include <cstdint>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "hw/base/error.hpp"
#include "hw/base/params.hpp"

namespace {

using sanvp::Time;

struct DeclError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string g_file;

[[noreturn]] void fail(const YAML::Node& at, const std::string& msg) {
  const auto m = at.Mark();
  throw DeclError(fmt::format("{}:{}:{}: {}", g_file, m.line + 1, m.column + 1, msg));
}

struct IntType { const char* name; std::int64_t lo; std::int64_t hi; };
// C++ field types an int parameter may have, with the values they hold.
const IntType kIntTypes[] = {
    {"int", INT32_MIN, INT32_MAX},
    {"unsigned", 0, UINT32_MAX},
    {"std::int64_t", INT64_MIN, INT64_MAX},
    {"std::uint32_t", 0, UINT32_MAX},
    {"std::uint64_t", 0, INT64_MAX},
    {"std::size_t", 0, INT64_MAX},
    {"std::uint16_t", 0, UINT16_MAX},
    {"std::uint8_t", 0, UINT8_MAX},
};

struct Param {
  sanvp::ParamSpec spec;
  std::string field, ctype;
  std::string def_cpp;  // the default as a C++ expression of the field's type
};

std::string scalar(const YAML::Node& n, const std::string& key, bool required = true) {
  const YAML::Node v = n[key];
  if (!v) {
    if (required) fail(n, fmt::format("'{}' is missing", key));
    return "";
  }
  if (!v.IsScalar()) fail(v, fmt::format("'{}' must be a single value", key));
  return v.Scalar();
}

bool is_identifier(const std::string& s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return true;
}

std::string camel(const std::string& name) {
  std::string out = "k";
  bool up = true;
  for (char c : name) {
    if (c == '_') { up = true; continue; }
    out += up ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    up = false;
  }
  return out;
}

std::string cpp_string(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string real_literal(double v) {
  std::string s = fmt::format("{}", v);
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

// Range bounds: [lo, hi], either may be ~ (open).
void read_range(const YAML::Node& p, Param& out) {
  const YAML::Node r = p["range"];
  if (!r) return;
  if (!r.IsSequence() || r.size() != 2) fail(r, "'range' must be [lo, hi] (~ for an open side)");
  auto& s = out.spec;
  const std::string what = fmt::format("range of {}", s.key());
  try {
    for (int side = 0; side < 2; ++side) {
      const YAML::Node b = r[side];
      if (b.IsNull()) continue;
      const std::string t = b.Scalar();
      switch (s.type) {
        case sanvp::ParamType::Int: (side ? s.hi : s.lo) = sanvp::parse_int(t, what); break;
        case sanvp::ParamType::Real: (side ? s.rhi : s.rlo) = sanvp::parse_real(t, what); break;
        case sanvp::ParamType::Time: (side ? s.thi : s.tlo) = sanvp::parse_time(t, what); break;
        default: fail(r, "only int, real and time parameters have a range");
      }
    }
  } catch (const sanvp::UserError& e) {
    fail(r, e.what());
  }
  if (s.lo > s.hi || s.rlo > s.rhi || s.tlo > s.thi) fail(r, "range is empty (lo > hi)");
}

// The field type of an int parameter, its default range and the check that the range fits.
void resolve_int_type(const YAML::Node& p, Param& out) {
  out.ctype = p["ctype"] ? scalar(p, "ctype") : "int";
  const IntType* t = nullptr;
  for (const auto& it : kIntTypes)
    if (out.ctype == it.name) t = &it;
  if (!t) fail(p["ctype"], fmt::format("unknown ctype '{}' (int, unsigned, std::int64_t, std::uint32_t, ...)", out.ctype));
  if (!p["range"]) {  // default: non-negative and within the field type
    out.spec.lo = 0;
    out.spec.hi = std::min<std::int64_t>(t->hi, INT32_MAX);
  }
  if (out.spec.lo < t->lo || out.spec.hi > t->hi)
    fail(p, fmt::format("range {}..{} does not fit the field type {}", out.spec.lo, out.spec.hi, out.ctype));
}

const std::map<std::string, sanvp::ParamType> kTypes = {
    {"time", sanvp::ParamType::Time}, {"int", sanvp::ParamType::Int}, {"real", sanvp::ParamType::Real},
    {"bool", sanvp::ParamType::Bool}, {"string", sanvp::ParamType::String}};

// The default, parsed as the declared type and checked against the range.
void read_default(const YAML::Node& p, Param& out) {
  auto& s = out.spec;
  try {
    sanvp::validate_value(s, s.def, fmt::format("default of {}", s.key()));
  } catch (const sanvp::UserError& e) {
    fail(p["default"], e.what());
  }
  switch (s.type) {
    case sanvp::ParamType::Time: out.def_cpp = fmt::format("{}", sanvp::parse_time(s.def, "")); break;
    case sanvp::ParamType::Int: out.def_cpp = fmt::format("{}", sanvp::parse_int(s.def, "")); break;
    case sanvp::ParamType::Real: out.def_cpp = real_literal(sanvp::parse_real(s.def, "")); break;
    case sanvp::ParamType::Bool: out.def_cpp = sanvp::parse_bool(s.def, "") ? "true" : "false"; break;
    case sanvp::ParamType::String: out.def_cpp = cpp_string(s.def); break;
  }
}

const std::set<std::string> kParamKeys = {"name", "type", "ctype", "field", "unit", "default", "range", "choices", "meaning"};

void read_choices(const YAML::Node& p, Param& out) {
  const YAML::Node c = p["choices"];
  if (!c) return;
  if (out.spec.type != sanvp::ParamType::String) fail(c, "only string parameters take choices");
  if (!c.IsSequence() || c.size() == 0) fail(c, "'choices' must be a non-empty list");
  for (const auto& v : c) {
    if (!v.IsScalar() || v.Scalar().empty() || v.Scalar().find('|') != std::string::npos)
      fail(v, "a choice is a non-empty word without '|'");
    out.spec.choices += (out.spec.choices.empty() ? "" : "|") + v.Scalar();
  }
}

Param read_param(const YAML::Node& p, const std::string& scope) {
  if (!p.IsMap()) fail(p, "each parameter is a map (name, type, default, meaning, ...)");
  for (const auto& kv : p)
    if (!kParamKeys.count(kv.first.Scalar())) fail(kv.first, fmt::format("unknown key '{}'", kv.first.Scalar()));
  Param out;
  auto& s = out.spec;
  s.scope = scope;
  s.name = scalar(p, "name");
  if (!is_identifier(s.name)) fail(p["name"], fmt::format("'{}' is not an identifier", s.name));
  const std::string type = scalar(p, "type");
  const auto t = kTypes.find(type);
  if (t == kTypes.end()) fail(p["type"], fmt::format("unknown type '{}' (time, int, real, bool, string)", type));
  s.type = t->second;
  s.unit = scalar(p, "unit", false);
  if (s.type == sanvp::ParamType::Time && s.unit.empty()) s.unit = "ns";
  s.def = scalar(p, "default");
  s.meaning = scalar(p, "meaning");
  out.field = p["field"] ? scalar(p, "field") : s.name;
  if (!is_identifier(out.field)) fail(p["field"], fmt::format("'{}' is not an identifier", out.field));
  if (p["ctype"] && s.type != sanvp::ParamType::Int) fail(p["ctype"], "only int parameters take a ctype");
  read_range(p, out);
  read_choices(p, out);
  if (s.type == sanvp::ParamType::Int) resolve_int_type(p, out);
  static const char* ctypes[] = {"Time", "", "double", "bool", "std::string"};
  if (s.type != sanvp::ParamType::Int) out.ctype = ctypes[static_cast<int>(s.type)];
  read_default(p, out);
  return out;
}

const char* type_name(sanvp::ParamType t) {
  static const char* names[] = {"Time", "Int", "Real", "Bool", "String"};
  return names[static_cast<int>(t)];
}

std::string real_bound(double v) {
  if (v == DBL_MAX) return "DBL_MAX";
  if (v == -DBL_MAX) return "-DBL_MAX";
  return fmt::format("{}", v);  // shortest text that reads back as the same double
}

std::string int_bound(std::int64_t v) { return v == INT64_MIN ? "INT64_MIN" : fmt::format("{}", v); }

std::string spec_cpp(const sanvp::ParamSpec& s) {
  return fmt::format("ParamSpec{{{}, {}, ParamType::{}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}}}", cpp_string(s.scope),
                     cpp_string(s.name), type_name(s.type), cpp_string(s.unit), cpp_string(s.def), cpp_string(s.meaning),
                     int_bound(s.lo), int_bound(s.hi), real_bound(s.rlo), real_bound(s.rhi),
                     s.tlo, s.thi == sanvp::kNever ? "kNever" : fmt::format("{}", s.thi), cpp_string(s.choices));
}

std::string descriptor_cpp(const Param& p) {
  static const char* kinds[] = {"TimeParam", "IntParam", "RealParam", "BoolParam", "StringParam"};
  const auto& s = p.spec;
  return fmt::format("  static constexpr {} {}{{{}, {}, {}}};\n", kinds[static_cast<int>(s.type)], camel(s.name),
                     cpp_string(s.scope), cpp_string(s.name), p.def_cpp);
}

std::string read_cpp(const Param& p) {
  const std::string get = fmt::format("{}.get(pv, path)", camel(p.spec.name));
  if (p.spec.type == sanvp::ParamType::Int && p.ctype != "std::int64_t")
    return fmt::format("    {} = static_cast<{}>({});\n", p.field, p.ctype, get);
  return fmt::format("    {} = {};\n", p.field, get);
}

// A range check of the field, for configs built in code rather than read (tests, builders);
// "" when the declaration gives the type's whole range.
std::string check_cpp(const Param& p) {
  const auto& s = p.spec;
  const std::string key = s.key();
  switch (s.type) {
    case sanvp::ParamType::Int: {
      // Only the bounds the field type does not enforce (no always-false comparisons).
      const IntType* t = nullptr;
      for (const auto& it : kIntTypes)
        if (p.ctype == it.name) t = &it;
      std::vector<std::string> tests;
      if (s.lo > t->lo) tests.push_back(fmt::format("static_cast<std::int64_t>({}) < {}", p.field, int_bound(s.lo)));
      if (s.hi < t->hi) tests.push_back(fmt::format("static_cast<std::int64_t>({}) > {}", p.field, int_bound(s.hi)));
      if (tests.empty()) return "";
      return fmt::format("    if ({})\n      throw UserError(fmt::format(\"{{}}{} = {{}} is outside {}..{}\", where, {}));\n",
                         fmt::join(tests, " || "), key, s.lo, s.hi, p.field);
    }
    case sanvp::ParamType::Real:
      if (s.range_text().empty()) return "";
      return fmt::format("    if (!({0} >= {1} && {0} <= {2}))\n"
                         "      throw UserError(fmt::format(\"{{}}{3} = {{}} is outside {4}\", where, {0}));\n",
                         p.field, real_bound(s.rlo), real_bound(s.rhi), key, s.range_text());
    case sanvp::ParamType::Time: {
      // Only the bounds that can fail: Time is unsigned, so "< 0" would be a compiler warning.
      std::vector<std::string> tests;
      if (s.tlo > 0) tests.push_back(fmt::format("{} < {}u", p.field, s.tlo));
      if (s.thi != sanvp::kNever) tests.push_back(fmt::format("{} > {}u", p.field, s.thi));
      if (s.range_text().empty() || tests.empty()) return "";
      return fmt::format("    if ({0})\n      throw UserError(fmt::format(\"{{}}{1} = {{}} is outside {2}\", where, format_time({3})));\n",
                         fmt::join(tests, " || "), key, s.range_text(), p.field);
    }
    case sanvp::ParamType::String:
      if (s.choices.empty()) return "";
      return fmt::format("    if (std::string(\"|{1}|\").find(\"|\" + {0} + \"|\") == std::string::npos)\n"
                         "      throw UserError(fmt::format(\"{{}}{2} = '{{}}' is not one of {3}\", where, {0}));\n",
                         p.field, s.choices, key, [&] { std::string c = s.choices; for (auto& ch : c) if (ch == '|') ch = ','; return c; }());
    default: return "";
  }
}

std::string generate(const std::string& ns, const std::string& name, const std::vector<Param>& ps) {
  std::ostringstream o;
  o << "// Generated by sanvp_paramgen from " << g_file << ": edit that file, not this one.\n"
    << "#pragma once\n#include <cfloat>\n#include <cstdint>\n#include <fmt/format.h>\n#include <string>\n\n"
    << "#include \"hw/base/error.hpp\"\n#include \"hw/base/params.hpp\"\n\n"
    << "namespace " << ns << " {\n\n"
    << "struct " << name << " {\n";
  for (const auto& p : ps) o << descriptor_cpp(p);
  o << "\n";
  for (const auto& p : ps) {
    const auto& s = p.spec;
    o << "  " << p.ctype << " " << p.field << " = " << p.def_cpp << ";  // " << s.key()
      << (s.unit.empty() ? "" : " [" + s.unit + "]") << ": " << s.meaning << "\n";
  }
  o << "\n  // Resolves every parameter above for instance `path` (empty: class level only).\n"
    << "  void read_params(ParamValues& pv, const std::string& path = {}) {\n";
  for (const auto& p : ps) o << read_cpp(p);
  o << "  }\n  static " << name << " from_params(ParamValues& pv, const std::string& path = {}) {\n"
    << "    " << name << " p;\n    p.read_params(pv, path);\n    return p;\n  }\n"
    << "  // Checks the fields against the declared ranges (values read by read_params already are);\n"
    << "  // for configurations built in code. Errors start with `where`.\n"
    << "  void check_ranges(const std::string& where = {}) const {\n";
  for (const auto& p : ps) o << check_cpp(p);
  o << "    (void)where;\n  }\n\n"
    << "  static inline const ParamRegistrar declared{{\n";
  for (const auto& p : ps) o << "      " << spec_cpp(p.spec) << ",\n";
  o << "  }};\n};\n\n}  // namespace " << ns << "\n";
  return o.str();
}

std::string run(const std::string& in) {
  YAML::Node root;
  try {
    root = YAML::LoadFile(in);
  } catch (const YAML::Exception& e) {
    throw DeclError(fmt::format("{}:{}:{}: {}", in, e.mark.line + 1, e.mark.column + 1, e.msg));
  }
  if (!root.IsMap()) fail(root, "expected a map with struct, namespace, scope and params");
  for (const auto& kv : root)
    if (kv.first.Scalar() != "struct" && kv.first.Scalar() != "namespace" && kv.first.Scalar() != "scope" &&
        kv.first.Scalar() != "params")
      fail(kv.first, fmt::format("unknown key '{}'", kv.first.Scalar()));
  const std::string name = scalar(root, "struct"), ns = scalar(root, "namespace"), scope = scalar(root, "scope");
  if (!is_identifier(name)) fail(root["struct"], fmt::format("'{}' is not an identifier", name));
  const YAML::Node list = root["params"];
  if (!list || !list.IsSequence() || list.size() == 0) fail(root, "'params' must be a non-empty list");
  std::vector<Param> ps;
  std::set<std::string> names;
  for (const auto& p : list) {
    ps.push_back(read_param(p, scope));
    if (!names.insert(ps.back().spec.name).second || !names.insert("field:" + ps.back().field).second)
      fail(p, fmt::format("'{}' is declared twice", ps.back().spec.name));
  }
  return generate(ns, name, ps);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: sanvp_paramgen DECLARATION.params.yaml OUT.hpp\n";
    return 2;
  }
  g_file = argv[1];
  try {
    const std::string text = run(argv[1]);
    std::ofstream out(argv[2], std::ios::binary | std::ios::trunc);
    out << text;
    out.close();
    if (!out) throw DeclError(fmt::format("{}: cannot write", argv[2]));
  } catch (const std::exception& e) {
    std::cerr << e.what() << "\n";
    return 1;
  }
  return 0;
}
