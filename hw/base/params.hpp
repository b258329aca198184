// Parameters, declared next to the class that uses them (SST style), so `sanvp params` can list
// them all. Values are resolved per instance: "<instance path>.<name>" beats "<scope>.<name>",
// which beats the declared default. Every resolution is recorded for the report.
//
// Each parameter is declared once, in a `<model>.params.yaml` file beside the model (name, type,
// unit, default, range, meaning); hw/base/paramgen turns it into a `<model>_params.hpp` with a
// struct of typed fields (defaults from the declaration), typed descriptors (`kName.get(pv,
// path)`), `read_params()` and the catalog entries. Range checks come from the declaration.
#pragma once
#include <cfloat>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "time.hpp"

namespace sanvp {

enum class ParamType { Time, Int, Real, Bool, String };

struct ParamSpec {
  std::string scope;    // class-level group, e.g. "fc" for FlowController
  std::string name;     // e.g. "bl"
  ParamType type;
  std::string unit;     // "ns", "bytes", "" ...
  std::string def;      // default value as text
  std::string meaning;  // one line
  // Int parameters: accepted range. Most callers keep counts in an int, so the default range
  // is 0..2^31-1; a declaration says otherwise where a key needs more (or less).
  std::int64_t lo = 0;
  std::int64_t hi = INT32_MAX;
  // Real and Time parameters: accepted range (inclusive).
  double rlo = -DBL_MAX;
  double rhi = DBL_MAX;
  Time tlo = 0;
  Time thi = kNever;
  // String parameters: the accepted values separated by '|' ("" = any text).
  std::string choices;
  std::string key() const { return scope + "." + name; }
  // The accepted range as text ("" when the type's whole range is accepted).
  std::string range_text() const;
};

// Global catalog of declared parameters. Declaration order is not deterministic across
// translation units, so every listing is sorted by key.
class ParamCatalog {
 public:
  static void add(const ParamSpec& spec);
  static const ParamSpec* find(const std::string& key);
  static bool has_name(const std::string& name);  // any scope declares this name
  static std::vector<ParamSpec> sorted();
};

// Put one of these in a class: `static inline const ParamRegistrar params{{...}};`
struct ParamRegistrar {
  ParamRegistrar(std::initializer_list<ParamSpec> specs) {
    for (const auto& s : specs) ParamCatalog::add(s);
  }
};

class ParamValues {
 public:
  // Sets a value. `origin` says where it came from ("--set", "scen.yaml:12:3"). Throws UserError
  // for keys that cannot name a parameter and for values that do not parse as the declared type.
  void set(const std::string& key, const std::string& value, const std::string& origin);
  bool has(const std::string& key) const { return values_.count(key) != 0; }

  // Resolution for instance `path` (hierarchical name, may be empty) of `scope.name`.
  Time time(const std::string& path, const std::string& scope, const std::string& name);
  std::int64_t integer(const std::string& path, const std::string& scope, const std::string& name);
  double real(const std::string& path, const std::string& scope, const std::string& name);
  bool boolean(const std::string& path, const std::string& scope, const std::string& name);
  std::string string(const std::string& path, const std::string& scope, const std::string& name);

  // Where the value that `scope.name` resolves to for `path` was set ("scen.yaml:12:3",
  // "--set"), or "" for the default: prefixes errors found after parsing (ranges, relations).
  std::string origin(const std::string& path, const std::string& scope, const std::string& name) const;

  // Throws UserError "<where it was set>: <scope.name>: <msg>", for range and relation checks
  // made after parsing, so the message names the file and line (or --set) of the value.
  [[noreturn]] void fail(const std::string& path, const std::string& scope, const std::string& name, const std::string& msg) const;

  // Throws UserError naming every instance-level key that no instance consumed.
  void check_all_used() const;
  // Effective values: every catalog parameter (class level) plus instance overrides in use.
  nlohmann::json effective() const;

 private:
  struct Entry { std::string value; std::string origin; };
  std::pair<std::string, std::string> resolve(const std::string& path, const std::string& scope,
                                              const std::string& name, const ParamSpec** spec);
  std::map<std::string, Entry> values_;
  std::set<std::string> used_;
  std::map<std::string, Entry> instance_effective_;
};

// Applies command-line overrides "key=value" (origin "--set"); a malformed item is a UserError.
void apply_sets(ParamValues& pv, const std::vector<std::string>& sets);

// Value parsing shared by config files, --set and command options; errors name `what`.
// Integers: decimal or 0x hex, 64-bit, never wrapped or truncated; with a range, a value outside
// [lo, hi] is an error that states the range. Reals: finite only (nan and inf are refused).
std::int64_t parse_int(const std::string& text, const std::string& what);
std::int64_t parse_int(const std::string& text, const std::string& what, std::int64_t lo, std::int64_t hi);
double parse_real(const std::string& text, const std::string& what);
bool parse_bool(const std::string& text, const std::string& what);
void validate_value(const ParamSpec& spec, const std::string& value, const std::string& what);

// Typed descriptors of declared parameters (generated from the declaration files): the default
// as a value of its type, and resolution for an instance path (empty: class level only). The
// value is range-checked against the declaration; errors say where the value was set.
struct TimeParam {
  const char* scope; const char* name; Time def;
  Time get(ParamValues& pv, const std::string& path = {}) const { return pv.time(path, scope, name); }
};
struct IntParam {
  const char* scope; const char* name; std::int64_t def;
  std::int64_t get(ParamValues& pv, const std::string& path = {}) const { return pv.integer(path, scope, name); }
};
struct RealParam {
  const char* scope; const char* name; double def;
  double get(ParamValues& pv, const std::string& path = {}) const { return pv.real(path, scope, name); }
};
struct BoolParam {
  const char* scope; const char* name; bool def;
  bool get(ParamValues& pv, const std::string& path = {}) const { return pv.boolean(path, scope, name); }
};
struct StringParam {
  const char* scope; const char* name; const char* def;
  std::string get(ParamValues& pv, const std::string& path = {}) const { return pv.string(path, scope, name); }
};

}  // namespace sanvp
