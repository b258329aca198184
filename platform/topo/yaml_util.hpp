// Reading YAML documents with positions: every error names file:line:column and the key path, so
// a mistake in a topology or scenario file is found without guessing. Line and column are 1-based.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <yaml-cpp/yaml.h>

#include "hw/base/time.hpp"

namespace sanvp {

class YamlDoc {
 public:
  // Parses `file` (read through read_file_limited: no folders, devices or huge files); syntax
  // errors and duplicate keys become UserError with positions.
  static YAML::Node load_file(const std::string& file);
  static YAML::Node load_string(const std::string& text, const std::string& name);

  // `unplaced` names values without a position in the file (inserted by --set overrides).
  explicit YamlDoc(std::string file, std::string unplaced = "") : file_(std::move(file)), unplaced_(std::move(unplaced)) {}
  const std::string& file() const { return file_; }

  // "file:line:col" of a node (just the file name when the node has no position).
  std::string where(const YAML::Node& n) const;
  [[noreturn]] void fail(const YAML::Node& n, const std::string& key, const std::string& msg) const;

  // Every key of `map` must be in `allowed`; the error points at the offending key.
  void check_keys(const YAML::Node& map, const std::string& path, std::initializer_list<const char*> allowed) const;
  void require_map(const YAML::Node& n, const std::string& path) const;
  void require_seq(const YAML::Node& n, const std::string& path) const;

  std::int64_t integer(const YAML::Node& n, const std::string& path) const;
  // An integer in [lo, hi]; the error states the range. For values kept in an int.
  int integer(const YAML::Node& n, const std::string& path, int lo, int hi) const;
  double real(const YAML::Node& n, const std::string& path) const;
  bool boolean(const YAML::Node& n, const std::string& path) const;
  std::string string(const YAML::Node& n, const std::string& path) const;  // any scalar
  Time time(const YAML::Node& n, const std::string& path) const;

 private:
  std::string file_;
  std::string unplaced_;
};

// Scalar text of a YAML node for reports (maps and sequences as flow YAML).
std::string yaml_text(const YAML::Node& n);
// YAML -> JSON for reports; scalars that read as integers or reals become numbers.
nlohmann::json yaml_to_json(const YAML::Node& n);

}  // namespace sanvp
